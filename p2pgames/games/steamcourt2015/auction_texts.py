"""What people read and type in the Character Auction: the typed forms a bid takes (``bid -3``:
three negative points, as the rulebook writes its bids; ``bid 0``, ``pass``) and the log's lines.
A bid's text is the rules' (:func:`~.rules.describe_bid`: the auction's prompt says it too)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from p2pgames.engine import MalformedAction
from p2pgames.games.steamcourt.cards import CHARACTER_TITLE
from p2pgames.games.steamcourt2015.rules import describe_bid

if TYPE_CHECKING:
    from p2pgames.games.steamcourt.state import SteamCourtState

__all__ = ["parse_bid", "narrate_auction", "is_auction_note"]

_EXAMPLE = "bid -3 (three negative points), or pass"


def parse_bid(words: Sequence[str]) -> int:
    """The negative points of a typed bid's words after ``bid``: ``-3`` is 3, ``0`` (or ``-0``)
    is 0. Raises :class:`MalformedAction` saying how to bid for anything else, and for ``3``:
    the rulebook's bids are negative ("bids -3 points"), and a text without the sign says
    something else, so it is not read as one."""
    text = words[0] if len(words) == 1 else ""
    digits = text.removeprefix("-")
    # ASCII digits, a few (int() refuses some that isdigit() takes, and any over 4300); a number
    # too large still reaches Bid, which says how large a bid may be
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 6:
        raise MalformedAction(f"say how many negative points: {_EXAMPLE}")
    points = int(digits)
    if points and not text.startswith("-"):
        raise MalformedAction(f"a bid is in negative points, as the rulebook writes it: bid -{points}, not bid {text}")
    return points


def narrate_auction(state: "SteamCourtState", note: tuple, names: Sequence[str]) -> list[str] | None:
    """The log's line for an auction note, or ``None`` for another note."""
    kind = note[0]
    if kind == "auction-offer":
        return [f"— the {CHARACTER_TITLE[note[1]]} is auctioned; {names[note[2]]} bids first —"]
    if kind == "bid":
        return [f"{names[note[1]]} {describe_bid(note[2]).replace('bid', 'bids', 1)}"]
    if kind == "bid-pass":
        return [f"{names[note[1]]} passes"]
    if kind == "auction-win":
        _, player, name, points = note
        price = f"-{points} point{'s' if points != 1 else ''}" if points else "nothing"
        return [f"{names[player]} takes the {CHARACTER_TITLE[name]} for {price}"]
    return None


def is_auction_note(note: Any) -> bool:
    return note[0] in ("auction-offer", "bid", "bid-pass", "auction-win")
