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
  have to be put back in part (a table's ``owed``: how many drawn cards must still go back);
* who plays which character (option ``characters``): drawn at random and seated by the diagram
  (``diagram``), auctioned for negative points before the first deal (``auction``: the state phase
  ``auction``, :class:`Bid` moves), or — the Random Characters variation, 3–7 players — a random
  set of characters seated by rank (``random``) or in random order (``crazy``).

``RULES.md`` beside this file lists every rule with its test and the readings chosen (I1 …).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from p2pgames.engine import (
    ActionCodec,
    DeterministicRandom,
    Game,
    GameOver,
    IllegalAction,
    Knowledge,
    MalformedAction,
    ReactionWindow,
    Ruleset,
    RulesetError,
    RulesetOption,
    Step,
    Turn,
)
from p2pgames.games.steamcourt import privileges
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
    TradeKeeping,
)
from p2pgames.games.steamcourt.cards import CHARACTER_TITLE
from p2pgames.games.steamcourt.phases import Phase
from p2pgames.games.steamcourt.rules import _PHASE_KINDS, SteamCourt
from p2pgames.games.steamcourt.setup import QUARTERS, start_quarter
from p2pgames.games.steamcourt.state import SteamCourtState, Table, new_table
from p2pgames.games.steamcourt2015.book import (
    DRAFT_2015,
    RANKS,
    REMOVABLE,
    RENEGADES,
    ROYALS,
    THREES,
    characters_for,
)

__all__ = [
    "SteamCourt2015", "SteamCourt2015State", "Table2015", "Bid", "PLAGUE", "AUCTION", "CODEC_2015", "MAX_BID",
    "CLI_VARIANTS", "describe_bid", "party_summary",
]

# The Plague Doctor's Beginning of Quarter draw, which he may decline (RULES.md, I9).
PLAGUE = "plague"
# ``state.phase`` while the Character Auction runs, before the first deal (I14).
AUCTION = "auction"
# Who plays which character (RULES.md, I14, I15).
CHARACTER_MODES = ("diagram", "auction", "random", "crazy")
# ``--variant NAME`` on the command line (see :attr:`SteamCourt.cli_variants`).
CLI_VARIANTS: dict[str, dict[str, Any]] = {
    "party": {"options": {"variation": "party"}, "about": "character tokens instead of gear tokens"},
}
# The most negative points a bid may say on the wire: five tokens of at most 10 points are 50.
MAX_BID = 50


@dataclass(frozen=True, slots=True)
class Bid:
    """Character Auction: bid ``points`` negative victory points (0 …) for the character offered."""

    points: int

    def __post_init__(self) -> None:
        if type(self.points) is not int or not 0 <= self.points <= MAX_BID:
            raise MalformedAction(f"a bid is 0–{MAX_BID} points, not {self.points!r}")


def describe_bid(points: int) -> str:
    """A bid as the rulebook writes it, in negative points (``bid -3``), as the moves and the
    auction's prompt say it."""
    return f"bid -{points}" if points else "bid 0"


