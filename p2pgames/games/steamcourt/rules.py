"""The rules of Steam Court as a pure state machine (see ``RULES.md`` beside this file): the game
itself (:class:`SteamCourt`, the contract the engine plays), which follows the flow below and
leaves each rule to the module named after its part of the rulebook.

=================  ==========================================================================
``state.py``       the state: the tables (:class:`~.state.Table`) and every player's hands,
                   tokens and powers (:class:`~.state.SteamCourtState`)
``setup.py``       "Game Setup", "Starting a New Quarter": the tables and token stacks, the
                   start tokens' seating, each quarter's deal (a coup's deal again), reseating
                   between quarters (the Party variant's promotion and demotion)
``privileges.py``  "Characters": the Beginning of Quarter privileges and the powers in play
                   (the stop, an unpass, a retrieve or a steal, a dive, the plague, the
                   Discard-two token), with what each character's record says (``published.py``)
``tricks.py``      "Game Play": laying and following, passing, a trick won and cleared, the
                   next lead; the Masterstroke, the Multiplier and the dual cards
``scoring.py``     "End of Quarter", "Tokens", "End of 4th Quarter": going out, the gear tokens,
                   the clock's moves, the result
``duo.py``         the Duo variant's deck, ladder and winner; the Solo variant is a game of its
                   own (``solo_game.py``, its rules ``solo.py``)
=================  ==========================================================================

This module keeps the contract's methods, which dispatch by the phase below, the steps and
their prompts, the rulesets, the encodings, and the hooks a rulebook's own game overrides
(``steamcourt2015``): :meth:`SteamCourt._table_step`, :meth:`SteamCourt._result`,
:meth:`SteamCourt._after_audit`, :meth:`SteamCourt.one_point_power`, :meth:`SteamCourt._draw`,
:meth:`SteamCourt._put_back` (the parts call them back on the game: :class:`~.state.Hooks`).

Flow of a quarter at a table (``table.phase``)::

    coup (window) ─► [coup-reveal ─► coup-audit ─► deal again]
    ─► privileges in seat order: give | inspect | serve ─► trade | hoard
    ─► turn ─► revealing ─► [stop (window)] ─► next turn | unpass (window)
            ─► … trick over ─► [retrieve | steal (windows)] ─► clear, lead
       turn ─► diving ─► return;  turn ─► return (plague);  turn ─► discarding
    ─► done (the quarter is over at this table)

and ``state.phase``: ``seating`` (a chance step: the start tokens), ``playing``, ``auditing``
(the quarter's deals are being audited), ``over``.

The Party variant has two tables, the Royal table (``tables[0]``) and the Renegade table, each
dealt its own deck among its own players; both play at once (one step joins both tables' steps,
:meth:`SteamCourt._party_step`), a table whose quarter is over waits for the other, and the audit
of both is followed by promotion and demotion (``setup.py``).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from p2pgames.engine import (
    ActionCodec,
    CardOperations,
    CardState,
    Chance,
    Claim,
    Concealment,
    Game,
    GameOver,
    IllegalAction,
    Knowledge,
    ReactionWindow,
    Ruleset,
    RulesetError,
    RulesetOption,
    Step,
    Turn,
)

from p2pgames.games.steamcourt import privileges, scoring, setup, tricks
from p2pgames.games.steamcourt.actions import (
    Bestow,
    Coup,
    DiscardTwo,
    Dive,
    Give,
    Hoard,
    Inspect,
    KeepRest,
    Lay,
    Masterstroke,
    Pass,
    Plague,
    PutBack,
    Retrieve,
    Serve,
    Steal,
    Stop,
    Trade,
    TradeKeeping,
    Unpass,
    CODEC,
)
from p2pgames.games.steamcourt.cards import CHARACTER_TITLE, KIND, MASTERSTROKE, PARTY_REMOVABLE, TABLE_NAMES
from p2pgames.games.steamcourt.phases import Phase
from p2pgames.games.steamcourt.published import PUBLISHED
from p2pgames.games.steamcourt.rulebook import Draw, Rulebook
from p2pgames.games.steamcourt.scoring import ONE_POINT_POWERS
from p2pgames.games.steamcourt.setup import QUARTERS
from p2pgames.games.steamcourt.solo_game import SOLO_GAME
from p2pgames.games.steamcourt.state import SteamCourtState, Table

__all__ = ["SteamCourt", "SteamCourtState", "Table", "Phase", "QUARTERS", "ONE_POINT_POWERS", "CLI_VARIANTS"]

SCORINGS = ("gears", "clock")
# court: one table of 2–7; party: a Royal and a Renegade table (7–12); duo: the two-player ladder;
# solo: one player against the Court Hand.
VARIANTS = ("court", "party", "duo", "solo")
# The Duo variant's win condition, agreed before the game: the most gear points, or the Queen's seat.
DUO_WINS = ("points", "queen")
# Start tokens (RULES.md, I2): the printed character numbers (the rulebook), or the seat positions
# 1…n scored as before. ``seat`` only where start tokens are scored: the court with gear tokens and
# the Duo variant's points.
START_TOKENS = ("character", "seat")
# The variants offered on the command line (``--variant NAME``; ``--solo`` is ``solo``): the ruleset
# options each sets, what it is, and the number of players when ``--players`` isn't given
# (:attr:`SteamCourt.cli_variants`).
CLI_VARIANTS: dict[str, dict[str, Any]] = {
    "party": {"options": {"variant": "party"}, "about": "Royal and Renegade tables, 7–12 players", "players": 8},
    "duo": {"options": {"variant": "duo"}, "about": "two players climbing the character ladder", "players": 2},
    "clock": {"options": {"scoring": "clock"}, "about": "Clock Climbing scoring, 2–6 players"},
    "solo": {"options": {"variant": "solo"}, "about": "one player against the Court Hand", "players": 1},
}


# The kinds of move each table phase takes, and what a player is told who tries another
# (:meth:`SteamCourt.check_kind`); phases not listed take none ("no move is expected now").
_PHASE_KINDS: dict[str, tuple[frozenset, str]] = {
    Phase.TURN: (
        frozenset({Lay, Masterstroke, Pass, DiscardTwo, Dive, Plague}),
        "lay cards, pass, or use a power of your turn",
    ),
    Phase.COUP: (frozenset({Coup, Pass}), "pull a coup or pass"),
    Phase.STOP: (frozenset({Stop, Pass}), "stop the lay or pass"),
    Phase.UNPASS: (frozenset({Unpass, Pass}), "unpass or pass"),
    Phase.RETRIEVE: (frozenset({Retrieve, Pass}), "retrieve your last lay or pass"),
    Phase.STEAL: (frozenset({Steal, Pass}), "steal a card or pass"),
    Phase.RETURN: (frozenset({PutBack, KeepRest}), "put back a drawn card or keep the rest"),
    Phase.GIVE: (frozenset({Give, Pass}), "give a card or pass"),  # the 2015 Queen: Bestow too
    Phase.SERVE: (frozenset({Serve}), "you must give your two highest numbered cards"),
    Phase.TRADE: (frozenset({Trade, TradeKeeping}), "trade or keep your hand"),
    Phase.HOARD: (frozenset({Hoard}), "hoard or leave the Court Hand"),
    Phase.INSPECT: (frozenset({Inspect, Pass}), "inspect a player or pass"),
}

_PASS = Pass()
_SEATING = Chance("draw start tokens for seats")


class SteamCourt(Game[SteamCourtState]):
    """Steam Court: 2–7 players at one table, 7–12 at two (the Party variant) and the Duo variant
    (two players climbing the ladder, ``duo.py``). The Solo variant is a game of its own
    (:data:`~.solo_game.SOLO_GAME`, returned by :meth:`for_ruleset`). Stateless: every method
    takes the state.

    ``seating`` replaces the recommended characters for some player counts (characters in seat
    order, preeminent first): for tests and variants that seat other characters. ``book`` says
    what each character does (:mod:`~.rulebook`): the published rules' unless given.
    """

    name = "steamcourt"
    title = "Steam Court"
    # Edition 2 since start tokens carry the character numbers (a ``start_tokens`` option and
    # state key, RULES.md I2), 3 since hands are re-masked before a privilege hides their cards (a
    # table's ``seen`` state key, I51), 4 since retired deals leave the card state (its
    # ``next_deal`` key): every variant's, Solo's too (it played edition 1 until then).
    rules_edition = 4
    cli_variants = CLI_VARIANTS
    min_players = 1
    max_players = 12
    options = (
        RulesetOption(
            "scoring",
            "gears",
            SCORINGS,
            "gears: start token plus four gear tokens; clock: Clock Climbing (2–6 players)",
        ),
        RulesetOption(
            "variant",
            "court",
            VARIANTS,
            "court: one table (2–7 players); party: Royal and Renegade tables (7–12); duo: two players "
            "climbing the character ladder; solo: one player against the Court Hand. Chosen by the "
            "number of players when not given",
        ),
        RulesetOption(
            "duo_win",
            "points",
            DUO_WINS,
            "Duo variant: the winner has the most gear points, or is the Queen's after the 4th quarter",
        ),
        RulesetOption(
            "start_tokens",
            "character",
            START_TOKENS,
            "character: start tokens carry the character cards' numbers (Queen 1 … Tea Boy 6, "
            "Inspector 8), as printed; seat: the seat positions 1…n, scored (gear-token court and "
            "Duo points only; the default for two players at one table)",
        ),
        RulesetOption(
            "removed",
            "jester",
            PARTY_REMOVABLE,
            "Party variant with 11 players: the character card left out (any but the Queen)",
        ),
    )

    # The kinds of move each table phase takes (see _PHASE_KINDS), their wire forms, and the
    # class of the tables (a rulebook's own phases, moves and table fields go in a subclass).
    phase_kinds: Mapping[str, tuple[frozenset, str]] = _PHASE_KINDS
    codec: ActionCodec = CODEC
    table_type: type[Table] = Table
    state_type: type[SteamCourtState] = SteamCourtState

    def __init__(self, seating: Mapping[int, Sequence[str]] | None = None, book: Rulebook = PUBLISHED) -> None:
        self.seating = {players: tuple(chars) for players, chars in (seating or {}).items()}
        self.book = book

    def ruleset(
        self, players: int, options: Mapping[str, Any] | None = None, *, open_seats: bool = True, forfeit: bool = False,
    ) -> Ruleset:
        """As :meth:`Game.ruleset`; without a ``variant`` the number of players chooses it.

        One player plays solo, 8–12 the Party variant, 2–7 the court at one table (two players
        play the Duo variant only when asked: the core game seats them as Queen and Tea Boy).
        """
        given = dict(options or {})
        if "variant" not in given and isinstance(players, int):
            given["variant"] = "solo" if players == 1 else "party" if players >= 8 else "court"
        if "start_tokens" not in given and _two_at_court(players, given):
            given["start_tokens"] = "seat"  # the printed 1 and 6 would decide the game (I2)
        return super().ruleset(players, given, open_seats=open_seats, forfeit=forfeit)

    def for_ruleset(self, ruleset: Ruleset) -> Game:
        return SOLO_GAME if ruleset["variant"] == "solo" else self

    def describe_ruleset(self, ruleset: Ruleset) -> str:
        players = f"{ruleset.players} player" + ("" if ruleset.players == 1 else "s")
        variant = ruleset["variant"]
        if variant == "court":
            scoring = "Clock Climbing" if ruleset["scoring"] == "clock" else "gear tokens"
            tokens = "; start tokens by seat" if ruleset["start_tokens"] == "seat" else ""
            return f"Steam Court, {players} at one table ({scoring}{tokens})"
        if variant == "party":
            removed = f", without the {CHARACTER_TITLE[ruleset['removed']]}" if ruleset.players == 11 else ""
            return f"Steam Court, {players}: the Party variant (Royal and Renegade tables{removed})"
        if variant == "duo":
            goal = "the Queen's seat" if ruleset["duo_win"] == "queen" else "the most points"
            if ruleset["start_tokens"] == "seat":
                goal += ", start tokens 1 and 2 scored"
            return f"Steam Court, {players}: the Duo variant (goal: {goal})"
        return SOLO_GAME.describe_ruleset(ruleset)

    def check_ruleset(self, ruleset: Ruleset) -> None:
        variant, players = ruleset["variant"], ruleset.players
        if ruleset["scoring"] == "clock" and (variant != "court" or players > 6):
            raise RulesetError("Clock Climbing is for 2–6 players at one table")
        if variant == "duo" and players != 2:
            raise RulesetError("the Duo variant is for exactly 2 players")
        if variant == "solo" and players != 1:
            raise RulesetError("the Solo variant is for exactly 1 player")
        if ruleset["duo_win"] != "points" and variant != "duo":
            raise RulesetError("duo_win is an option of the Duo variant")
        if ruleset["removed"] != "jester" and not (variant == "party" and players == 11):
            raise RulesetError("a character card is removed only by 11 players in the Party variant")
        if variant == "party" and not 7 <= players <= 12:
            raise RulesetError("the Party variant is for 7–12 players")
        self._check_start_tokens(ruleset)
        if variant == "court":
            if players < 2:
                raise RulesetError("the court at one table is for 2–7 players; one player plays solo")
            if players > 7:
                raise RulesetError("one table seats at most 7 players: 8–12 play the Party variant")

    @staticmethod
    def _check_start_tokens(ruleset: Ruleset) -> None:
        """``seat`` only where start tokens are scored; ``character`` not where the printed tokens
        would decide the game at the draw (I2)."""
        variant, players = ruleset["variant"], ruleset.players
        if ruleset["start_tokens"] == "seat":
            if variant in ("party", "solo"):
                kind = "the Party variant's are the character numbers" if variant == "party" else "Solo has none"
                raise RulesetError(f"start_tokens=seat: {kind} (start_tokens is for the court and the Duo variant)")
            if ruleset["scoring"] == "clock":
                raise RulesetError(
                    "start_tokens=seat: Clock Climbing doesn't score start tokens, and both readings "
                    "stand them on the clock in seat order"
                )
            if variant == "duo" and ruleset["duo_win"] == "queen":
                raise RulesetError("start_tokens=seat scores start tokens: not with duo_win=queen, which scores none")
        elif variant == "court" and players == 2 and ruleset["scoring"] == "gears":
            raise RulesetError(
                "start_tokens=character: two players at one table would hold the Queen's 1 and the Tea "
                "Boy's 6, more than the gear tokens can make up (4): two players score start tokens by seat"
            )

    # -- setup and steps -----------------------------------------------------------------------

    def setup(self, ruleset: Ruleset) -> SteamCourtState:
        return self.new_state(
            ruleset.players, ruleset["scoring"], ruleset["variant"], ruleset["duo_win"], ruleset["start_tokens"],
            setup.new_tables(ruleset, self.book, self.seating),
        )

    def new_state(
        self, players: int, scoring: str, variant: str, duo_win: str, start_tokens: str, tables: list[Table]
    ) -> SteamCourtState:
        """A state (of :attr:`state_type`) before the seating draw: these fields and ``tables``,
        no cards dealt, and every player's hand, tokens, powers and tricks empty."""
        state = self.state_type.__new__(self.state_type)
        state.players = players
        state.scoring = scoring
        state.variant = variant
        state.duo_win = duo_win
        state.start_tokens = start_tokens
        state.cards = CardState()
        state.phase = Phase.SEATING
        state.quarter = 0
        state.tables = tables
        state.hands = [[] for _ in range(players)]
        state.start = [0] * players
        state.gears = [[] for _ in range(players)]
        state.powers = [[] for _ in range(players)]
        state.clock = [0] * players
        state.tricks = [0] * players
        state.used = [[] for _ in range(players)]
        state.notes = []
        state.book = self.book
        return state

    def step(self, state: SteamCourtState) -> Step:
        # Called after every event, several times: keep it cheap.
        if state.cards.pending:
            return CardOperations(tuple(state.cards.pending))
        phase = state.phase
        if phase == Phase.PLAYING:
            tables = state.tables
            if len(tables) == 1:
                return self._table_step(state, tables[0])
            return self._party_step(state, tables)
        if phase == Phase.SEATING:
            return _SEATING
        if phase == Phase.OVER:
            return self._result(state)
        raise AssertionError(f"no step for phase {phase!r}")  # pragma: no cover

    def _party_step(self, state: SteamCourtState, tables: list[Table]) -> Step:
        """Both tables play at once (RULES.md, I23): one step for every table still playing.

        Its actors are both tables' deciders (Royal table first); it is a :class:`Turn` when every
        table waits on a turn and a :class:`ReactionWindow` as soon as one table waits on a window
        (so a window's seat with nothing to decide is still answered at once); the prompt names
        each table.
        """
        steps = [
            (index, self._table_step(state, table))
            for index, table in enumerate(tables)
            if table.phase != Phase.DONE
        ]
        actors: tuple[int, ...] = ()
        prompts = []
        window = False
        for index, step in steps:
            if type(step) is Turn:
                actors += step.actors
            else:
                actors += step.players
                window = True
            prompts.append(f"{TABLE_NAMES[index]}: {step.prompt}")
        prompt = " · ".join(prompts)
        return ReactionWindow(actors, prompt) if window else Turn(actors, prompt)

    def _table_step(self, state: SteamCourtState, table: Table) -> Step:
        phase = table.phase
        if phase == Phase.TURN:
            if not table.lays:
                return Turn((table.turn,), "lead a trick")
            top = table.lays[-1]
            verb = "match or beat" if self.book[table.character_of(table.turn)].matches else "beat"
            return Turn((table.turn,), f"{verb} {top[3]} × {top[2]}, or pass")
        if phase == Phase.STOP:
            return ReactionWindow((table.actor,), "stop the lay just made?")
        if phase == Phase.UNPASS:
            return ReactionWindow((table.actor,), "unpass and play again?")
        if phase == Phase.COUP:
            return ReactionWindow(tuple(table.asking), "pull a coup with three Masterstrokes?")
        if phase == Phase.RETRIEVE:
            if self.book[table.character_of(table.actor)].retrieves_all:
                return ReactionWindow((table.actor,), "take back every card you laid in the lost trick?")
            return ReactionWindow((table.actor,), "retrieve your last lay of the lost trick?")
        if phase == Phase.STEAL:
            return ReactionWindow((table.actor,), "steal a numbered card from the machine?")
        if phase == Phase.RETURN:
            left = table.returns
            return Turn((table.actor,), f"put back up to {left} drawn card{'s' if left != 1 else ''}")
        if phase == Phase.GIVE:
            return Turn((table.actor,), "give one card to another player, or pass")
        if phase == Phase.SERVE:
            return Turn((table.actor,), "give your two highest numbered cards")
        if phase == Phase.TRADE:
            return Turn((table.actor,), "trade your hand for the Court Hand, or keep it")
        if phase == Phase.HOARD:
            return Turn((table.actor,), "hoard the Court Hand, or leave it")
        if phase == Phase.INSPECT:
            return Turn((table.actor,), "look at the Court Hand and one player's hand, or pass")
        raise AssertionError(f"no step for table phase {phase!r}")  # pragma: no cover

    def _result(self, state: SteamCourtState) -> GameOver:
        return scoring.result(state)

    # -- legal actions -------------------------------------------------------------------------

    def legal_actions(self, state: SteamCourtState, player: int, knowledge: Knowledge) -> list[Any]:
        if state.cards.pending or state.phase != Phase.PLAYING:
            return []
        table = state.table_of(player)
        phase = table.phase
        if phase == Phase.TURN:
            if player != table.turn:
                return []
            return tricks.turn_options(state, table, player, knowledge) + privileges.turn_powers(
                state, table, player, knowledge
            )
        if phase == Phase.COUP:
            if player not in table.asking:
                return []
            masterstrokes = [
                slot for slot in sorted(state.hands[player])
                if KIND[state.value(slot, knowledge) or "1a"] == MASTERSTROKE
            ]
            if len(masterstrokes) == 3:
                return [Coup(tuple(masterstrokes)), _PASS]
            return [_PASS]
        if player != table.actor:
            return []
        return privileges.options(state, table, player, knowledge)

    def two_highest(self, state: SteamCourtState, player: int, knowledge: Knowledge) -> tuple[int, ...]:
        """The slots a Tea Boy's or Vagabond's gift takes: his two highest numbered cards (I5;
        :func:`~.privileges.two_highest`)."""
        return privileges.two_highest(state, player, knowledge)

    def lead_cap(self, state: SteamCourtState, table: Table) -> int:
        """The largest multiplicity a Multiplier may declare on a lead (I12; :func:`~.tricks.lead_cap`)."""
        return tricks.lead_cap(state, table)

    def lay_options(self, state: SteamCourtState, table: Table, player: int, knowledge: Knowledge) -> list[Any]:
        """Every lay ``player`` can make now (:func:`~.tricks.lay_options`)."""
        return tricks.lay_options(state, table, player, knowledge)

    # -- checking actions ----------------------------------------------------------------------

    def check_kind(self, state: SteamCourtState, player: int, kind: type) -> Table:
        """Raise :class:`IllegalAction` unless ``player`` may make a move of ``kind`` now (whose
        move it is, and which kinds the current phase takes); return the player's table. The first
        check of :meth:`check_action`, and of a typed move before its cards are looked for."""
        if state.cards.pending:
            raise IllegalAction(player, "wait until the cards being dealt or revealed are done")
        if state.phase != Phase.PLAYING or not 0 <= player < state.players:
            raise IllegalAction(player, "no move is expected now")
        table = state.table_of(player)
        phase = table.phase
        if phase == Phase.TURN:
            if player != table.turn:
                raise IllegalAction(player, "it is not your turn")
        elif phase == Phase.COUP:
            if player not in table.asking:
                raise IllegalAction(player, "you have nothing to react to now")
        elif player != table.actor:
            raise IllegalAction(player, "you have nothing to decide now")
        kinds, reason = self.phase_kinds.get(phase, ((), "no move is expected now"))
        if kind not in kinds:
            raise IllegalAction(player, reason)
        return table

    def check_action(self, state: SteamCourtState, player: int, action: Any) -> None:
        """Raise :class:`IllegalAction` unless ``action`` is allowed by the public state.

        What hidden cards are is checked when they are revealed (a lay, a coup, a dive's card, a
        discard) or at the quarter's audit (the Tea Boy's and the Vagabond's two highest cards).
        """
        kind = type(action)
        table = self.check_kind(state, player, kind)
        phase = table.phase
        if phase == Phase.COUP:
            if kind is Coup:
                for slot in action.slots:
                    tricks.require_in_hand(player, slot, state.hands[player])
        elif phase == Phase.TURN and kind in tricks.PLAYS:
            tricks.check_play(state, table, player, action)
        else:
            privileges.check(state, table, player, action)

    def check_lay(self, state: SteamCourtState, table: Table, player: int, lay: Lay) -> None:
        """:meth:`check_action` for a :class:`Lay` that :meth:`check_kind` allowed
        (:func:`~.tricks.check_lay`)."""
        tricks.check_lay(state, table, player, lay)

    # -- applying events -----------------------------------------------------------------------

    def apply_chance(self, state: SteamCourtState, seed: bytes) -> None:
        setup.draw_start_tokens(state, seed)

    def after_cards(self, state: SteamCourtState, values: Mapping[int, str]) -> None:
        state.notes = []
        if state.phase == Phase.AUDITING:
            self._after_audit(state)
            return
        for table in state.tables:
            self._resume(state, table)

    def _resume(self, state: SteamCourtState, table: Table) -> None:
        """Go on from a table phase that waited for card values (now public)."""
        phase = table.phase
        if phase == Phase.REVEALING:
            tricks.lay_revealed(self, state, table)
        elif phase == Phase.DIVING:
            privileges.dive_revealed(self, state, table)
        elif phase == Phase.DISCARDING:
            privileges.discard_revealed(self, state, table)
        elif phase == Phase.COUP_REVEAL:
            setup.coup_revealed(state, table)
        elif phase == Phase.COUP_AUDIT:
            for deal in table.deals:
                state.cards.retire(deal)
            setup.deal(state, table)

    def kept_slots(self, state: SteamCourtState, seat: int) -> list[int]:
        return list(state.hands[seat])

    def concealed_moves(self, state: SteamCourtState, player: int, action: Any) -> list[Concealment]:
        # A gift or a service goes face down to its receiver alone; a trade puts the cards not
        # given to the trader face down into the Court Hand; a drawn card goes back face down into
        # its pile. Nobody else may be able to tell which of the hand's cards went.
        kind = type(action)
        if kind is Give:
            return [Concealment(action.slot, (action.to,))]
        if kind is Bestow or kind is Serve:
            return [Concealment(slot, (action.to,)) for slot in action.slots]
        if kind is Trade and action.trade:
            received = state.table_of(player).received
            return [Concealment(slot) for slot in state.hands[player] if slot not in received]
        if kind is TradeKeeping:
            return [Concealment(slot) for slot in state.hands[player] if slot not in action.slots]
        if kind is PutBack:
            return [Concealment(action.slot)]
        return []

    def check_claim(self, state: SteamCourtState, claim: Claim) -> None:
        privileges.check_claim(state, claim)

    def apply_action(self, state: SteamCourtState, player: int, action: Any) -> None:
        state.notes = []
        table = state.table_of(player)
        kind = type(action)
        phase = table.phase
        if phase == Phase.TURN:
            if kind in tricks.PLAYS:
                tricks.play(self, state, table, player, action)
            else:
                privileges.use_turn_power(self, state, table, player, action)
            return
        if phase == Phase.COUP:
            table.asking.remove(player)
            if kind is Coup:
                table.actor = player
                table.focus = list(action.slots)
                table.phase = Phase.COUP_REVEAL
                state.cards.reveal(action.slots)
                state.notes.append(("coup-claim", player))
                # Cards that were public already need no operation: go on at once.
                if not state.cards.pending:
                    setup.coup_revealed(state, table)
            elif not table.asking:
                privileges.next_privilege(state, table, 0)
            return
        privileges.apply(self, state, table, player, action)

    # -- hooks: what a rulebook's own game may do differently ----------------------------------

    def one_point_power(self, state: SteamCourtState) -> str | None:
        """The power on the back of this quarter's 1-point gear token, which the last player out
        takes (:func:`~.scoring.one_point_power`)."""
        return scoring.one_point_power(state)

    def _after_audit(self, state: SteamCourtState) -> None:
        """The quarter's cards are public now: between quarters, reseat and deal again
        (:func:`~.setup.after_audit`)."""
        setup.after_audit(state)

    def _draw(self, state: SteamCourtState, table: Table, player: int, count: int, draw: Draw) -> None:
        """A dive's or the plague's draw (:func:`~.privileges.draw`)."""
        privileges.draw(state, table, player, count, draw)

    def _put_back(self, state: SteamCourtState, table: Table, player: int, slot: int) -> None:
        """A drawn card put back into its pile (:func:`~.privileges.put_back`)."""
        privileges.put_back(state, table, player, slot)

    # -- encodings -----------------------------------------------------------------------------

    def encode_action(self, action: Any) -> Any:
        return self.codec.encode(action)

    def decode_action(self, data: Any) -> Any:
        return self.codec.decode(data)

    def encode_state(self, state: SteamCourtState) -> Any:
        return {
            "players": state.players,
            "scoring": state.scoring,
            "variant": state.variant,
            "duo_win": state.duo_win,
            "start_tokens": state.start_tokens,
            "cards": state.cards.encode(),
            "phase": state.phase,
            "quarter": state.quarter,
            "tables": [table.encode() for table in state.tables],
            "hands": [hand[:] for hand in state.hands],
            "start": state.start[:],
            "gears": [gears[:] for gears in state.gears],
            "powers": [[power[:] for power in powers] for powers in state.powers],
            "clock": state.clock[:],
            "tricks": state.tricks[:],
            "used": [used[:] for used in state.used],
        }

    def decode_state(self, data: Any) -> SteamCourtState:
        state = self.state_type.__new__(self.state_type)
        state.players = data["players"]
        state.scoring = data["scoring"]
        state.variant = data["variant"]
        state.duo_win = data["duo_win"]
        state.start_tokens = data["start_tokens"]
        state.cards = CardState.decode(data["cards"])
        state.phase = data["phase"]
        state.quarter = data["quarter"]
        state.tables = [self.table_type.decode(table) for table in data["tables"]]
        state.hands = [list(hand) for hand in data["hands"]]
        state.start = list(data["start"])
        state.gears = [list(gears) for gears in data["gears"]]
        state.powers = [[[kind, used] for kind, used in powers] for powers in data["powers"]]
        state.clock = list(data["clock"])
        state.tricks = list(data["tricks"])
        state.used = [[str(name) for name in used] for used in data["used"]]
        state.notes = []
        state.book = self.book
        return state


# -- helpers -----------------------------------------------------------------------------------


def _two_at_court(players: Any, options: Mapping[str, Any]) -> bool:
    """Two players at one table scoring gear tokens: start tokens go by seat unless asked (I2)."""
    return players == 2 and options.get("variant") == "court" and options.get("scoring", "gears") == "gears"
