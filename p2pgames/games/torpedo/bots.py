"""Steam Torpedo bots: a fast heuristic bot and a search bot built on it.

Both see what every peer sees: after the builds are opened the game has no hidden information and
no chance, so a bot may play the game forward on copies of the state (``state.copy()`` and the
engine's ``apply_unchecked``) and know exactly what would happen.

**The evaluation** (:func:`evaluate`) scores a position for one seat, in points of about one
structure point of an ordinary compartment:

* *material*: the control room's structure left (each token costs more as it fills: a hit worth
  absorbing early is not worth it late), oxygen (a token is a turn of life; running low costs
  more), crew (the captain more than a sailor; few left costs more), and every compartment not
  destroyed (its worth as a station, fading as it fills with damage, plus a little per gear left);
* *firepower*: what each side can do with its crew where they stand — for the seat whose turn it
  is, the best its ready crew can fire (captain's free move included) from any position its
  remaining maneuver reaches; for the other seat, the best it can fire next turn from any position
  its own speed reaches, and its counters now. An attack is worth its damage after the armour of
  the location it hits (at most what absorbing it would cost the defender), an oxygen attack its
  tokens, a crew attack the crew member it can reach, and so on. This is what makes the bot
  maneuver where its weapons fire and the enemy's don't, and station crew on weapons for the next
  turn.

**The heuristic bot** (:class:`HeuristicBot`) is one-step greedy over the evaluation. In its action
phase it plays each distinct legal action on a copy, lets the effect resolve (its own choices and
the defender's made the same greedy way, the opponent's counters too) and keeps the action whose
position scores best; it ends the turn when nothing beats ending it. Defending, it compares
absorbing into the control room with every way of assigning the damage, compartment by compartment
(so it absorbs when what assigning would destroy — crew, oxygen, a compartment — costs more than
the control-room token). It breathes from the compartment whose oxygen matters least (the one most
likely to be lost to damage), reacts with counters when that scores better than passing, and builds
a sound custom submarine (a control room, two engines or more, one armoured compartment, weapons for
the front, the back and the sides, a crew attack, often an oxygen attack, some oxygen) or, in the
draft, picks toward the same.

**The search bot** (:class:`SearchBot`) uses that the game is open and certain: at each decision it
ranks the distinct legal actions by the heuristic's one-step score, keeps the best ``width``, and
plays each forward on a copy — the rest of this turn and the whole next turn, both seats played by
the heuristic — then scores the position reached. It takes the action whose future scores best
(ties: the heuristic's order). Against the heuristic bot this is an exact prediction of the
opponent's reply. The budget is the width and the horizon (no clock: the bot is reproducible from
its seed); ``scripts/measure_torpedo.py`` measures its time per decision. Its evaluation (weights
:data:`SEARCH`) also counts what a move-crew trigger can do — put a crew member on the best
station nobody else takes — in the turn being played and in the enemy's next: a crew member at
Talion's Ballast Tanks is a sailor on the Harpoon Battery next turn, though nobody stands there.
Without it, search against search, Talion won three starter games in four (its gunners, put on the
Harpoon Battery, took Panzer's crew where they stood; ``RULES.md``, "Balance and bots"). The
heuristic bot keeps the plain evaluation (a crew member fires where it stands): with the
relocations counted, its starter games went Panzer's way seven times in ten.

Bots may use floats: their play is not hashed. Ties are broken by a :class:`DeterministicRandom`
stream from the seed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from p2pgames.bots import best_of, legal_options
from p2pgames.engine import Act, DeterministicRandom, Game, Knowledge, Step as EngineStep

from p2pgames.games.torpedo import build as builds
from p2pgames.games.torpedo.actions import (
    Build,
    CaptainMove,
    EndTurn,
    Keep,
    Maneuver,
    Move,
    Pick,
    Relocate,
    Step,
    Swap,
    TargetCrew,
    Trigger,
)
from p2pgames.games.torpedo.effects import defender_seat, gears_left
from p2pgames.games.torpedo.geometry import (
    ADJACENT,
    CLOSER,
    CONTROL,
    POSITIONS,
    control_distance,
    hit_location,
    location_positions,
    range_of,
    relative_position,
)
from p2pgames.games.torpedo.rules import Phase, TorpedoState
from p2pgames.games.torpedo.tiles import TILESET, Effect, Tile

__all__ = ["BOT_KINDS", "HeuristicBot", "SearchBot", "evaluate", "make_bot"]

# -- weights (points: about one structure point of an ordinary compartment) -------------------------

WIN = 1000.0


@dataclass(frozen=True, slots=True)
class Weights:
    """What the evaluation counts, in points (about one structure point of an ordinary
    compartment). The defaults are the bots'; others exist for tuning (``scripts/measure_torpedo.py``)."""

    oxygen: float = 1.4  # an oxygen token: a turn of life
    low_oxygen: float = 12.0  # running low: low_oxygen / tokens left
    sailor: float = 3.0
    captain: float = 4.0
    few_crew: float = 8.0  # few_crew / crew left
    board: float = 2.0  # an enemy compartment blocked by a boarder
    gear: float = 0.3  # each gear left on a compartment not destroyed
    fade: float = 0.45  # a compartment's worth left with n gears: worth * (1 - fade ** n)
    control: float = 16.0  # the control room with c gears left costs control / c
    damage: float = 1.0  # a point of damage an attack would deal
    now: float = 0.8  # what the seat to play can still fire this turn
    next: float = 0.6  # what the other seat can fire in its next turn
    later: float = 0.25  # what the seat to play has stationed for its next turn
    counter: float = 0.35  # the other seat's counters, usable during this turn
    speed: float = 0.3  # each sector of speed (up to 3)
    relocate: float = 0.0  # a move-crew trigger: this much of the best trigger it lets a crew member reach
    # A gear a repair mends: what a point of damage costs. At half that the heuristic repaired so
    # seldom that the Riveted Hold was in no setting's ten busiest tiles.
    repair: float = 1.0


