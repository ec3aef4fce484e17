"""Typed Steam Torpedo moves read back into actions: the inverse of :func:`views.describe_action`.

Words are separated by spaces and compared without case. A compartment is typed by its tile's
short name (``Gatling``) or its position (``E2``: column A–E = sector 1–5, row 1 inner, 2 outer),
a crew member as ``captain`` or ``sailor 1`` … ``sailor 4`` (yours, or the enemy's where an
effect aims at the enemy's crew):

==========================================  ======================================================
typed                                       action
==========================================  ======================================================
``maneuver +2 -1``                          :class:`Maneuver` (you, then the enemy; + toward 5)
``maneuver +1 0 port``                      … ending in one sector, the enemy on your port side
``maneuver 0 0 starboard``                  … swinging round to the enemy's other side
``move sailor 1 to Sights``                 :class:`Move`
``captain to B1``                           :class:`CaptainMove` (the free move)
``trigger Gatling with sailor 1``           :class:`Trigger` (``Broadside 2``: its 2nd effect;
                                            ``with sailor 1 and sailor 2``: two keys)
``step sailor 1 to Chain``                  :class:`Step`
``target Bulkhead``, ``target sailor 2``    :class:`TargetTile`, :class:`TargetCrew`
``relocate sailor 2 to Gatling``            :class:`Relocate`
``drive me +1``, ``drive enemy -2 port``    :class:`Drive`
``absorb``, ``assign Bulkhead``             :class:`Absorb`, :class:`Assign`
``react Gatling``, ``pass``                 :class:`React`, :class:`Pass`
``breathe O2Tanks``                         :class:`Breathe`
``end``                                     :class:`EndTurn`
``build starter panzer``, ``build A B …``   :class:`Build` (ten short names)
``swap Gatling Chain``, ``keep``            :class:`Swap`, :class:`Keep`
``pick Gatling``                            :class:`Pick`
==========================================  ======================================================

Text that is no move of the game raises :class:`MalformedAction` saying what was expected; a move
the rules refuse raises :class:`IllegalAction` with :meth:`Torpedo.check_action`'s reason, and
every action returned has passed that check.
"""

from __future__ import annotations

from typing import Any, Callable

from p2pgames.engine import IllegalAction, MalformedAction

from p2pgames.games.torpedo.actions import (
    Absorb,
    Assign,
    Breathe,
    Build,
    CaptainMove,
    Drive,
    EndTurn,
    Keep,
    Maneuver,
    Move,
    Pass,
    Pick,
    React,
    Relocate,
    Step,
    Swap,
    TargetCrew,
    TargetTile,
    Trigger,
)
from p2pgames.games.torpedo.build import starter_build
from p2pgames.games.torpedo.geometry import parse_position, position_name
from p2pgames.games.torpedo.rules import Torpedo
from p2pgames.games.torpedo.state import CREW_PER_SEAT, Phase, TorpedoState
from p2pgames.games.torpedo.tiles import TILESET
from p2pgames.games.torpedo.views import _target_sub

__all__ = ["parse_action"]


def parse_action(game: "Torpedo", state: "TorpedoState", player: int, text: str) -> Any:
    """The action ``text`` names for ``player`` now (see the module docstring).

    Raises :class:`MalformedAction` when ``text`` is no Steam Torpedo move, and
    :class:`IllegalAction` with a reason a person can read when the rules refuse the move it names.
    """
    words = text.split()  # as typed, for messages; compared case folded
    if not words:
        raise MalformedAction("nothing was typed")
    verb = words[0].casefold()
    read = _VERBS.get(verb)
    if read is None:
        raise MalformedAction(f"{words[0]!r} is not a Steam Torpedo move (help lists them)")
    reader = _Reader(game, state, player, verb, words[1:])
    action = read(reader)
    reader.done()
    game.check_action(state, player, action)
    return action


