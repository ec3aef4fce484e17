"""The state of a game of Steam Court: its tables (:class:`Table`) and its players' hands, tokens
and powers (:class:`SteamCourtState`), apart from the rules that change it (``rules.py`` and the
modules of the rulebook's parts it calls), so that every part, the characters' records and the
views name one state.

The state is public: who sits where, which slot lies where (hands, the Court Hand, the machine —
the current trick —, the discard pile), the tokens, and what has been used. Card values live in
``state.cards.revealed`` once public; a player's view of hidden cards is its *knowledge*. A quarter
is one deal of the whole deck (plus any re-shuffles of its piles), audited and retired at the end.

Players are engine seats ``0 … n-1`` and never change; *positions* are the character seats at a
table, ``0`` the preeminent (the Queen), clockwise in rank order. A table (:class:`Table`) holds its
characters, who sits in each position, its deck's piles, its trick and its phase, so a second table
(the Party variant) is a second :class:`Table`; hands, tokens and powers are kept by player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Protocol, Sequence

from p2pgames.engine import CardState, GameState, Knowledge
from p2pgames.games.steamcourt.phases import Phase

if TYPE_CHECKING:
    from p2pgames.games.steamcourt.rulebook import Draw, Rulebook

__all__ = ["Hooks", "SteamCourtState", "Table", "new_table"]


class Table:
    """One table: its characters and players by position, its deck's piles, trick and phase.

    Lays in the machine are lists ``[player, slots, value, quantity, multiplier]`` (multiplier
    -1: none; a Masterstroke's value is :data:`~.cards.MASTERSTROKE_VALUE`), oldest first: the last one
    is the card or set to beat.
    """

    __slots__ = (
        "characters",
        "seats",
        "phase",
        "deals",
        "court",
        "discard",
        "stacks",
        "lays",
        "turn",
        "passed",
        "heard",
        "moves",
        "asking",
        "privilege",
        "actor",
        "focus",
        "received",
        "seen",
        "out",
        "drawn",
        "pile",
        "returns",
    )

    characters: list[str]  # by position, preeminent first
    seats: list[int]  # the player in each position
    phase: str
    deals: list[int]  # this quarter's deals: the deal of the deck, then re-shuffles of its piles
    court: list[int]  # the Court Hand
    discard: list[int]  # the discard pile (cleared tricks, discarded cards), oldest first
    stacks: list[list[int]]  # gear tokens by quarter, bottom first (the top is the last)
    lays: list[list]  # the machine: the current trick's lays, oldest first
    turn: int  # the player whose turn it is to lay or pass (-1: nobody)
    passed: list[int]  # players who passed this trick, in order
    heard: list[int]  # by player: ``moves`` when they last passed or declined to unpass
    moves: int  # lays that stood in this trick (not stopped)
    asking: list[int]  # players a window still waits for (coup), or still to ask (trick end)
    privilege: int  # position whose Beginning of Quarter privilege is being exercised
    actor: int  # the player of the current sub-step (a privilege, a window, a dive …)
    focus: list[int]  # slots being revealed for a check (a coup, a dive's card, a discard)
    received: list[int]  # slots given to players this quarter (the Tea Boy keeps them)
    # [slot, seat]: a hidden card in a hand or the Court Hand that ``seat`` was shown (a gift's
    # giver, the Inspector) or held (the Tea Boy's traded cards), this quarter
    seen: list[list[int]]
    out: list[int]  # players in the order they went out this quarter
    drawn: list[int]  # cards drawn by a dive or the plague that may still be put back
    pile: str  # the pile of a dive: "court" or "discard"
    returns: int  # how many drawn cards may still be put back

    def copy(self) -> "Table":
        other = type(self).__new__(type(self))
        other.characters = self.characters  # never changed in place
        other.seats = self.seats[:]
        other.phase = self.phase
        other.deals = self.deals[:]
        other.court = self.court[:]
        other.discard = self.discard[:]
        other.stacks = [stack[:] for stack in self.stacks]
        other.lays = [[lay[0], lay[1][:], lay[2], lay[3], lay[4]] for lay in self.lays]
        other.turn = self.turn
        other.passed = self.passed[:]
        other.heard = self.heard[:]
        other.moves = self.moves
        other.asking = self.asking[:]
        other.privilege = self.privilege
        other.actor = self.actor
        other.focus = self.focus[:]
        other.received = self.received[:]
        other.seen = [pair[:] for pair in self.seen]
        other.out = self.out[:]
        other.drawn = self.drawn[:]
        other.pile = self.pile
        other.returns = self.returns
        return other

    def encode(self) -> dict:
        # Spelled out (not a generic deep copy): states are encoded for every hash.
        return {
            "characters": self.characters[:],
            "seats": self.seats[:],
            "phase": self.phase,
            "deals": self.deals[:],
            "court": self.court[:],
            "discard": self.discard[:],
            "stacks": [stack[:] for stack in self.stacks],
            "lays": [[lay[0], lay[1][:], lay[2], lay[3], lay[4]] for lay in self.lays],
            "turn": self.turn,
            "passed": self.passed[:],
            "heard": self.heard[:],
            "moves": self.moves,
            "asking": self.asking[:],
            "privilege": self.privilege,
            "actor": self.actor,
            "focus": self.focus[:],
            "received": self.received[:],
            "seen": [pair[:] for pair in self.seen],
            "out": self.out[:],
            "drawn": self.drawn[:],
            "pile": self.pile,
            "returns": self.returns,
        }

    @classmethod
    def decode(cls, data: Mapping[str, Any]) -> "Table":
        table = cls.__new__(cls)
        table.characters = [str(name) for name in data["characters"]]
        table.seats = list(data["seats"])
        table.phase = data["phase"]
        table.deals = list(data["deals"])
        table.court = list(data["court"])
        table.discard = list(data["discard"])
        table.stacks = [list(stack) for stack in data["stacks"]]
        table.lays = [[p, list(slots), v, q, m] for p, slots, v, q, m in data["lays"]]
        table.turn = data["turn"]
        table.passed = list(data["passed"])
        table.heard = list(data["heard"])
        table.moves = data["moves"]
        table.asking = list(data["asking"])
        table.privilege = data["privilege"]
        table.actor = data["actor"]
        table.focus = list(data["focus"])
        table.received = list(data["received"])
        table.seen = [[slot, seat] for slot, seat in data["seen"]]
        table.out = list(data["out"])
        table.drawn = list(data["drawn"])
        table.pile = data["pile"]
        table.returns = data["returns"]
        return table

    # -- questions -----------------------------------------------------------------------------

    def character_of(self, player: int) -> str:
        return self.characters[self.seats.index(player)]

    @property
    def winner(self) -> int:
        """The player of the last lay: the trick's winner once it ends (a retrieve takes back a
        loser's lay and a steal only cards, so it stays the winner until the machine is cleared)."""
        return self.lays[-1][0]

    @property
    def quantity(self) -> int:
        """How many cards the current trick is played with (0 before the lead)."""
        return self.lays[0][3] if self.lays else 0


class SteamCourtState(GameState):
    """The public state. Mutable: :meth:`SteamCourt.apply` copies it, then changes the copy.

    ``notes`` is not part of the public state: it records what the last event did, for the log
    (:meth:`~.presentation.SteamCourtPresentation.narrate`); nor is ``book``, the game's rulebook,
    which says what each character does.
    """

    __slots__ = (
        "players",
        "scoring",
        "variant",
        "duo_win",
        "start_tokens",
        "cards",
        "phase",
        "quarter",
        "tables",
        "hands",
        "start",
        "gears",
        "powers",
        "clock",
        "tricks",
        "used",
        "notes",
        "book",
    )

    players: int
    scoring: str  # "gears" or "clock"
    variant: str  # "court", "party" or "duo" (Solo is a game of its own: solo_game.py)
    duo_win: str  # the Duo variant's win condition: "points" or "queen"
    start_tokens: str  # "character" (the printed numbers) or "seat" (positions 1…n) (I2)
    cards: CardState
    phase: str
    quarter: int  # 1–4 (0 before the first)
    tables: list[Table]
    hands: list[list[int]]  # by player
    start: list[int]  # start token by player (0 before seating)
    gears: list[list[int]]  # gear tokens won by player, one per quarter
    powers: list[list[list]]  # by player: 1-point token powers [kind, used]
    clock: list[int]  # Clock Climbing: each player's space (distance from the start)
    tricks: list[int]  # tricks won this quarter, by player
    used: list[list[str]]  # by player: character powers used this quarter
    notes: list[tuple]
    book: Rulebook  # what the characters do (not part of the state: the game's rulebook)

    def copy(self) -> "SteamCourtState":
        other = type(self).__new__(type(self))
        other.players = self.players
        other.scoring = self.scoring
        other.variant = self.variant
        other.duo_win = self.duo_win
        other.start_tokens = self.start_tokens
        other.cards = self.cards.copy()
        other.phase = self.phase
        other.quarter = self.quarter
        other.tables = [table.copy() for table in self.tables]
        other.hands = [hand[:] for hand in self.hands]
        other.start = self.start[:]
        other.gears = [gears[:] for gears in self.gears]
        other.powers = [[power[:] for power in powers] for powers in self.powers]
        other.clock = self.clock[:]
        other.tricks = self.tricks[:]
        other.used = [used[:] for used in self.used]
        other.notes = []
        other.book = self.book
        return other

    # -- questions the rules, views and bots ask ----------------------------------------------

    def table_of(self, player: int) -> Table:
        tables = self.tables
        if len(tables) == 1:
            return tables[0]
        for table in tables:
            if player in table.seats:
                return table
        raise ValueError(f"seat {player} is at no table")  # pragma: no cover

    def going_out_order(self) -> list[int]:
        """The order players went out this quarter (at the game's end: the 4th), all tables',
        the Royal table's first; kept from the quarter's end until the next quarter is dealt."""
        return [player for table in self.tables for player in table.out]

    def deck(self) -> tuple[str, ...]:
        """The cards each quarter deals (to each table), as the rulebook says."""
        return self.book.deck(self)

    def value(self, slot: int, knowledge: Knowledge) -> str | None:
        """The card in ``slot`` if it is public or in ``knowledge``, else ``None``."""
        return self.cards.revealed.get(slot) or knowledge.get(slot)

    def scores_start(self) -> bool:
        """Whether start tokens count as points: always in the court, in the Duo variant only as
        seat positions (its printed tokens, 11 and 6, only seat the players: I2)."""
        return self.variant != "duo" or self.start_tokens == "seat"

    def totals(self) -> list[int]:
        """Each player's score so far: start token (if scored) plus gear tokens, less the points
        paid (:meth:`points_paid`); or the clock's space."""
        if self.scoring == "clock":
            return self.clock[:]
        if self.variant == "party":
            # Party: a standing, not points: n for the Queen's seat down to 1 for the lowliest
            # Renegade (the Royal table's seats, then the Renegade table's) (RULES.md, I25).
            court = [player for table in self.tables for player in table.seats]
            standing = [0] * self.players
            for rank, player in enumerate(court):
                standing[player] = self.players - rank
            return standing
        if not self.scores_start():
            return [sum(self.gears[p]) - self.points_paid(p) for p in range(self.players)]
        return [self.start[p] + sum(self.gears[p]) - self.points_paid(p) for p in range(self.players)]

    def points_paid(self, player: int) -> int:
        """Points taken off ``player``'s tokens in his score: none by the published rules (the
        2015 rules' Character Auction: his winning bid)."""
        return 0

    def unpass_sources(self, player: int) -> list[str]:
        """The ways ``player`` may still unpass this quarter."""
        sources = []
        if any(kind == "unpass" and not used for kind, used in self.powers[player]):
            sources.append("token")
        table = self.table_of(player)
        if self.book[table.character_of(player)].unpasses and self.can_use(player, "unpass"):
            sources.append("jester")
        return sources

    def can_use(self, player: int, power: str) -> bool:
        """Whether ``player`` may still use his character's once-a-quarter ``power`` (``stop``,
        ``retrieve``, ``steal``, ``dive``, ``plague``, ``pair``, ``unpass``): not used this quarter,
        and he still holds cards (out of cards, out of the quarter: RULES.md, I14). Whether his
        character has that power, and whether the moment offers it, is the caller's question."""
        return power not in self.used[player] and bool(self.hands[player])

    def ready(self, table: Table, power: str) -> int:
        """The player at ``table`` whose character has once-a-quarter ``power`` (``stop``,
        ``dive``, ``plague``) if he may still use it this quarter (:meth:`can_use`), else -1."""
        holders = self.book.holders(power)
        for player, character in zip(table.seats, table.characters):
            if character in holders:
                return player if self.can_use(player, power) else -1
        return -1

    def can_discard_two(self, player: int) -> bool:
        return len(self.hands[player]) >= 2 and any(
            kind == "discard" and not used for kind, used in self.powers[player]
        )


def new_table(
    characters: Sequence[str], seats: list[int], stacks: list[list[int]], players: int, table_type: type[Table] = Table
) -> Table:
    """A table of ``characters`` (seat order) seating ``seats``, with gear token ``stacks``, before
    its first deal (its phase ``done``); ``table_type`` a subclass with fields of its own sets them."""
    table = table_type.__new__(table_type)
    table.characters = list(characters)
    table.seats = seats
    table.phase = Phase.DONE
    table.deals = []
    table.court = []
    table.discard = []
    table.stacks = stacks
    table.lays = []
    table.turn = -1
    table.passed = []
    table.heard = [0] * players
    table.moves = 0
    table.asking = []
    table.privilege = -1
    table.actor = -1
    table.focus = []
    table.received = []
    table.seen = []
    table.out = []
    table.drawn = []
    table.pile = ""
    table.returns = 0
    return table


class Hooks(Protocol):
    """What the parts of the rules (``privileges.py``, ``tricks.py``, ``scoring.py``) ask of the
    game they play for (:class:`~.rules.SteamCourt`): the methods a rulebook's own game overrides
    (``steamcourt2015``'s), so the parts call them on the game."""

    def one_point_power(self, state: SteamCourtState) -> str | None: ...

    def _draw(self, state: SteamCourtState, table: Table, player: int, count: int, draw: Draw) -> None: ...

    def _put_back(self, state: SteamCourtState, table: Table, player: int, slot: int) -> None: ...
