"""The state of a Steam Torpedo game and the names it is read by: the places of the flow
(:class:`Phase`), the crew's numbering, and :class:`TorpedoState` itself.

Every rules module reads and changes a :class:`TorpedoState`; this module imports none of them.
Crew members are indexes 0–9 (``seat * 5 + k``, ``k = 0`` the captain).
"""

from __future__ import annotations

from p2pgames.engine import CardState, GameState

from p2pgames.games.torpedo.tiles import Effect, Tile

__all__ = [
    "CAPTAIN_FREE",
    "CAPTAIN_JUST",
    "CAPTAIN_MISSED",
    "CAPTAIN_MOVED",
    "CAPTAIN_OWES",
    "CREW_PER_SEAT",
    "PLAYING",
    "RESOLVING",
    "SEATS",
    "Phase",
    "TorpedoState",
    "crew_name",
    "is_captain",
    "owner",
    "seat_crew",
]

SEATS = (0, 1)
CREW_PER_SEAT = 5
CAPTAIN = 0


def owner(crew: int) -> int:
    """The seat a crew member belongs to."""
    return crew // CREW_PER_SEAT


def crew_name(crew: int) -> str:
    """``captain`` or ``sailor 1`` … ``sailor 4`` (the owner is said elsewhere)."""
    k = crew % CREW_PER_SEAT
    return "captain" if k == CAPTAIN else f"sailor {k}"


def is_captain(crew: int) -> bool:
    return crew % CREW_PER_SEAT == CAPTAIN


def seat_crew(seat: int) -> range:
    return range(seat * CREW_PER_SEAT, seat * CREW_PER_SEAT + CREW_PER_SEAT)


class Phase:
    """Names of the places in the flow (plain strings: they are part of the hashed state)."""

    BUILD = "build"
    DEAL = "deal"
    DRAFT_ORDER = "draft-order"
    DRAFT = "draft"
    PLACEMENT = "placement"
    SWAP = "swap"
    FIRST = "first"
    RECOVERY = "recovery"
    ACTION = "action"
    STEP = "step"
    AIM = "aim"
    DEFEND = "defend"
    DRAIN = "drain"
    SCAVENGE = "scavenge"
    COUNTER = "counter"
    OVER = "over"


# Phases in which an effect is being resolved (``state.source`` says whose and which).
RESOLVING = frozenset({Phase.STEP, Phase.AIM, Phase.DEFEND, Phase.DRAIN, Phase.SCAVENGE})
PLAYING = frozenset({Phase.RECOVERY, Phase.ACTION, Phase.COUNTER}) | RESOLVING

# The captain's free move, "just before or after his normal activation" (I15): the state's
# ``captain`` says where the active seat's captain stands this turn.
CAPTAIN_FREE = 0  # not activated yet: the free move may come now, just before his activation
CAPTAIN_JUST = 1  # his activation was the active seat's last action: the free move may follow
CAPTAIN_OWES = 2  # he made the free move first: his activation must come next
CAPTAIN_MOVED = 3  # he made the free move (and his activation)
CAPTAIN_MISSED = 4  # he activated and something else followed: no free move this turn


