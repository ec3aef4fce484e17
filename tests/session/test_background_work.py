"""A seat's background work (Session.background_work: its verifiers and lock scalars made ahead of
its turn) changes when things are computed, never what goes on the wire."""

from switchboard import Switchboard


class AheadSwitchboard(Switchboard):
    """Every session does all the background work it has after each frame is delivered."""

    worked = 0

    def flush(self) -> None:
        super().flush()
        for session in self.sessions:
            while session.background_work():
                self.worked += 1
        super().flush()


def _first_deal_and_keys(board: Switchboard) -> None:
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 40)


def test_work_done_ahead_leaves_every_transcript_byte_for_byte_the_same():
    plain, ahead = Switchboard("beltpunk", 4, seed=b"ahead"), AheadSwitchboard("beltpunk", 4, seed=b"ahead")
    _first_deal_and_keys(plain)
    _first_deal_and_keys(ahead)
    assert ahead.worked > 0
    assert [bytes(t) for t in ahead.transcripts] == [bytes(t) for t in plain.transcripts]

