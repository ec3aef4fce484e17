"""Join codes: where a host listens, and the fingerprint of the key it must have.

``HOST:PORT/xxxx-xxxx-xxxx-xxxx`` (IPv6 hosts in brackets). The fingerprint part is what makes it
safe to join over a network someone else controls: a different key at that address is refused.
``HOST:PORT`` alone also works, without that protection.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from p2pgames.crypto import PublicKey, fingerprint_matches

__all__ = ["JoinCode"]

_FINGERPRINT = re.compile(r"^[a-z2-7]{4}(-?[a-z2-7]{4}){3}$", re.IGNORECASE)


@dataclass(frozen=True)
class JoinCode:
    """Where to join and, optionally, the host key's fingerprint."""

    host: str
    port: int
    fingerprint: str | None = None

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        text = f"{host}:{self.port}"
        return f"{text}/{self.fingerprint}" if self.fingerprint else text

    @classmethod
    def parse(cls, text: str) -> "JoinCode":
        """Parse ``HOST:PORT[/FINGERPRINT]``; raises ``ValueError`` saying what is wrong."""
        text = text.strip()
        address, _, fingerprint = text.partition("/")
        if address.startswith("["):
            host, _, rest = address[1:].partition("]")
            if not rest.startswith(":"):
                raise ValueError(f"{text!r}: an IPv6 join code looks like [ADDRESS]:PORT/FINGERPRINT")
            port_text = rest[1:]
        else:
            host, _, port_text = address.rpartition(":")
        if not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
            raise ValueError(f"{text!r} is not a join code: expected HOST:PORT or HOST:PORT/FINGERPRINT")
        if fingerprint and not _FINGERPRINT.match(fingerprint):
            raise ValueError(f"{fingerprint!r} is not a key fingerprint (16 letters a–z and digits 2–7)")
        return cls(host, int(port_text), fingerprint.lower() or None)

    def other_host_than(self, key: PublicKey) -> str | None:
        """Why this code can't lead to the host whose key is ``key`` (its fingerprint names
        another key: another table), for a person; ``None`` if it may (a code without a
        fingerprint may: the host's key is checked when it answers)."""
        if self.fingerprint is None or fingerprint_matches(self.fingerprint, key):
            return None
        return (
            f"the join code's key {self.fingerprint} is not the key of your game's host "
            f"({key.fingerprint()}): that is another table"
        )