# The moves of the 2015 rules on the wire: the published ones they use, the Queen's two-card gift
# and the auction's bid.
CODEC_2015 = ActionCodec("Steam Court (2015 draft)", {
    Lay: "lay",
    Masterstroke: "ms",
    Pass: "pass",
    Give: "give",
    Bestow: "bestow",
    Serve: "serve",
    Trade: "trade",
    TradeKeeping: "tradekeeping",
    Inspect: "inspect",
    Coup: "coup",
    Stop: "stop",
    Retrieve: "retrieve",
    Dive: "dive",
    Plague: "plague",
    PutBack: "putback",
    KeepRest: "keep",
    Bid: "bid",
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


class SteamCourt2015State(SteamCourtState):
    """The public state of the 2015 rules: the published state's, and who plays which character
    (``mode``, an option of the ruleset) with the Character Auction's course: ``bids`` (each
    player's winning bid, in negative points), ``holders`` (each player's character, "" before),
    the character ``offered`` (its place in the auction order, -1 when none), the ``bidder`` to
    move, the ``standing`` bid (``[player, points]`` or empty), the players ``out`` of this
    round, and the round's ``opener``."""

    __slots__ = ("mode", "bids", "holders", "offered", "bidder", "standing", "out", "opener")

    mode: str
    bids: list[int]
    holders: list[str]
    offered: int
    bidder: int
    standing: list[int]
    out: list[int]
    opener: int

    def copy(self) -> "SteamCourt2015State":
        other = super().copy()
        other.mode = self.mode  # type: ignore[attr-defined]
        other.bids = self.bids[:]  # type: ignore[attr-defined]
        other.holders = self.holders[:]  # type: ignore[attr-defined]
        other.offered = self.offered  # type: ignore[attr-defined]
        other.bidder = self.bidder  # type: ignore[attr-defined]
        other.standing = self.standing[:]  # type: ignore[attr-defined]
        other.out = self.out[:]  # type: ignore[attr-defined]
        other.opener = self.opener  # type: ignore[attr-defined]
        return other  # type: ignore[return-value]

    def points_paid(self, player: int) -> int:
        """``player``'s winning bid in the Character Auction (its negative points), taken off
        his tokens in the score."""
        return self.bids[player]

    def auctioned(self) -> list[str]:
        """The characters the auction offers, in its order: by rank, the Queen first."""
        return [name for table in self.tables for name in table.characters]


class SteamCourt2015(SteamCourt):
    """Steam Court by its 2015 draft rules: 3–10 players, one table or two (see the module)."""

    name = "steamcourt2015"
    title = "Steam Court (2015 draft)"
    # Edition 2: hands are re-masked before a privilege hides their cards (the published rules'
    # RULES.md I51, a table's ``seen`` state key). Edition 3: retired deals leave the card state
    # (its next_deal key).
    rules_edition = 3
    min_players = 3
    max_players = 10
    cli_variants = CLI_VARIANTS
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
        RulesetOption(
            "characters", "diagram", CHARACTER_MODES,
            "diagram: drawn at random, seated by the seat order diagram; auction: the Character "
            "Auction, in negative points; random / crazy (3–7 players): random characters seated "
            "by rank / in random order",
        ),
    )
    phase_kinds = _PHASE_KINDS_2015
    codec = CODEC_2015
    table_type = Table2015
    state_type = SteamCourt2015State

    def __init__(self) -> None:
        super().__init__(book=DRAFT_2015)

    # -- rulesets ------------------------------------------------------------------------------

    def ruleset(
        self, players: int, options: Mapping[str, Any] | None = None, *, open_seats: bool = True, forfeit: bool = False,
    ) -> Ruleset:
        return Game.ruleset(self, players, options, open_seats=open_seats, forfeit=forfeit)

    def for_ruleset(self, ruleset: Ruleset) -> Game:
        return self

    def check_ruleset(self, ruleset: Ruleset) -> None:
        players = ruleset.players
        if ruleset["table"] != "royal" and players not in (4, 5):
            raise RulesetError("table=renegade is for 4–5 players (3 and 6–10 players seat by count)")
        removed, renegade = ruleset["removed"], ruleset["removed_renegade"]
        if removed != "general" and not (players in (8, 9) or (players == 4 and ruleset["table"] == "royal")):
            raise RulesetError("a character is left out (removed) only by 4 players at the Royal table, 8 and 9 players")
        if players in (4, 8) and removed not in ROYALS:
            raise RulesetError(f"{players} players leave out a Royal character (removed), a Renegade with removed_renegade")
        if renegade != "plaguedoctor" and not (players == 8 or (players == 4 and ruleset["table"] == "renegade")):
            raise RulesetError("removed_renegade is for 4 players at the Renegade table and 8 players")
        if ruleset["three"] != "queen+duke+teaboy" and players != 3:
            raise RulesetError("three (the characters of a 3-player game) is for 3 players")
        mode = ruleset["characters"]
        if mode in ("random", "crazy") and not 3 <= players <= 7:
            raise RulesetError("Random Characters is for 3–7 players")
        if mode in ("random", "crazy") and (ruleset["three"] != "queen+duke+teaboy" or ruleset["table"] != "royal" or removed != "general"):
            raise RulesetError("Random Characters chooses the characters: not with three, table or removed")
        if mode == "auction" and ruleset["variation"] == "party":
            raise RulesetError("the Character Auction bids negative points, which the Party variation doesn't count")

    def describe_ruleset(self, ruleset: Ruleset) -> str:
        players = ruleset.players
        tables = self.table_characters(ruleset)
        where = "two tables" if len(tables) == 2 else f"the {ruleset['table'].title()} table" if players in (4, 5) else "one table"
        titles = " · ".join(", ".join(CHARACTER_TITLE[name] for name in seats) for seats in tables)
        scoring = "the Party variation" if ruleset["variation"] == "party" else "gear tokens"
        mode = ruleset["characters"]
        if mode in ("random", "crazy"):
            titles = "random characters" + (" in random order" if mode == "crazy" else "")
        elif mode == "auction":
            scoring += ", characters auctioned"
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
        variant = "party" if ruleset["variation"] == "party" else "court"
        characters_by_table = self.table_characters(ruleset)
        tables = []
        first = 0
        for index, characters in enumerate(characters_by_table):
            count = len(characters)
            if variant == "party":
                # The characters' tokens, highest (the Queen's 1) on top: bottom first (I13).
                tokens = sorted((self.book[name].number for name in characters), reverse=True)
            elif len(characters_by_table) == 2:
                # Each set split: the lower numbers to the Renegade table (I12).
                low = players - count + 1 if index == 0 else 1
                tokens = list(range(low, low + count))
            else:
                tokens = list(range(1, players + 1))
            table = new_table(characters, list(range(first, first + count)), [tokens[:] for _ in range(QUARTERS)], players, Table2015)
            table.owed = 0  # type: ignore[attr-defined]
            tables.append(table)
            first += count
        # Tokens are taken in going out, gear or character tokens ("gears"); start tokens go by seat.
        state = self.new_state(players, "gears", variant, "points", "seat", tables)
        state.mode = ruleset["characters"]  # type: ignore[attr-defined]
        state.bids = [0] * players  # type: ignore[attr-defined]
        state.holders = [""] * players  # type: ignore[attr-defined]
        state.offered = -1  # type: ignore[attr-defined]
        state.bidder = -1  # type: ignore[attr-defined]
        state.standing = []  # type: ignore[attr-defined]
        state.out = []  # type: ignore[attr-defined]
        state.opener = -1  # type: ignore[attr-defined]
        return state

    def apply_chance(self, state: SteamCourtState, seed: bytes) -> None:
        # "Each player randomly draws a [character] token to determine initial seating order"
        # (the k-th drawn sits in the k-th seat of the court); Random Characters then draws the
        # characters from the ten, and the auction's first bidder is the first drawn (I14, I15).
        state.notes = []
        random = DeterministicRandom(seed)
        order = list(range(state.players))
        random.shuffle(order)
        mode = state.mode  # type: ignore[attr-defined]
        if mode in ("random", "crazy"):
            names = list(RANKS)
            random.shuffle(names)
            drawn = names[:state.players]
            table = state.tables[0]
            table.characters = drawn if mode == "crazy" else sorted(drawn, key=RANKS.index)
        if mode == "auction":
            state.phase = AUCTION
            state.offered = 0  # type: ignore[attr-defined]
            state.opener = state.bidder = order[0]  # type: ignore[attr-defined]
            state.notes.append(("auction-offer", state.auctioned()[0], order[0]))  # type: ignore[attr-defined]
            return
        self._seat(state, order)

    def _seat(self, state: SteamCourtState, order: list[int]) -> None:
        """Seat ``order`` (the court, the highest first) at the tables; the first set of gear
        tokens goes in reverse seat order across the court: the highest seat takes 1, the lowest
        N (I12); then the first quarter is dealt."""
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
        start_quarter(state)

    def _after_audit(self, state: SteamCourtState) -> None:
        # The Party variation at one table reseats after the 4th quarter too, as two tables do:
        # the final standing is the seats, the first out (the winner) at the top (I13).
        final_at_one_party_table = state.quarter == QUARTERS and state.variant == "party" and len(state.tables) == 1
        super()._after_audit(state)
        if final_at_one_party_table:
            table = state.tables[0]
            table.seats = table.out[:]

    def one_point_power(self, state: SteamCourtState) -> str | None:
        return None  # the 2015 tokens are points only

    def _result(self, state: SteamCourtState) -> GameOver:
        if state.variant == "party":
            # The first out at the Royal table (the only table, at one) in the 4th quarter (I13).
            royal = state.tables[0]
            winner = royal.out[0] if royal.out else royal.seats[0]
            return GameOver(tuple(state.totals()), (winner,), party_summary(state, winner))
        return super()._result(state)

    # -- steps, moves --------------------------------------------------------------------------

    def _table_step(self, state: SteamCourtState, table: Table) -> Step:
        # The 2015 words: the Masterstroke is the Putsch; the Queen's and the General's gifts go to
        # one player each.
        phase = table.phase
        if phase == Phase.COUP:
            return ReactionWindow(tuple(table.asking), "pull a coup with three Putsch cards?")
        if phase == Phase.GIVE:
            if privileges.privilege(state, table, table.actor).cards == 2:
                return Turn((table.actor,), "give two cards to the lowest player, or pass")
            return Turn((table.actor,), "give one card to the second-lowest player, or pass")
        if phase == PLAGUE:
            return Turn((table.actor,), "draw four from the Court Hand and keep two, or pass")
        owed = table.owed  # type: ignore[attr-defined]
        if table.phase == Phase.RETURN and owed:
            return Turn((table.actor,), f"put back {owed} more drawn card{'s' if owed != 1 else ''}")
        return super()._table_step(state, table)

    def legal_actions(self, state: SteamCourtState, player: int, knowledge: Knowledge) -> list[Any]:
        if state.phase == AUCTION:
            return self._auction_options(state, player)
        options = super().legal_actions(state, player, knowledge)
        if state.cards.pending or state.phase != Phase.PLAYING:
            return options
        table = state.table_of(player)
        if player != table.actor:
            return options
        if table.phase == PLAGUE:
            return [Plague(), _PASS] if table.court else [_PASS]
        if table.phase == Phase.RETURN and table.owed:  # type: ignore[attr-defined]
            return [option for option in options if type(option) is not KeepRest]
        return options

    def check_action(self, state: SteamCourtState, player: int, action: Any) -> None:
        if state.phase == AUCTION and not state.cards.pending:
            self._check_bid(state, player, action)
            return
        if type(action) is Bid:
            raise IllegalAction(player, "no character is being auctioned")
        if type(action) is Retrieve and state.phase == Phase.PLAYING and state.table_of(player).phase != Phase.RETRIEVE:
            # Said plainly, not as the phase's list of moves: the Pirate's power has its moment.
            raise IllegalAction(player, "cards are taken back only right after losing a trick you laid in")
        super().check_action(state, player, action)
        table = state.table_of(player)
        if table.phase == PLAGUE and type(action) is Plague and not table.court:
            raise IllegalAction(player, "the Court Hand is empty: there is nothing to draw")
        if table.phase == Phase.RETURN and type(action) is KeepRest and table.owed:  # type: ignore[attr-defined]
            owed = table.owed  # type: ignore[attr-defined]
            raise IllegalAction(player, f"put back {owed} more drawn card{'s' if owed != 1 else ''} first")

    def apply_action(self, state: SteamCourtState, player: int, action: Any) -> None:
        if state.phase == AUCTION:
            self._apply_bid(state, player, action)
            return
        table = state.table_of(player)
        if table.phase == PLAGUE:
            state.notes = []
            if type(action) is Plague:
                privileges.plague(self, state, table, player, privileges.privilege(state, table, player).draw)
            else:
                state.notes.append(("no-plague", player))
                privileges.next_privilege(state, table, table.privilege + 1)
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

    # -- the Character Auction -----------------------------------------------------------------

    def step(self, state: SteamCourtState) -> Step:
        if state.phase == AUCTION:
            name = state.auctioned()[state.offered]  # type: ignore[attr-defined]
            standing = state.standing  # type: ignore[attr-defined]
            bid = f"outbid the standing {describe_bid(standing[1])}" if standing else "open the bidding"
            return Turn((state.bidder,), f"{bid} for the {CHARACTER_TITLE[name]}, or pass")  # type: ignore[attr-defined]
        return super().step(state)

    @staticmethod
    def bid_limit(state: SteamCourtState) -> int:
        """The most negative points a bid may say: five tokens of at most N points each (I14)."""
        return 5 * state.players

    @staticmethod
    def lowest_bid(state: SteamCourtState) -> int:
        """The least a bid may say now: 0 to open, else one more than the standing bid."""
        standing = state.standing  # type: ignore[attr-defined]
        return standing[1] + 1 if standing else 0

    def _auction_options(self, state: SteamCourtState, player: int) -> list[Any]:
        if player != state.bidder:  # type: ignore[attr-defined]
            return []
        return [Bid(points) for points in range(self.lowest_bid(state), self.bid_limit(state) + 1)] + [_PASS]

    def _check_bid(self, state: SteamCourtState, player: int, action: Any) -> None:
        if player != state.bidder:  # type: ignore[attr-defined]
            raise IllegalAction(player, "it is not your turn to bid")
        kind = type(action)
        if kind is Bid:
            lowest, limit = self.lowest_bid(state), self.bid_limit(state)
            if action.points < lowest:
                raise IllegalAction(player, f"a bid must outbid the standing {lowest - 1} points")
            if action.points > limit:
                raise IllegalAction(player, f"a bid is at most {limit} points here")
        elif kind is not Pass:
            raise IllegalAction(player, "bid for the character or pass")

    def _apply_bid(self, state: SteamCourtState, player: int, action: Any) -> None:
        state.notes = []
        if type(action) is Bid:
            state.standing = [player, action.points]  # type: ignore[attr-defined]
            state.notes.append(("bid", player, action.points))
        else:
            state.out.append(player)  # type: ignore[attr-defined]
            state.notes.append(("bid-pass", player))
        # "Players who pass during a bidding round cannot re-enter until the next character."
        left = [p for p in range(state.players) if not state.holders[p] and p not in state.out]  # type: ignore[attr-defined]
        standing = state.standing  # type: ignore[attr-defined]
        if len(left) == 1:
            self._award(state, left[0], standing[1] if standing else 0)
            return
        bidders = [p for p in left if not standing or p != standing[0]]
        state.bidder = _next_clockwise(player, bidders, state.players)  # type: ignore[attr-defined]

    def _award(self, state: SteamCourtState, winner: int, points: int) -> None:
        auctioned = state.auctioned()  # type: ignore[attr-defined]
        name = auctioned[state.offered]  # type: ignore[attr-defined]
        state.holders[winner] = name  # type: ignore[attr-defined]
        state.bids[winner] = points  # type: ignore[attr-defined]
        state.notes.append(("auction-win", winner, name, points))
        state.offered += 1  # type: ignore[attr-defined]
        state.standing = []  # type: ignore[attr-defined]
        state.out = []  # type: ignore[attr-defined]
        without = [p for p in range(state.players) if not state.holders[p]]  # type: ignore[attr-defined]
        if not without:
            # Everyone has a character: each sits in its seat, and the quarter is dealt.
            state.bidder = state.opener = -1  # type: ignore[attr-defined]
            state.offered = -1  # type: ignore[attr-defined]
            self._seat(state, [state.holders.index(name) for name in auctioned])  # type: ignore[attr-defined]
            return
        if len(without) == 1:
            self._award(state, without[0], 0)  # the last character goes to the last player, unbid
            return
        # The next character's bidding opens with the next player clockwise without one (I14).
        state.opener = state.bidder = _next_clockwise(state.opener, without, state.players)  # type: ignore[attr-defined]
        state.notes.append(("auction-offer", auctioned[state.offered], state.opener))  # type: ignore[attr-defined]

    def playout_choice(self, state: Any, player: int, actions: Any, knowledge: Knowledge, random: DeterministicRandom) -> Any:
        """Random play passes half the time in the auction, else bids the least it may: uniform
        bids would carry every auction to its limit."""
        if state.phase == AUCTION:
            return actions[-1] if random.below(2) or len(actions) == 1 else actions[0]
        return super().playout_choice(state, player, actions, knowledge, random)

    # -- encodings -----------------------------------------------------------------------------

    def encode_state(self, state: SteamCourtState) -> Any:
        encoded = super().encode_state(state)
        encoded.update({
            "mode": state.mode,  # type: ignore[attr-defined]
            "bids": state.bids[:],  # type: ignore[attr-defined]
            "holders": state.holders[:],  # type: ignore[attr-defined]
            "offered": state.offered,  # type: ignore[attr-defined]
            "bidder": state.bidder,  # type: ignore[attr-defined]
            "standing": state.standing[:],  # type: ignore[attr-defined]
            "out": state.out[:],  # type: ignore[attr-defined]
            "opener": state.opener,  # type: ignore[attr-defined]
        })
        return encoded

    def decode_state(self, data: Any) -> SteamCourtState:
        state = super().decode_state(data)
        state.mode = data["mode"]  # type: ignore[attr-defined]
        state.bids = list(data["bids"])  # type: ignore[attr-defined]
        state.holders = [str(name) for name in data["holders"]]  # type: ignore[attr-defined]
        state.offered = data["offered"]  # type: ignore[attr-defined]
        state.bidder = data["bidder"]  # type: ignore[attr-defined]
        state.standing = list(data["standing"])  # type: ignore[attr-defined]
        state.out = list(data["out"])  # type: ignore[attr-defined]
        state.opener = data["opener"]  # type: ignore[attr-defined]
        return state


def party_summary(state: "SteamCourtState", winner: int) -> str:
    """One line for the Party variation's :class:`GameOver` (the session puts the name in front)."""
    where = "at the Royal table" if len(state.tables) == 2 else "at the table"
    return f"first out {where} in the 4th quarter: Engineer to Her Royal Majesty the Queen"


def _next_clockwise(after: int, among: list[int], players: int) -> int:
    """The first of ``among`` clockwise (in seat number order) after ``after``."""
    for step in range(1, players + 1):
        player = (after + step) % players
        if player in among:
            return player
    raise AssertionError("nobody to move")  # pragma: no cover
