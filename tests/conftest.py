import os
import sys
from pathlib import Path

import pytest
import trio.testing

import process_state

# Tests use loopback only: LAN discovery (mDNS) and the questions a host asks its router stay on
# 127.0.0.1, in this process and in the p2pgames processes the tests start (port 9 is discard: a
# NAT-PMP request there is refused at once). A test of those protocols points them at a stand-in.
os.environ["P2PGAMES_INTERFACE"] = "127.0.0.1"
os.environ["P2PGAMES_GATEWAY"] = "127.0.0.1:9"
# Tests run as a player who installed p2pgames: the `p2pgames` on PATH is the one under test, so
# the commands it prints for the player begin "p2pgames" (p2pgames.invocation), however pytest was
# started. A test of another case gives its own PATH.
os.environ["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", os.defpath)])


@pytest.fixture(autouse=True)
def leaves_the_process_as_it_found_it():
    """Fails a test that leaves threads running, signal handlers, the signal mask, descriptors,
    the environment or the working directory changed (see ``process_state``), then puts back what
    it can: the leaking test fails, not whichever test the worker runs next."""
    before = process_state.snapshot()
    yield
    process_state.wait_for_threads(before)
    changes = process_state.snapshot().changes_since(before)
    if changes:
        before.restore()
        pytest.fail("the test left the process changed:\n- " + "\n- ".join(changes), pytrace=False)


@pytest.fixture
def autojump_clock():
    """Virtual time that jumps ahead whenever every task is waiting: timers without sleeps."""
    return trio.testing.MockClock(autojump_threshold=0)


@pytest.fixture
def ipv6_loopback():
    """Skips a test on a machine with no IPv6 loopback (``::1`` can't be bound); a test that
    needs it names this fixture."""
    import socket

    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as probe:
            probe.bind(("::1", 0))
    except OSError:
        pytest.skip("this machine has no IPv6 loopback")


@pytest.fixture
def peers(tmp_path):
    """Start ``p2pgames`` processes with ``peers(*args)`` (``environment=``: variables to set), each
    a :class:`peer_processes.Peer` with ``P2PGAMES_HOME`` in ``tmp_path / "home"`` (the command-line
    tests' ``home``); any still running at the end of the test is killed."""
    from peer_processes import Peer

    started: list[Peer] = []

    def start(*args: str, environment: dict[str, str] | None = None) -> Peer:
        peer = Peer(tmp_path / "home", *args, environment=environment)
        started.append(peer)
        return peer

    yield start
    for peer in started:
        peer.close()
