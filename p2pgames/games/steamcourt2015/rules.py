"""The 2015 draft rules of Steam Court ("Steam Corset", ``steam-court-draft.txt``) as a game.

The flow of play is the published game's (``steamcourt/rules.py``): tricks, the Multiplier, the
Putsch (the published Masterstroke), the coup, the General's stop, going out, reseating, two tables
and their promotions. What the 2015 rules change is here and in :mod:`.book` (the characters):

* 3–10 players: one table of 3–7 (the Royal or the Renegade table at 4–5), two tables of 8–10;
  three players play a smaller deck, seven a larger one (:func:`.book.deck_for`);
* five sets of gear tokens 1…N: the first set is the start tokens, handed out in reverse seat
  order (the highest seat 1 … the lowest N, across both tables); the other four are one stack a
  quarter, highest on top, split between two tables (the lower numbers to the Renegade table); a
  score is the five tokens; the last player out takes the last token, which has no power;
* the Party variation: no gear tokens; the characters' tokens, highest on top, are taken in going
  out, at one table or two; the first out at the Royal table after the 4th quarter wins;
* the Queen gives two cards (a :class:`~p2pgames.games.steamcourt.actions.Bestow`), the Plague
  Doctor draws from the Court Hand as the quarter starts (the ``plague`` phase), and a draw may
  have to be put back in part (a table's ``owed``: how many drawn cards must still go back).

``RULES.md`` beside this file lists every rule with its test and the readings chosen (I1 …).
"""

from __future__ import annotations

from typing import Any, Mapping

from p2pgames.engine import (
    ActionCodec,
    CardState,
    DeterministicRandom,
    Game,
    GameOver,
    IllegalAction,
    Knowledge,
    Ruleset,
    RulesetError,
    RulesetOption,
    Step,
    Turn,
)
from p2pgames.games.steamcourt.actions import (
    Bestow,
    Coup,
    Dive,
    Give,
    Inspect,
    KeepRest,
    Lay,
    Masterstroke,
    Pass,
    Plague,
    PutBack,
    Retrieve,
    Serve,
    Stop,
    Trade,
)
from p2pgames.games.steamcourt.cards import CHARACTER_TITLE
from p2pgames.games.steamcourt.phases import Phase
from p2pgames.games.steamcourt.rules import (
    _PHASE_KINDS,
    QUARTERS,
    SteamCourt,
    SteamCourtState,
    Table,
    new_table,
)
from p2pgames.games.steamcourt2015 import views
from p2pgames.games.steamcourt2015.book import (
    DRAFT_2015,
    REMOVABLE,
    RENEGADES,
    ROYALS,
    THREES,
    characters_for,
)

__all__ = ["SteamCourt2015", "Table2015", "PLAGUE", "CODEC_2015"]

# The Plague Doctor's Beginning of Quarter draw, which he may decline (RULES.md, I9).
PLAGUE = "plague"

# The moves of the 2015 rules on the wire: the published ones they use, the Queen's two-card gift.
CODEC_2015 = ActionCodec("Steam Court (2015 draft)", {
    Lay: "lay",
    Masterstroke: "ms",
    Pass: "pass",
    Give: "give",
    Bestow: "bestow",
    Serve: "serve",
    Trade: "trade",
    Inspect: "inspect",
    Coup: "coup",
    Stop: "stop",
    Retrieve: "retrieve",
    Dive: "dive",
    Plague: "plague",
    PutBack: "putback",
    KeepRest: "keep",
})

_PHASE_KINDS_2015: dict[str, tuple[frozenset, str]] = {
    phase: kinds for phase, kinds in _PHASE_KINDS.items()
    if phase not in (Phase.UNPASS, Phase.STEAL, Phase.HOARD)
}
_PHASE_KINDS_2015[Phase.TURN] = (frozenset({Lay, Masterstroke, Pass, Dive}), "lay cards, pass, or dive")
_PHASE_KINDS_2015[Phase.GIVE] = (frozenset({Give, Bestow, Pass}), "give cards or pass")
_PHASE_KINDS_2015[PLAGUE] = (frozenset({Plague, Pass}), "draw from the Court Hand or pass")

_PASS = Pass()


class Table2015(Table):
    """A table of the 2015 rules: also ``owed``, how many cards just drawn must still be put back
    (the Submariner keeps at most half, the Plague Doctor two)."""

    __slots__ = ("owed",)

    owed: int

    def copy(self) -> "Table2015":
        other = super().copy()
        other.owed = self.owed  # type: ignore[attr-defined]
        return other  # type: ignore[return-value]

    def encode(self) -> dict:
        encoded = super().encode()
        encoded["owed"] = self.owed
        return encoded

    @classmethod
    def decode(cls, data: Mapping[str, Any]) -> "Table2015":
        table = super().decode(data)
        table.owed = data["owed"]
        return table  # type: ignore[return-value]


