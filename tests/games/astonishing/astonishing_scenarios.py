"""Helpers that put an Astonishing! table into a chosen position, and play moves on it.

:func:`table` drives a :class:`ScenarioTable` (a :class:`LocalTable`) through the real start — the
first-player draw, the Inventors chosen in turn, the deal — and then moves the dealt slots by their
true values (``table.truth``) into the hands, installed positions, deck and discard pile a test
names, and sets each seat's knowledge to exactly its own cards (hand and installed). Cards are
named as the deck names them: ``"7D"``, ``"AC"``, ``"10H"``, ``"JOKER1"``, ``"JOKER2"``.

Chance steps follow the table's own seeds unless a test plans one: :func:`roll` (the three dice),
:func:`reroll_to` (a Jack's re-roll) and :func:`pick` (the card a Queen takes at random) each find a
seed that gives the wanted outcome, by applying candidate seeds to a copy of the state — the
holder of the hand never chooses it.

Moves go through the checked :meth:`Game.apply`: :func:`act` and :func:`simultaneous` take actions,
:func:`play` and :func:`play_all` take them typed (``play(t, 0, "offer 7d")``, parsed by
``PRESENTATION.parse_action`` with the seat's knowledge); :func:`seal` seals the exhibition actions (the
table keeps them and opens them after the dice); :func:`describe_all` and :func:`finish` run
on with the seats' first legal choices. Every event's log lines are kept in ``table.lines``, and
each seat's private ones (``PRESENTATION.narrate_private``, with its knowledge then) in
``table.private[seat]``.
"""

from __future__ import annotations

import hashlib
from typing import Any, Callable, Iterable, Mapping, Sequence

from p2pgames.engine import ChanceOutcome, LocalTable, Sealed, Simultaneous
from p2pgames.games.astonishing import GAME
from p2pgames.games.astonishing.actions import ChooseAction, ChooseInventor
from p2pgames.games.astonishing.cards import DECK, card_text
from p2pgames.games.astonishing.presentation import PRESENTATION
from p2pgames.games.astonishing.rules import CLUBS, DIAMONDS, HEARTS, SPADES, AstonishingState, Phase

__all__ = [
    "CLUBS", "DIAMONDS", "HEARTS", "SPADES", "GAME", "NAMES", "Phase", "ScenarioTable",
    "act", "choose", "dealt", "describe_all", "face", "finish", "hand", "held", "installed", "knows", "legal", "names",
    "panel_lines", "pick", "play", "play_all", "reroll_to", "roll", "seal", "shown_then_withdrawn", "simultaneous", "slot",
    "table", "texts", "typed",
]

NAMES = ("alice", "bob", "carol", "dave")


class ScenarioTable(LocalTable):
    """A local table whose chance steps can be planned (see :meth:`plan`) and which keeps the
    narration of every event in :attr:`lines`, and each seat's private narration in
    :attr:`private`."""

    def __init__(self, players: int, first: int, *, seed: bytes = b"scenario", **options: Any) -> None:
        self.players = players
        self.planned: list[Callable[[AstonishingState], bool]] = [lambda after: after.first == first]
        self.lines: list[str] = []
        self.private: list[list[str]] = [[] for _ in range(players)]
        super().__init__(GAME, GAME.ruleset(players, options), seed)

    @property
    def names(self) -> tuple[str, ...]:
        return NAMES[: self.players]

    def plan(self, wanted: Callable[[AstonishingState], bool]) -> None:
        """The next chance step gets a seed whose outcome satisfies ``wanted(state_after)``."""
        self.planned.append(wanted)

    def feed(self, event) -> None:
        before = self.state
        super().feed(event)
        self.lines.extend(PRESENTATION.narrate(before, event, self.state, self.names))
        for seat, lines in enumerate(self.private):
            lines.extend(PRESENTATION.narrate_private(before, event, self.state, seat, self.knowledge[seat], self.names))

    def _seed(self) -> bytes:
        if not self.planned:
            return super()._seed()
        wanted = self.planned.pop(0)
        for n in range(20_000):
            seed = hashlib.sha256(b"planned" + n.to_bytes(4, "big")).digest()
            if wanted(GAME.apply(self.state, ChanceOutcome(seed))):
                return seed
        raise AssertionError("no seed gives the planned outcome")


