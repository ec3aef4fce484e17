"""The order of a deal's passes at a table of four (SPEC §B6.1, §B16, protocol 10): the last holder
shuffles and locks in one pass, and a joiner whose shuffle pass is due right after the host's
sends it before its lock escrow — either way a round trip the deal no longer waits for.
Tests §C5's deck (its shuffle and lock passes), which version-10 transcripts use."""

from __future__ import annotations

import functools

from switchboard import Switchboard as _Switchboard

from p2pgames import LOCK_DECK_PROTOCOL
from p2pgames.session import iter_records, open_envelope

Switchboard = functools.partial(_Switchboard, protocol=LOCK_DECK_PROTOCOL)  # §C5's deck, protocol 10


def first_deal_log(game: str) -> list[tuple[int, dict]]:
    """(seat, body) of each entry of a 4-player game from its first deal's first pass until its
    passes are all in (the rest of the game is not needed)."""
    board = Switchboard(game, 4, seed=b"deal passes")
    board.run(until=lambda: board.host.replica is not None and any(
        deal.next_pass() is None for deal in board.host.replica.deals.values()))
    board.flush()  # (the host's records of what it applied last)
    log = []
    for kind, raw in iter_records(bytes(board.transcripts[0])):
        if kind != "entry":
            continue
        submission = open_envelope(open_envelope(raw).body["submission"]).body
        log.append((submission["seat"], submission["body"]))
    first = next(index for index, (_, body) in enumerate(log) if body["t"] == "pass")
    return log[first:]


def test_the_last_holder_shuffles_and_locks_in_one_pass_and_no_escrow_holds_a_first_shuffle_back():
    for game in ("beltpunk", "steamcourt"):
        log = first_deal_log(game)
        passes = [(body["stage"], seat) for seat, body in log if body["t"] == "pass" and body["deal"] == log[0][1]["deal"]]
        assert passes == [("shuffle", 0), ("shuffle", 1), ("shuffle", 2), ("shuffle-lock", 3),
                          ("lock", 0), ("lock", 1), ("lock", 2)], (game, passes)
        order = [(body["t"], seat) for seat, body in log
                 if body["t"] in ("pass", "lock-escrow") and body["deal"] == log[0][1]["deal"]]
        # Seat 1's shuffle is due as soon as the host's is sequenced: its escrow comes after it.
        assert order.index(("pass", 1)) < order.index(("lock-escrow", 1)), (game, order)
        # Every lock escrow comes before its author's locking pass (§B16), the others' early.
        for seat in range(4):
            locking = max(index for index, item in enumerate(order) if item == ("pass", seat))
            assert order.index(("lock-escrow", seat)) < locking, (game, seat, order)
        for seat in (2, 3):
            assert order.index(("lock-escrow", seat)) < order.index(("pass", seat)), (game, seat, order)
