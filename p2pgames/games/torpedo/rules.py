"""The rules of Steam Torpedo as a pure state machine (see ``RULES.md`` beside this file).

Everything is public once the submarines are built: the tiles by position, damage and oxygen on
each, where every crew member is and whether it is ready, the sectors, and what the game waits
for. The builds and the swaps are secret until opened together (the session's commitments); no
card is ever dealt (``cards`` stays empty).

Flow (the ``phase`` field names these places)::

    build (simultaneous: custom) │ deal (chance: random) │ draft-order (chance) ─► draft (turns)
      │ starter: none, the layouts are fixed
      ─► placement (chance: random positions, then the control-room swap)
      ─► swap (simultaneous, secret: two tiles or keep)
      ─► first (chance: the first player)
      ─► turn: recovery (the active player breathes: one oxygen token; lose at 0; ready all crew)
         ─► action (any order, until ``end``):
               maneuver (once) ─► [counter]
               move │ the captain's free move
               trigger ─► step (the crew's move toward the control room, when there is a choice)
                  ─► aim (the target, when there is a choice)
                     │ defend (attacks: the defender absorbs or assigns, compartment by compartment)
                     │ drain (oxygen attacks: the defender empties compartments) ─► [scavenge]
                  ─► [counter]
         ─► end ─► the other seat's turn …
      ─► over (checked the moment a loss happens)

``counter`` is the reaction window of the seat whose turn it is not (a ``ReactionWindow``): it is
opened after each of the active player's effects resolves and after its maneuver, and only when
that seat has a counter effect it may use now (I6). A reaction resolves at once — through ``aim``,
``defend``, ``drain`` and ``scavenge`` like any effect, the active player defending — and the
window stays open for more until the reactor passes or has nothing left to react with.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from p2pgames.engine import (
    CardState,
    Chance,
    DeterministicRandom,
    Game,
    GameOver,
    IllegalAction,
    Knowledge,
    ReactionWindow,
    Ruleset,
    RulesetError,
    RulesetOption,
    Simultaneous,
    Step as EngineStep,
    Turn,
)

from p2pgames.games.torpedo import build as builds
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
    decode_action,
    encode_action,
)
from p2pgames.games.torpedo.effects import (
    can_step,
    check_assign,
    check_drive,
    check_effect,
    check_react,
    check_relocate,
    check_target_crew,
    check_target_tile,
    defender_seat,
    destroyed,
    is_blocked,
    no_target_reason,
    over_summary,
    reactions,
    resolution_options,
    speed,
    step_options,
    tile_words,
)
from p2pgames.games.torpedo.geometry import ADJACENT, CONTROL, POSITIONS, position_name
from p2pgames.games.torpedo.resolving import (
    after_active,
    apply_absorb,
    apply_aim,
    apply_assign,
    apply_pass,
    apply_react,
    apply_target_tile,
    check_over,
    resolve,
)
from p2pgames.games.torpedo.state import (
    CAPTAIN_FREE,
    CAPTAIN_JUST,
    CAPTAIN_MISSED,
    CAPTAIN_MOVED,
    CAPTAIN_OWES,
    CREW_PER_SEAT,
    RESOLVING,
    SEATS,
    Phase,
    TorpedoState,
    crew_name,
    owner,
    seat_crew,
)
from p2pgames.games.torpedo.tiles import TILESET, Tile

__all__ = ["Phase", "Torpedo", "TorpedoState", "BUILD_OPTIONS"]

BUILD_OPTIONS = ("custom", "starter", "random", "draft")
START_SECTOR = 3
START_UPPER = 1  # "each on its own player's side": player 1's submarine up, player 0's down (I2)
TILES = TILESET.tiles

_NO_KIT: tuple[Tile, ...] = ()


def kit_of(tiles: Sequence[str]) -> tuple[Tile, ...]:
    """The :class:`Tile` of each name, once a submarine has its 10 tiles (else empty)."""
    return tuple(TILES[name] for name in tiles) if len(tiles) == builds.BUILD_SIZE else _NO_KIT


# Steps are immutable: build the ones asked for again and again once.
# Prompts fit one row of an 80-column screen after "Your move — " (and, for the secret choices,
# " (secret until everyone has chosen)").
_BUILD_STEP = Simultaneous(SEATS, "build your submarine")
_SWAP_STEP = Simultaneous(SEATS, "swap two compartments or keep")
_CHANCES = {
    Phase.DEAL: Chance("deal each player a random submarine"),
    Phase.DRAFT_ORDER: Chance("choose who drafts first"),
    Phase.PLACEMENT: Chance("place the compartments face down at random"),
    Phase.FIRST: Chance("choose the first player"),
}
_TURNS = {
    phase: tuple(Turn((seat,), prompt) for seat in SEATS)
    for phase, prompt in (
        (Phase.DRAFT, "pick a compartment for your submarine"),
        (Phase.RECOVERY, "recovery: breathe one oxygen token from a compartment"),
        (Phase.ACTION, "your action phase"),  # the list says what: maneuver …, move …, end
        (Phase.STEP, "move the crew member toward the control room"),
        (Phase.DEFEND, "absorb the damage in the control room, or assign it to a compartment"),
        (Phase.DRAIN, "choose the compartment to lose oxygen"),
        (Phase.SCAVENGE, "no oxygen is left where you hit: take one token from any compartment"),
    )
}
_AIM_PROMPTS = {
    "crew-attack": "choose the enemy crew member to eliminate",
    "repel": "choose the boarder to eliminate",
    "board": "choose the enemy compartment to board",
    "repair": "choose the compartment to repair",
    "refill": "choose the compartment to refill with oxygen",
    "move-crew": "choose the crew member to move and where",
    "move-sub": "choose the submarine to move and how far",
}
_AIM_TURNS = {kind: tuple(Turn((seat,), prompt) for seat in SEATS) for kind, prompt in _AIM_PROMPTS.items()}
_END, _PASS, _KEEP = EndTurn(), Pass(), Keep()


class Torpedo(Game[TorpedoState]):
    """Steam Torpedo for two players. Stateless: every method takes the state."""

    name = "torpedo"
    title = "Steam Torpedo"
    min_players = 2
    max_players = 2
    rules_edition = 2  # 2: the card state (which never deals here) has a next_deal key
    options = (
        RulesetOption(
            "build",
            "custom",
            BUILD_OPTIONS,
            "how submarines are built: custom (each builds in secret), starter (the faction "
            "layouts), random (10 random tiles each), draft (alternate picks from the pool)",
        ),
        RulesetOption(
            "tiles",
            TILESET.edition,
            (TILESET.edition,),
            "the tile set played (its edition, a digest of the tiles' data): set for you; a table "
            "or a transcript of another edition is refused, since its tiles would play differently",
        ),
    )

    def decode_ruleset(self, data: Any) -> Ruleset:
        """As :meth:`Game.decode_ruleset`; a ruleset of another tile set (another version of this
        program, with other tiles) is refused saying so. A ruleset without ``tiles`` (transcripts
        from before it was recorded) plays this program's tiles."""
        options = data.get("options") if isinstance(data, dict) else None
        edition = options.get("tiles") if isinstance(options, dict) else None
        if edition is not None and edition != TILESET.edition:
            raise RulesetError(
                f"it plays Steam Torpedo's tile set {str(edition)[:40]!r} and this program has "
                f"{TILESET.edition!r}: both players (and whoever verifies) need the same p2pgames version"
            )
        return super().decode_ruleset(data)

    def describe_ruleset(self, ruleset: Ruleset) -> str:
        """The ruleset for people: the build option (the tile set's edition goes without saying)."""
        return f"{ruleset.game}, {ruleset.players} players (build={ruleset['build']})"

    # -- setup and steps -----------------------------------------------------------------------

    def setup(self, ruleset: Ruleset) -> TorpedoState:
        state = TorpedoState.__new__(TorpedoState)
        state.cards = CardState()
        state.build = ruleset["build"]
        state.turn = 0
        state.active = -1
        state.first = -1
        state.turns_taken = [0, 0]
        state.tiles = [(), ()]
        state.kit = [_NO_KIT, _NO_KIT]
        state.damage = [[0] * 10, [0] * 10]
        state.oxygen = [[0] * 10, [0] * 10]
        state.crew = [(owner(index), CONTROL, True, True) for index in range(2 * CREW_PER_SEAT)]
        state.sectors = [START_SECTOR, START_SECTOR]
        state.upper = START_UPPER
        state.maneuvered = False
        state.captain = CAPTAIN_FREE
        state.used = []
        state.reacted = []
        state.pool = []
        state.drafter = -1
        state.picks = 0
        state.source = None
        state.crews = ()
        state.stepping = 0
        state.amount = 0
        state.hit = ""
        state.assigned = False
        state.after = (-1, -1)
        state.losers = []
        state.taken = [0, 0]
        state.notes = []
        option = state.build
        if option == "starter":
            # The first-game rule: each faction's fixed layout, no random placement, no swap (I1).
            for seat, faction in zip(SEATS, TILESET.starters):
                self._place(state, seat, TILESET.starters[faction].layout)
            self._man_the_submarines(state)
            state.phase = Phase.FIRST
        elif option == "random":
            state.phase = Phase.DEAL
        elif option == "draft":
            state.pool = list(TILESET.names)
            state.phase = Phase.DRAFT_ORDER
        else:
            state.phase = Phase.BUILD
        return state

    def step(self, state: TorpedoState) -> EngineStep:
        # Called after every event, several times: steps are shared, prebuilt values.
        phase = state.phase
        if phase == Phase.ACTION or phase == Phase.RECOVERY:
            return _TURNS[phase][state.active]
        if phase == Phase.STEP or phase == Phase.SCAVENGE:
            return _TURNS[phase][state.source[0]]
        if phase == Phase.DEFEND or phase == Phase.DRAIN:
            return _TURNS[phase][defender_seat(state)]
        if phase == Phase.AIM:
            seat, position, effect = state.source[0], state.source[1], state.source[2]
            return _AIM_TURNS[state.kit[seat][position].effects[effect].kind][seat]
        if phase == Phase.COUNTER:
            position, effect = state.after
            if position < 0:
                what = "the enemy's maneuver"
            else:
                what = f"the enemy's {state.kit[state.active][position].short}"
            return ReactionWindow((1 - state.active,), f"react to {what} with a counter?")
        if phase in _CHANCES:
            return _CHANCES[phase]
        if phase == Phase.BUILD:
            return _BUILD_STEP
        if phase == Phase.SWAP:
            return _SWAP_STEP
        if phase == Phase.DRAFT:
            return _TURNS[phase][builds.draft_seat(state.drafter, state.picks)]
        if phase == Phase.OVER:
            return self._result(state)
        raise AssertionError(f"no step for phase {phase!r}")  # pragma: no cover

    def _result(self, state: TorpedoState) -> GameOver:
        losers = state.losers
        scores = tuple(0 if seat in losers else 1 for seat in SEATS)
        if len(losers) == 2:
            return GameOver((1, 1), SEATS, over_summary(state))
        return GameOver(scores, (1 - losers[0],), over_summary(state))

    # -- legal actions -------------------------------------------------------------------------

    def legal_actions(self, state: TorpedoState, player: int, knowledge: Knowledge) -> list[Any]:
        phase = state.phase
        if phase == Phase.ACTION:
            return self._action_phase_options(state, player) if player == state.active else []
        if phase in RESOLVING:
            return resolution_options(state, player)
        if phase == Phase.COUNTER:
            if player != 1 - state.active:
                return []
            return [React(position, effect) for position, effect in reactions(state)] + [_PASS]
        if phase == Phase.RECOVERY:
            if player != state.active:
                return []
            return [Breathe(p) for p in POSITIONS if state.oxygen[player][p] > 0]
        if phase == Phase.BUILD:
            return [Build(tiles) for tiles in builds.sample_builds()] if player in SEATS else []
        if phase == Phase.SWAP:
            if player not in SEATS:
                return []
            swappable = [p for p in POSITIONS if p != CONTROL]
            return [Swap(a, b) for a in swappable for b in swappable if a < b] + [_KEEP]
        if phase == Phase.DRAFT:
            if player != builds.draft_seat(state.drafter, state.picks):
                return []
            return [Pick(name) for name in self._draft_choices(state, player)]
        return []

    def _action_phase_options(self, state: TorpedoState, seat: int) -> list[Any]:
        options: list[Any] = []
        if state.captain == CAPTAIN_OWES:
            # His free move came just before his activation: it follows now (I15).
            captain = seat * CREW_PER_SEAT
            sub, position, _, _ = state.crew[captain]
            if not state.first_turns:
                options.extend(t for t in self._triggers(state, seat) if captain in t.crews)
            options.extend(Move(captain, to) for to in ADJACENT[position] if not destroyed(state, sub, to))
            return options
        if not state.first_turns:
            options.extend(self._triggers(state, seat))
        if not state.maneuvered:
            options.extend(self._maneuvers(state, seat))
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

    def _triggers(self, state: TorpedoState, seat: int) -> list[Trigger]:
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

    def _maneuvers(self, state: TorpedoState, seat: int) -> list[Maneuver]:
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

    def _draft_choices(self, state: TorpedoState, seat: int) -> list[str]:
        other = 1 - seat
        other_lacks = 0 if any(TILES[name].is_control for name in state.tiles[other]) else 1
        return builds.draft_choices(state.pool, state.tiles[seat], other_lacks)

    # -- checking actions ----------------------------------------------------------------------

    def check_action(self, state: TorpedoState, player: int, action: Any) -> None:
        """Raise :class:`IllegalAction` with a reason a person can read unless ``player`` may take
        ``action`` now. Every rule is public: nothing is left to check later."""
        kind = type(action)
        self.check_kind(state, player, kind)
        if state.phase == Phase.ACTION and state.captain == CAPTAIN_OWES and not _activates_captain(player, action):
            raise IllegalAction(
                player,
                "your captain made his free move just before his activation: move him or trigger with him now",
            )
        check = _CHECKS.get(kind)
        if check is not None:
            check(self, state, player, action)

    def check_kind(self, state: TorpedoState, player: int, kind: type) -> None:
        """Raise :class:`IllegalAction` unless ``player`` may make some move of ``kind`` (an action
        class) now, whatever its fields: the first half of :meth:`check_action`."""
        phase = state.phase
        if phase == Phase.OVER:
            raise IllegalAction(player, "the game is over")
        if player not in SEATS:
            raise IllegalAction(player, "Steam Torpedo is played by seats 0 and 1")
        expected = self._expected(state, player)
        if expected is None:
            raise IllegalAction(player, self._not_yours(state))
        kinds, what = expected
        if kind not in kinds:
            raise IllegalAction(player, f"now {what}")

    def _expected(self, state: TorpedoState, player: int) -> tuple[tuple[type, ...], str] | None:
        """The action kinds ``player`` may use now and what they are for, or ``None``."""
        phase = state.phase
        if phase == Phase.BUILD:
            return (Build,), "build your submarine"
        if phase == Phase.SWAP:
            return (Swap, Keep), "swap two compartments or keep them"
        if phase == Phase.DRAFT:
            if player == builds.draft_seat(state.drafter, state.picks):
                return (Pick,), "pick a compartment from the pool"
            return None
        if phase == Phase.RECOVERY:
            return ((Breathe,), "breathe: take an oxygen token from a compartment") if player == state.active else None
        if phase == Phase.ACTION:
            if player != state.active:
                return None
            return (Maneuver, Move, CaptainMove, Trigger, EndTurn), "maneuver, move, trigger or end"
        if phase == Phase.COUNTER:
            return ((React, Pass), "react with a counter, or pass") if player != state.active else None
        seat = state.resolver
        if phase == Phase.STEP:
            return ((Step,), "move the triggering crew member toward the control room") if player == seat else None
        if phase == Phase.AIM:
            if player != seat:
                return None
            kind = state.effect_of(seat, state.source[1], state.source[2]).kind
            return _AIM_KINDS[kind], _AIM_PROMPTS[kind]
        if phase == Phase.SCAVENGE:
            return ((TargetTile,), "take one oxygen token from any enemy compartment") if player == seat else None
        if phase == Phase.DEFEND:
            if player != 1 - seat:
                return None
            if state.assigned:
                return (Assign,), "assign the rest of the damage to a compartment in the location hit"
            return (Absorb, Assign), "absorb the damage into your control room or assign it"
        if phase == Phase.DRAIN:
            return ((Assign,), "choose the compartment to lose oxygen") if player == 1 - seat else None
        return None  # chance steps

    def _not_yours(self, state: TorpedoState) -> str:
        phase = state.phase
        if phase in (Phase.RECOVERY, Phase.ACTION):
            return "it is not your turn"
        if phase == Phase.COUNTER:
            return "the other player is deciding whether to react"
        if phase in (Phase.DEFEND, Phase.DRAIN):
            return "the defender is deciding where the attack lands"
        if phase in RESOLVING:
            return "the other player's effect is being resolved"
        if phase == Phase.DRAFT:
            return "it is the other player's pick"
        return "no move is expected now"

    def _check_build(self, state: TorpedoState, player: int, action: Build) -> None:
        problem = builds.build_problem(action.tiles)
        if problem is not None:
            raise IllegalAction(player, problem)

    def _check_swap(self, state: TorpedoState, player: int, action: Swap) -> None:
        if CONTROL in (action.a, action.b):
            raise IllegalAction(player, "the control room stays in the middle of your outer row (C2)")

    def _check_pick(self, state: TorpedoState, player: int, action: Pick) -> None:
        if action.name not in TILES:
            raise IllegalAction(player, f"{action.name!r} is not a tile")
        if action.name not in state.pool:
            raise IllegalAction(player, f"{action.name} has been picked already")
        if action.name not in self._draft_choices(state, player):
            if TILES[action.name].is_control:
                if any(TILES[name].is_control for name in state.tiles[player]):
                    raise IllegalAction(player, "you have a control room already")
                raise IllegalAction(player, "the other player needs the last control room")
            raise IllegalAction(player, "your last pick must be a control room")

    def _check_breathe(self, state: TorpedoState, player: int, action: Breathe) -> None:
        if state.oxygen[player][action.position] == 0:
            raise IllegalAction(player, f"{tile_words(state, player, action.position)} holds no oxygen")

    def _check_maneuver(self, state: TorpedoState, player: int, action: Maneuver) -> None:
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

    def _check_move(self, state: TorpedoState, player: int, action: Move) -> None:
        sub, position = self._own_crew(state, player, action.crew)
        if not state.crew[action.crew][2]:
            raise IllegalAction(player, f"your {crew_name(action.crew)} is exhausted")
        self._check_adjacent(state, player, sub, position, action.to, crew_name(action.crew))

    def _check_captain_move(self, state: TorpedoState, player: int, action: CaptainMove) -> None:
        if state.captain_moved:
            raise IllegalAction(player, "your captain has made his free move this turn")
        if state.captain == CAPTAIN_MISSED:
            raise IllegalAction(
                player, "your captain's free move comes just before or just after his activation, not later"
            )
        captain = player * CREW_PER_SEAT
        sub, position = self._own_crew(state, player, captain)
        self._check_adjacent(state, player, sub, position, action.to, "captain")

    def _own_crew(self, state: TorpedoState, player: int, crew: int) -> tuple[int, int]:
        if owner(crew) != player:
            raise IllegalAction(player, "that crew member is not yours")
        sub, position, _, alive = state.crew[crew]
        if not alive:
            raise IllegalAction(player, f"your {crew_name(crew)} has been eliminated")
        return sub, position

    def _check_adjacent(self, state: TorpedoState, player: int, sub: int, position: int, to: int, who: str) -> None:
        if to not in ADJACENT[position]:
            raise IllegalAction(
                player, f"your {who} is in {position_name(position)}: {position_name(to)} is not next to it"
            )
        if destroyed(state, sub, to):
            raise IllegalAction(player, f"{tile_words(state, sub, to)} is destroyed: crew can't move into it")

    def _check_trigger(self, state: TorpedoState, player: int, action: Trigger) -> None:
        if state.first_turns:
            raise IllegalAction(player, "no effects are triggered during a player's first turn")
        position = action.position
        words = tile_words(state, player, position)
        effect = check_effect(state, player, position, action.effect, words)
        if not effect.triggered:
            raise IllegalAction(player, f"{words}'s effect works on standby while manned: it is never triggered")
        for crew in action.crews:
            sub, at = self._own_crew(state, player, crew)
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

    def _check_step(self, state: TorpedoState, player: int, action: Step) -> None:
        crew = state.crews[state.stepping]
        if action.crew != crew:
            raise IllegalAction(player, f"your {crew_name(crew)} moves now")
        options = step_options(state, player, state.source[1])
        if action.to not in options:
            names = " or ".join(tile_words(state, player, p) for p in options)
            raise IllegalAction(player, f"your {crew_name(crew)} moves toward the control room: to {names}")

    def allows(self, state: TorpedoState, player: int, action: Any, knowledge: Knowledge) -> bool:
        """A custom build lists only a few builds (there are millions): any legal build is
        allowed; everything else is allowed when listed."""
        if state.phase == Phase.BUILD and type(action) is Build and player in SEATS:
            return builds.build_problem(action.tiles) is None
        return action in self.legal_actions(state, player, knowledge)

    # -- applying events -----------------------------------------------------------------------

    def apply_chance(self, state: TorpedoState, seed: bytes) -> None:
        state.notes = []
        random = DeterministicRandom(seed)
        phase = state.phase
        if phase == Phase.DEAL:
            for seat in SEATS:
                self._place(state, seat, builds.random_build(random))
            state.notes.append(("dealt",))
            state.phase = Phase.PLACEMENT
        elif phase == Phase.DRAFT_ORDER:
            state.drafter = random.below(2)
            state.notes.append(("draft-first", state.drafter))
            state.phase = Phase.DRAFT
        elif phase == Phase.PLACEMENT:
            for seat in SEATS:
                order = list(state.tiles[seat])
                random.shuffle(order)
                # "Your control room tile must be positioned in the center column closest to you
                # … you must, if necessary, switch the control room and the compartment that
                # occupies this position."
                control = next(i for i, name in enumerate(order) if TILES[name].is_control)
                order[control], order[CONTROL] = order[CONTROL], order[control]
                self._place(state, seat, order)
            state.notes.append(("placed",))
            state.phase = Phase.SWAP
        elif phase == Phase.FIRST:
            state.first = random.below(2)
            state.notes.append(("first", state.first))
            self._start_turn(state, state.first)

    def apply_simultaneous(self, state: TorpedoState, actions: tuple[tuple[int, Any], ...]) -> None:
        state.notes = []
        if state.phase == Phase.BUILD:
            for seat, action in actions:
                self._place(state, seat, action.tiles)
                state.notes.append(("built", seat, builds.starter_of(action.tiles)))
            state.phase = Phase.PLACEMENT
            return
        # Phase.SWAP: both opened together.
        for seat, action in actions:
            if type(action) is Swap:
                order = list(state.tiles[seat])
                order[action.a], order[action.b] = order[action.b], order[action.a]
                self._place(state, seat, order)
                state.notes.append(("swapped", seat, action.a, action.b))
            else:
                state.notes.append(("kept", seat))
        self._man_the_submarines(state)
        state.phase = Phase.FIRST

    def apply_action(self, state: TorpedoState, player: int, action: Any) -> None:
        state.notes = []
        if state.phase == Phase.ACTION:
            state.captain = _captain_after(state.captain, player, action)
        _APPLY[type(action)](self, state, player, action)

    def _apply_pick(self, state: TorpedoState, player: int, action: Pick) -> None:
        state.pool.remove(action.name)
        self._place(state, player, (*state.tiles[player], action.name))
        state.picks += 1
        state.notes.append(("picked", player, action.name))
        if state.picks == 2 * builds.BUILD_SIZE:
            for seat in SEATS:
                self._place(state, seat, sorted(state.tiles[seat]))
            state.phase = Phase.PLACEMENT

    def _apply_breathe(self, state: TorpedoState, player: int, action: Breathe) -> None:
        self._breathe(state, player, action.position, auto=False)

    def _apply_maneuver(self, state: TorpedoState, player: int, action: Maneuver) -> None:
        state.sectors[player] += action.own
        state.sectors[1 - player] += action.enemy
        if action.upper is not None:
            state.upper = action.upper
        state.maneuvered = True
        state.notes.append(("maneuver", player, action.own, action.enemy, action.upper, tuple(state.sectors)))
        after_active(state, (-1, -1))

    def _apply_move(self, state: TorpedoState, player: int, action: Move) -> None:
        sub, _, _, alive = state.crew[action.crew]
        state.crew[action.crew] = (sub, action.to, False, alive)
        state.notes.append(("move", action.crew, sub, action.to))

    def _apply_captain_move(self, state: TorpedoState, player: int, action: CaptainMove) -> None:
        captain = player * CREW_PER_SEAT
        sub, _, ready, alive = state.crew[captain]
        state.crew[captain] = (sub, action.to, ready, alive)
        state.notes.append(("captain", captain, sub, action.to))

    def _apply_trigger(self, state: TorpedoState, player: int, action: Trigger) -> None:
        effect = state.kit[player][action.position].effects[action.effect]
        if effect.alert == "single":
            state.used.append((player, action.position, action.effect))
            state.used.sort()
        state.source = (player, action.position, action.effect, len(action.crews) == 2, False)
        state.crews = action.crews
        state.stepping = 0
        state.notes.append(("trigger", player, action.position, action.effect, action.crews))
        self._continue_steps(state)

    def _apply_step(self, state: TorpedoState, player: int, action: Step) -> None:
        self._step(state, action.crew, action.to, auto=False)
        self._continue_steps(state)

    def _apply_end(self, state: TorpedoState, player: int, action: EndTurn) -> None:
        state.notes.append(("end", player))
        self._start_turn(state, 1 - player)

    # -- the flow ------------------------------------------------------------------------------

    def _place(self, state: TorpedoState, seat: int, order: Sequence[str]) -> None:
        state.tiles[seat] = tuple(order)
        state.kit[seat] = kit_of(order)

    def _man_the_submarines(self, state: TorpedoState) -> None:
        """Setup's last steps: one oxygen token on each oxygen gear, five crew in the control room
        (already there since setup), both submarines in sector 3."""
        for seat in SEATS:
            state.oxygen[seat] = [tile.oxygen for tile in state.kit[seat]]

    def _start_turn(self, state: TorpedoState, seat: int) -> None:
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
            self._breathe(state, seat, holding[0], auto=True)

    def _breathe(self, state: TorpedoState, seat: int, position: int, auto: bool) -> None:
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

    def _continue_steps(self, state: TorpedoState) -> None:
        """Move and exhaust each triggering crew member in turn (asking where when there is a
        choice), then resolve the effect."""
        seat, position = state.source[0], state.source[1]
        while state.stepping < len(state.crews):
            crew = state.crews[state.stepping]
            if position == CONTROL:
                # "If he triggers the control room effect, he does not move."
                self._step(state, crew, CONTROL, auto=True)
                continue
            options = step_options(state, seat, position)
            if len(options) > 1:
                state.phase = Phase.STEP
                return
            self._step(state, crew, options[0], auto=True)
        resolve(state)

    def _step(self, state: TorpedoState, crew: int, to: int, auto: bool) -> None:
        sub, at, _, alive = state.crew[crew]
        state.crew[crew] = (sub, to, False, alive)
        state.stepping += 1
        if to != at:
            state.notes.append(("step", crew, sub, to, auto))

    # -- encodings -----------------------------------------------------------------------------

    def encode_action(self, action: Any) -> Any:
        return encode_action(action)

    def decode_action(self, data: Any) -> Any:
        return decode_action(data)

    def encode_state(self, state: TorpedoState) -> Any:
        return {
            "build": state.build,
            "phase": state.phase,
            "turn": state.turn,
            "active": state.active,
            "first": state.first,
            "turns_taken": state.turns_taken,
            "tiles": [list(tiles) for tiles in state.tiles],
            "damage": state.damage,
            "oxygen": state.oxygen,
            "crew": [list(record) for record in state.crew],
            "sectors": state.sectors,
            "upper": state.upper,
            "maneuvered": state.maneuvered,
            "captain": state.captain,
            "used": [list(entry) for entry in state.used],
            "reacted": state.reacted,
            "pool": state.pool,
            "drafter": state.drafter,
            "picks": state.picks,
            "source": None if state.source is None else list(state.source),
            "crews": list(state.crews),
            "stepping": state.stepping,
            "amount": state.amount,
            "hit": state.hit,
            "assigned": state.assigned,
            "after": list(state.after),
            "losers": state.losers,
            "taken": state.taken,
            "cards": state.cards.encode(),
        }

    def decode_state(self, data: Any) -> TorpedoState:
        state = TorpedoState.__new__(TorpedoState)
        state.cards = CardState.decode(data["cards"])
        state.build = data["build"]
        state.phase = data["phase"]
        state.turn = data["turn"]
        state.active = data["active"]
        state.first = data["first"]
        state.turns_taken = list(data["turns_taken"])
        state.tiles = [tuple(tiles) for tiles in data["tiles"]]
        state.kit = [kit_of(tiles) for tiles in state.tiles]
        state.damage = [list(row) for row in data["damage"]]
        state.oxygen = [list(row) for row in data["oxygen"]]
        state.crew = [tuple(record) for record in data["crew"]]  # type: ignore[misc]
        state.sectors = list(data["sectors"])
        state.upper = data["upper"]
        state.maneuvered = data["maneuvered"]
        state.captain = data["captain"]
        state.used = [tuple(entry) for entry in data["used"]]  # type: ignore[misc]
        state.reacted = list(data["reacted"])
        state.pool = list(data["pool"])
        state.drafter = data["drafter"]
        state.picks = data["picks"]
        state.source = None if data["source"] is None else tuple(data["source"])  # type: ignore[assignment]
        state.crews = tuple(data["crews"])
        state.stepping = data["stepping"]
        state.amount = data["amount"]
        state.hit = data["hit"]
        state.assigned = data["assigned"]
        state.after = tuple(data["after"])  # type: ignore[assignment]
        state.losers = list(data["losers"])
        state.taken = list(data["taken"])
        state.notes = []
        return state


