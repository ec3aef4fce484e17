"""Questions about a submarine in play that the rules, the views and bots all ask: who is where,
what is manned, speed, armour, bonuses, and what an effect could aim at now.

Every function reads a :class:`~p2pgames.games.torpedo.state.TorpedoState` and changes nothing.
Crew members are indexes 0–9 (``seat * 5 + k``, ``k = 0`` the captain); a crew record is
``(sub, position, ready, alive)``, ``sub`` being the seat whose submarine it is in (its own, or
the enemy's after boarding).
"""

from __future__ import annotations

from typing import Iterator

from p2pgames.games.torpedo.geometry import (
    CLOSER,
    CONTROL,
    POSITIONS,
    hit_location,
    location_positions,
    reaches,
    relative_position,
)
from p2pgames.games.torpedo.state import CREW_PER_SEAT, TorpedoState, crew_name, is_captain, owner, seat_crew
from p2pgames.games.torpedo.tiles import Effect, Tile

__all__ = [
    "CREW_PER_SEAT",
    "armour",
    "attack_total",
    "bonus",
    "can_step",
    "crew_in",
    "crew_name",
    "defender_seat",
    "destroyed",
    "enemy_crew_in",
    "gears_left",
    "has_target",
    "hit_of",
    "hittable",
    "is_blocked",
    "is_manned",
    "loss_reasons",
    "no_target_reason",
    "over_summary",
    "owner",
    "oxygen_room",
    "speed",
    "step_options",
]


def gears_left(state: "TorpedoState", seat: int, position: int) -> int:
    """How many more damage tokens the compartment can take: its gears not covered by damage."""
    return state.kit[seat][position].structure - state.damage[seat][position]


def destroyed(state: "TorpedoState", seat: int, position: int) -> bool:
    """Whether the compartment is destroyed (flooded): every gear covered by damage."""
    return gears_left(state, seat, position) <= 0


def defender_seat(state: "TorpedoState") -> int:
    """The seat an effect being resolved is aimed at (its damage placed, its oxygen drained): the
    enemy of the effect's source."""
    return 1 - state.source[0]


def crew_in(state: "TorpedoState", seat: int, position: int) -> Iterator[int]:
    """``seat``'s living crew members in its own submarine's compartment at ``position``."""
    crew = state.crew
    for index in seat_crew(seat):
        record = crew[index]
        if record[3] and record[0] == seat and record[1] == position:
            yield index


def enemy_crew_in(state: "TorpedoState", seat: int, position: int) -> Iterator[int]:
    """The other seat's living crew members (boarders) in ``seat``'s compartment at ``position``."""
    crew = state.crew
    for index in seat_crew(1 - seat):
        record = crew[index]
        if record[3] and record[0] == seat and record[1] == position:
            yield index


def is_manned(state: "TorpedoState", seat: int, position: int) -> bool:
    """Manned: one of ``seat``'s own crew members, ready or exhausted, is in the compartment."""
    return next(crew_in(state, seat, position), None) is not None


def is_blocked(state: "TorpedoState", seat: int, position: int) -> bool:
    """An opposing crew member is in the compartment: its effects can't be triggered or resolved
    (standby bonuses included); its type (engine, armour) still counts (I12)."""
    return next(enemy_crew_in(state, seat, position), None) is not None


def _working(state: "TorpedoState", seat: int) -> Iterator[tuple[int, Tile]]:
    """``seat``'s compartments that are manned and not destroyed."""
    kit = state.kit[seat]
    damage = state.damage[seat]
    manned = {record[1] for index, record in _own_aboard(state, seat)}
    for position in manned:
        tile = kit[position]
        if damage[position] < tile.structure:
            yield position, tile


def _own_aboard(state: "TorpedoState", seat: int) -> Iterator[tuple[int, tuple]]:
    crew = state.crew
    for index in seat_crew(seat):
        record = crew[index]
        if record[3] and record[0] == seat:
            yield index, record


