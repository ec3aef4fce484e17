"""What the 2015 rules show people beyond the published game's views (``steamcourt/views.py``,
which ask ``state.book`` for the 2015 wording: the Putsch, the characters' numbers): the help (the
moves, the Party variation, the Character Auction) and the Character Auction's screen
(:func:`auction_panels`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from p2pgames.engine import Panel, Segment, wrap_segments
from p2pgames.games.steamcourt2015.rules import SteamCourt2015, describe_bid

if TYPE_CHECKING:
    from p2pgames.games.steamcourt.state import SteamCourtState

__all__ = ["HELP", "PARTY_HELP", "AUCTION_HELP", "auction_panels"]

_COURT_HELP = """\
Steam Court, by its 2015 draft rules ("Steam Corset"): get rid of your cards
before the others. Going out takes the top gear token of the quarter's stack;
after four quarters the most points (start token + four gear tokens, less
your bid in the Character Auction) wins. 3-7 players sit at one table, 8-10
at two (the Royal and the Renegade table, each with its own deck and its own
stack of gear tokens), whose first two and last two out change tables
between quarters.

Privileges as the quarter starts, highest seat first: the Queen gives two
cards to the lowest player; the General one card to the second-lowest; the
Inspector sees the Court Hand and one hand; the Plague Doctor draws four from
the Court Hand and keeps two; the Tea Boy and the Vagabond give their two
highest numbered cards to the highest player (the Tea Boy may then trade his
hand for the Court Hand). In play: the Duke may match instead of beating, the
Alchemist lowers a numbered card by two, the General stops one lay a quarter,
the Submariner dives once into the discard pile and keeps at most half of
what he draws, the Pirate takes back his cards of one lost trick.

A trick: lead any number of cards of one value; follow with as many, higher.
A Multiplier (X) with cards of one number counts as any number of them; alone
it is a single 1. 3/9 and 6/12 count as either value. A Putsch beats
everything and ends the trick; three Putsch cards dealt to you let you pull a
coup and take the Queen's seat.

The table lists the seats from the highest: character, name, cards left,
passed / to act / out, and start + gear tokens (less any bid) = points.

