"""A turn, as the rulebook's "Game Play" tells it: 1. the recovery phase (breathe one oxygen token,
then every crew member is ready), 2. the action phase — maneuver once, and activate ready crew
members, each to move or to trigger an effect, in any order — until the player ends the turn. The
captain's free move, "just before or after his normal activation" (I15), is here too.

The functions read and change the state they are given. A triggered effect resolves in
``resolving.py`` once its crew have stepped toward the control room; which effects may be used
now and why one may not are ``effects.py``'s questions.
"""

from __future__ import annotations

from typing import Any

from p2pgames.engine import IllegalAction

from p2pgames.games.torpedo.actions import Breathe, CaptainMove, EndTurn, Maneuver, Move, Step, Trigger
from p2pgames.games.torpedo.effects import (
    can_step,
    check_effect,
    destroyed,
    is_blocked,
    no_target_reason,
    speed,
    step_options,
    tile_words,
)
from p2pgames.games.torpedo.geometry import ADJACENT, CONTROL, POSITIONS, position_name
from p2pgames.games.torpedo.resolving import after_active, check_over, resolve
from p2pgames.games.torpedo.state import (
    CAPTAIN_FREE,
    CAPTAIN_JUST,
    CAPTAIN_MISSED,
    CAPTAIN_MOVED,
    CAPTAIN_OWES,
    CREW_PER_SEAT,
    Phase,
    TorpedoState,
    crew_name,
    owner,
    seat_crew,
)

__all__ = [
    "action_phase_options",
    "activates_captain",
    "apply_breathe",
    "apply_captain_move",
    "apply_end",
    "apply_maneuver",
    "apply_move",
    "apply_step",
    "apply_trigger",
    "breathe",
    "captain_after",
    "check_breathe",
    "check_captain_move",
    "check_maneuver",
    "check_move",
    "check_step",
    "check_trigger",
    "continue_steps",
    "maneuvers",
    "start_turn",
    "triggers",
]

_END = EndTurn()


# -- 1. recovery: breathe, then the crew are ready -----------------------------------------------------


def start_turn(state: TorpedoState, seat: int) -> None:
    state.turn += 1
    state.active = seat
    state.turns_taken[seat] += 1
    state.maneuvered = False
    state.captain = CAPTAIN_FREE
    state.used = []
    state.reacted = []
    state.notes.append(("turn", state.turn, seat))
    state.phase = Phase.RECOVERY
    holding = [p for p in POSITIONS if state.oxygen[seat][p] > 0]
    if len(holding) == 1:
        breathe(state, seat, holding[0], auto=True)


def breathe(state: TorpedoState, seat: int, position: int, auto: bool) -> None:
    state.oxygen[seat][position] -= 1
    state.notes.append(("breathe", seat, position, auto))
    if check_over(state):
        return
    crew = state.crew
    for index in seat_crew(seat):
        sub, at, ready, alive = crew[index]
        if alive and not ready:
            crew[index] = (sub, at, True, alive)
    state.phase = Phase.ACTION


def check_breathe(state: TorpedoState, player: int, action: Breathe) -> None:
    if state.oxygen[player][action.position] == 0:
        raise IllegalAction(player, f"{tile_words(state, player, action.position)} holds no oxygen")


def apply_breathe(state: TorpedoState, player: int, action: Breathe) -> None:
    breathe(state, player, action.position, auto=False)


# -- 2. the action phase: maneuver once, activate crew, in any order; end ------------------------------


def action_phase_options(state: TorpedoState, seat: int) -> list[Any]:
    options: list[Any] = []
    if state.captain == CAPTAIN_OWES:
        # His free move came just before his activation: it follows now (I15).
        captain = seat * CREW_PER_SEAT
        sub, position, _, _ = state.crew[captain]
        if not state.first_turns:
            options.extend(t for t in triggers(state, seat) if captain in t.crews)
        options.extend(Move(captain, to) for to in ADJACENT[position] if not destroyed(state, sub, to))
        return options
    if not state.first_turns:
        options.extend(triggers(state, seat))
    if not state.maneuvered:
        options.extend(maneuvers(state, seat))
    crew = state.crew
    for index in seat_crew(seat):
        sub, position, ready, alive = crew[index]
        if alive and ready:
            options.extend(Move(index, to) for to in ADJACENT[position] if not destroyed(state, sub, to))
    captain = seat * CREW_PER_SEAT
    sub, position, _, alive = crew[captain]
    if alive and state.captain in (CAPTAIN_FREE, CAPTAIN_JUST):
        options.extend(CaptainMove(to) for to in ADJACENT[position] if not destroyed(state, sub, to))
    options.append(_END)
    return options


def apply_end(state: TorpedoState, player: int, action: EndTurn) -> None:
    state.notes.append(("end", player))
    start_turn(state, 1 - player)


# -- maneuver ------------------------------------------------------------------------------------------