# -- building a position -----------------------------------------------------------------------


def dealt(players: int = 3, inventors: Sequence[int] | None = None, first: int = 0, **options: Any) -> ScenarioTable:
    """A table just after the deal (the first turn's action cards are being chosen): seat
    ``first`` drew first, the seats chose ``inventors[seat]`` in turn from it (default Clubs,
    Diamonds, Hearts, Spades by seat), 4 cards each as the shuffle fell."""
    inventors = tuple(inventors) if inventors is not None else (CLUBS, DIAMONDS, HEARTS, SPADES)[:players]
    table = ScenarioTable(players, first, **options)
    while table.state.phase == Phase.INVENTORS:
        seat = table.state.queue[0]
        table.act(seat, ChooseInventor(inventors[seat]))
    assert table.state.phase == Phase.CHOOSE
    return table


def table(
    players: int = 3,
    inventors: Sequence[int] | None = None,
    first: int = 0,
    *,
    hands: Mapping[int, Sequence[str]] | None = None,
    installed: Mapping[int, Sequence[Sequence[str]]] | None = None,
    deck: Sequence[str] = (),
    discard: Sequence[str] = (),
    rest: str = "deck",
    shown: Iterable[str] = (),
    turn: int = 1,
    last: Mapping[int, str] | None = None,
    final: bool = False,
    deadline: bool = False,
    phase: str = Phase.CHOOSE,
    early_end: bool = True,
    exhibit: Mapping[int, str] | None = None,
    **options: Any,
) -> ScenarioTable:
    """A table in the position named (see :func:`dealt` for ``players``, ``inventors``, ``first``).

    ``hands[seat]`` and ``installed[seat]`` (three lists, one per position) hold exactly the cards
    named (a seat not named: none). ``deck`` lists its top cards, top first; ``discard`` the
    discard pile, bottom first (face up: public). Every card not named goes under the named deck
    cards (``rest="deck"``) or out of play (``rest="out"``: the deck is exactly ``deck``).
    ``shown`` cards are public (seen face up earlier). Each seat knows its own hand and installed
    cards and nothing else that is hidden.

    ``turn``, ``last`` (each seat's action card of the turn before), ``final`` and ``deadline`` set
    the invention turn; ``phase="choose-exhibit"`` starts the exhibition instead (everyone
    chooses Queen or King, sealed), and ``phase="describe"`` just after that choice, with
    ``exhibit[seat]`` sealed (typed: ``"queen"`` or ``"king"``; default King) — the first player
    describes first. Other keywords are table options (``free_discard=True``).
    """
    t = dealt(players, inventors, first, early_end=early_end, **options)
    state = t.state
    by_name = {name: slot for slot, name in t.truth.items()}
    placed: set[str] = set()

    def slots_of(names: Iterable[str]) -> list[int]:
        result = []
        for name in names:
            assert name in DECK, f"{name!r} is no card of the deck"
            assert name not in placed, f"{name} is named twice"
            placed.add(name)
            result.append(by_name[name])
        return result

    hands = hands or {}
    installed = installed or {}
    state.hands = [slots_of(hands.get(seat, ())) for seat in range(players)]
    state.installed = [
        [slots_of(position) for position in installed.get(seat, ([], [], []))] for seat in range(players)
    ]
    assert all(len(positions) == 3 for positions in state.installed)
    state.discard = slots_of(discard)
    state.deck = slots_of(deck)
    unnamed = [by_name[name] for name in DECK if name not in placed]
    if rest == "deck":
        state.deck += unnamed
    else:
        assert rest == "out", "rest is 'deck' or 'out'"
    for name in [*discard, *shown]:
        state.cards.revealed[by_name[name]] = name
    for seat in range(players):
        own = state.hands[seat] + [s for slots in state.installed[seat] for s in slots]
        t.knowledge[seat] = {s: t.truth[s] for s in own if s not in state.cards.revealed}
    state.turn = turn
    state.final = final
    state.deadline = deadline
    state.last_action = [(last or {}).get(seat, "") for seat in range(players)]
    if phase in (Phase.CHOOSE_EXHIBIT, Phase.DESCRIBE):
        state.final = state.deadline = True
        state.phase = Phase.CHOOSE_EXHIBIT
        state.queue = []
        if phase == Phase.DESCRIBE:
            seal(t, exhibit)
    else:
        assert phase == Phase.CHOOSE, "a scenario starts at 'choose', 'choose-exhibit' or 'describe'"
    t.lines.clear()
    for lines in t.private:
        lines.clear()
    return t


