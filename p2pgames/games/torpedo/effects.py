"""Questions about a submarine in play that the rules, the views and bots all ask: who is where,
what is manned, speed, armour, bonuses, and what an effect could aim at now; and the rulebook's
"Resolving Effects" and "Targeting" as the rules check them: which effects may be used now (a
counter as a reaction too), what the player decides while one resolves, and why a choice is
refused.

Every function reads a :class:`~p2pgames.games.torpedo.state.TorpedoState` and changes nothing
(what resolving an effect does to the state is ``resolving.py``).
Crew members are indexes 0–9 (``seat * 5 + k``, ``k = 0`` the captain); a crew record is
``(sub, position, ready, alive)``, ``sub`` being the seat whose submarine it is in (its own, or
the enemy's after boarding).
"""

from __future__ import annotations

from typing import Any, Iterator

from p2pgames.engine import IllegalAction

from p2pgames.games.torpedo.actions import Absorb, Assign, Drive, React, Relocate, Step, TargetCrew, TargetTile
from p2pgames.games.torpedo.geometry import (
    CLOSER,
    CONTROL,
    POSITIONS,
    hit_location,
    location_positions,
    position_name,
    reaches,
    relative_position,
)
from p2pgames.games.torpedo.state import (
    CREW_PER_SEAT,
    Phase,
    TorpedoState,
    crew_name,
    is_captain,
    owner,
    seat_crew,
)
from p2pgames.games.torpedo.tiles import Effect, Tile

