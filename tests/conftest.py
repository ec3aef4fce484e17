import pytest
import trio.testing


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


@pytest.fixture(autouse=True)
def mdns_on_loopback(monkeypatch):
    """LAN discovery (mDNS) keeps to 127.0.0.1 in every test, and in the processes tests start:
    hosted tables are announced to this machine only, not to the network it is on."""
    monkeypatch.setenv("P2PGAMES_INTERFACE", "127.0.0.1")
