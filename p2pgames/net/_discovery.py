"""Finding tables on the local network: hosts announce by UDP broadcast, joiners listen.

A host with free seats broadcasts an *announcement* every second to UDP port
:data:`DISCOVERY_PORT`: the canonical msgpack of ::

    {"p2pgames": 1, "game": name, "title": text, "host": name, "port": int,
     "fingerprint": "xxxx-xxxx-xxxx-xxxx", "seated": int, "seats": int}

It is only a hint for finding the table: a joiner connects to the sender's address and port and
checks the announced key fingerprint like any join code's, and a person choosing among tables sees
each host's name and fingerprint. Anything that doesn't parse is ignored.
"""

from __future__ import annotations

import functools
import socket
from dataclasses import dataclass
from typing import Callable

import trio

from p2pgames import canonical
from p2pgames.net._joincode import JoinCode
from p2pgames.session import clean_text

__all__ = ["DISCOVERY_PORT", "Announcement", "announce", "discover"]

DISCOVERY_PORT = 47474
_MAX_ANNOUNCEMENT = 1024


@dataclass(frozen=True)
class Announcement:
    """A table heard on the network, at ``address``."""

    address: str
    game: str
    title: str
    host: str
    port: int
    fingerprint: str
    seated: int
    seats: int

    @property
    def join_code(self) -> JoinCode:
        return JoinCode(self.address, self.port, self.fingerprint)

    def describe(self) -> str:
        return (
            f"{self.title} hosted by {self.host} ({self.seated}/{self.seats} seated) "
            f"at {self.join_code}"
        )

    @classmethod
    def parse(cls, address: str, data: bytes) -> "Announcement | None":
        try:
            value = canonical.decode(data, max_size=_MAX_ANNOUNCEMENT)
            if not isinstance(value, dict) or value.get("p2pgames") != 1:
                return None
            announcement = cls(
                # Anyone on the LAN can broadcast: what will be printed is cleaned of control
                # characters (a terminal escape could rewrite the screen).
                address, clean_text(str(value["game"]), 40), clean_text(str(value["title"]), 60),
                clean_text(str(value["host"]), 40),
                int(value["port"]), str(value["fingerprint"])[:19], int(value["seated"]), int(value["seats"]),
            )
            JoinCode.parse(str(announcement.join_code))  # a valid port and fingerprint
        except (canonical.CanonicalError, KeyError, TypeError, ValueError):
            return None
        return announcement


async def announce(
    describe: Callable[[], dict | None],
    *,
    address: str = "255.255.255.255",
    port: int = DISCOVERY_PORT,
    interval: float = 1.0,
) -> None:
    """Broadcast ``describe()`` every ``interval`` seconds until it returns ``None`` (table full).

    Network errors (no broadcast route, a firewall) are ignored: discovery is a convenience.
    """
    sock = trio.socket.socket(trio.socket.AF_INET, trio.socket.SOCK_DGRAM)
    with sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        while True:
            value = describe()
            if value is None:
                return
            try:
                await sock.sendto(canonical.encode({"p2pgames": 1, **value}), (address, port))
            except OSError:
                pass
            await trio.sleep(interval)


async def discover(seconds: float = 2.5, *, port: int = DISCOVERY_PORT) -> list[Announcement]:
    """Listen for announcements for ``seconds``; the tables heard, one per host address and port."""
    sock = trio.socket.socket(trio.socket.AF_INET, trio.socket.SOCK_DGRAM)
    found: dict[tuple[str, int], Announcement] = {}
    with sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if hasattr(socket, "SO_REUSEPORT"):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        await sock.bind(("", port))
        with trio.move_on_after(seconds):
            while True:
                data, (sender, _) = await sock.recvfrom(_MAX_ANNOUNCEMENT)
                announcement = Announcement.parse(sender, data)
                if announcement is not None:
                    found[(announcement.address, announcement.port)] = announcement
    return sorted(found.values(), key=lambda a: (a.title, a.host, a.address, a.port))


def find_tables(seconds: float = 2.5, *, port: int = DISCOVERY_PORT) -> list[Announcement]:
    """:func:`discover`, for callers outside trio (the command line)."""
    return trio.run(functools.partial(discover, seconds, port=port))