Type (cards by face; seats by name):
  lay 7 7 7          three 7s             lay 5 5 +X3     two 5s, X: three 5s
  lay 3/9 as 9       a 3/9 as a 9         lay X           a Multiplier: one 1
  lay 9 7 as 7       (Alchemist) 9 as 7   pass            sit out the trick
  lay Putsch         a Putsch (lay MS is read as well)
  coup               (three Putsch cards) take the Queen's seat
  give 2 5 to erin   (Queen)              give 2 to dave  (General)
  give 11 12 to alice   (Tea Boy, Vagabond: your two highest numbered cards)
  trade | keep       (Tea Boy)            inspect bob     (Inspector)
  stop bob           (General)            retrieve        (Pirate)
  dive discard 7     (Submariner)         plague          (Plague Doctor)
  put back 7 | keep  after drawing        bid -3 | pass   (the auction)"""

PARTY_HELP = """\
Party variation: no gear tokens. Going out takes the top character token of
your table's stack (the highest first), and the tokens set next quarter's
seats; at two tables the Royal table's last two out go down to the Renegade
table, its first two out go up. After the 4th quarter the first player out
at the Royal table (at one table: the first out) wins."""

AUCTION_HELP = """\
Character Auction (--option characters=auction): before the first deal the
characters are bid for one at a time, the Queen first, in negative points as
the rulebook writes them: bid -3 takes three points off your final score.
Bidding goes clockwise; who passes sits out until the next character; the
last character goes to the last player for 0. Your points are then your
start + gear tokens less your bid, and the table adds them up: 1+1-3 = -1."""

HELP = "\n\n".join((_COURT_HELP, PARTY_HELP, AUCTION_HELP))


# -- the Character Auction on screen ---------------------------------------------------------------


# A name on the auction's rows is cut to this many characters, as the table's seats cut theirs to
# 8: ten players' names must wrap into a few rows of WIDTH.
_NAME_CHARS = 10


def _price(points: int) -> str:
    return f"-{points}" if points else "0"


def auction_panels(
    game: "SteamCourt2015", state: "SteamCourtState", viewer: int | None, names: Sequence[str]
) -> list[Panel]:
    """The screen while the Character Auction runs (``state.phase == "auction"``): the header;
    "On offer", the character bid for and what it does, the standing bid and who made it, whose
    turn it is, who bids after (clockwise) and who passed this round; "Characters", those already
    won with their winners' bids and those still to come; and, for the bidder, "You are asked":
    what to type and the least bid. Every line is at most ``steamcourt.views.WIDTH`` columns."""
    result = [_auction_header_panel(state), _offer_panel(state, viewer, names), _characters_panel(state, viewer, names)]
    if viewer is not None and viewer == state.bidder:  # type: ignore[attr-defined]
        result.append(_bid_panel(game, state))
    return result


def _who(player: int, viewer: int | None, names: Sequence[str], style: str = "bold") -> Segment:
    return ("you" if player == viewer else style, names[player][:_NAME_CHARS])


def _listed(segments: Sequence[Segment]) -> list[Segment]:
    """``segments`` with a comma after each but the last, for a list that may wrap."""
    return [(style, text + ",") for style, text in segments[:-1]] + list(segments[-1:])


def _auction_header_panel(state: "SteamCourtState") -> Panel:
    auctioned = state.auctioned()  # type: ignore[attr-defined]
    segments: list[Segment] = [
        ("bold", "Character Auction"),
        ("", f"· character {state.offered + 1} of {len(auctioned)}"),  # type: ignore[attr-defined]
        ("", "· bids are negative points in the final score"),
    ]
    return Panel("Steam Court", tuple(wrap_segments(segments)))


def _still_to_bid(state: "SteamCourtState") -> list[int]:
    """Who bids in this round after the bidder, in turn order (clockwise): those without a
    character who have not passed, but not the standing bid's maker, who bids again only when
    outbid."""
    players = state.players
    bidder = state.bidder  # type: ignore[attr-defined]
    standing = state.standing  # type: ignore[attr-defined]
    out = state.out  # type: ignore[attr-defined]
    holders = state.holders  # type: ignore[attr-defined]
    after = [(bidder + step) % players for step in range(1, players)]
    return [p for p in after if not holders[p] and p not in out and not (standing and p == standing[0])]


def _offer_panel(state: "SteamCourtState", viewer: int | None, names: Sequence[str]) -> Panel:
    name = state.auctioned()[state.offered]  # type: ignore[attr-defined]
    character = state.book[name]
    lines = wrap_segments([("", word) for word in character.power_text[1].split(" ")], "  ", [("bold", f"{character.title}:")])
    standing = state.standing  # type: ignore[attr-defined]
    if standing:
        bid: list[Segment] = [("", "standing bid"), ("bold", _price(standing[1])), ("", "by"), _who(standing[0], viewer, names)]
    else:
        bid = [("", "no bid yet")]
    lines += wrap_segments([*bid, ("", "·"), ("", "to bid:"), _who(state.bidder, viewer, names, "warn")])  # type: ignore[attr-defined]
    after = _still_to_bid(state)
    if after:
        lines += wrap_segments(_listed([_who(player, viewer, names, "") for player in after]), "  ", [("dim", "then:")])
    out = state.out  # type: ignore[attr-defined]
    if out:
        lines += wrap_segments(_listed([_who(player, viewer, names, "dim") for player in out]), "  ", [("dim", "passed:")])
    return Panel("On offer", tuple(lines))


def _characters_panel(state: "SteamCourtState", viewer: int | None, names: Sequence[str]) -> Panel:
    auctioned = state.auctioned()  # type: ignore[attr-defined]
    holders = state.holders  # type: ignore[attr-defined]
    bids = state.bids  # type: ignore[attr-defined]
    lines: list[tuple[Segment, ...]] = []
    won: list[Segment] = []
    for name in auctioned[: state.offered]:  # type: ignore[attr-defined]
        player = holders.index(name)
        won += [("", f"{state.book[name].title}"), _who(player, viewer, names), ("", f"{_price(bids[player])};")]
    if won:
        won[-1] = ("", won[-1][1].rstrip(";"))
        lines += wrap_segments(won, "  ", [("dim", "won:")])
    # Never empty: the last character is not bid for (it goes to the last player without one).
    to_come = [state.book[name].title for name in auctioned[state.offered + 1:]]  # type: ignore[attr-defined]
    lines += wrap_segments(_listed([("", title) for title in to_come]), "  ", [("dim", "to come:")])
    return Panel("Characters", tuple(lines))


def _bid_panel(game: "SteamCourt2015", state: "SteamCourtState") -> Panel:
    name = state.auctioned()[state.offered]  # type: ignore[attr-defined]
    title = state.book[name].title
    lowest, limit = game.lowest_bid(state), game.bid_limit(state)
    lines = wrap_segments([("bold", word) for word in f"Bid for the {title}? (bid -N / pass)".split(" ")])
    lines += wrap_segments(
        [("", word) for word in f"the least you may bid now; at most bid -{limit}".split(" ")],
        "  ", [("bold", f"{describe_bid(lowest)}:")],
    )
    lines += wrap_segments([("", word) for word in f"sit out the {title}; no way back in".split(" ")], "  ", [("bold", "pass:")])
    return Panel("You are asked", tuple(lines))