DEFAULT = Weights()
# The search bot's: it also counts what a move-crew trigger lets a crew member reach, in the turn
# being played and in the enemy's next (see SearchBot), and keeps a repair at half a point a gear:
# at a full point its games against itself became oxygen races (77 % lost out of oxygen, Panzer la
# Rochelle 40.5 %, reactions 1-4 in 49.5 % of games; RULES.md, "Balance and bots").
SEARCH = Weights(relocate=1.0, repair=0.5)

# Situations: where the enemy is seen from a seat, and the range.
_SITUATIONS = (("front", "close"), ("front", "distant"), ("behind", "close"), ("behind", "distant"),
               ("port", "close"), ("starboard", "close"))
_SITUATION_OF = {pair: index for index, pair in enumerate(_SITUATIONS)}
_LOCATIONS = ("fore", "aft", "port", "starboard")
_LOCATION_INDEX = {name: index for index, name in enumerate(_LOCATIONS)}


def make_bot(seed: bytes = b"") -> "SearchBot":
    """The default Steam Torpedo bot (the search bot at its default budget), reproducible from ``seed``."""
    return SearchBot(seed)


# -- what a kit of tiles can do, computed once per layout --------------------------------------------


def effect_worth(effect: Effect) -> float:
    """A rough worth of an effect as a compartment's use (for building, and for the compartment
    a defender would rather lose)."""
    kind = effect.kind
    value = effect.value
    if kind == "attack":
        worth = 1.3 * value + (0.4 if effect.range == "any" else 0.0) + (0.4 if effect.position == "any" else 0.0)
    elif kind == "oxygen-attack":
        worth = 1.6 * value + (0.4 if effect.position == "any" else 0.0)
    elif kind == "crew-attack":
        worth = 3.0 if effect.crew != "sailor" else 2.6
    elif kind == "board":
        worth = 1.2
    elif kind == "repel":
        worth = 0.8
    elif kind == "repair":
        worth = 0.8 * value
    elif kind == "refill":
        worth = 1.4 * value
    elif kind == "move-sub":
        worth = 0.6 * value
    elif kind == "move-crew":
        worth = 0.6
    elif kind == "attack-bonus":
        worth = 2.5 * value
    elif kind == "armor-bonus":
        worth = (2.0 if effect.location == "all" else 0.9) * value
    else:  # speed-bonus
        worth = 1.2 * value
    if effect.button == "counter":
        worth += 1.0
    if effect.alert == "single":
        worth *= 0.8
    return worth


def tile_worth(tile: Tile) -> float:
    """A compartment's worth as a station: its effects, plus engines and armour by type."""
    worth = sum(effect_worth(effect) for effect in tile.effects)
    if tile.type == "engine":
        worth += 1.8
    elif tile.type == "armored":
        worth += 1.6
    return worth


class _Kit:
    """A submarine's layout as the evaluation reads it: for each position, each triggered effect
    with the situations it can be used in (and the location it then reaches)."""

    __slots__ = ("tiles", "worth", "uses", "counter_positions", "movers", "structure", "engines", "armored", "standby")

    def __init__(self, tiles: Sequence[Tile]) -> None:
        self.tiles = tuple(tiles)
        self.worth = [tile_worth(tile) for tile in tiles]
        self.structure = [tile.structure for tile in tiles]
        self.engines = [tile.is_engine for tile in tiles]
        self.armored = [tile.is_armored for tile in tiles]
        # uses[p][situation] = ((number, effect, hit or ""), ...)
        self.uses: list[list[tuple[tuple[int, Effect, str], ...]]] = []
        self.counter_positions = []
        # Compartments whose move-crew effect can put a crew member on any other station.
        self.movers = tuple(
            position for position, tile in enumerate(tiles)
            if any(effect.kind == "move-crew" and effect.triggered for effect in tile.effects)
        )
        self.standby = []  # (position, effect) of standby bonuses
        for position, tile in enumerate(tiles):
            per_situation = []
            for relative, range_ in _SITUATIONS:
                usable = []
                for number, effect in enumerate(tile.effects):
                    if not effect.triggered:
                        continue
                    if effect.aimed:
                        if effect.position != "any" and effect.position != relative:
                            continue
                        if effect.range != "any" and effect.range != range_:
                            continue
                        usable.append((number, effect, hit_location(effect.hits, relative)))
                    elif effect.kind in ("attack", "oxygen-attack"):
                        continue
                    else:
                        usable.append((number, effect, ""))
                per_situation.append(tuple(usable))
            self.uses.append(per_situation)
            if any(effect.button == "counter" for effect in tile.effects):
                self.counter_positions.append(position)
            for effect in tile.effects:
                if effect.button == "standby":
                    self.standby.append((position, effect))


