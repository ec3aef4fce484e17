import signal
import sys
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input

sys.path.insert(0, str(Path(__file__).parent))


class TookTooLong(Exception):
    """A terminal game test ran past its deadline (a hang fails instead of blocking the run)."""


@pytest.fixture
def deadline():
    """Fail the test with :class:`TookTooLong` if it runs for more than 20 seconds.

    trio's own timeouts only cover trio's side; this also catches a hang in prompt_toolkit or
    asyncio, which run the loop in these tests.
    """

    def expire(signum, frame):
        raise TookTooLong("the test ran for more than 20 s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, 20.0)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def pipe():
    """The terminal's keyboard: keys a test sends to it reach the terminal game as typed."""
    with create_pipe_input() as pipe:
        yield pipe