class _Reader:
    """One typed move being read, word by word: the table as ``player`` sees it."""

    __slots__ = ("game", "state", "player", "verb", "words")

    def __init__(self, game: "Torpedo", state: "TorpedoState", player: int, verb: str, words: list[str]) -> None:
        self.game = game
        self.state = state
        self.player = player
        self.verb = verb
        self.words = words

    # -- words ---------------------------------------------------------------------------------

    def take(self, what: str) -> str:
        """The next word as typed."""
        if not self.words:
            raise MalformedAction(f"{self.verb}: {what} is missing (e.g. {_EXAMPLES[self.verb]})")
        return self.words.pop(0)

    def keyword(self, word: str) -> None:
        got = self.take(f"'{word}'")
        if got.casefold() != word:
            raise MalformedAction(f"{self.verb}: expected '{word}', not {got!r} (e.g. {_EXAMPLES[self.verb]})")

    def peek(self) -> str | None:
        """The next word, case folded (``None`` at the end)."""
        return self.words[0].casefold() if self.words else None

    def done(self) -> None:
        if self.words:
            raise MalformedAction(f"{self.verb}: unexpected {' '.join(self.words)!r} (e.g. {_EXAMPLES[self.verb]})")

    def crew(self, seat: int) -> int:
        """``captain`` or ``sailor N``: that crew member of ``seat``."""
        word = self.take("a crew member")
        if word.casefold() == "captain":
            return seat * CREW_PER_SEAT
        if word.casefold() == "sailor":
            number = self.take("the sailor's number")
            if number in ("1", "2", "3", "4"):
                return seat * CREW_PER_SEAT + int(number)
            raise MalformedAction(f"sailors are numbered 1–4, not {number!r}")
        raise MalformedAction(f"{word!r} is not a crew member: captain, sailor 1 … sailor 4")

    def tile(self, seat: int, whose: str = "your") -> int:
        """A compartment of ``seat``'s submarine, by short name or position."""
        word = self.take("a compartment")
        at = parse_position(word)
        if at is not None:
            return at
        kit = self.state.kit[seat]
        for position, tile in enumerate(kit):
            if tile.short.casefold() == word.casefold():
                return position
        known = TILESET.find(word)
        if known is None:
            raise MalformedAction(f"{word!r} is not a compartment: type a tile's short name or a position A1–E2")
        if not kit:
            raise IllegalAction(self.player, "the submarines have no compartments yet")
        raise IllegalAction(self.player, f"{known.short} is not in {whose} submarine")

    def effect_number(self, position: int) -> int:
        """An optional effect number (1 or 2) after a compartment; without it, its one triggered
        effect."""
        tile = self.state.kit[self.player][position]
        word = self.peek()
        if word in ("1", "2"):
            self.words.pop(0)
            return int(word) - 1
        triggered = [number for number, effect in enumerate(tile.effects) if effect.triggered]
        if len(triggered) > 1:
            raise IllegalAction(
                self.player, f"{tile.short} has two effects: type {self.verb} {tile.short} 1 … or {tile.short} 2 …"
            )
        return triggered[0] if triggered else 0

    def signed(self, what: str) -> int:
        word = self.take(what)
        try:
            number = int(word)
        except ValueError:
            raise MalformedAction(f"{what} is a number of sectors (+1, -2, 0), not {word!r}") from None
        if abs(number) > 4:
            raise IllegalAction(self.player, "there are five sectors: nothing moves more than 4")
        return number

    def side(self) -> int | None:
        """``port`` or ``starboard`` (the enemy's side of you, both in one sector) as the seat that
        ends up, or ``None`` when neither is typed."""
        word = self.peek()
        if word not in ("port", "starboard"):
            return None
        self.words.pop(0)
        return 1 - self.player if word == "port" else self.player

    # -- the verbs -----------------------------------------------------------------------------

    def end(self) -> Any:
        return EndTurn()

    def pass_(self) -> Any:
        return Pass()

    def absorb(self) -> Any:
        return Absorb()

    def keep(self) -> Any:
        return Keep()

    def trigger(self) -> Any:
        self._may(Trigger)
        position = self.tile(self.player)
        number = self.effect_number(position)
        self.keyword("with")
        crews = [self.crew(self.player)]
        if self.peek() == "and":
            self.words.pop(0)
            crews.append(self.crew(self.player))
        if len(crews) == 2 and crews[0] == crews[1]:
            raise MalformedAction("two keys take two different crew members")
        return Trigger(position, number, tuple(sorted(crews)))

    def react(self) -> Any:
        self._may(React)
        position = self.tile(self.player)
        return React(position, self.effect_number(position))

    def move(self) -> Any:
        self._may(Move)
        crew = self.crew(self.player)
        self.keyword("to")
        return Move(crew, self.tile(self._sub_of(crew)))

    def captain(self) -> Any:
        self._may(CaptainMove)
        self.keyword("to")
        return CaptainMove(self.tile(self._sub_of(self.player * CREW_PER_SEAT)))

    def step(self) -> Any:
        self._may(Step)
        crew = self.crew(self.player)
        self.keyword("to")
        return Step(crew, self.tile(self.player))

    def maneuver(self) -> Any:
        self._may(Maneuver)
        own = self.signed("your submarine's move")
        enemy = self.signed("the enemy submarine's move")
        return Maneuver(own, enemy, self.side())

    def drive(self) -> Any:
        self._may(Drive)
        who = self.take("me or enemy")
        if who.casefold() not in ("me", "enemy"):
            raise MalformedAction(f"drive me … or drive enemy …, not {who!r}")
        by = self.signed("the sectors to move")
        if by == 0:
            raise MalformedAction("a submarine driven moves at least one sector")
        return Drive(self.player if who.casefold() == "me" else 1 - self.player, by, self.side())

    def target(self) -> Any:
        self.game.check_kind(self.state, self.player, _target_kind(self.state))
        word = self.peek()
        if word in ("captain", "sailor"):
            return TargetCrew(self.crew(1 - self.player))
        seat = _target_sub(self.state, self.player)
        return TargetTile(self.tile(seat, "your" if seat == self.player else "the enemy's"))

    def relocate(self) -> Any:
        self._may(Relocate)
        crew = self.crew(self.player)
        self.keyword("to")
        return Relocate(crew, self.tile(self.player))

    def assign(self) -> Any:
        self._may(Assign)
        return Assign(self.tile(self.player))

    def breathe(self) -> Any:
        self._may(Breathe)
        return Breathe(self.tile(self.player))

    def swap(self) -> Any:
        self._may(Swap)
        a = self.tile(self.player)
        b = self.tile(self.player)
        if a == b:
            raise MalformedAction(f"a swap names two different compartments, not {position_name(a)} twice")
        return Swap(min(a, b), max(a, b))

    def pick(self) -> Any:
        self._may(Pick)
        return Pick(self._tile_name(self.take("a tile")))

    def build(self) -> Any:
        self._may(Build)
        if self.peek() == "starter":
            self.words.pop(0)
            faction = self.take("a faction (panzer or talion)").casefold()
            if faction not in TILESET.starters:
                raise MalformedAction(f"the starters are {' and '.join(TILESET.starters)}, not {faction!r}")
            return Build(starter_build(faction))
        if not self.words:
            raise MalformedAction("build: name 10 tiles by short name, or 'build starter panzer'")
        names = [self._tile_name(word) for word in self.words]
        self.words = []
        if len(names) > 32:
            raise IllegalAction(self.player, f"a submarine has 10 compartments, not {len(names)}")
        return Build(tuple(sorted(names)))

    # -- helpers -------------------------------------------------------------------------------

    def _may(self, kind: type) -> None:
        self.game.check_kind(self.state, self.player, kind)

    def _sub_of(self, crew: int) -> int:
        sub = self.state.crew[crew][0]
        if sub < 0:
            raise IllegalAction(self.player, "that crew member has been eliminated")
        return sub

    def _tile_name(self, word: str) -> str:
        tile = TILESET.find(word)
        if tile is None:
            raise MalformedAction(f"{word!r} is not a tile: type its short name ('tile NAME' shows one)")
        return tile.name