_KITS: dict[tuple[str, ...], _Kit] = {}


def _kit(state: TorpedoState, seat: int) -> _Kit:
    key = state.tiles[seat]
    kit = _KITS.get(key)
    if kit is None:
        kit = _KITS[key] = _Kit(state.kit[seat])
    return kit


_REACH: dict[tuple[int, int, int, int, int], tuple[int, ...]] = {}


def reachable_situations(seat: int, sectors: Sequence[int], upper: int, top: int) -> tuple[int, ...]:
    """The situations ``seat`` can be in after a maneuver of speed ``top`` (or none) from here."""
    key = (seat, sectors[0], sectors[1], upper, top)
    found = _REACH.get(key)
    if found is not None:
        return found
    mine, theirs = sectors[seat], sectors[1 - seat]
    seen = {_situation(seat, sectors, upper)}
    for own in range(-top, top + 1):
        if not 1 <= mine + own <= 5:
            continue
        left = top - abs(own)
        for enemy in range(-left, left + 1):
            if not 1 <= theirs + enemy <= 5:
                continue
            after = [0, 0]
            after[seat], after[1 - seat] = mine + own, theirs + enemy
            if after[0] == after[1]:
                seen.add(_situation(seat, after, 0))
                seen.add(_situation(seat, after, 1))
            else:
                seen.add(_situation(seat, after, upper))
    found = _REACH[key] = tuple(sorted(seen))
    return found


def _situation(seat: int, sectors: Sequence[int], upper: int) -> int:
    return _SITUATION_OF[(relative_position(seat, sectors, upper), range_of(sectors))]


# -- the evaluation ----------------------------------------------------------------------------------


class _Side:
    """What the evaluation needs to know about one seat's submarine, read once."""

    __slots__ = (
        "seat", "kit", "damage", "dead", "crew_at", "ready_at", "captain", "captain_ready",
        "blocked", "alive", "sailors", "oxygen", "speed", "armour", "attack_bonus",
        "targets_any", "targets_sailor", "boarders", "control_left", "repairable", "room", "w", "silent",
    )

    def __init__(self, state: TorpedoState, seat: int, w: Weights) -> None:
        self.seat = seat
        self.w = w
        kit = self.kit = _kit(state, seat)
        damage = self.damage = state.damage[seat]
        structure = kit.structure
        self.dead = dead = [damage[p] >= structure[p] for p in POSITIONS]
        crew_at = self.crew_at = [0] * 10  # own crew aboard, not the captain
        ready_at = self.ready_at = [0] * 10
        blocked = self.blocked = [False] * 10
        self.captain = -1
        self.captain_ready = False
        self.alive = 0
        self.sailors = 0
        self.boarders = 0  # own crew aboard the enemy submarine
        crew = state.crew
        base = seat * 5
        for index in range(base, base + 5):
            sub, at, ready, alive = crew[index]
            if not alive:
                continue
            self.alive += 1
            if sub != seat:
                self.boarders += 1
                continue
            if index == base:
                self.captain = at
                self.captain_ready = ready
            else:
                self.sailors += 1
                crew_at[at] += 1
                if ready:
                    ready_at[at] += 1
        enemy = 1 - seat
        for index in range(enemy * 5, enemy * 5 + 5):
            sub, at, _, alive = crew[index]
            if alive and sub == seat:
                blocked[at] = True
        manned = crew_at[:]
        if self.captain >= 0:
            manned[self.captain] += 1
        working = [manned[p] > 0 and not dead[p] for p in POSITIONS]
        speed = sum(1 for p in POSITIONS if working[p] and kit.engines[p])
        armour = [0, 0, 0, 0]
        for index, location in enumerate(_LOCATIONS):
            armour[index] = sum(1 for p in location_positions(seat, location) if working[p] and kit.armored[p])
        attack_bonus = 0
        for position, effect in kit.standby:
            if working[position] and not blocked[position]:
                if effect.kind == "speed-bonus":
                    speed += effect.value
                elif effect.kind == "attack-bonus":
                    attack_bonus += effect.value
                elif effect.location == "all":
                    for index in range(4):
                        armour[index] += effect.value
                else:
                    armour[_LOCATION_INDEX[effect.location]] += effect.value
        self.speed = speed
        self.armour = armour
        self.attack_bonus = attack_bonus
        # Crew an enemy crew attack could reach, by location (the control room's too, I13).
        targets_any = [0, 0, 0, 0]
        targets_sailor = [0, 0, 0, 0]
        for index, location in enumerate(_LOCATIONS):
            inside = location_positions(seat, location)
            sailors = sum(crew_at[p] for p in inside)
            targets_sailor[index] = sailors
            targets_any[index] = sailors + (1 if self.captain in inside else 0)
        self.targets_any = targets_any
        self.targets_sailor = targets_sailor
        # Compartments whose effects can't be triggered: destroyed, boarded, or with no way toward
        # the control room left.
        self.silent = [
            dead[p] or blocked[p] or (p != CONTROL and all(dead[q] for q in CLOSER[p])) for p in POSITIONS
        ]
        self.oxygen = sum(state.oxygen[seat])
        self.control_left = structure[CONTROL] - damage[CONTROL]
        self.repairable = max(
            (damage[p] for p in POSITIONS if p != CONTROL and not dead[p]), default=0
        )
        oxygen = state.oxygen[seat]
        self.room = min(state.taken[seat], sum(  # a refill puts back only what the enemy took
            max(0, min(kit.tiles[p].oxygen, structure[p] - damage[p]) - oxygen[p]) for p in POSITIONS if p != CONTROL
        ))

    def token_cost(self) -> float:
        """What one more damage token on the control room costs this seat."""
        left = self.control_left
        if left <= 1:
            return WIN / 4
        return self.w.control / (left - 1) - self.w.control / left

    def material(self) -> float:
        kit, w = self.kit, self.w
        value = 0.0
        left = self.control_left
        value -= w.control / left if left > 0 else WIN
        oxygen = self.oxygen
        value += w.oxygen * oxygen - (w.low_oxygen / oxygen if oxygen > 0 else WIN)
        value += w.sailor * self.sailors + (w.captain if self.captain >= 0 else 0.0)
        value += 0.6 * w.sailor * self.boarders
        value -= w.few_crew / self.alive if self.alive else WIN
        damage = self.damage
        for p in POSITIONS:
            if p == CONTROL or self.dead[p]:
                continue
            gears = kit.structure[p] - damage[p]
            value += kit.worth[p] * (1.0 - w.fade ** gears) + w.gear * gears
        value += w.speed * min(self.speed, 3)
        return value


