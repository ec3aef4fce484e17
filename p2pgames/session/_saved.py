"""What a peer saves so that it can take its seat again after its process dies.

A seat is saved as a list of records (canonical msgpack each, framed like a transcript's):

* ``["seat", {"format": "p2pgames-seat", "version": 1, "game": name, "game_id": 32 bytes,
  "seat": n, "key": this seat's 32-byte identity key, "seed": 32 bytes, "host": the host's
  32-byte key}]`` — first, once, when the game starts. ``seed`` is the secret every key, salt and random contribution of the seat is derived
  from (:class:`~p2pgames.session.SeatSecrets`): it is as secret as the identity key.
* ``["choice", [phase_id, value]]`` — a committed choice of the player's, before its commitment
  is sent (the only secret that can't be derived again).
* ``["where", {"host": text, "port": n, "transcript": text or nil}]`` — written by the network
  layer: where the table was, and where this seat's transcript is.
* ``["host", 32 bytes]`` — the key of the table's host from now on: a host handed the table to
  another seat (protocol/SPEC.md §B15); it replaces the header's.
* ``["reach", envelope bytes]`` — another seat's signed ``reach`` (where it listens, §B15), each
  one this seat took: a host that restarts dials them to find out whether the others took the
  table over meanwhile (a ``reach`` is in no transcript).

The public rest — the start, the accepts and the log — comes back from the transcript (a host)
or from the host (a joiner). :class:`SavedSeat` is what the records say, read back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from p2pgames import canonical

__all__ = ["SavedSeat", "SavedSeatError", "SEAT_FORMAT"]

SEAT_FORMAT = "p2pgames-seat"


class SavedSeatError(ValueError):
    """The saved seat's records are not what :mod:`p2pgames` writes (the message says how)."""


@dataclass(frozen=True)
class SavedSeat:
    """One seat of one game, as saved. ``choices`` by phase id; ``host``/``port`` where the host
    listened (its own address, for a host); ``transcript`` the path of this seat's transcript."""

    game: str
    game_id: bytes
    seat: int
    key: bytes  # the seat's identity key (several profiles may share a directory)
    seed: bytes = field(repr=False)
    host_key: bytes = b""
    choices: dict[int, Any] = field(default_factory=dict, repr=False)
    host: str | None = None
    port: int | None = None
    transcript: str | None = None
    reaches: tuple[bytes, ...] = field(default=(), repr=False)  # signed reach envelopes, as taken
    # A bot's seat its host's process launched: the bot's private signing key (nothing else holds
    # it), for the host to launch the bot again when it resumes the game. None for a person's.
    identity: bytes | None = field(default=None, repr=False)

    @property
    def is_host(self) -> bool:
        """Whether the seat hosts the table: seat 0, or a seat it was handed to (§B15)."""
        return self.host_key == self.key

    @staticmethod
    def header(game: str, game_id: bytes, seat: int, key: bytes, seed: bytes, host_key: bytes) -> bytes:
        """The first record of a saved seat."""
        return canonical.encode(["seat", {
            "format": SEAT_FORMAT, "version": 1, "game": game, "game_id": game_id,
            "seat": seat, "key": key, "seed": seed, "host": host_key,
        }])

    @staticmethod
    def choice(phase_id: int, value: Any) -> bytes:
        return canonical.encode(["choice", [phase_id, value]])

    @staticmethod
    def where(host: str | None, port: int | None, transcript: str | None) -> bytes:
        return canonical.encode(["where", {"host": host, "port": port, "transcript": transcript}])

    @staticmethod
    def new_host(host_key: bytes) -> bytes:
        return canonical.encode(["host", host_key])

    @staticmethod
    def reach(envelope: bytes) -> bytes:
        return canonical.encode(["reach", envelope])

    @staticmethod
    def bot_identity(private_key: bytes) -> bytes:
        """The record of a launched bot's private signing key (see :attr:`identity`)."""
        return canonical.encode(["identity", private_key])

    @classmethod
    def read(cls, records: Iterable[tuple[str, Any]]) -> SavedSeat:
        """The seat ``records`` (``(kind, value)`` pairs, as
        :func:`~p2pgames.session.iter_records` reads them) describe; later ``where`` records
        replace earlier ones.

        Raises :class:`SavedSeatError` if they don't begin with a seat header of this format, or
        hold a record of another shape.
        """
        saved: SavedSeat | None = None
        choices: dict[int, Any] = {}
        where: dict[str, Any] = {}
        host_key: bytes | None = None
        reaches: list[bytes] = []
        identity: bytes | None = None
        for number, (kind, value) in enumerate(records):
            if number == 0:
                if kind != "seat" or not isinstance(value, dict) or value.get("format") != SEAT_FORMAT:
                    raise SavedSeatError("it does not begin with a saved seat")
                if value.get("version") != 1:
                    raise SavedSeatError(f"it is saved in version {value.get('version')!r}, which this p2pgames can't read")
                try:
                    saved = cls(value["game"], value["game_id"], value["seat"], value["key"], value["seed"], value["host"])
                except KeyError as missing:
                    raise SavedSeatError(f"its header lacks {missing}") from None
                if not (
                    isinstance(saved.game, str) and _bytes32(saved.game_id) and _bytes32(saved.seed) and _bytes32(saved.key)
                    and _bytes32(saved.host_key) and type(saved.seat) is int and 0 <= saved.seat < 64
                ):
                    raise SavedSeatError("its header is not valid")
            elif kind == "choice" and isinstance(value, (list, tuple)) and len(value) == 2 and type(value[0]) is int:
                choices[value[0]] = value[1]
            elif kind == "where" and isinstance(value, dict) and set(value) == {"host", "port", "transcript"}:
                where = value
            elif kind == "host" and _bytes32(value):
                host_key = value
            elif kind == "identity" and _bytes32(value):
                identity = value
            elif kind == "reach" and isinstance(value, bytes):
                reaches.append(value)  # (checked as the session takes it back: signed by its seat)
            else:
                raise SavedSeatError(f"record {number} ({kind!r}) is not one a saved seat holds")
        if saved is None:
            raise SavedSeatError("it is empty")
        return cls(
            saved.game, saved.game_id, saved.seat, saved.key, saved.seed, host_key or saved.host_key, choices,
            where.get("host"), where.get("port"), where.get("transcript"), tuple(reaches), identity,
        )


def _bytes32(value: Any) -> bool:
    return isinstance(value, bytes) and len(value) == 32