class TorpedoState(GameState):
    """The public state. Mutable: :meth:`Torpedo.apply` copies it, then changes the copy.

    Per seat: ``tiles`` (names: the sorted build until placement, then by position
    ``row * 5 + column``), ``kit`` (their :class:`Tile` values, derived and shared between copies:
    never changed in place), ``damage`` and ``oxygen`` tokens by position. ``crew`` holds a record
    ``(sub, position, ready, alive)`` per crew member ``seat * 5 + k`` (``k = 0`` the captain).

    The effect being resolved: ``source`` = ``(seat, position, effect, doubled, reaction)`` or
    ``None``; its triggering ``crews`` and ``stepping`` (whose move toward the control room is
    next); for attacks ``amount`` (damage or oxygen still to place), ``hit`` (the location) and
    ``assigned`` (the defender has begun placing: absorbing is no longer offered). ``after`` says
    what the counter window follows: ``(-1, -1)`` a maneuver, else ``(position, effect)``.

    ``notes`` is not part of the public state: it records what the last event did, for
    the presentation's :meth:`~p2pgames.games.torpedo.presentation.TorpedoPresentation.narrate`.
    """

    __slots__ = (
        "cards",
        "build",
        "phase",
        "turn",
        "active",
        "first",
        "turns_taken",
        "tiles",
        "kit",
        "damage",
        "oxygen",
        "crew",
        "sectors",
        "upper",
        "maneuvered",
        "captain",
        "used",
        "reacted",
        "pool",
        "drafter",
        "picks",
        "source",
        "crews",
        "stepping",
        "amount",
        "hit",
        "assigned",
        "after",
        "losers",
        "taken",
        "notes",
    )

    cards: CardState
    build: str  # the ruleset's build option
    phase: str
    turn: int  # turns started in the whole game
    active: int  # the seat whose turn it is (-1 before the first turn)
    first: int  # the first player (-1 until chosen)
    turns_taken: list[int]  # turns started, per seat (1 during a seat's first turn)
    tiles: list[tuple[str, ...]]
    kit: list[tuple[Tile, ...]]
    damage: list[list[int]]
    oxygen: list[list[int]]
    crew: list[tuple[int, int, bool, bool]]
    sectors: list[int]
    upper: int  # the seat whose submarine is up (port of the other) when both share a sector
    maneuvered: bool  # this action phase
    captain: int  # the captain's free move this turn: one of the CAPTAIN_* values (I15)
    used: list[tuple[int, int, int]]  # single-use effects used this action phase: (seat, position, effect)
    reacted: list[int]  # compartments that reacted in the open window
    pool: list[str]  # the draft's remaining tiles
    drafter: int  # who picks first in the draft (-1 until chosen)
    picks: int  # draft picks made
    source: tuple[int, int, int, bool, bool] | None
    crews: tuple[int, ...]
    stepping: int
    amount: int
    hit: str
    assigned: bool
    after: tuple[int, int]
    losers: list[int]
    taken: list[int]  # oxygen tokens the enemy took from each seat and no refill has put back (I27)
    notes: list[tuple]

    def copy(self) -> "TorpedoState":
        # Cheap on purpose (bots copy states by the thousand): tuples are shared, lists of ints
        # sliced, and nothing is deep-copied.
        other = TorpedoState.__new__(TorpedoState)
        other.cards = self.cards  # shared: Steam Torpedo deals no cards, so it never changes
        other.build = self.build
        other.phase = self.phase
        other.turn = self.turn
        other.active = self.active
        other.first = self.first
        other.turns_taken = self.turns_taken[:]
        other.tiles = self.tiles[:]
        other.kit = self.kit[:]
        other.damage = [self.damage[0][:], self.damage[1][:]]
        other.oxygen = [self.oxygen[0][:], self.oxygen[1][:]]
        other.crew = self.crew[:]
        other.sectors = self.sectors[:]
        other.upper = self.upper
        other.maneuvered = self.maneuvered
        other.captain = self.captain
        other.used = self.used[:]
        other.reacted = self.reacted[:]
        other.pool = self.pool[:]
        other.drafter = self.drafter
        other.picks = self.picks
        other.source = self.source
        other.crews = self.crews
        other.stepping = self.stepping
        other.amount = self.amount
        other.hit = self.hit
        other.assigned = self.assigned
        other.after = self.after
        other.losers = self.losers[:]
        other.taken = self.taken[:]
        other.notes = []
        return other

    # -- questions the rules, views and bots ask ----------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase == Phase.OVER

    @property
    def winner(self) -> int | None:
        """The winning seat once the game is over with one loser; ``None`` otherwise (a draw, I14)."""
        if self.phase == Phase.OVER and len(self.losers) == 1:
            return 1 - self.losers[0]
        return None

    @property
    def resolver(self) -> int:
        """The seat whose effect is being resolved (-1: none)."""
        return self.source[0] if self.source is not None else -1

    @property
    def first_turns(self) -> bool:
        """Whether this is a player's first turn: nobody triggers an effect, not even as a
        reaction ("During the first turn of each player …")."""
        return self.active >= 0 and self.turns_taken[self.active] <= 1

    @property
    def captain_moved(self) -> bool:
        """Whether the active seat's captain has made his free move this turn."""
        return self.captain in (CAPTAIN_OWES, CAPTAIN_MOVED)

    def effect_of(self, seat: int, position: int, effect: int) -> Effect | None:
        effects = self.kit[seat][position].effects
        return effects[effect] if effect < len(effects) else None

    def total_oxygen(self, seat: int) -> int:
        return sum(self.oxygen[seat])

    def alive(self, seat: int) -> int:
        return sum(1 for index in seat_crew(seat) if self.crew[index][3])