# -- moves ---------------------------------------------------------------------------------------


def act(t: ScenarioTable, seat: int, action: Any) -> None:
    """``seat`` takes ``action`` (checked); chance and card steps that follow are settled."""
    t.act(seat, action)


def simultaneous(t: ScenarioTable, actions: Mapping[int, Any]) -> None:
    """The choices of a simultaneous step, opened together (every seat asked must be given)."""
    step = t.step()
    assert isinstance(step, Simultaneous), step
    assert sorted(actions) == list(step.players), f"seats {step.players} choose now"
    t.act_simultaneous(list(actions.items()))


def seal(t: ScenarioTable, cards: Mapping[int, str] | None = None) -> None:
    """Every seat's exhibition action, chosen face down: ``cards[seat]`` typed (``"queen"`` or
    ``"king"``; a seat not named: King). The table keeps them and opens them after the dice."""
    step = t.step()
    assert isinstance(step, Sealed), step
    cards = cards or {}
    t.seal([(seat, typed(t, seat, cards.get(seat, "king"))) for seat in step.players])


def typed(t: ScenarioTable, seat: int, text: str) -> Any:
    """The action ``text`` names for ``seat`` now (``PRESENTATION.parse_action`` with its knowledge)."""
    return PRESENTATION.parse_action(t.state, seat, text, t.knowledge[seat], t.names)


def play(t: ScenarioTable, seat: int, text: str) -> None:
    act(t, seat, typed(t, seat, text))


def play_all(t: ScenarioTable, texts: Mapping[int, str]) -> None:
    simultaneous(t, {seat: typed(t, seat, text) for seat, text in texts.items()})


def choose(t: ScenarioTable, cards: Mapping[int, str] | Sequence[str]) -> None:
    """Every seat's action card for the turn: ``choose(t, ["jack", "queen", "king"])``."""
    cards = dict(enumerate(cards)) if not isinstance(cards, Mapping) else cards
    simultaneous(t, {seat: ChooseAction(card) for seat, card in cards.items()})


def shown_then_withdrawn(t: ScenarioTable, name: str, typed_as: str) -> None:
    """With bob and carol trading (Jacks) and alice asked: bob offers 5♦, alice answers with card
    ``name`` (typed ``typed_as``) face up — everyone sees it — carol declines, bob withdraws and
    carol trades nothing: the card went back among alice's cards."""
    play(t, 1, "offer 5d")
    play(t, 0, f"answer {typed_as}")
    assert knows(t, None, name)
    play(t, 2, "decline")
    play(t, 1, "withdraw")
    play(t, 2, "no trade")


def describe_all(t: ScenarioTable, texts: Mapping[int, str] | None = None) -> None:
    """Every seat describes in turn: ``texts[seat]`` typed, else its first legal description."""
    texts = texts or {}
    while t.state.phase == Phase.DESCRIBE:
        seat = t.state.queue[0]
        if seat in texts:
            play(t, seat, texts[seat])
        else:
            act(t, seat, legal(t, seat)[0])


