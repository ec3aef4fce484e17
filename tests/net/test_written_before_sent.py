"""What a node sends is in its files first.

A host killed just after sending an entry resumes from its transcript; if the entry had left
before it was written down, the joiners that got it would hold an entry the resumed host lacks,
and the game could not go on. (Since frames may go straight to the socket, the order of a
flush is what guarantees it: seen failing under load in tests/cli/test_cli_resume.py.)
"""

from p2pgames.crypto import Identity, reproducible_bytes
from p2pgames.games import get_game
from p2pgames.net import Node
from p2pgames.session import Session


async def test_a_flush_writes_the_transcript_before_it_sends_a_frame(tmp_path):
    random_bytes = reproducible_bytes(b"written-first")
    session = Session(
        Identity.generate(random_bytes(32)), "hostess", get_game,
        ruleset=get_game("probe").ruleset(2), bot=True, random_bytes=random_bytes,
    )
    transcript = tmp_path / "host.p2pt"
    node = Node(session, transcript_path=transcript)
    seen_at_send = []

    def send_frame(connection, data):
        seen_at_send.append(transcript.read_bytes() if transcript.exists() else b"")

    node._send_frame = send_frame  # what was on disk when the frame went
    node.connections[7] = type("Open", (), {"closing": False, "last_sent": 0.0})()
    session._record("chat", b"an entry, say")
    session._send(7, b"its frame")
    try:
        node._flush()
    finally:
        node._close_files()
    assert seen_at_send and b"an entry, say" in seen_at_send[0]
