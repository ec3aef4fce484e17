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

This class is the door: it says which step the game is at and sends each action to the module of
the rulebook's part that checks and applies it (``_CHECKS``, ``_APPLY``). None of them imports
this one::

    Setup: build your submarine, rule the seas        build.py
    Game Play: recovery, the action phase (maneuver,  turn.py
      move, the captain's free move, trigger)
    Resolving Effects, Targeting: which effects may   effects.py (questions: it changes nothing)
      be used now, at what, and why a choice is not
    Resolving Effects and Attacks, Winning: what an   resolving.py
      effect does, the counter window, the loss
    the state, its phases, the crew's numbering       state.py
"""

from __future__ import annotations

from typing import Any, Mapping

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

from p2pgames.games.torpedo import build as builds, effects, resolving, turn
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
from p2pgames.games.torpedo.geometry import CONTROL, POSITIONS
from p2pgames.games.torpedo.state import (
    CAPTAIN_FREE,
    CAPTAIN_OWES,
    CREW_PER_SEAT,
    RESOLVING,
    SEATS,
    Phase,
    TorpedoState,
    owner,
)
from p2pgames.games.torpedo.tiles import TILESET

__all__ = ["Phase", "Torpedo", "TorpedoState", "BUILD_OPTIONS"]

BUILD_OPTIONS = ("custom", "starter", "random", "draft")
START_SECTOR = 3
START_UPPER = 1  # "each on its own player's side": player 1's submarine up, player 0's down (I2)

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
_PASS, _KEEP = Pass(), Keep()


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
        state.kit = [builds.NO_KIT, builds.NO_KIT]
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
                builds.place(state, seat, TILESET.starters[faction].layout)
            builds.man_the_submarines(state)
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
            return _TURNS[phase][effects.defender_seat(state)]
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
            return GameOver((1, 1), SEATS, effects.over_summary(state))
        return GameOver(scores, (1 - losers[0],), effects.over_summary(state))

    # -- legal actions -------------------------------------------------------------------------

    def legal_actions(self, state: TorpedoState, player: int, knowledge: Knowledge) -> list[Any]:
        phase = state.phase
        if phase == Phase.ACTION:
            return turn.action_phase_options(state, player) if player == state.active else []
        if phase in RESOLVING:
            return effects.resolution_options(state, player)
        if phase == Phase.COUNTER:
            if player != 1 - state.active:
                return []
            return [React(position, effect) for position, effect in effects.reactions(state)] + [_PASS]
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
            return [Pick(name) for name in builds.draft_options(state, player)]
        return []

    # -- checking actions ----------------------------------------------------------------------

    def check_action(self, state: TorpedoState, player: int, action: Any) -> None:
        """Raise :class:`IllegalAction` with a reason a person can read unless ``player`` may take
        ``action`` now. Every rule is public: nothing is left to check later."""
        kind = type(action)
        self.check_kind(state, player, kind)
        if state.phase == Phase.ACTION and state.captain == CAPTAIN_OWES and not turn.activates_captain(player, action):
            raise IllegalAction(
                player,
                "your captain made his free move just before his activation: move him or trigger with him now",
            )
        check = _CHECKS.get(kind)
        if check is not None:
            check(state, player, action)

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
            builds.deal(state, random)
        elif phase == Phase.DRAFT_ORDER:
            builds.choose_drafter(state, random)
        elif phase == Phase.PLACEMENT:
            builds.place_at_random(state, random)
        elif phase == Phase.FIRST:
            builds.choose_first(state, random)

    def apply_simultaneous(self, state: TorpedoState, actions: tuple[tuple[int, Any], ...]) -> None:
        state.notes = []
        if state.phase == Phase.BUILD:
            builds.open_builds(state, actions)
        else:  # Phase.SWAP
            builds.open_swaps(state, actions)

    def apply_action(self, state: TorpedoState, player: int, action: Any) -> None:
        state.notes = []
        if state.phase == Phase.ACTION:
            state.captain = turn.captain_after(state.captain, player, action)
        _APPLY[type(action)](state, player, action)

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
        state.kit = [builds.kit_of(tiles) for tiles in state.tiles]
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


_AIM_KINDS: Mapping[str, tuple[type, ...]] = {
    "crew-attack": (TargetCrew,),
    "repel": (TargetCrew,),
    "board": (TargetTile,),
    "repair": (TargetTile,),
    "refill": (TargetTile,),
    "move-crew": (Relocate,),
    "move-sub": (Drive,),
}

# Each action's check and its effect, in the module of the rulebook's part it belongs to.
_CHECKS = {
    Build: builds.check_build,
    Swap: builds.check_swap,
    Pick: builds.check_pick,
    Breathe: turn.check_breathe,
    Maneuver: turn.check_maneuver,
    Move: turn.check_move,
    CaptainMove: turn.check_captain_move,
    Trigger: turn.check_trigger,
    Step: turn.check_step,
    React: effects.check_react,
    TargetTile: effects.check_target_tile,
    TargetCrew: effects.check_target_crew,
    Relocate: effects.check_relocate,
    Drive: effects.check_drive,
    Assign: effects.check_assign,
}
_APPLY = {
    Pick: builds.apply_pick,
    Breathe: turn.apply_breathe,
    Maneuver: turn.apply_maneuver,
    Move: turn.apply_move,
    CaptainMove: turn.apply_captain_move,
    Trigger: turn.apply_trigger,
    Step: turn.apply_step,
    EndTurn: turn.apply_end,
    React: resolving.apply_react,
    Pass: resolving.apply_pass,
    TargetTile: resolving.apply_target_tile,
    TargetCrew: resolving.apply_aim,
    Relocate: resolving.apply_aim,
    Drive: resolving.apply_aim,
    Absorb: resolving.apply_absorb,
    Assign: resolving.apply_assign,
}