def maneuvers(state: TorpedoState, seat: int) -> list[Maneuver]:
    top = speed(state, seat)
    if top == 0:
        return []
    mine, theirs = state.sectors[seat], state.sectors[1 - seat]
    options = []
    for own in range(-top, top + 1):
        if not 1 <= mine + own <= 5:
            continue
        left = top - abs(own)
        for enemy in range(-left, left + 1):
            if (own == 0 and enemy == 0) or not 1 <= theirs + enemy <= 5:
                continue
            if mine + own == theirs + enemy:
                options.append(Maneuver(own, enemy, seat))
                options.append(Maneuver(own, enemy, 1 - seat))
            else:
                options.append(Maneuver(own, enemy, None))
    if top >= 2 and mine == theirs:
        options.append(Maneuver(0, 0, 1 - state.upper))  # swing round: out and back (I5)
    return options


def check_maneuver(state: TorpedoState, player: int, action: Maneuver) -> None:
    if state.maneuvered:
        raise IllegalAction(player, "you have maneuvered this action phase already")
    top = speed(state, player)
    mine, theirs = state.sectors[player], state.sectors[1 - player]
    if action.own == 0 and action.enemy == 0:
        if mine != theirs:
            raise IllegalAction(player, "a maneuver moves a submarine at least one sector")
        if action.upper is None or action.upper == state.upper:
            raise IllegalAction(player, "swinging round (0 0) puts you on the enemy's other side: say which")
        cost = 2
    else:
        cost = abs(action.own) + abs(action.enemy)
    if cost > top:
        raise IllegalAction(
            player, f"your speed is {top} (one per manned engine compartment): that maneuver needs {cost}"
        )
    if not 1 <= mine + action.own <= 5 or not 1 <= theirs + action.enemy <= 5:
        raise IllegalAction(player, "no submarine can leave the battle area (sectors 1–5)")
    together = mine + action.own == theirs + action.enemy
    if together and action.upper is None:
        raise IllegalAction(player, "both submarines end in one sector: choose port or starboard")
    if not together and action.upper is not None:
        raise IllegalAction(player, "port or starboard is chosen only when both end in one sector")


def apply_maneuver(state: TorpedoState, player: int, action: Maneuver) -> None:
    state.sectors[player] += action.own
    state.sectors[1 - player] += action.enemy
    if action.upper is not None:
        state.upper = action.upper
    state.maneuvered = True
    state.notes.append(("maneuver", player, action.own, action.enemy, action.upper, tuple(state.sectors)))
    after_active(state, (-1, -1))


# -- activate: move (and the captain's free move) ------------------------------------------------------


def check_move(state: TorpedoState, player: int, action: Move) -> None:
    sub, position = _own_crew(state, player, action.crew)
    if not state.crew[action.crew][2]:
        raise IllegalAction(player, f"your {crew_name(action.crew)} is exhausted")
    _check_adjacent(state, player, sub, position, action.to, crew_name(action.crew))


def _own_crew(state: TorpedoState, player: int, crew: int) -> tuple[int, int]:
    if owner(crew) != player:
        raise IllegalAction(player, "that crew member is not yours")
    sub, position, _, alive = state.crew[crew]
    if not alive:
        raise IllegalAction(player, f"your {crew_name(crew)} has been eliminated")
    return sub, position


def _check_adjacent(state: TorpedoState, player: int, sub: int, position: int, to: int, who: str) -> None:
    if to not in ADJACENT[position]:
        raise IllegalAction(
            player, f"your {who} is in {position_name(position)}: {position_name(to)} is not next to it"
        )
    if destroyed(state, sub, to):
        raise IllegalAction(player, f"{tile_words(state, sub, to)} is destroyed: crew can't move into it")


def apply_move(state: TorpedoState, player: int, action: Move) -> None:
    sub, _, _, alive = state.crew[action.crew]
    state.crew[action.crew] = (sub, action.to, False, alive)
    state.notes.append(("move", action.crew, sub, action.to))


def activates_captain(player: int, action: Any) -> bool:
    """Whether ``action`` is ``player``'s captain's normal activation: his move or a trigger he
    takes part in."""
    captain = player * CREW_PER_SEAT
    kind = type(action)
    return (kind is Move and action.crew == captain) or (kind is Trigger and captain in action.crews)


def captain_after(status: int, player: int, action: Any) -> int:
    """The captain's free-move status after the active ``player``'s ``action`` in its action
    phase (I15): the free move may come just before his activation (then it must follow) or just
    after it (nothing of the active player's between)."""
    if type(action) is CaptainMove:
        return CAPTAIN_OWES if status == CAPTAIN_FREE else CAPTAIN_MOVED
    if activates_captain(player, action):
        return CAPTAIN_MOVED if status == CAPTAIN_OWES else CAPTAIN_JUST
    return CAPTAIN_MISSED if status == CAPTAIN_JUST else status