def _activates_captain(player: int, action: Any) -> bool:
    """Whether ``action`` is ``player``'s captain's normal activation: his move or a trigger he
    takes part in."""
    captain = player * CREW_PER_SEAT
    kind = type(action)
    return (kind is Move and action.crew == captain) or (kind is Trigger and captain in action.crews)


def _captain_after(status: int, player: int, action: Any) -> int:
    """The captain's free-move status after the active ``player``'s ``action`` in its action
    phase (I15): the free move may come just before his activation (then it must follow) or just
    after it (nothing of the active player's between)."""
    if type(action) is CaptainMove:
        return CAPTAIN_OWES if status == CAPTAIN_FREE else CAPTAIN_MOVED
    if _activates_captain(player, action):
        return CAPTAIN_MOVED if status == CAPTAIN_OWES else CAPTAIN_JUST
    return CAPTAIN_MISSED if status == CAPTAIN_JUST else status


_AIM_KINDS: Mapping[str, tuple[type, ...]] = {
    "crew-attack": (TargetCrew,),
    "repel": (TargetCrew,),
    "board": (TargetTile,),
    "repair": (TargetTile,),
    "refill": (TargetTile,),
    "move-crew": (Relocate,),
    "move-sub": (Drive,),
}


def _rule(function: Any) -> Any:
    """A part module's check or apply function, called as the class's own are (the rules first)."""
    return lambda rules, state, player, action: function(state, player, action)