def bonus(state: "TorpedoState", seat: int, kind: str, location: str | None = None) -> int:
    """The sum of ``seat``'s standby bonuses of ``kind`` that work now: each manned, not
    destroyed, not blocked compartment's effect counts once, however many crew are in it. An
    armour bonus counts toward ``location`` when it names it or ``all``."""
    total = 0
    for position, tile in _working(state, seat):
        for effect in tile.effects:
            if effect.kind == kind and (location is None or effect.location in (location, "all")):
                if not is_blocked(state, seat, position):
                    total += effect.value
    return total


def speed(state: "TorpedoState", seat: int) -> int:
    """One sector for each manned engine compartment (the control room is one), however many crew
    are in it, plus standby speed bonuses."""
    engines = sum(1 for _, tile in _working(state, seat) if tile.is_engine)
    return engines + bonus(state, seat, "speed-bonus")


def armour(state: "TorpedoState", seat: int, location: str) -> int:
    """``seat``'s armour value in ``location``: its manned armoured compartments there (each once)
    plus standby armour bonuses for that location (step 4 of "Resolving Attacks")."""
    inside = location_positions(seat, location)
    plates = sum(1 for position, tile in _working(state, seat) if tile.is_armored and position in inside)
    return plates + bonus(state, seat, "armor-bonus", location)


def attack_total(state: "TorpedoState", seat: int, effect: Effect) -> int:
    """The attack value plus ``seat``'s standby attack bonuses (step 3). Two keys double what
    gets through the armour, not this (I9)."""
    return effect.value + bonus(state, seat, "attack-bonus")


def hit_of(state: "TorpedoState", seat: int, effect: Effect) -> str:
    """The enemy location ``seat``'s aimed effect reaches from where the submarines are now."""
    return hit_location(effect.hits, relative_position(seat, state.sectors, state.upper))


def hittable(state: "TorpedoState", seat: int, location: str) -> list[int]:
    """The compartments of ``seat``'s ``location`` that can take damage: not destroyed, never the
    control room. With none left, every hit on the location lands on the control room (step 7)."""
    return [p for p in location_positions(seat, location) if p != CONTROL and not destroyed(state, seat, p)]


def oxygen_room(state: "TorpedoState", seat: int, position: int) -> int:
    """Empty, undamaged oxygen gears of a compartment: where a refill can put tokens. Damage covers
    the gears without the oxygen symbol first (I10), so ``min(oxygen gears, gears left)`` carry
    the symbol undamaged."""
    tile = state.kit[seat][position]
    undamaged = min(tile.oxygen, tile.structure - state.damage[seat][position])
    return max(0, undamaged - state.oxygen[seat][position])


def step_options(state: "TorpedoState", seat: int, position: int) -> list[int]:
    """Where a crew member triggering the compartment at ``position`` may move: each adjacent,
    not destroyed compartment closer to the control room (none needed from the control room)."""
    damage, kit = state.damage[seat], state.kit[seat]
    return [p for p in CLOSER[position] if damage[p] < kit[p].structure]


def can_step(state: "TorpedoState", seat: int, position: int) -> bool:
    return position == CONTROL or bool(step_options(state, seat, position))


def loss_reasons(state: "TorpedoState", seat: int) -> list[str]:
    """Why ``seat`` has lost (empty: it hasn't), as the end of "… has": its control room
    destroyed, all five crew eliminated, no oxygen token left in its submarine."""
    reasons = []
    if destroyed(state, seat, CONTROL):
        reasons.append("its control room destroyed")
    if not any(state.crew[index][3] for index in seat_crew(seat)):
        reasons.append("all its crew eliminated")
    if sum(state.oxygen[seat]) == 0:
        reasons.append("no oxygen left")
    return reasons


def over_summary(state: "TorpedoState") -> str:
    """One line for :class:`GameOver`, naming nobody (the session puts the names in front)."""
    losers = state.losers
    if len(losers) == 2:
        return f"a draw: both submarines lost at once, after {state.turn} turns"
    return f"the other submarine has {' and '.join(loss_reasons(state, losers[0]))}, after {state.turn} turns"


# -- targets -------------------------------------------------------------------------------------------