def _target_kind(state: "TorpedoState") -> type:
    """The kind of target the current decision takes (for the check that one is expected)."""
    if state.phase == Phase.AIM:
        seat, position, number = state.source[0], state.source[1], state.source[2]
        kind = state.kit[seat][position].effects[number].kind
        return TargetCrew if kind in ("crew-attack", "repel") else TargetTile
    return TargetTile


_VERBS: dict[str, Callable[[_Reader], Any]] = {
    "end": _Reader.end,
    "pass": _Reader.pass_,
    "absorb": _Reader.absorb,
    "keep": _Reader.keep,
    "trigger": _Reader.trigger,
    "react": _Reader.react,
    "move": _Reader.move,
    "captain": _Reader.captain,
    "step": _Reader.step,
    "maneuver": _Reader.maneuver,
    "drive": _Reader.drive,
    "target": _Reader.target,
    "relocate": _Reader.relocate,
    "assign": _Reader.assign,
    "breathe": _Reader.breathe,
    "swap": _Reader.swap,
    "pick": _Reader.pick,
    "build": _Reader.build,
}
_EXAMPLES = {
    "end": "end",
    "pass": "pass",
    "absorb": "absorb",
    "keep": "keep",
    "trigger": "trigger Gatling with sailor 1",
    "react": "react Gatling",
    "move": "move sailor 1 to B2",
    "captain": "captain to B2",
    "step": "step sailor 1 to D1",
    "maneuver": "maneuver +2 -1",
    "drive": "drive enemy -1",
    "target": "target Bulkhead, target sailor 2",
    "relocate": "relocate sailor 1 to E2",
    "assign": "assign Bulkhead",
    "breathe": "breathe O2Tanks",
    "swap": "swap Gatling Chain",
    "pick": "pick Gatling",
    "build": "build starter panzer",
}