_CHECKS = {
    Build: Torpedo._check_build,
    Swap: Torpedo._check_swap,
    Pick: Torpedo._check_pick,
    Breathe: Torpedo._check_breathe,
    Maneuver: Torpedo._check_maneuver,
    Move: Torpedo._check_move,
    CaptainMove: Torpedo._check_captain_move,
    Trigger: Torpedo._check_trigger,
    React: _rule(check_react),
    Step: Torpedo._check_step,
    TargetTile: _rule(check_target_tile),
    TargetCrew: _rule(check_target_crew),
    Relocate: _rule(check_relocate),
    Drive: _rule(check_drive),
    Assign: _rule(check_assign),
}
_APPLY = {
    Pick: Torpedo._apply_pick,
    Breathe: Torpedo._apply_breathe,
    Maneuver: Torpedo._apply_maneuver,
    Move: Torpedo._apply_move,
    CaptainMove: Torpedo._apply_captain_move,
    Trigger: Torpedo._apply_trigger,
    Step: Torpedo._apply_step,
    React: _rule(apply_react),
    Pass: _rule(apply_pass),
    EndTurn: Torpedo._apply_end,
    TargetTile: _rule(apply_target_tile),
    TargetCrew: _rule(apply_aim),
    Relocate: _rule(apply_aim),
    Drive: _rule(apply_aim),
    Absorb: _rule(apply_absorb),
    Assign: _rule(apply_assign),
}
