"""An automatic dispute of a re-shuffled slot audits the deals it was re-shuffled from too.

When a slot that every peer must decrypt (a revealed card) doesn't, every peer starts the same
audit on its own. For a re-shuffled slot that audit needs the sources' lock keys (they undo the
re-key pass), so it must list the source deals as an explicit dispute does; auditing the re-shuffle
alone made every honest peer crash (``KeyError``) instead of naming the cheater.
Tests §C5's deck (its re-key pass and lock keys), which version-10 transcripts use.
"""
import functools

from switchboard import Switchboard as _Switchboard

from p2pgames import LOCK_DECK_PROTOCOL
from p2pgames.crypto import transform
from p2pgames.games import get_game
from p2pgames.session import FaultCode, verify_transcript
from p2pgames.session._secrets import SeatSecrets

Switchboard = functools.partial(_Switchboard, protocol=LOCK_DECK_PROTOCOL)  # §C5's deck, protocol 10

CHEATER = 1


def test_a_wrong_rekey_pass_found_by_a_reveal_is_audited_with_its_sources_and_names_the_cheater(monkeypatch):
    honest_pass = SeatSecrets._compute_pass

    def rekey_with_a_wrong_key(self, replica, crypto, deal, stage):
        body = honest_pass(self, replica, crypto, deal, stage)
        if self.seat == CHEATER and stage == "rekey":
            body = dict(body, values=transform(body["values"], 7))  # curve points, wrong ones
        return body

    monkeypatch.setattr(SeatSecrets, "_compute_pass", rekey_with_a_wrong_key)
    board = Switchboard("probe", 3, seed=b"auto")
    # Nobody disputes a card shown only to them (as when the cheater draws the bad cards itself),
    # so the first sign of the bad pass is a revealed card that doesn't decrypt.
    for session in board.sessions:
        session._maybe_dispute = lambda: False
    board.run()
    for seat, session in enumerate(board.sessions):
        assert session.fault is not None, seat
        assert (session.fault.culprit, session.fault.code) == (CHEATER, FaultCode.BAD_PASS), (seat, session.fault)
        assert "rekey" in session.fault.reason, session.fault.reason
    # The verdict is reached by replaying the log, so a verifier of the transcript reaches it too.
    report = verify_transcript(bytes(board.transcripts[0]), get_game)
    assert report.ok, report.describe()


def test_a_sealed_key_unlike_the_real_one_found_by_the_audit_is_its_senders_bad_key(monkeypatch):
    """Defence in depth (§B7): a receiver that took a wrong sealed key without checking it can't
    decrypt its card and disputes; the audit then finds the sealed key was not its sender's real
    lock key, which is that sender's ``bad-key`` (not a pass's fault)."""
    from p2pgames.crypto import open_sealed, random_scalar, scalar_from_bytes, scalar_to_bytes, seal, sealed_commitment
    from p2pgames.session import _secrets
    from p2pgames.session._sealed_keys import sealing_context

    honest_sealed_key = _secrets.SeatSecrets._sealed_key
    sealers = []

    def seal_another_key(self, replica, slot, to):
        # (A key sealed in a ``keys`` submission, or with the move that gives the card, §B5.)
        if sealers:
            return honest_sealed_key(self, replica, slot, to)
        sealers.append(self.seat)
        other = scalar_to_bytes(random_scalar())  # sealed and committed to: only its verifier tells
        box = seal(replica.seats[to].seal, other, sealing_context(replica.game_id, slot, self.seat, to))
        return [slot, to, box, sealed_commitment(other)]

    def take_it_unchecked(crypto, index, sender, seal_key, box, commitment, context):
        return scalar_from_bytes(open_sealed(seal_key, box, context))

    monkeypatch.setattr(_secrets.SeatSecrets, "_sealed_key", seal_another_key)
    monkeypatch.setattr(_secrets, "sealed_key_problem", take_it_unchecked)
    board = Switchboard("probe", 3, seed=b"auto")
    board.run()
    assert sealers, "nobody sealed a key in this game"
    for seat, session in enumerate(board.sessions):
        if seat == sealers[0]:
            continue
        assert session.fault is not None, seat
        assert (session.fault.culprit, session.fault.code) == (sealers[0], FaultCode.BAD_KEY), (seat, session.fault)
        assert "was not its real key" in session.fault.reason
