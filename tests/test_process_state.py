"""The guard every test runs under (``process_state``) sees each kind of leak, and puts back what
it can. Each test here changes the process, asks the guard, and undoes the change itself."""

import os
import signal
import threading

import process_state


def test_nothing_changed_is_nothing_to_report():
    before = process_state.snapshot()
    assert process_state.snapshot().changes_since(before) == []


def test_a_blocked_signal_is_named_and_unblocked_again():
    before = process_state.snapshot()
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        changes = process_state.snapshot().changes_since(before)
        assert changes == ["the main thread's signal mask changed (now blocked: ['SIGINT'], unblocked: [])"]
    finally:
        before.restore()
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])


def test_a_handler_left_installed_is_named_and_put_back():
    before = process_state.snapshot()
    previous = signal.signal(signal.SIGUSR1, lambda number, frame: None)
    try:
        [change] = process_state.snapshot().changes_since(before)
        assert change.startswith("the handler of SIGUSR1 was ")
    finally:
        before.restore()
    assert signal.getsignal(signal.SIGUSR1) is previous


def test_a_descriptor_left_open_is_named():
    before = process_state.snapshot()
    reading, writing = os.pipe()
    try:
        [change] = process_state.snapshot().changes_since(before)
        assert change.startswith("file descriptors left open: ") and "pipe:" in change
    finally:
        os.close(reading)
        os.close(writing)


def test_a_thread_left_running_is_named():
    before = process_state.snapshot()
    release = threading.Event()
    thread = threading.Thread(target=release.wait, name="left-behind")
    thread.start()
    try:
        [change] = process_state.snapshot().changes_since(before)
        assert change.startswith("a thread is left running: <Thread(left-behind")
    finally:
        release.set()
        thread.join()


def test_a_thread_that_finishes_soon_after_is_waited_for():
    before = process_state.snapshot()
    release = threading.Event()
    thread = threading.Thread(target=release.wait)
    thread.start()
    release.set()
    process_state.wait_for_threads(before)
    assert not thread.is_alive()
    assert process_state.snapshot().changes_since(before) == []


def test_an_environment_variable_and_directory_are_named_and_put_back(tmp_path):
    before = process_state.snapshot()
    os.environ["P2PGAMES_LEFT_BEHIND"] = "1"
    os.chdir(tmp_path)
    try:
        changes = process_state.snapshot().changes_since(before)
        assert changes == [
            "environment variables changed: ['P2PGAMES_LEFT_BEHIND']",
            f"the working directory was {before.working_directory}, is {tmp_path}",
        ]
    finally:
        before.restore()
    assert "P2PGAMES_LEFT_BEHIND" not in os.environ
    assert os.getcwd() == before.working_directory