def crew_targets(state: "TorpedoState", seat: int, effect: Effect) -> list[int]:
    """The crew members ``seat``'s crew-attack or repel effect may eliminate now."""
    kinds_ok = (lambda index: not is_captain(index)) if effect.crew == "sailor" else (lambda index: True)
    enemy = 1 - seat
    crew = state.crew
    if effect.kind == "repel":
        # Opposing crew members aboard your own submarine.
        return [i for i in seat_crew(enemy) if crew[i][3] and crew[i][0] == seat and kinds_ok(i)]
    # crew-attack: opposing crew in the hit location of their own submarine, the control room's
    # too: the room can't be targeted, the people in it can (I13).
    inside = location_positions(enemy, hit_of(state, seat, effect))
    return [
        i for i in seat_crew(enemy) if crew[i][3] and crew[i][0] == enemy and crew[i][1] in inside and kinds_ok(i)
    ]


def tile_targets(state: "TorpedoState", seat: int, effect: Effect) -> list[int]:
    """The compartments ``seat``'s board, repair or refill effect may aim at now (never a control
    room: "A control room cannot be targeted by effects")."""
    kind = effect.kind
    if kind == "board":
        enemy = 1 - seat
        return [
            p
            for p in location_positions(enemy, hit_of(state, seat, effect))
            if p != CONTROL and not destroyed(state, enemy, p)
        ]
    if kind == "repair":
        return [
            p for p in POSITIONS if p != CONTROL and 0 < state.damage[seat][p] < state.kit[seat][p].structure
        ]
    if kind == "refill":
        if not state.taken[seat]:  # only oxygen the enemy took comes back (I27)
            return []
        return [p for p in POSITIONS if p != CONTROL and oxygen_room(state, seat, p) > 0]
    raise ValueError(f"a {kind} effect aims at no compartment")


def relocations(state: "TorpedoState", seat: int) -> list[tuple[int, int]]:
    """``(crew, to)`` for a move-crew effect: any of ``seat``'s crew members in its own submarine,
    ready or exhausted, to any other compartment that is not destroyed."""
    open_ = [p for p in POSITIONS if not destroyed(state, seat, p)]
    return [
        (index, p) for index, record in _own_aboard(state, seat) for p in open_ if p != record[1]
    ]


def has_target(state: "TorpedoState", seat: int, effect: Effect) -> bool:
    """Whether ``seat``'s ``effect`` has a legal target now (else it can't be triggered, nor used
    as a reaction)."""
    return no_target_reason(state, seat, effect) is None


def no_target_reason(state: "TorpedoState", seat: int, effect: Effect) -> str | None:
    """Why ``seat``'s ``effect`` has no legal target now (a sentence's end: "the enemy is not …"),
    or ``None`` when it has one."""
    kind = effect.kind
    if effect.aimed and not reaches(effect.position, effect.range, seat, state.sectors, state.upper):
        return f"the enemy is not {_arc(effect)}"
    if kind in ("attack", "oxygen-attack", "move-sub"):
        return None  # a location always exists (what is destroyed passes to the control room)
    if kind in ("crew-attack", "repel"):
        if crew_targets(state, seat, effect):
            return None
        who = "sailor" if effect.crew == "sailor" else "crew member"
        if kind == "repel":
            return f"no enemy {who} is aboard your submarine"
        return f"no enemy {who} is in its {hit_of(state, seat, effect)}"
    if kind in ("board", "repair", "refill"):
        if tile_targets(state, seat, effect):
            return None
        return {
            "board": "no compartment it reaches is left to board",
            "repair": "none of your compartments (but the control room) is damaged",
            "refill": (
                "no compartment has an empty, undamaged oxygen gear"
                if state.taken[seat]
                else "the enemy has taken no oxygen from you to put back (breathing can't be undone)"
            ),
        }[kind]
    if kind == "move-crew":
        return None if relocations(state, seat) else "no crew member can be moved"
    return "it is a standby effect"  # bonuses are never triggered


def _arc(effect: Effect) -> str:
    where = {
        "front": "in front of you",
        "behind": "behind you",
        "port": "on your port side",
        "starboard": "on your starboard side",
        "any": "",
    }[effect.position]
    reach = {"close": "at close range", "distant": "at distant range", "any": ""}[effect.range]
    return " ".join(part for part in (where, reach) if part) or "anywhere"
