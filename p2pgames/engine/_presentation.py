"""How a game is shown to people: the other half of a game's contract, beside its rules.

A game's rules (:class:`~p2pgames.engine.Game`) say what may happen and what it does; its
:class:`Presentation` says how that reads: the text of a move and how one is typed, the log's
lines, the table's panels, warnings, help. The rules never import their presentation; a
presentation holds the rules it shows (:attr:`Presentation.rules`). Replaying, verifying and the
session's protocol need only the rules; a terminal, and a session that narrates to one, use both.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Hashable, Sequence, TypeVar

from p2pgames.engine._errors import MalformedAction
from p2pgames.engine._game import Game, Knowledge, Ruleset, normalize_typed
from p2pgames.engine._steps import Event

__all__ = [
    "ChoiceGroup", "Composer", "PANEL_RULE", "PANEL_TITLE_WIDTH", "PANEL_WIDTH", "Panel", "Presentation", "Segment",
    "StandingAnswer", "wrap_segments",
]

S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class Panel:
    """A titled block of text for a screen: each line is a tuple of ``(style, text)`` segments.

    Styles are names a user interface maps to colours and may ignore: ``""`` (plain), ``"dim"``,
    ``"bold"``, ``"good"``, ``"bad"``, ``"warn"``, ``"you"``, and ``"suit-<name>"`` for a card suit.
    """

    title: str
    lines: tuple[tuple[tuple[str, str], ...], ...]


#: One styled run of a panel line: ``(style, text)`` (see :class:`Panel`).
Segment = tuple[str, str]

# A user interface shows a panel's lines beside a column of panel titles (at most
# PANEL_TITLE_WIDTH columns, then PANEL_RULE). Lines at most PANEL_WIDTH wide fit that way in an
# 80-column terminal, one row per line, leaving rows for the log at 80×24; wider ones make it give
# every panel a heading row instead.
PANEL_TITLE_WIDTH = 16
PANEL_RULE = " │ "
PANEL_WIDTH = 80 - PANEL_TITLE_WIDTH - len(PANEL_RULE)


def wrap_segments(
    segments: Sequence[Segment], indent: str = "", first: Sequence[Segment] = (), width: int = PANEL_WIDTH,
) -> list[tuple[Segment, ...]]:
    """Panel lines of at most ``width`` characters (a segment longer than a line has one of its
    own): ``first``, then ``segments``, a space between two unless the first ends in one; lines
    after the first start with ``indent``."""
    lines: list[tuple[Segment, ...]] = []
    line: list[Segment] = list(first)
    used = sum(len(text) for _, text in line)
    for segment in segments:
        if used + 1 + len(segment[1]) > width and used > len(indent):
            lines.append(tuple(line))
            line, used = [("", indent)], len(indent)
        if used and not line[-1][1].endswith(" "):
            line.append(("", " "))
            used += 1
        line.append(segment)
        used += len(segment[1])
    lines.append(tuple(line))
    return lines


@dataclass(frozen=True, slots=True)
class ChoiceGroup:
    """One line of a long list of choices: ``label`` stands for the legal actions at ``members``
    (indexes into the list the group was made from), e.g. ``lay 5 …`` for every lay of 5s. A group
    of one member is that choice on its own.

    ``parts`` say how the members group further as the player narrows them down, e.g. ``lay 5``,
    ``lay 5 5``, ``lay 5 +X…`` (every count of a Multiplier laid with a 5), ``lay 5 5 +X…``: each
    member in exactly one part. Empty: the group is its own one part (a user interface offers its
    members' common start, then each member).
    """

    label: str
    members: tuple[int, ...]
    parts: tuple["ChoiceGroup", ...] = ()

    def __post_init__(self) -> None:
        if not self.members:
            raise ValueError(f"the choice group {self.label!r} has no members")
        if self.parts and sorted(m for part in self.parts for m in part.members) != sorted(self.members):
            raise ValueError(f"the parts of the choice group {self.label!r} don't hold each of its members once")


@dataclass(frozen=True, slots=True)
class StandingAnswer:
    """An answer a player may give once for a run of decisions like the current one: ``label`` is
    how it is offered ("not this quarter"), ``action`` the legal action it makes now, and ``key``
    names the run (a value that compares equal, e.g. ``("stop", quarter)``): while a decision's
    standing answer has a key the player chose, the player's own peer answers it with that
    decision's ``action`` by itself. The choice stays on that peer: the others see ordinary moves,
    so a standing answer never reveals more than answering each time would.
    """

    label: str
    action: Any
    key: Hashable


class Composer(ABC):
    """Builds one action out of many small choices made on the player's own peer, for a decision
    with too many legal actions to list (a submarine of 10 tiles out of 30): the player adds and
    removes parts with typed commands, sees the result in the composer's panels, and the finished
    action is submitted like any other. Nothing is sent until then, and nothing here is hashed.
    Immutable: :meth:`apply` returns a new composer.
    """

    prompt: str = "compose your choice"

    @abstractmethod
    def commands(self) -> Sequence[str]:
        """What the player may type now (``add Gatling Gun``, ``remove …``, ``done``), as typed."""

    @abstractmethod
    def apply(self, text: str) -> "Composer":
        """The composer after the typed command ``text``. Raises :class:`IllegalAction` with a
        reason a person can read for a command it knows that can't be done now ("you have 10
        tiles already"), :class:`MalformedAction` for text that is no command of it."""

    @abstractmethod
    def panels(self) -> Sequence[Panel]:
        """What a screen shows while composing (what is chosen so far, what may be added)."""

    @abstractmethod
    def action(self) -> Any | None:
        """The finished action once the player said so (``done``), else ``None``."""


class Presentation(ABC, Generic[S]):
    """How the game whose rules are :attr:`rules` is shown and typed. Stateless, like the rules.

    Every method is pure and never changes a state; none is ever hashed, sent or recorded.
    """

    # (what to type, what it shows) for the information commands :meth:`explain` answers.
    info_commands: ClassVar[tuple[tuple[str, str], ...]] = ()

    def __init__(self, rules: Game[S]) -> None:
        self.rules = rules

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.rules!r})"

    def for_ruleset(self, ruleset: Ruleset) -> "Presentation":
        """The presentation of ``self.rules.for_ruleset(ruleset)`` (a variant that is a game of
        its own is shown by a presentation of its own). The default: this one, for rules that are
        the same for every ruleset."""
        return self

    @abstractmethod
    def describe_action(
        self, state: S, player: int, action: Any, knowledge: Knowledge, names: Sequence[str]
    ) -> str:
        """Short text for ``action`` as its player would type it; unique among legal actions.

        ``names`` are the seats' display names (unique at a table).
        """

    @abstractmethod
    def narrate(self, before: S, event: Event, after: S, names: Sequence[str]) -> list[str]:
        """Lines for the game log describing what ``event`` did, using only public information."""

    def narrate_private(
        self, before: S, event: Event, after: S, viewer: int, knowledge: Knowledge, names: Sequence[str]
    ) -> list[str]:
        """Lines for ``viewer``'s own log alone, after :meth:`narrate`'s: which hidden card
        ``event`` gave it or took from it ("You take 7♦ from bob's hand"), which the public lines
        can't name. The default: none.

        ``knowledge`` is the viewer's once the log entry that carried ``event`` is taken in. A
        card passed to the viewer is usually seen only when its keys arrive, which ends the card
        operations with a :class:`CardsDone`: say it there (``before.cards.pending`` holds the
        :class:`Disclose` to the viewer). A line must name only what ``knowledge`` and the public
        state show; it is shown on the viewer's screen and never sent, hashed or recorded.
        """
        return []

    def card_text(self, state: S, name: str) -> str:
        """Card ``name`` as the table shows it (a replay lists every seat's cards so). The
        default: the name itself."""
        return name

    def round_label(self, state: S) -> str | None:
        """The part of the game ``state`` is in, as its players name it ("round 2", "quarter 3",
        "turn 14"): a replay steps from one to the next. The default: ``None`` (no parts)."""
        return None

    def parse_action(
        self, state: S, player: int, text: str, knowledge: Knowledge, names: Sequence[str]
    ) -> Any:
        """The action ``text`` names, typed the way :meth:`describe_action` prints it (case and
        spacing don't matter): ``parse_action(describe_action(a)) == a`` for every legal action.

        Raises :class:`IllegalAction` with a reason a person can read when ``text`` names a move the
        rules don't allow ``player`` now ("S6 is in The Machine, not in your hand"; also when the
        player has nothing to decide), and :class:`MalformedAction` when it names no move at all,
        with a reason a person can read too ("'g99' is not a card: cards are S1–S13 …"; a user
        interface shows it beside its own suggestions). An action returned may still be one
        :meth:`Game.check_action` refuses, or one that is not legal for a reason the player can't
        see. The default recognises exactly the descriptions of the legal actions (which the
        conformance test checks are unique ignoring case and spacing). No move begins with one of
        the :data:`RESERVED_WORDS`, and a game reads none of them as one.
        """
        typed = normalize_typed(text)
        for action in self.rules.legal_actions(state, player, knowledge):
            if normalize_typed(self.describe_action(state, player, action, knowledge, names)) == typed:
                return action
        raise MalformedAction(f"{text!r} is not one of your moves now")

    def group_choices(
        self, state: S, player: int, actions: Sequence[Any], texts: Sequence[str]
    ) -> Sequence[ChoiceGroup]:
        """How a long list of ``player``'s legal ``actions`` (described as ``texts``, which already
        hold what the player's knowledge and the names add) is shown: every action in exactly one
        group, groups in the order to list them. The default: each action on its own. A game
        groups choices when there are too many to read, e.g. the counts a Multiplier can take."""
        return [ChoiceGroup(text, (index,)) for index, text in enumerate(texts)]

    def warnings(self, state: S, player: int, knowledge: Knowledge, names: Sequence[str]) -> Sequence[str]:
        """What ``player`` should know before deciding now that the table doesn't spell out: a
        consequence of a choice ("if you skip, Parts overflows: its 5 cards go to your scrap
        pile"). Sentences of any length (a user interface wraps them), empty (the default) when
        there is nothing to warn about."""
        return ()

    def standing_answer(self, state: S, player: int, knowledge: Knowledge) -> StandingAnswer | None:
        """An answer ``player`` may give now for the rest of a run of such decisions (see
        :class:`StandingAnswer`), e.g. "not this quarter" to a power offered after every trick;
        its action must be legal now. ``None`` (the default): none."""
        return None

    def composer(self, state: S, player: int, knowledge: Knowledge) -> Composer | None:
        """A :class:`Composer` for ``player``'s current decision when its actions are too many to
        list and are better built part by part; ``None`` (the default): choose from the list."""
        return None

    def explain(self, state: S, viewer: int | None, text: str, names: Sequence[str]) -> Sequence[str] | None:
        """The answer to an information command the game offers (:attr:`info_commands`, e.g.
        ``tile Gatling Gun`` → that tile's card text), as lines; ``None`` when ``text`` is not
        one. Raises nothing: an unknown name is an answer that says so."""
        return None

    def panels(self, state: S, viewer: int | None, knowledge: Knowledge, names: Sequence[str]) -> list[Panel]:
        """What a screen shows of the table to ``viewer`` (``None``: a spectator, public only).

        Whose move it is comes from :meth:`Game.step`; panels show the rest (hands, table, scores).
        """
        return []

    def help_text(self) -> str:
        """A short reminder of the rules and how actions are typed, for a ``help`` command."""
        return self.rules.title