__all__ = [
    "CREW_PER_SEAT",
    "aim_options",
    "armour",
    "attack_total",
    "bonus",
    "can_step",
    "check_assign",
    "check_drive",
    "check_effect",
    "check_react",
    "check_relocate",
    "check_target_crew",
    "check_target_tile",
    "counters",
    "crew_in",
    "crew_name",
    "defend_candidates",
    "defender_seat",
    "destroyed",
    "drain_candidates",
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
    "reactions",
    "resolution_options",
    "scavenge_candidates",
    "speed",
    "step_options",
    "tile_words",
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


# -- which effects may be used now ---------------------------------------------------------------------


def tile_words(state: TorpedoState, seat: int, position: int) -> str:
    kit = state.kit[seat]
    return f"{kit[position].short} ({position_name(position)})" if kit else position_name(position)


def check_effect(state: TorpedoState, player: int, position: int, number: int, words: str) -> Effect:
    """The effect named, if its compartment may use it at all now."""
    if destroyed(state, player, position):
        raise IllegalAction(player, f"{words} is destroyed")
    effects = state.kit[player][position].effects
    if number >= len(effects):
        raise IllegalAction(player, f"{words} has no effect {number + 1}" if effects else f"{words} has no effect")
    if is_blocked(state, player, position):
        raise IllegalAction(player, f"an enemy crew member is in {words}: its effects can't be used")
    return effects[number]


def reactions(state: TorpedoState) -> list[tuple[int, int]]:
    """``(position, effect)`` of every counter effect the seat whose turn it is not may use
    now: those of :func:`counters` with a legal target."""
    return [(position, number) for position, number, no_target in counters(state) if no_target is None]


def counters(state: TorpedoState) -> list[tuple[int, int, str | None]]:
    """``(position, effect, why no target)`` of every counter effect the seat whose turn it
    is not could use as a reaction now but for its target: in a compartment of its own it
    mans (ready or exhausted crew), not destroyed, not blocked, not yet used in this window
    (I7), single-use not yet used this action phase, and not in anyone's first turn. The
    last field says why the effect has no legal target now (``None``: it has one)."""
    if state.first_turns or state.phase == Phase.OVER:
        return []
    seat = 1 - state.active
    found = []
    for position in POSITIONS:
        if position in state.reacted or destroyed(state, seat, position):
            continue
        tile = state.kit[seat][position]
        if not any(effect.button == "counter" for effect in tile.effects):
            continue
        if not is_manned(state, seat, position) or is_blocked(state, seat, position):
            continue
        for number, effect in enumerate(tile.effects):
            if effect.button == "counter" and (seat, position, number) not in state.used:
                found.append((position, number, no_target_reason(state, seat, effect)))
    return found


def check_react(state: TorpedoState, player: int, action: React) -> None:
    if state.first_turns:
        raise IllegalAction(player, "no effects are triggered during a player's first turn, not even as reactions")
    position = action.position
    words = tile_words(state, player, position)
    effect = check_effect(state, player, position, action.effect, words)
    if effect.button != "counter":
        raise IllegalAction(player, f"{words}'s effect has no counter button: it can't react")
    if not is_manned(state, player, position):
        raise IllegalAction(player, f"{words} is not manned: a counter needs a crew member in it")
    if position in state.reacted:
        raise IllegalAction(player, f"{words} has reacted in this window already")
    if (player, position, action.effect) in state.used:
        raise IllegalAction(player, f"{words}'s effect is single-use and was used this action phase")
    reason = no_target_reason(state, player, effect)
    if reason is not None:
        raise IllegalAction(player, f"{words} has no target: {reason}")


# -- deciding while an effect resolves: its target, where the damage goes ------------------------------

_ABSORB = Absorb()


def resolution_options(state: TorpedoState, player: int) -> list[Any]:
    seat = state.source[0]
    phase = state.phase
    if phase == Phase.DEFEND or phase == Phase.DRAIN:
        if player != 1 - seat:
            return []
        if phase == Phase.DRAIN:
            return [Assign(p) for p in drain_candidates(state)]
        options: list[Any] = [] if state.assigned else [_ABSORB]
        return options + [Assign(p) for p in defend_candidates(state)]
    if player != seat:
        return []
    if phase == Phase.STEP:
        crew = state.crews[state.stepping]
        return [Step(crew, to) for to in step_options(state, seat, state.source[1])]
    if phase == Phase.SCAVENGE:
        return [TargetTile(p) for p in scavenge_candidates(state)]
    return aim_options(state)


def aim_options(state: TorpedoState) -> list[Any]:
    seat, position, number, doubled, _ = state.source
    effect = state.kit[seat][position].effects[number]
    kind = effect.kind
    if kind == "crew-attack" or kind == "repel":
        return [TargetCrew(index) for index in crew_targets(state, seat, effect)]
    if kind == "move-crew":
        return [Relocate(index, to) for index, to in relocations(state, seat)]
    if kind == "move-sub":
        return _drives(state, seat, effect.value * (2 if doubled else 1))
    return [TargetTile(p) for p in tile_targets(state, seat, effect)]


def _drives(state: TorpedoState, seat: int, reach: int) -> list[Drive]:
    options = []
    for moved in (seat, 1 - seat):
        start, other = state.sectors[moved], state.sectors[1 - moved]
        for by in range(-min(reach, 4), min(reach, 4) + 1):
            if by == 0 or not 1 <= start + by <= 5:
                continue
            if start + by == other:
                options.append(Drive(moved, by, seat))
                options.append(Drive(moved, by, 1 - seat))
            else:
                options.append(Drive(moved, by, None))
    return options


def defend_candidates(state: TorpedoState) -> list[int]:
    return hittable(state, defender_seat(state), state.hit)


def drain_candidates(state: TorpedoState) -> list[int]:
    defender = defender_seat(state)
    oxygen = state.oxygen[defender]
    return [p for p in location_positions(defender, state.hit) if p != CONTROL and oxygen[p] > 0]


def scavenge_candidates(state: TorpedoState) -> list[int]:
    defender = defender_seat(state)
    oxygen = state.oxygen[defender]
    return [p for p in POSITIONS if p != CONTROL and oxygen[p] > 0]


_TILE_TARGET_RULES = {
    "board": "board an enemy compartment the effect reaches (not its control room, not destroyed)",
    "repair": "repair one of your damaged compartments (not the control room, not destroyed)",
    "refill": "refill a compartment of yours with an empty, undamaged oxygen gear (not the control room)",
}


def check_target_tile(state: TorpedoState, player: int, action: TargetTile) -> None:
    if state.phase == Phase.SCAVENGE:
        if action.position not in scavenge_candidates(state):
            raise IllegalAction(player, "take the token from an enemy compartment (not the control room) that holds oxygen")
        return
    seat, position, number, _, _ = state.source
    effect = state.kit[seat][position].effects[number]
    if action.position not in tile_targets(state, seat, effect):
        raise IllegalAction(player, _TILE_TARGET_RULES[effect.kind])


def check_target_crew(state: TorpedoState, player: int, action: TargetCrew) -> None:
    seat, position, number, _, _ = state.source
    effect = state.kit[seat][position].effects[number]
    if action.crew not in crew_targets(state, seat, effect):
        who = "a sailor" if effect.crew == "sailor" else "a crew member"
        if effect.kind == "repel":
            raise IllegalAction(player, f"choose {who} of the enemy aboard your submarine")
        raise IllegalAction(player, f"choose {who} of the enemy in its {hit_of(state, seat, effect)}")


def check_relocate(state: TorpedoState, player: int, action: Relocate) -> None:
    if (action.crew, action.to) not in relocations(state, player):
        raise IllegalAction(
            player, "move one of your crew members aboard your submarine to another compartment that is not destroyed"
        )


def check_drive(state: TorpedoState, player: int, action: Drive) -> None:
    seat, position, number, doubled, _ = state.source
    reach = state.kit[seat][position].effects[number].value * (2 if doubled else 1)
    if action not in _drives(state, seat, reach):
        if abs(action.by) > reach:
            raise IllegalAction(player, f"this effect moves a submarine up to {reach} sector{'s' if reach > 1 else ''}")
        if not 1 <= state.sectors[action.seat] + action.by <= 5:
            raise IllegalAction(player, "no submarine can leave the battle area (sectors 1–5)")
        if action.upper is None:
            raise IllegalAction(player, "both submarines end in one sector: choose port or starboard")
        raise IllegalAction(player, "port or starboard is chosen only when both end in one sector")


def check_assign(state: TorpedoState, player: int, action: Assign) -> None:
    hit = state.hit
    if state.phase == Phase.DRAIN:
        if action.position not in drain_candidates(state):
            raise IllegalAction(player, f"take the oxygen from a compartment of your {hit} that holds some")
        return
    if action.position not in defend_candidates(state):
        raise IllegalAction(
            player, f"the attack hit your {hit}: assign the damage to a compartment there (not the control room, not destroyed)"
        )
