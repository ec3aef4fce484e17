from switchboard import Switchboard, check_sparse_acks

from p2pgames.session import GameEnded


def test_probe_game_runs_to_the_end_between_sessions():
    board = Switchboard("probe", 3)
    board.run()
    for session in board.sessions:
        assert session.stage == "over", (session.stage, session.fault)
        assert session.result == board.host.result
    assert len({s.replica.state_hash for s in board.sessions}) == 1


def test_every_transcript_verifies():
    from p2pgames.games import get_game
    from p2pgames.session import verify_transcript

    board = Switchboard("probe", 4)
    board.run()
    for seat in range(4):
        report = verify_transcript(bytes(board.transcripts[seat]), get_game)
        assert report.ok, report.describe()
        assert report.complete
        assert report.entries == board.host.replica.seq
        # (each other seat's acks as §B11 keeps them; the host's in its entries)
        kept = check_sparse_acks(bytes(board.transcripts[seat]), report.entries, 4)
        assert report.acks == report.entries + len(kept)
        assert report.audits == 1