def _effect_value(attacker: _Side, defender: _Side, effect: Effect, hit: str) -> float:
    kind = effect.kind
    w = attacker.w
    if kind == "attack":
        damage = effect.value + attacker.attack_bonus - defender.armour[_LOCATION_INDEX[hit]]
        if damage <= 0:
            return 0.0
        return min(damage * w.damage, defender.token_cost() + 0.3)
    if kind == "oxygen-attack":
        tokens = effect.value + attacker.attack_bonus - defender.armour[_LOCATION_INDEX[hit]]
        return w.oxygen * min(tokens, defender.oxygen) if tokens > 0 else 0.0
    if kind == "crew-attack":
        location = _LOCATION_INDEX[hit]
        if effect.crew == "sailor":
            return w.sailor if defender.targets_sailor[location] else 0.0
        if defender.targets_any[location]:
            return w.sailor
        return 0.0
    if kind == "board":
        return w.board * 0.5 if attacker.sailors + (attacker.captain >= 0) > 2 else 0.0
    if kind == "repel":
        return w.sailor if defender.boarders else 0.0
    if kind == "repair":
        return w.repair * min(effect.value, attacker.repairable)
    if kind == "refill":
        return w.oxygen * min(effect.value, attacker.room)
    if kind == "move-sub":
        return 0.2
    return 0.1  # move-crew


def _fire_values(attacker: _Side, defender: _Side, position: int, situation: int,
                 used: Sequence[tuple[int, int, int]], counters_only: bool) -> list[float]:
    """What each trigger of ``position``'s effects would be worth in ``situation``, best first:
    enough of them that the first ``n`` are the most ``n`` crew members there could do (an effect
    that is not single-use listed once per crew member that could trigger it)."""
    if attacker.silent[position]:
        return []
    uses = attacker.kit.uses[position][situation]
    if not uses:
        return []
    values = []
    for number, effect, hit in uses:
        if counters_only and effect.button != "counter":
            continue
        if used and (attacker.seat, position, number) in used:
            continue
        value = _effect_value(attacker, defender, effect, hit)
        if value <= 0:
            continue
        if effect.alert == "single" or counters_only:
            values.append(value)
        else:
            values.extend((value,) * 5)
    if len(values) > 1:
        values.sort(reverse=True)
    return values


def _tile_fire(attacker: _Side, defender: _Side, position: int, crews: int, situation: int,
               used: Sequence[tuple[int, int, int]], counters_only: bool) -> float:
    if crews <= 0:
        return 0.0
    return sum(_fire_values(attacker, defender, position, situation, used, counters_only)[:crews])


