"""Resolving an effect, as the rulebook's "Resolving Effects" and "Resolving Attacks" say, and
"Winning": what a triggered effect or a reaction does to the state once its crew have moved —
the attack total against the armour, the defender's damage placed compartment by compartment or
absorbed, oxygen drained, a target eliminated, boarded, repaired, refilled or moved — then the
counter window it opens, and the loss checked the moment one happens.

The functions change the state they are given; what may be chosen and why a choice is refused
are questions ``effects.py`` answers. The turn (``turn.py``) starts an effect here with
:func:`resolve` and opens the window after a maneuver with :func:`after_active`.
"""

from __future__ import annotations

from typing import Any

from p2pgames.games.torpedo.actions import Absorb, Assign, Pass, React, TargetTile
from p2pgames.games.torpedo.effects import (
    aim_options,
    armour,
    attack_total,
    crew_in,
    defend_candidates,
    defender_seat,
    drain_candidates,
    gears_left,
    hit_of,
    loss_reasons,
    oxygen_room,
    reactions,
    scavenge_candidates,
)
from p2pgames.games.torpedo.geometry import CONTROL
from p2pgames.games.torpedo.state import CREW_PER_SEAT, SEATS, Phase, TorpedoState

__all__ = [
    "after_active",
    "apply_absorb",
    "apply_aim",
    "apply_assign",
    "apply_pass",
    "apply_react",
    "apply_target_tile",
    "check_over",
    "resolve",
]


# -- the counter window (a reaction resolves at once, like any effect) ---------------------------------


def after_active(state: TorpedoState, after: tuple[int, int]) -> None:
    """The active player's maneuver or effect is done: the other seat's counter window opens
    if it has a reaction, else play goes on."""
    state.after = after
    state.reacted = []
    if reactions(state):
        state.phase = Phase.COUNTER
    else:
        state.phase = Phase.ACTION


def _close_window(state: TorpedoState) -> None:
    state.reacted = []
    state.after = (-1, -1)
    state.phase = Phase.ACTION


def apply_react(state: TorpedoState, player: int, action: React) -> None:
    effect = state.kit[player][action.position].effects[action.effect]
    if effect.alert == "single":
        state.used.append((player, action.position, action.effect))
        state.used.sort()
    state.reacted.append(action.position)
    state.reacted.sort()
    state.source = (player, action.position, action.effect, False, True)
    state.crews = ()
    state.notes.append(("react", player, action.position, action.effect))
    resolve(state)


def apply_pass(state: TorpedoState, player: int, action: Pass) -> None:
    state.notes.append(("pass", player))
    _close_window(state)


# -- resolving an effect -------------------------------------------------------------------------------


def resolve(state: TorpedoState) -> None:
    """Resolve the effect in ``state.source`` (its crew have moved and exhausted)."""
    seat, position, number, doubled, _ = state.source
    effect = state.kit[seat][position].effects[number]
    kind = effect.kind
    if kind == "attack" or kind == "oxygen-attack":
        defender = 1 - seat
        hit = hit_of(state, seat, effect)
        total = attack_total(state, seat, effect)
        plates = armour(state, defender, hit)
        state.hit = hit
        # Two keys "double the final effect": what gets through the armour (I9).
        state.amount = max(0, total - plates) * (2 if doubled else 1)
        state.assigned = False
        state.notes.append(("attack", seat, kind, hit, total, plates, state.amount))
        if state.amount == 0:
            _effect_done(state)
        elif kind == "attack":
            _continue_defence(state)
        else:
            _continue_drain(state)
        return
    state.phase = Phase.AIM
    options = aim_options(state)
    if len(options) == 1:
        _aim(state, options[0], auto=True)


def _aim(state: TorpedoState, target: Any, auto: bool = False) -> None:
    seat, position, number, doubled, _ = state.source
    effect = state.kit[seat][position].effects[number]
    kind = effect.kind
    crew = state.crew
    if kind == "crew-attack" or kind == "repel":
        _eliminate(state, target.crew)
        state.notes.append(("eliminated", target.crew, kind, auto))
        if check_over(state):
            return
    elif kind == "board":
        boarder = state.crews[0]
        _, _, ready, alive = crew[boarder]
        crew[boarder] = (1 - seat, target.position, ready, alive)
        state.notes.append(("board", boarder, 1 - seat, target.position, auto))
    elif kind == "repair":
        removed = min(effect.value * (2 if doubled else 1), state.damage[seat][target.position])
        state.damage[seat][target.position] -= removed
        state.notes.append(("repair", seat, target.position, removed, auto))
    elif kind == "refill":
        added = min(
            effect.value * (2 if doubled else 1), oxygen_room(state, seat, target.position), state.taken[seat]
        )
        state.oxygen[seat][target.position] += added
        state.taken[seat] -= added
        state.notes.append(("refill", seat, target.position, added, auto))
    elif kind == "move-crew":
        sub, _, ready, alive = crew[target.crew]
        crew[target.crew] = (sub, target.to, ready, alive)
        state.notes.append(("relocate", target.crew, sub, target.to, auto))
    elif kind == "move-sub":
        state.sectors[target.seat] += target.by
        if target.upper is not None:
            state.upper = target.upper
        state.notes.append(("drive", seat, target.seat, target.by, target.upper, tuple(state.sectors), auto))
    _effect_done(state)


def apply_target_tile(state: TorpedoState, player: int, action: TargetTile) -> None:
    if state.phase == Phase.SCAVENGE:
        _scavenge(state, action.position)
    else:
        _aim(state, action)


