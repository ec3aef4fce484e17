"""A host sends an entry before it works on what the entry makes due from itself (Session.send_now):
the others check the entry while the host makes its pass or its shares. Timing only: the frames,
their order and every transcript stay byte for byte the same."""

from switchboard import Switchboard

from p2pgames import PROTOCOL_VERSION
from p2pgames.session import open_envelope


class SendingNowSwitchboard(Switchboard):
    """The host's ``send_now`` hands what it queued to the board at once, as a node writes it to
    its sockets; the board notes which entries had left whenever the host submits a pass or keys."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.left: set[int] = set()  # entries handed over by send_now
        self.gaps: list[tuple[str, int]] = []  # (kind, the entry before it) when that entry had not left
        self.submitted = 0
        host = self.sessions[0]
        host.send_now = self._send_now
        submit = host._submit

        def noting(body, decision=False):
            if body["t"] in ("pass", "keys") and host.replica is not None:
                self.submitted += 1
                if host.replica.seq - 1 not in self.left:
                    self.gaps.append((body["t"], host.replica.seq - 1))
            submit(body, decision)

        host._submit = noting

    def _send_now(self) -> None:
        host = self.sessions[0]
        frames = host.take_outgoing(paced=True)
        for _, data in frames:
            envelope = open_envelope(data)
            if envelope.kind == "entry":
                self.left.add(envelope.body["seq"])
        host.give_back_outgoing(frames)  # (delivered by the board's flush, in the same order)


def test_the_entry_before_a_hosts_pass_or_keys_has_left_when_it_makes_them():
    plain = Switchboard("beltpunk", 4, seed=b"send now", protocol=PROTOCOL_VERSION)
    sending = SendingNowSwitchboard("beltpunk", 4, seed=b"send now", protocol=PROTOCOL_VERSION)
    for board in (plain, sending):
        board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 60)
        board.run(until=lambda: all(s.agreed_through == s.replica.seq - 1 for s in board.sessions))
        board.flush()
    assert sending.submitted >= 2 and not sending.gaps
    assert [bytes(t) for t in sending.transcripts] == [bytes(t) for t in plain.transcripts]