def firepower(attacker: _Side, defender: _Side, situations: Sequence[int], ready_only: bool,
              captain_free: bool, used: Sequence[tuple[int, int, int]] = (), relocate: float = 0.0) -> float:
    """The most ``attacker``'s crew can do from the best of ``situations``: each crew member one
    trigger where it stands (the captain, with his free move, in the best compartment next to him)."""
    at = attacker.ready_at if ready_only else attacker.crew_at
    captain = attacker.captain
    captain_on = captain >= 0 and (attacker.captain_ready or not ready_only)
    silent = attacker.silent
    stations = [p for p in POSITIONS if at[p] and not silent[p]]
    movers = [p for p in attacker.kit.movers if not silent[p]] if relocate else ()
    spots = ()
    if captain_on:
        spots = tuple(
            spot for spot in (captain,) + (ADJACENT[captain] if captain_free else ()) if not silent[spot]
        )
    if not stations and not spots:
        return 0.0
    best = 0.0
    for situation in situations:
        fire: dict[int, list[float]] = {}
        total = 0.0
        for position in stations:
            values = fire[position] = _fire_values(attacker, defender, position, situation, used, False)
            if values:
                total += sum(values[: at[position]])
        extra = 0.0
        for spot in spots:
            values = _fire_at(fire, attacker, defender, spot, situation, used)
            n = at[spot]
            if len(values) > n and values[n] > extra:
                extra = values[n]  # the captain adds the (n+1)th best trigger there
        total += extra
        if movers and any(at[p] for p in movers):
            total += _relocation(attacker, defender, situation, used, at, fire, relocate)
        if total > best:
            best = total
    return best


def _fire_at(fire: dict[int, list[float]], attacker: _Side, defender: _Side, position: int, situation: int,
             used: Sequence[tuple[int, int, int]]) -> list[float]:
    """:func:`_fire_values` of ``position``, kept in ``fire`` (one situation's) once computed."""
    values = fire.get(position)
    if values is None:
        values = fire[position] = _fire_values(attacker, defender, position, situation, used, False)
    return values


def _relocation(attacker: _Side, defender: _Side, situation: int, used: Sequence[tuple[int, int, int]],
                at: Sequence[int], fire: dict[int, list[float]], share: float) -> float:
    """What one move-crew trigger adds: a crew member put where the best trigger nobody takes is
    (a compartment out of its reach this turn, say), less what that crew member would have fired
    where it stands (nothing, when someone stands idle)."""
    best = 0.0
    idle = False
    least = None
    for position in POSITIONS:
        values = _fire_at(fire, attacker, defender, position, situation, used)
        n = at[position]
        if len(values) > n and values[n] > best:
            best = values[n]
        if n > len(values):
            idle = True
        elif n and (least is None or values[n - 1] < least):
            least = values[n - 1]
    forgone = 0.0 if idle or least is None else least
    return max(0.0, share * (best - forgone) - 0.1)  # the move-crew trigger itself was counted at 0.1


def counter_fire(defender_side: _Side, attacker_side: _Side, situation: int,
                 used: Sequence[tuple[int, int, int]]) -> float:
    """What ``defender_side`` (the seat whose turn it is not) can do with its counters now."""
    total = 0.0
    manned = defender_side.crew_at
    for position in defender_side.kit.counter_positions:
        if manned[position] or defender_side.captain == position:
            total += _tile_fire(defender_side, attacker_side, position, 1, situation, used, True)
    return total


def evaluate(state: TorpedoState, me: int, spent: bool = False, w: Weights = DEFAULT) -> float:
    """How good ``state`` is for seat ``me`` (see the module's docstring). ``spent``: score the
    position as if the seat to play ended its turn now (its ready crew fire nothing more)."""
    if state.phase == Phase.OVER:
        losers = state.losers
        if len(losers) == 2:
            return 0.0
        return (WIN - state.turn) if losers[0] != me else (state.turn - WIN)
    if state.active < 0:
        return 0.0
    sides = (_Side(state, 0, w), _Side(state, 1, w))
    value = sides[me].material() - sides[1 - me].material()
    active = state.active
    other = 1 - active
    a, b = sides[active], sides[other]
    sectors, upper = state.sectors, state.upper
    positional_a = 0.0
    positional_b = 0.0
    recovering = state.phase == Phase.RECOVERY
    if not spent and not state.first_turns:
        top = 0 if state.maneuvered else a.speed
        situations = reachable_situations(active, sectors, upper, top)
        positional_a += w.now * firepower(a, b, situations, not recovering, not state.captain_moved, state.used, w.relocate)
    # The other seat's next turn (none of its triggers in its first turn).
    if state.turns_taken[other] >= 1:
        situations = reachable_situations(other, sectors, upper, b.speed)
        positional_b += w.next * firepower(b, a, situations, False, True, relocate=w.relocate)
        if not state.first_turns:
            positional_b += w.counter * counter_fire(b, a, _situation(other, sectors, upper), state.used)
    # What the seat to play has stationed for its turn after.
    situations = reachable_situations(active, sectors, upper, a.speed)
    positional_a += w.later * firepower(a, b, situations, False, True)
    # An effect half resolved: the damage or oxygen still to place.
    phase = state.phase
    if phase == Phase.DEFEND:
        defender = sides[defender_seat(state)]
        pending = state.amount * 0.8
        if not state.assigned:
            pending = min(pending, defender.token_cost())
        if defender.seat == active:
            positional_a -= pending
        else:
            positional_b -= pending
    elif phase == Phase.DRAIN:
        pending = w.oxygen * state.amount
        if defender_seat(state) == active:
            positional_a -= pending
        else:
            positional_b -= pending
    if active == me:
        return value + positional_a - positional_b
    return value + positional_b - positional_a


