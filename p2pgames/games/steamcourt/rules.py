"""The rules of Steam Court as a pure state machine (see ``RULES.md`` beside this file).

The state — who sits where, which slot lies where, the tokens, what has been used — is
:mod:`.state`'s: a :class:`~.state.SteamCourtState` with a :class:`~.state.Table` for each table.

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
    RuleViolation,
    Step,
    Turn,
)

from p2pgames.games.steamcourt import scoring, setup, tricks
from p2pgames.games.steamcourt.phases import Phase
from p2pgames.games.steamcourt.published import PUBLISHED
from p2pgames.games.steamcourt.rulebook import Draw, Gift, Rulebook, Service
from p2pgames.games.steamcourt.scoring import ONE_POINT_POWERS
from p2pgames.games.steamcourt.setup import QUARTERS
from p2pgames.games.steamcourt.solo_game import SOLO_GAME
from p2pgames.games.steamcourt.state import SteamCourtState, Table
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
from p2pgames.games.steamcourt.cards import (
    a_face,
    one_slot_per_face,
    two_slots_per_pair_of_faces,
    two_highest_numbered,
    CHARACTER_TITLE,
    FACE,
    FACE_ORDER,
    KIND,
    MASTERSTROKE,
    NUMBER,
    NUMBERED,
    PARTY_REMOVABLE,
    TABLE_NAMES,
)

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


# Steps and actions offered again and again are built once.
_PASS, _RETRIEVE, _PLAGUE, _KEEP = Pass(), Retrieve(), Plague(), KeepRest()

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
            return self._turn_options(state, table, player, knowledge) if player == table.turn else []
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
        if phase == Phase.STOP:
            return [Stop(table.lays[-1][0]), _PASS]
        if phase == Phase.UNPASS:
            if not self.lay_options(state, table, player, knowledge):
                return [_PASS]
            return [Unpass(source) for source in state.unpass_sources(player)] + [_PASS]
        if phase == Phase.RETRIEVE:
            return [_RETRIEVE, _PASS]
        if phase == Phase.STEAL:
            revealed = state.cards.revealed
            slots = [slot for lay in table.lays for slot in lay[1] if KIND[revealed[slot]] == NUMBERED]
            return [Steal(slot) for slot in one_slot_per_face(slots, revealed)] + [_PASS]
        if phase == Phase.RETURN:
            return [PutBack(slot) for slot in one_slot_per_face(table.drawn, _Known(state, knowledge))] + [_KEEP]
        if phase == Phase.GIVE:
            gift = self._privilege(table, player)
            others = gift.receivers(table, player)
            known = _Known(state, knowledge)
            if gift.cards == 2:
                pairs = two_slots_per_pair_of_faces(state.hands[player], known)
                return [Bestow(pair, to) for to in others for pair in pairs] + [_PASS]
            cards = one_slot_per_face(state.hands[player], known)
            return [Give(slot, to) for to in others for slot in cards] + [_PASS]
        if phase == Phase.SERVE:
            served = self.two_highest(state, player, knowledge)
            return [Serve(served, to) for to in self._privilege(table, player).receivers(table, player)]
        if phase == Phase.TRADE:
            # Trading for an empty Court Hand (hoarded by a Vagabond) could leave him no cards.
            if not table.court:
                return [Trade(False)]
            gifts = self.hidden_gifts(state, table, player)
            if gifts is None:
                return [Trade(True), Trade(False)]
            # His hand was re-masked: he names the cards given to him, by what he knows of them.
            known = _Known(state, knowledge)
            names = {known.get(slot) for slot in gifts} - {None}
            keep = tuple(sorted(slot for slot in state.hands[player] if known.get(slot) in names))
            return [TradeKeeping(keep), Trade(False)]
        if phase == Phase.HOARD:
            return [Hoard(True), Hoard(False)]
        if phase == Phase.INSPECT:
            return [Inspect(p) for p in table.seats if p != player] + [_PASS]
        return []

    def _privilege(self, table: Table, player: int) -> Any:
        """The Beginning of Quarter privilege of ``player``'s character (asked in its phase)."""
        return self.book[table.character_of(player)].privilege

    def _draw_of(self, table: Table, player: int, power: str) -> Draw:
        """What ``player``'s character's draw ``power`` (``dive``, ``plague``) is (asked as he uses it)."""
        draw = getattr(self.book[table.character_of(player)], power)
        assert draw is not None
        return draw

    def two_highest(self, state: SteamCourtState, player: int, knowledge: Knowledge) -> tuple[int, ...]:
        """The slots a Tea Boy's or Vagabond's gift takes: his two highest numbered cards (I5)."""
        hand = state.hands[player]
        known = _Known(state, knowledge)
        served = two_highest_numbered(hand, known)
        if len(served) < 2 and any(known.get(slot) is None for slot in hand):
            # Without knowing the hand (a spectator's question), any two cards will do.
            return tuple(sorted(hand)[:2])
        return served

    def _turn_options(self, state: SteamCourtState, table: Table, player: int, knowledge: Knowledge) -> list[Any]:
        options = tricks.turn_options(state, table, player, knowledge)
        character = self.book[table.character_of(player)]
        if character.dive is not None and state.can_use(player, "dive"):
            numbered = [
                slot for slot in state.hands[player]
                if KIND.get(state.value(slot, knowledge) or "", -1) == NUMBERED
            ]
            cards = one_slot_per_face(numbered, _Known(state, knowledge))
            for pile in character.dive.piles:
                if _pile(table, pile):
                    options.extend(Dive(pile, slot) for slot in cards)
        if character.plague is not None and state.can_use(player, "plague") and _pile(table, character.plague.piles[0]):
            options.append(_PLAGUE)
        if state.can_discard_two(player):
            options.extend(self._discard_options(state, player, knowledge))
        return options

    def _discard_options(self, state: SteamCourtState, player: int, knowledge: Knowledge) -> list[DiscardTwo]:
        by_face: dict[int, list[int]] = {}
        for slot in sorted(state.hands[player]):
            name = state.value(slot, knowledge)
            if name is not None and KIND[name] == NUMBERED:
                by_face.setdefault(NUMBER[name], []).append(slot)
        numbers = sorted(by_face)
        options = []
        for i, a in enumerate(numbers):
            if len(by_face[a]) >= 2:
                options.append(DiscardTwo(tuple(by_face[a][:2])))
            for b in numbers[i + 1:]:
                options.append(DiscardTwo(tuple(sorted((by_face[a][0], by_face[b][0])))))
        return options

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
        hand = state.hands[player]
        if phase == Phase.TURN:
            if kind in tricks.PLAYS:
                tricks.check_play(state, table, player, action)
            elif kind is DiscardTwo:
                if not state.can_discard_two(player):
                    raise IllegalAction(player, "you have no Discard-two token to use")
                for slot in action.slots:
                    tricks.require_in_hand(player, slot, hand)
                    _require_public_numbered(state, player, slot)
            elif kind is Dive:
                dive = self.book[table.character_of(player)].dive
                if dive is None:
                    raise IllegalAction(player, "only the Submariner dives")
                if not state.can_use(player, "dive"):
                    raise IllegalAction(player, "the Submariner dives once a quarter")
                if action.pile not in dive.piles:
                    raise IllegalAction(player, f"the Submariner doesn't dive into the {_pile_title(action.pile)}")
                if not _pile(table, action.pile):
                    raise IllegalAction(player, f"the {_pile_title(action.pile)} is empty")
                tricks.require_in_hand(player, action.slot, hand)
                _require_public_numbered(state, player, action.slot)
            elif kind is Plague:
                plague = self.book[table.character_of(player)].plague
                if plague is None:
                    raise IllegalAction(player, "only the Plague Doctor walks among the dead")
                if not state.can_use(player, "plague"):
                    raise IllegalAction(player, "the Plague Doctor draws once a quarter")
                if not _pile(table, plague.piles[0]):
                    raise IllegalAction(player, f"the {_pile_title(plague.piles[0])} is empty")
        elif phase == Phase.COUP:
            if kind is Coup:
                for slot in action.slots:
                    tricks.require_in_hand(player, slot, hand)
        elif phase == Phase.STOP:
            if kind is Stop and action.player != table.lays[-1][0]:
                raise IllegalAction(player, f"the lay to stop is seat {table.lays[-1][0]}'s, not seat {action.player}'s")
        elif phase == Phase.UNPASS:
            if kind is Unpass and action.source not in state.unpass_sources(player):
                raise IllegalAction(player, f"you can't unpass with the {action.source} now")
        elif phase == Phase.STEAL:
            if kind is Steal:
                name = state.cards.revealed.get(action.slot)
                if not any(action.slot in lay[1] for lay in table.lays) or name is None:
                    raise IllegalAction(player, "that card is not in the machine")
                if KIND[name] != NUMBERED:
                    raise IllegalAction(player, "the Pirate steals numbered cards only")
        elif phase == Phase.RETURN:
            if kind is PutBack and (action.slot not in table.drawn or action.slot not in hand):
                raise IllegalAction(player, "you can only put back a card you just drew")
        elif phase == Phase.GIVE:
            if kind is Give or kind is Bestow:
                gift = self._privilege(table, player)
                given = (action.slot,) if kind is Give else action.slots
                if len(given) != gift.cards:
                    raise IllegalAction(player, f"give {'one card' if gift.cards == 1 else f'{gift.cards} cards'}")
                for slot in given:
                    tricks.require_in_hand(player, slot, hand)
                if action.to not in gift.receivers(table, player):
                    at_table = action.to != player and action.to in table.seats
                    raise IllegalAction(
                        player, gift.refusal if at_table and gift.refusal else "give the card to another player at the table"
                    )
        elif phase == Phase.SERVE:
            for slot in action.slots:
                tricks.require_in_hand(player, slot, hand)
                _require_public_numbered(state, player, slot)
            service = self._privilege(table, player)
            if action.to not in service.receivers(table, player):
                raise IllegalAction(player, service.refusal)
        elif phase == Phase.TRADE:
            trade = kind is TradeKeeping or action.trade
            if trade and not table.court:
                raise IllegalAction(player, "the Court Hand is empty: there is nothing to trade for")
            hidden = trade and self.hidden_gifts(state, table, player) is not None
            if kind is TradeKeeping:
                if not hidden:
                    raise IllegalAction(player, "the cards given to you are known: trade without naming them")
                for slot in action.slots:
                    tricks.require_in_hand(player, slot, hand)
            elif hidden:
                raise IllegalAction(player, "your hand was re-masked: name the cards given to you that you keep")
        elif phase == Phase.INSPECT:
            if kind is Inspect and (action.seat == player or action.seat not in table.seats):
                raise IllegalAction(player, "inspect another player at the table")

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
            self._dive_revealed(state, table)
        elif phase == Phase.DISCARDING:
            self._discard_revealed(state, table)
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
        if claim.kind == "trade":
            self._check_trade_claim(state, claim)
            return
        if claim.kind != "serve":
            raise RuleViolation(claim.player, f"unknown claim {claim.kind!r}")  # pragma: no cover
        revealed = state.cards.revealed
        count, character = claim.detail
        given = [revealed[slot] for slot in claim.slots[:count]]
        rest = [revealed[slot] for slot in claim.slots[count:]]
        who = self.book[character].title
        faces = " and ".join(sorted((FACE[name] for name in given), key=FACE_ORDER.__getitem__))
        faces = faces or "nothing"
        for name in given:
            if KIND[name] != NUMBERED:
                raise RuleViolation(
                    claim.player, f"gave {faces}: the {who} gives numbered cards, not {FACE[name]}"
                )
        kept = sorted((NUMBER[name] for name in rest if KIND[name] == NUMBERED), reverse=True)
        # While he keeps a numbered card he must have given two, none lower than the highest kept.
        if kept and (len(given) < 2 or kept[0] > min(NUMBER[name] for name in given)):
            raise RuleViolation(
                claim.player,
                f"gave {faces} while holding {a_face(str(kept[0]))}: the {who} must give his two highest numbered cards",
            )

    def _check_trade_claim(self, state: SteamCourtState, claim: Claim) -> None:
        # The cards kept are exactly those given to him that were still in his hand.
        revealed = state.cards.revealed
        kept, rest = claim.detail
        names = [revealed[slot] for slot in claim.slots]
        keep, hand, gifts = set(names[:kept]), set(names[:kept + rest]), set(names[kept + rest:])
        if keep != hand & gifts:
            faces = " ".join(sorted((FACE[name] for name in keep), key=FACE_ORDER.__getitem__)) or "nothing"
            raise RuleViolation(
                claim.player, f"kept {faces} in a trade: the Tea Boy keeps the cards given to him, and only those"
            )

    def apply_action(self, state: SteamCourtState, player: int, action: Any) -> None:
        state.notes = []
        table = state.table_of(player)
        kind = type(action)
        phase = table.phase
        if phase == Phase.TURN:
            if kind in tricks.PLAYS:
                tricks.play(self, state, table, player, action)
            elif kind is DiscardTwo:
                self._discard_two(state, table, player, action.slots)
            elif kind is Dive:
                self._dive(state, table, player, action)
            elif kind is Plague:
                self._plague(state, table, player)
            return
        if phase == Phase.COUP:
            table.asking.remove(player)
            if kind is Coup:
                table.actor = player
                table.focus = list(action.slots)
                table.phase = Phase.COUP_REVEAL
                state.cards.reveal(action.slots)
                state.notes.append(("coup-claim", player))
                self._await(state, table)
            elif not table.asking:
                self._next_privilege(state, table, 0)
            return
        if phase == Phase.STOP:
            if kind is Stop:
                self._stop(state, table, player)
            else:
                tricks.settle_lay(self, state, table)
        elif phase == Phase.UNPASS:
            if kind is Unpass:
                self._unpass(state, table, player, action.source)
            else:
                table.heard[player] = table.moves
                tricks.advance(state, table, player)
        elif phase == Phase.RETRIEVE or phase == Phase.STEAL:
            if kind is Retrieve:
                self._retrieve(state, table, player)
            elif kind is Steal:
                self._steal(state, table, player, action.slot)
            table.asking.pop(0)
            tricks.next_trick_end(state, table)
        elif phase == Phase.RETURN:
            if kind is PutBack:
                self._put_back(state, table, player, action.slot)
            else:
                table.drawn = []
                table.returns = 0
                self._after_draw(state, table)
        elif phase == Phase.GIVE:
            if kind is Give:
                self._give(state, table, player, [action.slot], action.to)
                state.notes.append(("give", player, action.to))
            elif kind is Bestow:
                self._give(state, table, player, list(action.slots), action.to)
                state.notes.append(("bestow", player, action.to, len(action.slots)))
            else:
                state.notes.append(("no-give", player))
            self._next_privilege(state, table, table.privilege + 1)
        elif phase == Phase.INSPECT:
            if kind is Inspect:
                state.cards.disclose(table.court, player)
                state.cards.disclose(state.hands[action.seat], player)
                table.seen.extend([slot, player] for slot in table.court + state.hands[action.seat])
                state.notes.append(("inspect", player, action.seat, len(table.court)))
            else:
                state.notes.append(("no-inspect", player))
            self._next_privilege(state, table, table.privilege + 1)
        elif phase == Phase.SERVE:
            self._serve(state, table, player, action)
        elif phase == Phase.TRADE:
            if kind is TradeKeeping:
                self._trade_keeping(state, table, player, action.slots)
            elif action.trade:
                self._trade(state, table, player)
            else:
                state.notes.append(("keep", player))
            self._next_privilege(state, table, table.privilege + 1)
        elif phase == Phase.HOARD:
            if action.hoard:
                hoard = table.court
                state.hands[player].extend(hoard)
                state.cards.disclose(hoard, player)
                table.court = []
                state.notes.append(("hoard", player, len(hoard)))
            else:
                state.notes.append(("leave", player))
            self._next_privilege(state, table, table.privilege + 1)

    # -- the quarter's privileges --------------------------------------------------------------

    def _next_privilege(self, state: SteamCourtState, table: Table, position: int) -> None:
        """Beginning of Quarter privileges, in seat order from ``position``; then the first lead."""
        characters = table.characters
        for position in range(position, len(characters)):
            privilege = self.book[characters[position]].privilege
            if privilege is not None:
                table.privilege = position
                table.actor = table.seats[position]
                table.phase = privilege.phase
                if isinstance(privilege, (Gift, Service)):
                    self._remask_before(state, table, table.actor, privilege)
                return
        table.privilege = -1
        table.actor = -1
        # The Queen's Engineer begins the quarter by leading the first trick.
        tricks.lead(state, table, table.seats[0])

    def _give(self, state: SteamCourtState, table: Table, giver: int, slots: list[int], to: int) -> None:
        hand = state.hands[giver]
        for slot in slots:
            hand.remove(slot)
        state.hands[to].extend(slots)
        state.cards.disclose(slots, to)
        table.received.extend(slots)
        table.seen.extend([slot, giver] for slot in slots)

    def _serve(self, state: SteamCourtState, table: Table, player: int, action: Serve) -> None:
        # "Two highest numbered cards" depends on hidden values: a claim, checked at the audit.
        hand = state.hands[player]
        given = tuple(action.slots)
        rest = tuple(slot for slot in hand if slot not in given)
        character = table.character_of(player)
        state.cards.claim(Claim(player, "serve", given + rest, [len(given), character]))
        self._give(state, table, player, list(given), action.to)
        state.notes.append(("serve", player, len(given), action.to))
        then = self._privilege(table, player).then
        if then is None:
            self._next_privilege(state, table, table.privilege + 1)
        else:
            table.phase = then

    def _trade(self, state: SteamCourtState, table: Table, player: int) -> None:
        # He keeps the cards given to him; the rest of his hand becomes the Court Hand.
        hand = state.hands[player]
        kept = [slot for slot in hand if slot in table.received]
        traded = [slot for slot in hand if slot not in table.received]
        court = table.court
        state.hands[player] = kept + court
        state.cards.disclose(court, player)
        table.court = traded
        table.seen.extend([slot, player] for slot in traded)
        state.notes.append(("trade", player, len(traded), len(court)))

    def _trade_keeping(self, state: SteamCourtState, table: Table, player: int, keep: tuple[int, ...]) -> None:
        # His re-masked hand hides which cards were given to him: he names them, a claim checked
        # at the audit against the gifts' old slots (RULES.md, I51).
        hand = state.hands[player]
        rest = tuple(slot for slot in hand if slot not in keep)
        gifts = self.hidden_gifts(state, table, player) or ()
        state.cards.claim(Claim(player, "trade", keep + rest + gifts, [len(keep), len(rest)]))
        court = table.court
        state.hands[player] = list(keep) + court
        state.cards.disclose(court, player)
        table.court = list(rest)
        table.seen.extend([slot, player] for slot in rest)
        state.notes.append(("trade", player, len(rest), len(court)))

    def hidden_gifts(self, state: SteamCourtState, table: Table, player: int) -> tuple[int, ...] | None:
        """The old slots of the cards given to ``player`` that a re-mask of his hand hid among
        its new slots (``None``: his hand wasn't re-masked since, or holds no such card)."""
        hand = state.hands[player]
        if not hand:
            return None
        record = state.cards.deal_of(hand[0])
        if record.cards is not None or record.deal not in table.deals[1:]:
            return None
        gifts = tuple(slot for slot in record.source_slots or () if slot in table.received)
        return gifts or None

    def _remask_before(self, state: SteamCourtState, table: Table, player: int, privilege: Any) -> None:
        """Re-mask ``player``'s hand before a privilege that hides some of its cards (a gift, a
        service and any trade after it) if a card of it is known to a seat the move hides it from:
        public (laid and taken back), or seen by another (a gift's giver, the Inspector). A service
        to one player hides nothing from him; a trade after it hides the cards not given to him
        from everyone. Afterwards nobody else can tell the hand's cards apart (RULES.md, I51)."""
        hand = state.hands[player]
        revealed = state.cards.revealed
        exempt = {player}
        if isinstance(privilege, Service):
            receivers = privilege.receivers(table, player)
            if len(receivers) == 1:
                exempt.add(receivers[0])
        seen = {slot for slot, seat in table.seen if seat not in exempt}
        if isinstance(privilege, Service) and privilege.then == Phase.TRADE:
            seen.update(slot for slot, seat in table.seen if seat != player and slot not in table.received)
        if any(slot in seen or slot in revealed for slot in hand):
            table.deals.append(state.cards.remask_hand(state.hands[player], player))

    def _await(self, state: SteamCourtState, table: Table) -> None:
        # Cards that were public already need no operation: go on at once.
        if not state.cards.pending:
            self._resume(state, table)

    def _stop(self, state: SteamCourtState, table: Table, general: int) -> None:
        player, slots, _, _, multiplier = table.lays.pop()
        back = slots + ([multiplier] if multiplier >= 0 else [])
        state.hands[player].extend(back)
        state.used[general].append("stop")
        state.notes.append(("stop", general, player))
        # He doesn't pass: he lays again when play has gone round the table to him.
        tricks.advance(state, table, player)

    def _unpass(self, state: SteamCourtState, table: Table, player: int, source: str) -> None:
        if source == "jester":
            state.used[player].append("unpass")
        else:
            for power in state.powers[player]:
                if power[0] == "unpass" and not power[1]:
                    power[1] = True
                    break
        table.passed.remove(player)
        table.turn = player
        table.phase = Phase.TURN
        state.notes.append(("unpass", player, source))

    def _retrieve(self, state: SteamCourtState, table: Table, player: int) -> None:
        """Take back ``player``'s last lay in the trick (all his lays if his character retrieves
        them all), Multipliers included."""
        every = self.book[table.character_of(player)].retrieves_all
        back: list[int] = []
        for index in range(len(table.lays) - 1, -1, -1):
            lay = table.lays[index]
            if lay[0] == player:
                del table.lays[index]
                back[:0] = lay[1] + ([lay[4]] if lay[4] >= 0 else [])
                if not every:
                    break
        state.hands[player].extend(back)
        state.used[player].append("retrieve")
        state.notes.append(("retrieve", player, tuple(back)))

    def _steal(self, state: SteamCourtState, table: Table, player: int, slot: int) -> None:
        for lay in table.lays:
            if slot in lay[1]:
                lay[1].remove(slot)
        state.hands[player].append(slot)
        state.used[player].append("steal")
        state.notes.append(("steal", player, slot))

    # -- powers on a player's turn -------------------------------------------------------------

    def _discard_two(self, state: SteamCourtState, table: Table, player: int, slots: tuple[int, ...]) -> None:
        for power in state.powers[player]:
            if power[0] == "discard" and not power[1]:
                power[1] = True
                break
        hand = state.hands[player]
        for slot in slots:
            hand.remove(slot)
        table.discard.extend(slots)
        table.actor = player
        table.focus = list(slots)
        table.phase = Phase.DISCARDING
        state.cards.reveal(slots)
        self._await(state, table)

    def _discard_revealed(self, state: SteamCourtState, table: Table) -> None:
        player = table.actor
        revealed = state.cards.revealed
        faces = [FACE[revealed[slot]] for slot in table.focus]
        for slot in table.focus:
            if KIND[revealed[slot]] != NUMBERED:
                raise RuleViolation(
                    player, f"discarded {' and '.join(faces)}: the token discards numbered cards only"
                )
        state.notes.append(("discard", player, tuple(table.focus)))
        table.focus = []
        if state.hands[player]:
            table.phase = Phase.TURN
            return
        scoring.go_out(state, table, player)
        if scoring.quarter_over(state, table):
            scoring.end_quarter(self, state, table)
        else:
            tricks.advance(state, table, player)

    def _dive(self, state: SteamCourtState, table: Table, player: int, action: Dive) -> None:
        state.used[player].append("dive")
        table.actor = player
        table.focus = [action.slot]
        table.pile = action.pile
        state.cards.reveal((action.slot,))
        pile = table.court if action.pile == "court" else table.discard
        fresh = list(state.cards.reshuffle(pile))
        table.deals.append(state.cards.next_deal - 1)
        if action.pile == "court":
            table.court = fresh
        else:
            table.discard = fresh
        table.phase = Phase.DIVING

    def _dive_revealed(self, state: SteamCourtState, table: Table) -> None:
        player = table.actor
        name = state.cards.revealed[table.focus[0]]
        if KIND[name] != NUMBERED:
            raise RuleViolation(player, f"revealed {FACE[name]} for a dive: it must be a numbered card")
        table.focus = []
        self._draw(state, table, player, NUMBER[name], self._draw_of(table, player, "dive"))
        state.notes.append(("dive", player, table.pile, name, len(table.drawn)))

    def _plague(self, state: SteamCourtState, table: Table, player: int, plague: Draw | None = None) -> None:
        """Shuffle the plague's pile and draw from it (``plague``: the draw, unless it is the
        player's character's turn power)."""
        plague = plague or self._draw_of(table, player, "plague")
        pile = plague.piles[0]
        state.used[player].append("plague")
        table.actor = player
        table.pile = pile
        fresh = list(state.cards.reshuffle(_pile(table, pile)))
        table.deals.append(state.cards.next_deal - 1)
        if pile == "court":
            table.court = fresh
        else:
            table.discard = fresh
        self._draw(state, table, player, plague.count or 0, plague)
        state.notes.append(("plague", player, len(table.drawn)) + (("court",) if pile == "court" else ()))

    def _draw(self, state: SteamCourtState, table: Table, player: int, count: int, draw: Draw) -> None:
        """Draw ``count`` cards blind from the top of the dive's pile (all if fewer), of which
        ``draw`` says how many must be kept."""
        assert draw.most_kept is None or hasattr(table, "owed"), "a most-kept rule needs a table that records what is owed"
        pile = table.court if table.pile == "court" else table.discard
        drawn = pile[:count]
        del pile[:count]
        state.hands[player].extend(drawn)
        state.cards.disclose(drawn, player)
        table.drawn = drawn[:]
        least = draw.least_kept(len(drawn))
        table.returns = len(drawn) - least
        if table.returns:
            table.phase = Phase.RETURN
        else:
            table.drawn = []
            self._after_draw(state, table)

    def _put_back(self, state: SteamCourtState, table: Table, player: int, slot: int) -> None:
        state.hands[player].remove(slot)
        table.drawn.remove(slot)
        (table.court if table.pile == "court" else table.discard).append(slot)
        table.returns -= 1
        state.notes.append(("put-back", player, table.pile))
        if not table.returns or not table.drawn:
            table.drawn = []
            table.returns = 0
            self._after_draw(state, table)

    def _after_draw(self, state: SteamCourtState, table: Table) -> None:
        """Go on once a draw's cards are kept: the next privilege if it was one (the quarter not
        begun), else the drawer's turn goes on."""
        if table.privilege >= 0:
            self._next_privilege(state, table, table.privilege + 1)
        else:
            table.phase = Phase.TURN

    # -- the end of a quarter (scoring.py, setup.py) ------------------------------------------

    def one_point_power(self, state: SteamCourtState) -> str | None:
        """The power on the back of this quarter's 1-point gear token, which the last player out
        takes (:func:`~.scoring.one_point_power`)."""
        return scoring.one_point_power(state)

    def _after_audit(self, state: SteamCourtState) -> None:
        """The quarter's cards are public now: between quarters, reseat and deal again
        (:func:`~.setup.after_audit`)."""
        setup.after_audit(state)

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


class _Known:
    """Card names by slot for a player: public values, then the player's knowledge."""

    __slots__ = ("revealed", "knowledge")

    def __init__(self, state: SteamCourtState, knowledge: Knowledge) -> None:
        self.revealed = state.cards.revealed
        self.knowledge = knowledge

    def get(self, slot: int) -> str | None:
        return self.revealed.get(slot) or self.knowledge.get(slot)


def _require_public_numbered(state: SteamCourtState, player: int, slot: int) -> None:
    name = state.cards.revealed.get(slot)
    if name is not None and KIND[name] != NUMBERED:
        raise IllegalAction(player, f"{FACE[name]} is not a numbered card")


def _pile_title(pile: str) -> str:
    return "Court Hand" if pile == "court" else "discard pile"


def _pile(table: Table, pile: str) -> list[int]:
    """The table's Court Hand (``"court"``) or discard pile."""
    return table.court if pile == "court" else table.discard