def apply_aim(state: TorpedoState, player: int, action: Any) -> None:
    _aim(state, action)


def _effect_done(state: TorpedoState) -> None:
    seat, position, number, _, reaction = state.source
    state.source = None
    state.crews = ()
    state.stepping = 0
    state.amount = 0
    state.hit = ""
    state.assigned = False
    if reaction:
        # "After the reaction resolves, exhaust all crew members in this compartment and move
        # them directly to the control room."
        moved = tuple(crew_in(state, seat, position))
        for index in moved:
            sub, _, _, alive = state.crew[index]
            state.crew[index] = (sub, CONTROL, False, alive)
        state.notes.append(("returned", seat, moved))
        # No reactions to reactions: back to the same window, if it has more to offer.
        if reactions(state):
            state.phase = Phase.COUNTER
        else:
            _close_window(state)
        return
    after_active(state, (position, number))


# -- resolving attacks: the damage placed, the oxygen drained ------------------------------------------


def _continue_defence(state: TorpedoState) -> None:
    """Place what is left of the damage total: the defender decides, unless there is nothing to
    decide (no compartment left in the location: the control room absorbs the rest; one
    compartment left once placing has begun: it takes the damage)."""
    candidates = defend_candidates(state)
    if not candidates:
        _absorb(state, auto=True)
    elif state.assigned and len(candidates) == 1:
        _assign(state, candidates[0], auto=True)
    else:
        state.phase = Phase.DEFEND


def _absorb(state: TorpedoState, auto: bool) -> None:
    # One damage token on the control room absorbs the whole damage total (step 6).
    defender = defender_seat(state)
    state.notes.append(("absorb", defender, state.amount, auto))
    state.amount = 0
    _damage(state, defender, CONTROL, 1)
    if check_over(state):
        return
    _effect_done(state)


def _assign(state: TorpedoState, position: int, auto: bool) -> None:
    defender = defender_seat(state)
    room = gears_left(state, defender, position)
    placed = min(state.amount, room)
    state.notes.append(("damage", defender, position, placed, placed == room, auto))
    _damage(state, defender, position, placed)
    state.amount -= placed
    state.assigned = True
    if check_over(state):
        return
    if state.amount > 0:
        _continue_defence(state)
    else:
        _effect_done(state)


def apply_absorb(state: TorpedoState, player: int, action: Absorb) -> None:
    _absorb(state, auto=False)


def apply_assign(state: TorpedoState, player: int, action: Assign) -> None:
    if state.phase == Phase.DRAIN:
        _drain(state, action.position, auto=False)
    else:
        _assign(state, action.position, auto=False)


def _continue_drain(state: TorpedoState) -> None:
    if state.amount == 0:
        _effect_done(state)
        return
    candidates = drain_candidates(state)
    if len(candidates) > 1:
        state.phase = Phase.DRAIN
    elif candidates:
        _drain(state, candidates[0], auto=True)
    else:
        # "If the defender has no more oxygen in the affected location, the attacker may remove
        # a single oxygen token from any compartment in the defender's submarine."
        state.amount = 0
        anywhere = scavenge_candidates(state)
        if len(anywhere) > 1:
            state.phase = Phase.SCAVENGE
        elif anywhere:
            _scavenge(state, anywhere[0], auto=True)
        else:
            _effect_done(state)


def _drain(state: TorpedoState, position: int, auto: bool) -> None:
    defender = defender_seat(state)
    taken = min(state.amount, state.oxygen[defender][position])
    state.oxygen[defender][position] -= taken
    state.taken[defender] += taken
    state.amount -= taken
    state.notes.append(("drain", defender, position, taken, auto))
    if check_over(state):
        return
    _continue_drain(state)


def _scavenge(state: TorpedoState, position: int, auto: bool = False) -> None:
    defender = defender_seat(state)
    state.oxygen[defender][position] -= 1
    state.taken[defender] += 1
    state.notes.append(("scavenge", defender, position, auto))
    if check_over(state):
        return
    _effect_done(state)


def _damage(state: TorpedoState, seat: int, position: int, tokens: int) -> int:
    """Cover up to ``tokens`` gears of a compartment with damage; return how many. Damage takes
    the gears without oxygen first, then the empty oxygen gears, then the ones holding a token
    (I10). A compartment covered entirely is destroyed: the crew in it, both sides', are
    eliminated."""
    placed = min(tokens, gears_left(state, seat, position))
    state.damage[seat][position] += placed
    left = gears_left(state, seat, position)
    if state.oxygen[seat][position] > left:
        # Damage from the enemy's attacks only (the game has no other damage).
        state.taken[seat] += state.oxygen[seat][position] - left
        state.oxygen[seat][position] = left
    if left == 0:
        state.notes.append(("destroyed", seat, position))
        for index in range(2 * CREW_PER_SEAT):
            sub, at, _, alive = state.crew[index]
            if alive and sub == seat and at == position:
                _eliminate(state, index)
                state.notes.append(("flooded", index))
    return placed


def _eliminate(state: TorpedoState, crew: int) -> None:
    state.crew[crew] = (-1, -1, False, False)


# -- winning -------------------------------------------------------------------------------------------


def check_over(state: TorpedoState) -> bool:
    """End the game if a seat has lost: its control room destroyed, all five of its crew
    eliminated, or no oxygen token left in its submarine. Both at once: a draw (I14)."""
    losers = [seat for seat in SEATS if loss_reasons(state, seat)]
    if not losers:
        return False
    state.losers = losers
    state.phase = Phase.OVER
    state.source = None
    state.notes.append(("over", tuple(losers)))
    return True