# -- playing: the policy both bots share -------------------------------------------------------------

_ACTION_KINDS = (Maneuver, Move, CaptainMove, Trigger, EndTurn)


def _signature(state: TorpedoState, action: Any) -> Any:
    """Actions with the same outcome share a signature (sailors in one compartment are alike)."""
    kind = type(action)
    if kind is Move:
        sub, at, ready, _ = state.crew[action.crew]
        return ("move", action.crew % 5 == 0, sub, at, ready, action.to)
    if kind is Trigger:
        captain = any(index % 5 == 0 for index in action.crews)
        return ("trigger", action.position, action.effect, len(action.crews), captain)
    if kind is TargetCrew:
        sub, at, ready, _ = state.crew[action.crew]
        return ("crew", action.crew % 5 == 0, sub, at, ready)
    if kind is Relocate:
        sub, at, ready, _ = state.crew[action.crew]
        return ("relocate", action.crew % 5 == 0, sub, at, ready, action.to)
    if kind is Step:
        return ("step", action.to)
    return action


def distinct(state: TorpedoState, options: Sequence[Any]) -> list[Any]:
    """``options`` without those whose outcome another one already has."""
    seen = set()
    kept = []
    for option in options:
        key = _signature(state, option)
        if key not in seen:
            seen.add(key)
            kept.append(option)
    return kept


class Policy:
    """The heuristic's decisions, as functions of a state (shared by both bots and their
    simulations)."""

    def __init__(self, game: Game, w: Weights = DEFAULT) -> None:
        self.game = game
        self.w = w
        self.evaluations = 0  # positions scored so far: the search bot's budget counts them

    def value(self, state: TorpedoState, seat: int, spent: bool = False) -> float:
        """:func:`evaluate`, counted."""
        self.evaluations += 1
        return evaluate(state, seat, spent=spent, w=self.w)

    def legal(self, state: TorpedoState, seat: int) -> list[Any]:
        return self.game.legal_actions(state, seat, {})

    def apply(self, state: TorpedoState, seat: int, action: Any) -> TorpedoState:
        return self.game.apply_unchecked(state.copy(), Act(seat, action))

    def actor(self, state: TorpedoState) -> int:
        """The seat that decides now in a playing phase (-1: none)."""
        phase = state.phase
        if phase == Phase.ACTION or phase == Phase.RECOVERY:
            return state.active
        if phase == Phase.COUNTER:
            return 1 - state.active
        if phase == Phase.DEFEND or phase == Phase.DRAIN:
            return defender_seat(state)
        if phase in (Phase.STEP, Phase.AIM, Phase.SCAVENGE):
            return state.source[0]
        return -1

    # Scores of options (higher is better for the seat choosing).

    def scores(self, state: TorpedoState, seat: int, options: Sequence[Any]) -> list[float]:
        phase = state.phase
        if phase == Phase.ACTION:
            return [self.action_score(state, seat, option) for option in options]
        if phase == Phase.RECOVERY:
            return [self.breathe_score(state, seat, option.position) for option in options]
        return [self.value(self.apply(state, seat, option), seat) for option in options]

    def action_score(self, state: TorpedoState, seat: int, action: Any) -> float:
        if type(action) is EndTurn:
            return self.value(state, seat, spent=True)
        after = self.apply(state, seat, action)
        after = self.settle(after, seat)
        return self.value(after, seat)

    def settle(self, state: TorpedoState, seat: int) -> TorpedoState:
        """Play on (each seat choosing greedily) until ``seat`` is back in its action phase, or
        its turn or the game is over."""
        while True:
            phase = state.phase
            if phase == Phase.OVER or state.active != seat or phase == Phase.ACTION or phase == Phase.RECOVERY:
                return state
            actor = self.actor(state)
            options = distinct(state, self.legal(state, actor))
            if len(options) == 1:
                choice = options[0]
            else:
                values = [self.value(self.apply(state, actor, option), actor) for option in options]
                choice = options[max(range(len(options)), key=values.__getitem__)]
            state = self.apply(state, actor, choice)

    def breathe_score(self, state: TorpedoState, seat: int, position: int) -> float:
        """Breathe where oxygen matters least: where damage would take it anyway."""
        tile = state.kit[seat][position]
        gears = gears_left(state, seat, position)
        oxygen = state.oxygen[seat][position]
        score = 0.0
        if gears <= 2:
            score += 2.0 / gears
        # Exposure: the compartment is in a location the enemy can hit now.
        enemy = 1 - seat
        relative = relative_position(enemy, state.sectors, state.upper)
        facing = hit_location("facing", relative)
        if position in location_positions(seat, facing):
            score += 0.6
        if tile.type == "experimental":
            score += 0.4
        # Keep tokens where a refill can't restore them (full tiles refill nothing): breathe from
        # the fullest compartments first.
        score += 0.1 * oxygen
        return score

    def choose(self, state: TorpedoState, seat: int, options: Sequence[Any], random: DeterministicRandom) -> Any:
        options = distinct(state, options)
        if len(options) == 1:
            return options[0]
        values = self.scores(state, seat, options)
        table = dict(zip(map(id, options), values))
        return best_of(options, lambda option: table[id(option)], random)


