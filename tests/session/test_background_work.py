"""A seat's background work (Session.background_work: its verifiers and lock scalars made ahead of
its turn) changes when things are computed, never what goes on the wire."""

from switchboard import Switchboard


class AheadSwitchboard(Switchboard):
    """Every session does all the background work it has after each frame is delivered (and
    counts it). Compared with a switchboard that does none (``idle_work=False``)."""

    worked = 0

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, idle_work=False, **kwargs)

    def flush(self) -> None:
        super().flush()
        for session in self.sessions:
            while session.background_work():
                self.worked += 1
        super().flush()


def _first_deal_and_keys(board: Switchboard) -> None:
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 40)


def test_work_done_ahead_leaves_every_transcript_byte_for_byte_the_same():
    plain, ahead = Switchboard("beltpunk", 4, seed=b"ahead", idle_work=False), AheadSwitchboard("beltpunk", 4, seed=b"ahead")
    _first_deal_and_keys(plain)
    _first_deal_and_keys(ahead)
    assert ahead.worked > 0
    assert [bytes(t) for t in ahead.transcripts] == [bytes(t) for t in plain.transcripts]



def test_submission_signatures_left_for_a_checkpoint_are_checked_once_everything_is_agreed():
    """A joiner checks other joiners' submission signatures lazily (SPEC §B8); its background
    work checks them as soon as the table is quiet, so a checkpoint (every 64 entries) no longer
    checks dozens at once while an entry waits for its agreement."""
    plain, ahead = Switchboard("beltpunk", 4, seed=b"ahead", idle_work=False), AheadSwitchboard("beltpunk", 4, seed=b"ahead")
    for board in (plain, ahead):
        # Well past a checkpoint (entry 64) and short of the next: dozens of signatures left.
        board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 100)
        board.run(until=lambda: all(s.agreed_through == s.replica.seq - 1 for s in board.sessions))
        board.flush()  # the ahead board's sessions do their background work
    assert max(len(s._unverified_submissions) for s in plain.sessions) > 10  # what a checkpoint would face
    assert all(not s._unverified_submissions for s in ahead.sessions)
    assert [bytes(t) for t in ahead.transcripts] == [bytes(t) for t in plain.transcripts]