def check_captain_move(state: TorpedoState, player: int, action: CaptainMove) -> None:
    if state.captain_moved:
        raise IllegalAction(player, "your captain has made his free move this turn")
    if state.captain == CAPTAIN_MISSED:
        raise IllegalAction(
            player, "your captain's free move comes just before or just after his activation, not later"
        )
    captain = player * CREW_PER_SEAT
    sub, position = _own_crew(state, player, captain)
    _check_adjacent(state, player, sub, position, action.to, "captain")


def apply_captain_move(state: TorpedoState, player: int, action: CaptainMove) -> None:
    captain = player * CREW_PER_SEAT
    sub, _, ready, alive = state.crew[captain]
    state.crew[captain] = (sub, action.to, ready, alive)
    state.notes.append(("captain", captain, sub, action.to))


# -- activate: trigger (the crew member steps toward the control room, then the effect resolves) -------


def triggers(state: TorpedoState, seat: int) -> list[Trigger]:
    """Every trigger ``seat`` may make now (the first-turn rule aside)."""
    options = []
    crew = state.crew
    ready_at: dict[int, list[int]] = {}
    for index in seat_crew(seat):
        sub, position, ready, alive = crew[index]
        if alive and ready and sub == seat:
            ready_at.setdefault(position, []).append(index)
    for position in sorted(ready_at):
        if destroyed(state, seat, position) or is_blocked(state, seat, position):
            continue
        if not can_step(state, seat, position):
            continue
        here = ready_at[position]
        for number, effect in enumerate(state.kit[seat][position].effects):
            if not effect.triggered or (seat, position, number) in state.used:
                continue
            if no_target_reason(state, seat, effect) is not None:
                continue
            options.extend(Trigger(position, number, (index,)) for index in here)
            if effect.alert == "two-keys":
                options.extend(
                    Trigger(position, number, (a, b)) for i, a in enumerate(here) for b in here[i + 1 :]
                )
    return options


def check_trigger(state: TorpedoState, player: int, action: Trigger) -> None:
    if state.first_turns:
        raise IllegalAction(player, "no effects are triggered during a player's first turn")
    position = action.position
    words = tile_words(state, player, position)
    effect = check_effect(state, player, position, action.effect, words)
    if not effect.triggered:
        raise IllegalAction(player, f"{words}'s effect works on standby while manned: it is never triggered")
    for crew in action.crews:
        sub, at = _own_crew(state, player, crew)
        if sub != player or at != position:
            raise IllegalAction(player, f"your {crew_name(crew)} is not in {words}")
        if not state.crew[crew][2]:
            raise IllegalAction(player, f"your {crew_name(crew)} is exhausted")
    if len(action.crews) == 2 and effect.alert != "two-keys":
        raise IllegalAction(player, f"only a two-keys effect is triggered by two crew members ({words}'s is not)")
    if (player, position, action.effect) in state.used:
        raise IllegalAction(player, f"{words}'s effect is single-use and was used this action phase")
    if not can_step(state, player, position):
        raise IllegalAction(player, f"a crew member in {words} can't move toward the control room")
    reason = no_target_reason(state, player, effect)
    if reason is not None:
        raise IllegalAction(player, f"{words} has no target: {reason}")


def apply_trigger(state: TorpedoState, player: int, action: Trigger) -> None:
    effect = state.kit[player][action.position].effects[action.effect]
    if effect.alert == "single":
        state.used.append((player, action.position, action.effect))
        state.used.sort()
    state.source = (player, action.position, action.effect, len(action.crews) == 2, False)
    state.crews = action.crews
    state.stepping = 0
    state.notes.append(("trigger", player, action.position, action.effect, action.crews))
    continue_steps(state)


def continue_steps(state: TorpedoState) -> None:
    """Move and exhaust each triggering crew member in turn (asking where when there is a
    choice), then resolve the effect."""
    seat, position = state.source[0], state.source[1]
    while state.stepping < len(state.crews):
        crew = state.crews[state.stepping]
        if position == CONTROL:
            # "If he triggers the control room effect, he does not move."
            _step(state, crew, CONTROL, auto=True)
            continue
        options = step_options(state, seat, position)
        if len(options) > 1:
            state.phase = Phase.STEP
            return
        _step(state, crew, options[0], auto=True)
    resolve(state)


def _step(state: TorpedoState, crew: int, to: int, auto: bool) -> None:
    sub, at, _, alive = state.crew[crew]
    state.crew[crew] = (sub, to, False, alive)
    state.stepping += 1
    if to != at:
        state.notes.append(("step", crew, sub, to, auto))


def check_step(state: TorpedoState, player: int, action: Step) -> None:
    crew = state.crews[state.stepping]
    if action.crew != crew:
        raise IllegalAction(player, f"your {crew_name(crew)} moves now")
    options = step_options(state, player, state.source[1])
    if action.to not in options:
        names = " or ".join(tile_words(state, player, p) for p in options)
        raise IllegalAction(player, f"your {crew_name(crew)} moves toward the control room: to {names}")


def apply_step(state: TorpedoState, player: int, action: Step) -> None:
    _step(state, action.crew, action.to, auto=False)
    continue_steps(state)