# -- set-up: builds, swaps and the draft ---------------------------------------------------------------


def build_score(names: Sequence[str]) -> float:
    """How sound a set of tiles is as a submarine (higher is better)."""
    tiles = [TILESET.tiles[name] for name in names]
    worth = sum(tile_worth(tile) for tile in tiles)
    engines = sum(1 for tile in tiles if tile.is_engine)
    armoured = sum(1 for tile in tiles if tile.is_armored)
    oxygen = sum(tile.oxygen for tile in tiles)
    structure = sum(tile.structure for tile in tiles)
    arcs = set()
    crew_attacks = oxygen_attacks = 0
    for tile in tiles:
        for effect in tile.effects:
            if effect.kind in ("attack", "oxygen-attack", "crew-attack"):
                arcs.add(effect.position)
            crew_attacks += effect.kind == "crew-attack"
            oxygen_attacks += effect.kind == "oxygen-attack"
    score = worth + 0.35 * structure + 0.5 * min(oxygen, 12)
    score += 3.0 * min(engines, 3) + 2.0 * min(armoured, 2)
    score -= 3.0 * max(0, armoured - 1)  # a second armoured compartment adds little, a third stalls the game
    score += 2.0 * min(crew_attacks, 1)  # a way to take the enemy's crew, not only its control room
    # ... and its air: just enough that about a third of the builds carry one (more, and oxygen
    # races decided by who gasses first; none, and three games in four end at a control room).
    score += 1.3 * min(oxygen_attacks, 1)
    if "any" in arcs:
        arcs |= {"front", "behind", "port", "starboard"}
    score += 2.0 * len(arcs & {"front", "behind", "port", "starboard"})
    return score


def custom_build(random: DeterministicRandom | None = None) -> tuple[str, ...]:
    """A sound custom build around a control room, then tile by tile whatever adds most to
    :func:`build_score` (a little noise from ``random`` varies near-equal choices).

    With ``random`` the control room is drawn from all of them, as a player trying the kinds of
    submarine would: always the sturdiest (Talion's, 9 structure) made every custom game the same
    mirror match, long (20 turns), where the first player won 44 %: the second breathes last in
    an oxygen race between equal hulls. Without ``random``, the build that scores best."""
    best: tuple[str, ...] | None = None
    best_score = 0.0
    others = [name for name, tile in TILESET.tiles.items() if not tile.is_control]
    rooms = TILESET.control_rooms
    if random is not None:
        rooms = (rooms[random.below(len(rooms))],)
    for control in rooms:
        chosen = [control]
        while len(chosen) < builds.BUILD_SIZE:
            pick = max(
                (name for name in others if name not in chosen),
                key=lambda name: build_score(chosen + [name]) + (random.below(100) / 200 if random else 0.0),
            )
            chosen.append(pick)
        score = build_score(chosen)
        if best is None or score > best_score:
            best, best_score = tuple(sorted(chosen)), score
    assert best is not None and builds.build_problem(best) is None
    return best


def layout_score(state: TorpedoState, seat: int, order: Sequence[str]) -> float:
    """How well a layout serves its crew: compartments with triggered effects next to the control
    room (crew cycle out and back), the most valuable ones furthest from the fore and aft ends."""
    score = 0.0
    for position, name in enumerate(order):
        if position == CONTROL:
            continue
        tile = TILESET.tiles[name]
        triggered = sum(effect_worth(effect) for effect in tile.effects if effect.triggered)
        if control_distance(position) == 1:
            score += triggered + (0.5 if tile.is_engine else 0.0)
        score += 0.1 * tile.structure * (1 if position % 5 in (0, 4) else 0)
    return score


# -- the bots ---------------------------------------------------------------------------------------