class _FirstChoice:
    """A bot that takes the first legal action offered (deterministic, for running on)."""

    def choose(self, game, state, player, knowledge, step):
        return game.legal_actions(state, player, knowledge)[0]


def finish(t: ScenarioTable, until: Callable[[AstonishingState], bool] | None = None) -> None:
    """Every seat asked takes its first legal action until the game is over (or ``until(state)``)."""
    t.play_with([_FirstChoice()] * t.players, until=None if until is None else lambda table: until(table.state))


# -- planned chance ------------------------------------------------------------------------------


def roll(t: ScenarioTable, *dice: int) -> None:
    """The next chance step (the crowd's dice) shows ``dice``."""
    t.plan(lambda after: after.dice == list(dice))


def reroll_to(t: ScenarioTable, die: int, value: int) -> None:
    """The next re-roll turns die ``die`` (0–2) to ``value``."""
    t.plan(lambda after: after.dice[die] == value)


def pick(t: ScenarioTable, taker: int, name: str) -> None:
    """The next card taken at random (from a hand or the discard pile) is ``name``, to ``taker``."""
    wanted = slot(t, name)
    # (The taker's hand is then re-masked: the card is found by the note of the take, not its slot.)
    t.plan(lambda after: any(note[:2] == ("taken", taker) and note[3] == wanted for note in after.notes))


# -- looking -------------------------------------------------------------------------------------


def panel_lines(t: ScenarioTable, viewer: int | None, title: str) -> list[str] | None:
    """The lines of ``viewer``'s panel whose title starts with ``title``, as text (``None``: no
    such panel)."""
    knowledge = t.knowledge[viewer] if viewer is not None else {}
    for panel in PRESENTATION.panels(t.state, viewer, knowledge, t.names):
        if panel.title.startswith(title):
            return ["".join(text for _, text in line) for line in panel.lines]
    return None


def slot(t: ScenarioTable, name: str) -> int:
    """Where card ``name`` is now: its newest slot (a re-masked hand's cards take new slots, and a
    re-shuffle's slots follow every slot dealt before)."""
    return max(s for s, n in t.truth.items() if n == name)


def held(t: ScenarioTable, seat: int, name: str) -> int:
    """The slot ``seat`` itself can tell holds card ``name`` in its hand (through its knowledge or
    the public cards, as its player would find it, not through ``table.truth``)."""
    seen = {**t.state.cards.revealed, **t.knowledge[seat]}
    (found,) = [s for s in t.state.hands[seat] if seen.get(s) == name]
    return found


def names(t: ScenarioTable, slots: Iterable[int]) -> list[str]:
    return [t.truth[s] for s in slots]


def hand(t: ScenarioTable, seat: int) -> list[str]:
    """``seat``'s hand by name, sorted."""
    return sorted(names(t, t.state.hands[seat]))


def installed(t: ScenarioTable, seat: int) -> list[list[str]]:
    return [names(t, slots) for slots in t.state.installed[seat]]


def knows(t: ScenarioTable, seat: int | None, name: str) -> bool:
    """Whether ``seat`` (``None``: a spectator) can see card ``name``: public, or in its knowledge."""
    s = slot(t, name)
    return s in t.state.cards.revealed or (seat is not None and s in t.knowledge[seat])


def legal(t: ScenarioTable, seat: int) -> list:
    return GAME.legal_actions(t.state, seat, t.knowledge[seat])


def texts(t: ScenarioTable, seat: int) -> list[str]:
    """``seat``'s legal moves as it would type them."""
    return [PRESENTATION.describe_action(t.state, seat, a, t.knowledge[seat], t.names) for a in legal(t, seat)]


def face(name: str) -> str:
    """How logs and panels print card ``name`` (``"7D"`` → ``"7♦"``)."""
    return card_text(name)
