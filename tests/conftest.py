import pytest
import trio.testing


@pytest.fixture
def autojump_clock():
    """Virtual time that jumps ahead whenever every task is waiting: timers without sleeps."""
    return trio.testing.MockClock(autojump_threshold=0)