class HeuristicBot:
    """One-step greedy over :func:`evaluate` (see the module's docstring)."""

    name = "heuristic"

    def __init__(self, seed: bytes = b"", weights: Weights = DEFAULT) -> None:
        self.random = DeterministicRandom(hashlib.sha256(b"torpedo-heuristic\x00" + seed).digest())
        self.weights = weights

    def policy(self, game: Game) -> Policy:
        return Policy(game, self.weights)

    def choose(self, game: Game, state: TorpedoState, player: int, knowledge: Knowledge, step: EngineStep) -> Any:
        options = legal_options(game, state, player, knowledge, step)
        setup = self.setup_choice(state, player, options)
        if setup is not None:
            return setup
        if len(options) == 1:
            return options[0]
        return self.play(self.policy(game), state, player, options)

    def play(self, policy: Policy, state: TorpedoState, player: int, options: list[Any]) -> Any:
        """The choice among ``options`` (two or more) once the game is under way."""
        return policy.choose(state, player, options, self.random)

    def setup_choice(self, state: TorpedoState, player: int, options: Sequence[Any]) -> Any | None:
        phase = state.phase
        if phase == Phase.BUILD:
            return Build(custom_build(self.random))
        if phase == Phase.SWAP:
            current = layout_score(state, player, state.tiles[player])
            best: Any = Keep()
            best_score = current + 0.5
            for option in options:
                if type(option) is not Swap:
                    continue
                order = list(state.tiles[player])
                order[option.a], order[option.b] = order[option.b], order[option.a]
                score = layout_score(state, player, order)
                if score > best_score + 1e-9:
                    best, best_score = option, score
            return best
        if phase == Phase.DRAFT:
            mine = list(state.tiles[player])
            return best_of(
                [option for option in options if type(option) is Pick],
                lambda option: _draft_worth(mine, option.name),
                self.random,
            )
        return None


def _draft_worth(mine: list[str], name: str) -> float:
    tile = TILESET.tiles[name]
    if tile.is_control:
        return 50.0 + tile_worth(tile) if len(mine) >= builds.BUILD_SIZE - 1 else tile_worth(tile) + 1.0
    return build_score(mine + [name]) - build_score(mine) if mine else tile_worth(tile)


class SearchBot(HeuristicBot):
    """Looks ahead with the heuristic (see the module's docstring): ``width`` candidate actions per
    decision, each played to the end of the next turn.

    ``budget`` caps the positions scored per decision (ranking the options and playing the
    candidates forward together), so that no decision is slow however busy the position: each
    candidate may use an equal share of what ranking left, and a line that reaches its share is
    scored where it stands. Counted, not timed, so the bot stays reproducible; at the default
    (8,000: about 0.7 s on this project's machines, where a median decision scores about 1,100
    and the busiest of 1,105 decisions measured scored 3,906) it rarely binds.
    """

    name = "search"

    def __init__(
        self, seed: bytes = b"", width: int = 6, horizon: int = 2, weights: Weights = SEARCH, budget: int = 8000
    ) -> None:
        super().__init__(seed, weights)
        self.width = width
        self.horizon = horizon
        self.budget = budget
        self.positions = 0  # lines played out (for benchmarks)

    def play(self, policy: Policy, state: TorpedoState, player: int, options: list[Any]) -> Any:
        options = distinct(state, options)
        if len(options) == 1:
            return options[0]
        values = policy.scores(state, player, options)
        order = sorted(range(len(options)), key=lambda i: -values[i])
        candidates = [options[i] for i in order[: self.width]]
        if not any(type(option) is EndTurn for option in candidates):
            # Ending the turn is always weighed where it is allowed (it is not while the
            # captain owes the activation his free move came just before).
            candidates += [option for option in options if type(option) is EndTurn]
        if len(candidates) == 1:
            return candidates[0]
        share = max(0, self.budget - policy.evaluations) // len(candidates)
        futures = {id(option): self.future(policy, state, player, option, share) for option in candidates}
        return best_of(candidates, lambda option: futures[id(option)], self.random)

    def future(self, policy: Policy, state: TorpedoState, player: int, action: Any, share: int) -> float:
        """The score for ``player`` of the position reached by ``action``, then heuristic play to
        the start of the turn ``horizon`` turns after this one — or as far as ``share`` more
        positions scored take it."""
        stop = state.turn + self.horizon
        limit = policy.evaluations + share
        state = policy.apply(state, player, action)
        while state.phase != Phase.OVER and not (state.turn >= stop and state.phase in (Phase.RECOVERY, Phase.ACTION)):
            if policy.evaluations >= limit:
                break
            actor = policy.actor(state)
            options = distinct(state, policy.legal(state, actor))
            if len(options) == 1:
                choice = options[0]
            else:
                values = policy.scores(state, actor, options)
                choice = options[max(range(len(options)), key=values.__getitem__)]
            state = policy.apply(state, actor, choice)
        self.positions += 1
        return policy.value(state, player)


BOT_KINDS: dict[str, Callable[[bytes], Any]] = {
    "search": SearchBot,
    "heuristic": HeuristicBot,
}
