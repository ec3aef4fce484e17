"""The round trips a log forces, as ``scripts/bench --only round-trips`` prints them beside its
measurements (issue 28): computed from the entries' authors and ``based_on`` alone."""

from __future__ import annotations

from p2pgames.benchmarks import critical_round_trips
from p2pgames.crypto import Identity, reproducible_bytes
from p2pgames.session import make_envelope

HOST = Identity.generate(reproducible_bytes(b"round trips/host")(32))
JOINER = Identity.generate(reproducible_bytes(b"round trips/joiner")(32))


def log(*submissions: tuple[Identity, int, str]) -> list[bytes]:
    """Entries of ``(author, based_on, body type)`` submissions, in order, signed by the host."""
    entries = []
    for seq, (author, based_on, kind) in enumerate(submissions):
        submission = make_envelope(author, "submit", {
            "game_id": bytes(32), "seat": 0 if author is HOST else 1, "counter": seq, "based_on": based_on,
            "body": {"t": kind},
        })
        entries.append(make_envelope(HOST, "entry", {
            "game_id": bytes(32), "seq": seq, "prev": bytes(32), "submission": submission.raw, "state": bytes(32),
        }).raw)
    return entries


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
