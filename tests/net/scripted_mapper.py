"""A stand-in :class:`~p2pgames.net.PortMapper` whose answers a test scripts."""

from __future__ import annotations

import trio

from p2pgames.net._portmap import LEASE_SECONDS, MappingError, PortMapping


class ScriptedMapper:
    """A :class:`PortMapper` answering from ``answers`` (a PortMapping's external address, or a
    MappingError to raise), one per ``add``; the last answer repeats. Records every call with
    the trio clock's time."""

    def __init__(self, method: str, *answers: str | MappingError, lease: int = LEASE_SECONDS, remove_error: MappingError | None = None) -> None:
        self.method = method
        self.answers = list(answers)
        self.lease = lease
        self.remove_error = remove_error
        self.calls: list[tuple[str, float, int]] = []
        self.mapped: set[int] = set()

    async def add(self, internal_port: int, lease_seconds: int, *, external_port: int | None = None) -> PortMapping:
        self.calls.append(("add", trio.current_time(), external_port or internal_port))
        await trio.sleep(0.01)
        answer = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        if isinstance(answer, MappingError):
            raise answer
        self.mapped.add(external_port or internal_port)
        return PortMapping(self.method, "192.168.1.1", answer, external_port or internal_port, internal_port, self.lease)

    async def remove(self, mapping: PortMapping) -> None:
        self.calls.append(("remove", trio.current_time(), mapping.external_port))
        await trio.sleep(0.01)
        if self.remove_error is not None:
            raise self.remove_error
        self.mapped.discard(mapping.external_port)