class SteamCourt2015(SteamCourt):
    """Steam Court by its 2015 draft rules: 3–10 players, one table or two (see the module)."""

    name = "steamcourt2015"
    title = "Steam Court (2015 draft)"
    rules_edition = 1
    min_players = 3
    max_players = 10
    cli_variants = views.CLI_VARIANTS
    options = (
        RulesetOption(
            "variation", "gears", ("gears", "party"),
            "gears: five gear tokens each, the most points wins; party: the characters' tokens, the "
            "Royal table's first out after the 4th quarter wins",
        ),
        RulesetOption("table", "royal", ("royal", "renegade"), "4–5 players: play at the Royal or the Renegade table"),
        RulesetOption(
            "removed", "general", REMOVABLE,
            "the character left out: 4 players at the Royal table, 8 players (from the Royal table) and 9",
        ),
        RulesetOption(
            "removed_renegade", "plaguedoctor", tuple(name for name in REMOVABLE if name in RENEGADES),
            "the Renegade character left out: 4 players at the Renegade table, and 8 players",
        ),
        RulesetOption(
            "three", "queen+duke+teaboy", THREES,
            "3 players: the three characters, named in rank order and joined by +",
        ),
    )
    phase_kinds = _PHASE_KINDS_2015
    codec = CODEC_2015
    table_type = Table2015

    def __init__(self) -> None:
        super().__init__(book=DRAFT_2015)

    # -- rulesets ------------------------------------------------------------------------------

    def ruleset(self, players: int, options: Mapping[str, Any] | None = None) -> Ruleset:
        return Game.ruleset(self, players, options)

    def for_ruleset(self, ruleset: Ruleset) -> Game:
        return self

    def edition_of(self, ruleset: Ruleset) -> int:
        return self.rules_edition

    def check_ruleset(self, ruleset: Ruleset) -> None:
        players = ruleset.players
        if ruleset["table"] != "royal" and players not in (4, 5):
            raise RulesetError("table=renegade is for 4–5 players (3 and 6–10 players seat by count)")
        removed, renegade = ruleset["removed"], ruleset["removed_renegade"]
        if removed != "general" and not (players in (8, 9) or (players == 4 and ruleset["table"] == "royal")):
            raise RulesetError("a character is left out (removed) only by 4 players at the Royal table, 8 and 9 players")
        if players == 8 and removed not in ROYALS:
            raise RulesetError("8 players leave out one Royal character (removed) and one Renegade (removed_renegade)")
        if renegade != "plaguedoctor" and not (players == 8 or (players == 4 and ruleset["table"] == "renegade")):
            raise RulesetError("removed_renegade is for 4 players at the Renegade table and 8 players")
        if ruleset["three"] != "queen+duke+teaboy" and players != 3:
            raise RulesetError("three (the characters of a 3-player game) is for 3 players")

    def describe_ruleset(self, ruleset: Ruleset) -> str:
        players = ruleset.players
        tables = self.table_characters(ruleset)
        where = "two tables" if len(tables) == 2 else f"the {ruleset['table'].title()} table" if players in (4, 5) else "one table"
        titles = " · ".join(", ".join(CHARACTER_TITLE[name] for name in seats) for seats in tables)
        scoring = "the Party variation" if ruleset["variation"] == "party" else "gear tokens"
        return f"Steam Court (2015 draft), {players} players at {where} ({titles}; {scoring})"

    @staticmethod
    def table_characters(ruleset: Ruleset) -> tuple[tuple[str, ...], ...]:
        """Each table's characters for ``ruleset``, in seat order (see :func:`.book.characters_for`)."""
        return characters_for(
            ruleset.players, ruleset["table"], ruleset["removed"], ruleset["removed_renegade"], ruleset["three"]
        )

    # -- setup ---------------------------------------------------------------------------------

    def setup(self, ruleset: Ruleset) -> SteamCourtState:
        players = ruleset.players
        state = SteamCourtState.__new__(SteamCourtState)
        state.players = players
        state.scoring = "gears"  # tokens are taken in going out, gear or character tokens
        state.variant = "party" if ruleset["variation"] == "party" else "court"
        state.duo_win = "points"
        state.start_tokens = "seat"
        state.cards = CardState()
        state.phase = Phase.SEATING
        state.quarter = 0
        tables = self.table_characters(ruleset)
        state.tables = []
        first = 0
        renegades = len(tables[1]) if len(tables) == 2 else 0
        for index, characters in enumerate(tables):
            count = len(characters)
            if state.variant == "party":
                # The characters' tokens, highest (the Queen's 1) on top: bottom first (I13).
                tokens = sorted((self.book[name].number for name in characters), reverse=True)
            elif len(tables) == 2:
                # Each set split: the lower numbers to the Renegade table (I12).
                low = players - count + 1 if index == 0 else 1
                tokens = list(range(low, low + count))
            else:
                tokens = list(range(1, players + 1))
            table = new_table(characters, list(range(first, first + count)), [tokens[:] for _ in range(QUARTERS)], players, Table2015)
            table.owed = 0  # type: ignore[attr-defined]
            state.tables.append(table)
            first += count
        assert renegades == 0 or first == players
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

    def apply_chance(self, state: SteamCourtState, seed: bytes) -> None:
        # "Each player randomly draws a [character] token to determine initial seating order"; the
        # first set of gear tokens goes in reverse seat order across the court: the highest seat
        # takes 1, the lowest N (I12).
        state.notes = []
        order = list(range(state.players))
        DeterministicRandom(seed).shuffle(order)
        first = 0
        for table in state.tables:
            table.seats = order[first:first + len(table.characters)]
            first += len(table.characters)
        if state.variant != "party":
            for rank, player in enumerate(order):
                state.start[player] = rank + 1
        if len(state.tables) == 2:
            state.notes.append(("party-seating", tuple(tuple(table.seats) for table in state.tables)))
        else:
            state.notes.append(("seating", tuple(order)))
        state.phase = Phase.PLAYING
        self._start_quarter(state)

    def one_point_power(self, state: SteamCourtState) -> str | None:
        return None  # the 2015 tokens are points only

    def _result(self, state: SteamCourtState) -> GameOver:
        if state.variant == "party":
            # The first out at the Royal table (the only table, at one) in the 4th quarter (I13).
            royal = state.tables[0]
            winner = royal.out[0] if royal.out else royal.seats[0]
            return GameOver(tuple(state.totals()), (winner,), views.party_summary(state, winner))
        return super()._result(state)

    # -- steps, moves --------------------------------------------------------------------------

    def _table_step(self, state: SteamCourtState, table: Table) -> Step:
        if table.phase == PLAGUE:
            return Turn((table.actor,), "draw four from the Court Hand and keep two, or pass")
        owed = table.owed  # type: ignore[attr-defined]
        if table.phase == Phase.RETURN and owed:
            return Turn((table.actor,), f"put back {owed} more drawn card{'s' if owed != 1 else ''}")
        return super()._table_step(state, table)

    def legal_actions(self, state: SteamCourtState, player: int, knowledge: Knowledge) -> list[Any]:
        options = super().legal_actions(state, player, knowledge)
        if state.cards.pending or state.phase != Phase.PLAYING:
            return options
        table = state.table_of(player)
        if player != table.actor:
            return options
        if table.phase == PLAGUE:
            return [Plague(), _PASS]
        if table.phase == Phase.RETURN and table.owed:  # type: ignore[attr-defined]
            return [option for option in options if type(option) is not KeepRest]
        return options

    def check_action(self, state: SteamCourtState, player: int, action: Any) -> None:
        super().check_action(state, player, action)
        table = state.table_of(player)
        if table.phase == Phase.RETURN and type(action) is KeepRest and table.owed:  # type: ignore[attr-defined]
            owed = table.owed  # type: ignore[attr-defined]
            raise IllegalAction(player, f"put back {owed} more drawn card{'s' if owed != 1 else ''} first")

    def apply_action(self, state: SteamCourtState, player: int, action: Any) -> None:
        table = state.table_of(player)
        if table.phase == PLAGUE:
            state.notes = []
            if type(action) is Plague:
                self._plague(state, table, player, self._privilege(table, player).draw)
            else:
                state.notes.append(("no-plague", player))
                self._next_privilege(state, table, table.privilege + 1)
            return
        super().apply_action(state, player, action)

    def _draw(self, state: SteamCourtState, table: Table, player: int, count: int, draw: Any) -> None:
        pile = table.court if table.pile == "court" else table.discard
        drawn = min(count, len(pile))
        table.owed = 0 if draw.most_kept is None else drawn - draw.most_kept(drawn)  # type: ignore[attr-defined]
        super()._draw(state, table, player, count, draw)

    def _put_back(self, state: SteamCourtState, table: Table, player: int, slot: int) -> None:
        table.owed = max(0, table.owed - 1)  # type: ignore[attr-defined]
        super()._put_back(state, table, player, slot)

    # -- presentation --------------------------------------------------------------------------

    def help_text(self) -> str:
        return views.HELP


    # -- presentation (2015) --------------------------------------------------------------------
    # What the 2015 rules word differently from the published flow's prompts: the Masterstroke is
    # the Putsch, and the Queen's and the General's gifts go to one player each. The flow's own
    # step (the ``_table_step`` above) is kept under another name and asked for everything else.

    _flow_table_step = _table_step

    def _table_step(self, state: SteamCourtState, table: Table) -> Step:  # noqa: F811 - see above
        from p2pgames.engine import ReactionWindow

        phase = table.phase
        if phase == Phase.COUP:
            return ReactionWindow(tuple(table.asking), "pull a coup with three Putsch cards?")
        if phase == Phase.GIVE:
            if table.character_of(table.actor) == "queen":
                return Turn((table.actor,), "give two cards to the lowest player, or pass")
            return Turn((table.actor,), "give one card to the second-lowest player, or pass")
        return self._flow_table_step(state, table)
