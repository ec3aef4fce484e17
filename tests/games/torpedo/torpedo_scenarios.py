"""Helpers that put a Steam Torpedo table into a chosen position.

:func:`table` is a game in progress at a seat's action phase, past both first turns, with the
starter submarines (player 0 Panzer la Rochelle, player 1 Talion) or any layouts a test gives, every
crew member ready in its control room. Tests then move crew (:func:`put`), damage compartments
(:func:`hurt`) and move submarines (``state.sectors``, ``state.upper``) to the position the rule
needs, and play actions through the checked :meth:`Game.apply` (:func:`act`).
"""

from __future__ import annotations

from typing import Any, Sequence

from p2pgames.engine import Act, ChanceOutcome
from p2pgames.games.torpedo import GAME
from p2pgames.games.torpedo.build import kit_of
from p2pgames.games.torpedo.geometry import CONTROL, parse_position
from p2pgames.games.torpedo.presentation import PRESENTATION
from p2pgames.games.torpedo.rules import Phase, TorpedoState
from p2pgames.games.torpedo.tiles import TILESET

PANZER = TILESET.starters["panzer"].layout
TALION = TILESET.starters["talion"].layout
NAMES = ("bruno", "ludovic")


def layout(*pairs: tuple[str, str], base: Sequence[str] = PANZER) -> tuple[str, ...]:
    """``base`` with tiles put at positions: ``layout(("D1", "Riveted Hold"), ...)``; a tile
    already elsewhere in ``base`` trades places with the one it displaces."""
    tiles = list(base)
    for where, name in pairs:
        at = parse_position(where)
        if name in tiles:
            old = tiles.index(name)
            tiles[old], tiles[at] = tiles[at], tiles[old]
        else:
            tiles[at] = name
    assert len(set(tiles)) == 10
    return tuple(tiles)


def table(
    active: int = 0,
    layouts: Sequence[Sequence[str]] = (PANZER, TALION),
    sectors: tuple[int, int] = (3, 3),
    upper: int = 1,
    first_turns: bool = False,
) -> TorpedoState:
    """A game at ``active``'s action phase (recovery done), all crew ready in their control
    rooms, full oxygen; past both players' first turns unless ``first_turns``."""
    state = GAME.setup(GAME.ruleset(2, {"build": "starter"}))
    for seat, tiles in enumerate(layouts):
        state.tiles[seat] = tuple(tiles)
        state.kit[seat] = kit_of(tiles)
        state.oxygen[seat] = [tile.oxygen for tile in state.kit[seat]]
    state.first = active
    state.active = active
    state.turn = 1 if first_turns else 3
    state.turns_taken = [1, 0] if first_turns else [2, 2]
    if first_turns:
        state.turns_taken[active] = 1
        state.turns_taken[1 - active] = 0
    state.sectors = list(sectors)
    state.upper = upper
    state.phase = Phase.ACTION
    return state


def crew(seat: int, k: int) -> int:
    """The crew index of seat ``seat``'s captain (``k = 0``) or sailor ``k``."""
    return seat * 5 + k


def put(state: TorpedoState, index: int, where: str | int, sub: int | None = None, ready: bool = True) -> None:
    """Put crew member ``index`` at ``where`` (a position name or index) of ``sub``'s submarine
    (its own by default)."""
    position = parse_position(where) if isinstance(where, str) else where
    state.crew[index] = (index // 5 if sub is None else sub, position, ready, True)


def kill(state: TorpedoState, index: int) -> None:
    state.crew[index] = (-1, -1, False, False)


def hurt(state: TorpedoState, seat: int, where: str | int, damage: int) -> None:
    """Put ``damage`` tokens on a compartment, the way damage would (oxygen tokens lost on the
    gears it covers; crew eliminated if it is destroyed)."""
    position = parse_position(where) if isinstance(where, str) else where
    tile = state.kit[seat][position]
    state.damage[seat][position] = damage
    state.oxygen[seat][position] = min(state.oxygen[seat][position], tile.structure - damage)
    if damage >= tile.structure:
        for index, record in enumerate(state.crew):
            if record[3] and record[0] == seat and record[1] == position:
                kill(state, index)


def destroy(state: TorpedoState, seat: int, where: str | int) -> None:
    """Cover every gear of a compartment with damage (see :func:`hurt`): it is destroyed."""
    position = parse_position(where) if isinstance(where, str) else where
    hurt(state, seat, position, state.kit[seat][position].structure)


def at(where: str) -> int:
    return parse_position(where)


def act(state: TorpedoState, player: int, action: Any) -> TorpedoState:
    """``state`` after ``player``'s checked ``action``."""
    return GAME.apply(state, Act(player, action))


def pos_of(state: TorpedoState, name: str, seat: int) -> int:
    return state.tiles[seat].index(name)


def lines(before: TorpedoState, action: Any, after: TorpedoState, player: int) -> list[str]:
    return PRESENTATION.narrate(before, Act(player, action), after, NAMES)


def chance(state: TorpedoState, seed: bytes = b"\x01" * 32) -> TorpedoState:
    return GAME.apply(state, ChanceOutcome(seed))


__all__ = ["CONTROL", "GAME", "NAMES", "PANZER", "TALION", "act", "at", "chance", "crew", "fire", "hurt", "kill", "layout",
           "lines", "pos_of", "put", "table"]


def fire(state: TorpedoState, player: int, where: str, *crews: int, effect: int = 0, to: str | None = None) -> TorpedoState:
    """``player`` triggers effect ``effect`` of its compartment ``where`` with ``crews`` and, when
    the crew's move toward the control room is a choice, moves them to ``to`` (else the first
    tile offered). The state returned holds the notes of the last event (where the effect resolved)."""
    from p2pgames.games.torpedo.actions import Step, Trigger

    state = act(state, player, Trigger(parse_position(where), effect, tuple(sorted(crews))))
    while state.phase == Phase.STEP:
        options = GAME.legal_actions(state, player, {})
        choice = next((o for o in options if to is not None and o.to == parse_position(to)), options[0])
        state = act(state, player, choice)
    return state
