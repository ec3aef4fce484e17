"""The round trips a log forces, as ``scripts/bench --only round-trips`` prints them beside its
measurements (issue 28): computed from the entries' authors and ``based_on`` alone."""

from __future__ import annotations

from types import SimpleNamespace

from p2pgames.benchmarks import DealSpan, critical_round_trips, deal_round_trips, first_deal_spans
from p2pgames.crypto import Identity, reproducible_bytes
from p2pgames.session import make_envelope

HOST = Identity.generate(reproducible_bytes(b"round trips/host")(32))
JOINER = Identity.generate(reproducible_bytes(b"round trips/joiner")(32))


def signed_log(*submissions: tuple[Identity, int, int, dict]) -> list[bytes]:
    """Entries of ``(author, seat, based_on, body)`` submissions, in order, signed by the host."""
    entries = []
    for seq, (author, seat, based_on, body) in enumerate(submissions):
        submission = make_envelope(author, "submit", {
            "game_id": bytes(32), "seat": seat, "counter": seq, "based_on": based_on, "body": body,
        })
        entries.append(make_envelope(HOST, "entry", {
            "game_id": bytes(32), "seq": seq, "prev": bytes(32), "submission": submission.raw, "state": bytes(32),
        }).raw)
    return entries


def log(*submissions: tuple[Identity, int, str]) -> list[bytes]:
    """Entries of ``(author, based_on, body type)`` submissions by the host (seat 0) or a joiner
    (seat 1)."""
    return signed_log(*((author, 0 if author is HOST else 1, based_on, {"t": kind}) for author, based_on, kind in submissions))


def test_a_joiners_submission_costs_a_round_trip_after_the_entry_it_was_made_on_and_the_hosts_none():
    entries = log(
        (JOINER, 0, "act"),   # 1: from the start
        (JOINER, 1, "act"),   # 2: after entry 0 came back
        (HOST, 2, "act"),     # 2: the host sequences its own at once
        (JOINER, 3, "pass"),  # 3; no move a person makes: the physical minimum stays at 2
        (JOINER, 1, "act"),   # made early, on entry 0: 2, but not before the entry ahead of it
    )
    assert critical_round_trips(entries) == (3, 2)


def test_submissions_made_on_the_same_entry_share_their_round_trip():
    entries = log((JOINER, 0, "commit"), (JOINER, 0, "commit"), (JOINER, 0, "commit"), (JOINER, 3, "act"))
    assert critical_round_trips(entries) == (2, 1)
    assert critical_round_trips([]) == (0, 0)


def shuffle(deal: int) -> dict:
    return {"t": "pass", "deal": deal, "stage": "shuffle"}


def lock(deal: int) -> dict:
    return {"t": "pass", "deal": deal, "stage": "lock"}


def test_a_deal_counts_from_the_entry_that_began_it_to_the_one_after_which_its_last_holder_reads():
    entries = signed_log(
        (JOINER, 1, 0, {"t": "commit"}),         # 0: before the deal, not counted
        (HOST, 0, 1, {"t": "open"}),              # 1
        (JOINER, 1, 1, {"t": "open"}),            # 2: the deal's card step begins after it
        (HOST, 0, 3, shuffle(0)),                 # 3: 0
        (JOINER, 1, 3, {"t": "lock-escrow"}),     # 4: 1
        (JOINER, 2, 3, {"t": "lock-escrow"}),     # 5: 1
        (JOINER, 1, 5, shuffle(0)),               # 6: 2, once its lock escrow came back (one in flight)
        (JOINER, 2, 7, shuffle(0)),               # 7: 3
        (HOST, 0, 8, lock(0)),                    # 8: 3
        (JOINER, 1, 9, lock(0)),                  # 9: 4
        (JOINER, 2, 10, lock(0)),                 # 10: 5, and every holder reads its hand
        (JOINER, 1, 11, {"t": "act"}),            # 11: after it, not counted
    )
    assert deal_round_trips(entries, 0, 2, 10) == 5
    assert critical_round_trips(entries)[0] == 2 + 5 + 1  # the whole log: 2 before the deal, 1 after


def test_two_decks_dealt_at_once_each_count_only_their_own_holders_entries():
    # Deal 0 is held by seats 0 and 1, deal 1 by seats 2 and 3; both are read after entry 8.
    entries = signed_log(
        (HOST, 0, 0, {"t": "open"}),  # 0: both begin after it
        (HOST, 0, 1, shuffle(0)),     # 1: deal 0: 0
        (JOINER, 2, 1, shuffle(1)),   # 2: deal 1: 1
        (JOINER, 1, 2, shuffle(0)),   # 3: deal 0: 1
        (JOINER, 3, 4, shuffle(1)),   # 4: deal 1: 2 (made on deal 0's entry 3, so on its own entry 2)
        (HOST, 0, 5, lock(0)),        # 5: deal 0: 1
        (JOINER, 2, 6, lock(1)),      # 6: deal 1: 3
        (JOINER, 1, 7, lock(0)),      # 7: deal 0: 2
        (JOINER, 3, 8, lock(1)),      # 8: deal 1: 4
    )
    assert deal_round_trips(entries, 0, 0, 8) == 2
    assert deal_round_trips(entries, 1, 0, 8) == 4
    assert critical_round_trips(entries)[0] == 5  # the two chains, taken as one


def test_a_first_deals_span_is_its_slowest_holders_wait_from_its_start_to_reading_its_cards():
    def seat(began: float, read: dict[int, tuple[int, float]]) -> SimpleNamespace:
        return SimpleNamespace(
            deals_began={0: (4, began), 1: (4, began)}, deals_read=read, deal_holders={0: (0, 1), 1: (2,), 2: (0,)},
        )

    seated = [seat(10.0, {0: (9, 10.5)}), seat(10.2, {0: (11, 10.6)}), seat(10.1, {1: (7, 10.3)})]
    seated[0].deals_began[2] = (4, 10.0)  # a deal that shows nobody a card: no span
    assert first_deal_spans(seated) == [DealSpan(0, (0, 1), 4, 11, 0.5), DealSpan(1, (2,), 4, 7, 10.3 - 10.1)]
