"""Signed envelopes: the only thing peers ever send each other.

Every frame on the wire is the canonical msgpack of a map::

    {"kind": str, "sender": 32-byte Ed25519 key, "body": map, "sig": 64 bytes}

where ``sig`` signs ``[kind, sender, body]`` in the domain ``"message"`` (see ``protocol/SPEC.md``).
:func:`open_envelope` parses and checks the shape and :meth:`Envelope.verify` the signature; both
raise :class:`MalformedMessage` / :class:`~p2pgames.crypto.BadSignature` and nothing else, whatever
bytes arrive.

Each ``kind`` has a body schema, checked by :func:`check_body`: exact key set and the type (and
size) of each value, so the code behind never meets a surprise.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from p2pgames import canonical
from p2pgames.crypto import CryptoError, Identity, PublicKey
from p2pgames.engine import MAX_MOVE_TIME

__all__ = [
    "Envelope",
    "MalformedMessage",
    "open_envelope",
    "make_envelope",
    "check_body",
    "KINDS",
    "SIGNATURE_DOMAIN",
    "MAX_TEXT",
    "NAME_LIMIT",
    "clean_text",
    "is_ack_item",
    "MAX_ACKS",
]

SIGNATURE_DOMAIN = "message"
MAX_TEXT = 500
MAX_LIST = 4096
NAME_LIMIT = 40  # characters of a display name (SPEC §A: text(40))


class MalformedMessage(ValueError):
    """Bytes that are not a well-formed envelope, or a body that doesn't fit its kind's schema."""


@dataclass(frozen=True, slots=True)
class Envelope:
    """A parsed envelope. ``raw`` is its exact canonical bytes; ``digest`` their SHA-256."""

    kind: str
    sender: bytes
    body: Mapping[str, Any]
    signature: bytes
    raw: bytes

    @property
    def digest(self) -> bytes:
        return hashlib.sha256(self.raw).digest()

    def verify(self, key: PublicKey | None = None) -> None:
        """Check the signature, by ``key`` or else by the sender field; raises ``BadSignature``."""
        signer = key if key is not None else _public_key(self.sender)
        signer.verify(SIGNATURE_DOMAIN, [self.kind, self.sender, self.body], self.signature)

    def __repr__(self) -> str:
        return f"Envelope(kind={self.kind!r}, sender={self.sender.hex()[:16]}…, body={dict(self.body)!r})"


def _public_key(raw: bytes) -> PublicKey:
    try:
        return PublicKey(raw)
    except CryptoError as error:
        raise MalformedMessage(f"sender is not a public key: {error}") from None


def make_envelope(identity: Identity, kind: str, body: Mapping[str, Any]) -> Envelope:
    """Sign ``body`` as a message of ``kind`` from ``identity`` (the body is checked first)."""
    check_body(kind, body)
    sender = identity.public_key.raw
    signature = identity.sign(SIGNATURE_DOMAIN, [kind, sender, body])
    raw = canonical.encode({"kind": kind, "sender": sender, "body": body, "sig": signature})
    return Envelope(kind, sender, body, signature, raw)


def open_envelope(data: bytes) -> Envelope:
    """Parse ``data`` into an :class:`Envelope`; checks shape and body schema, not the signature.

    Raises :class:`MalformedMessage` with a specific reason for anything else.
    """
    try:
        value = canonical.decode(data)
    except canonical.CanonicalError as error:
        raise MalformedMessage(str(error)) from None
    if not isinstance(value, dict) or set(value) != {"kind", "sender", "body", "sig"}:
        raise MalformedMessage("an envelope is a map of kind, sender, body and sig")
    kind, sender, body, signature = value["kind"], value["sender"], value["body"], value["sig"]
    if not isinstance(kind, str) or kind not in KINDS:
        raise MalformedMessage(f"unknown message kind {kind!r}")
    if not isinstance(sender, bytes) or len(sender) != 32:
        raise MalformedMessage("sender must be a 32-byte key")
    if not isinstance(signature, bytes) or len(signature) != 64:
        raise MalformedMessage("sig must be 64 bytes")
    if not isinstance(body, dict):
        raise MalformedMessage("body must be a map")
    check_body(kind, body)
    return Envelope(kind, sender, body, signature, bytes(data))


# -- body schemas ----------------------------------------------------------------------------------

Check = Callable[[Any], bool]


def _bytes(size: int) -> Check:
    return lambda v: isinstance(v, bytes) and len(v) == size


def _text(limit: int = MAX_TEXT) -> Check:
    return lambda v: isinstance(v, str) and len(v) <= limit


def _int(low: int = 0, high: int = 2**63 - 1) -> Check:
    return lambda v: type(v) is int and low <= v <= high


def _is_bool(v: Any) -> bool:
    return type(v) is bool


def _list_of(item: Check, limit: int = MAX_LIST) -> Check:
    return lambda v: isinstance(v, tuple | list) and len(v) <= limit and all(item(x) for x in v)


def _seat_record(v: Any) -> bool:
    # [key, seal key, name, bot] — and since protocol 11 [deck key, its key proof] besides (§A4)
    return (
        isinstance(v, tuple | list)
        and len(v) in (4, 6)
        and _bytes(32)(v[0])
        and _bytes(32)(v[1])
        and _text(40)(v[2])
        and _is_bool(v[3])
        and (len(v) == 4 or (_bytes(32)(v[4]) and _bytes(64)(v[5])))
    )


def _deck_key(v: Any) -> bool:
    # [deck key, its key proof] (protocol 11, §A4)
    return isinstance(v, tuple | list) and len(v) == 2 and _bytes(32)(v[0]) and _bytes(64)(v[1])


# The most addresses a seat may give in its ``reach`` (an IPv4 and an IPv6 address of each of a few
# interfaces, and one its router forwards).
MAX_ADDRESSES = 8


def _address(v: Any) -> bool:
    # [host: an IP address or name as text, port]
    return isinstance(v, tuple | list) and len(v) == 2 and _text(253)(v[0]) and bool(v[0]) and _int(1, 65535)(v[1])


# The most acknowledgements one ``acks`` message holds (§B8): 64 seats' acks of 16 entries, about
# 80 kB, far under a frame's 1 MiB.
MAX_ACKS = 1024


def is_ack_item(v: Any) -> bool:
    """Whether ``v`` has the shape of one acknowledgement of an ``acks`` message (§B8):
    ``[seat 0…63, seq, entry: 32 bytes or nil, state: 32 bytes or nil, sig: 64 bytes]``."""
    return (
        isinstance(v, tuple | list)
        and len(v) == 5
        and _int(0, 63)(v[0])
        and _int()(v[1])
        and all(part is None or _bytes(32)(part) for part in v[2:4])
        and _bytes(64)(v[4])
    )


def _map(v: Any) -> bool:
    return isinstance(v, dict)


def _ruleset(v: Any) -> bool:
    # Ruleset.encode(): {"game": name, "players": count, "options": {name: value}}, and
    # "edition" from 2 on, "open_seats": false for a table that plays no bot in a leaver's seat,
    # "forfeit": true for one whose last player wins by forfeit, "move_time": seconds for one
    # whose players' bots move for them past that; the game checks the values, this the shape.
    return (
        isinstance(v, dict)
        and set(v) - {"edition", "open_seats", "forfeit", "move_time"} == {"game", "players", "options"}
        and _text(40)(v["game"])
        and _int(1, 64)(v["players"])
        and _map(v["options"])
        and ("edition" not in v or _int(2, 1000)(v["edition"]))
        and ("open_seats" not in v or v["open_seats"] is False)
        and ("forfeit" not in v or v["forfeit"] is True)
        and ("move_time" not in v or _int(1, MAX_MOVE_TIME)(v["move_time"]))
    )


KINDS: dict[str, dict[str, Check]] = {
    # lobby
    "host-hello": {
        "protocol": _int(),
        "game": _text(40),
        "ruleset": _ruleset,
        "name": _text(40),
        "seal": _bytes(32),
        "nonce": _bytes(32),
    },
    "hello": {
        "protocol": _int(),
        "game": _text(40),
        "name": _text(40),
        "seal": _bytes(32),
        "host": _bytes(32),
        "nonce": _bytes(32),
        "bot": _is_bool,
    },
    "rejoin": {
        "protocol": _int(),
        "game_id": _bytes(32),
        "host": _bytes(32),
        "nonce": _bytes(32),
        "have": _int(),
    },
    # a watcher's greeting: it takes no seat, only listens (§B19)
    "watch": {"protocol": _int(), "host": _bytes(32), "nonce": _bytes(32), "name": _text(40)},
    "watching": {"chat": _is_bool},  # the host took the watcher (and says whether it may chat)
    "watcher-chat": {"game_id": _bytes(32), "name": _text(40), "text": _text()},  # a watcher's line, passed on by the host
    "reject": {"reason": _text()},
    "gone": {"game_id": _bytes(32), "rejoin": _bytes(32), "reason": _text()},
    "lobby": {"players": _list_of(_seat_record, 64), "seats": _int(1, 64), "table": _bytes(32)},
    "start": {
        "game_id": _bytes(32),
        "ruleset": _ruleset,
        "seats": _list_of(_seat_record, 64),
    },
    "accept": {"game_id": _bytes(32), "start": _bytes(32)},
    # where a seat listens, should it have to host the table (§B15)
    "reach": {"game_id": _bytes(32), "addresses": _list_of(_address, MAX_ADDRESSES)},
    # the game log
    "submit": {
        "game_id": _bytes(32),
        "seat": _int(0, 63),
        "counter": _int(),
        "based_on": _int(),
        "body": _map,
    },
    "stale": {"game_id": _bytes(32), "counter": _int(), "reason": _text()},
    "entry": {
        "game_id": _bytes(32),
        "seq": _int(),
        "prev": _bytes(32),
        "submission": lambda v: isinstance(v, bytes),
        "state": _bytes(32),
    },
    "ack": {"game_id": _bytes(32), "seq": _int(), "entry": _bytes(32), "state": _bytes(32)},
    # the host passes on several seats' acks at once (§B8): each an item, its envelope rebuilt
    "acks": {"game_id": _bytes(32), "acks": lambda v: _list_of(is_ack_item, MAX_ACKS)(v) and len(v) > 0},
    # a remaining seat's consent that ``successor`` take the table from ``host`` (§B15, a take-over)
    "takeover": {"game_id": _bytes(32), "seq": _int(), "entry": _bytes(32), "host": _int(0, 63), "successor": _int(0, 63)},
    # around the log
    "chat": {"game_id": _bytes(32), "text": _text()},
    "fault": {
        "game_id": _bytes(32),
        "culprit": lambda v: v is None or _int(0, 63)(v),
        "code": _text(40),
        "reason": _text(),
        "seq": _int(),
        "evidence": _list_of(lambda v: isinstance(v, bytes), 16),
    },
    "leave": {"game_id": _bytes(32), "reason": _text()},
    # a seat's request, or answer, to stop the game here and go on later (§B18)
    "adjourn": {"game_id": _bytes(32), "proposal": _int(), "agree": _is_bool},
    # after the end: a seat's request, or answer, to play a next game at this table (§B20)
    "again": {"game_id": _bytes(32), "game": _text(40), "agree": _is_bool},
    # a seat whose connection dropped, and its return
    "away": {"game_id": _bytes(32), "seat": _int(0, 63), "reason": _text()},
    "back": {"game_id": _bytes(32), "seat": _int(0, 63)},
    "caught-up": {"game_id": _bytes(32), "seq": _int()},
    "missing": {"game_id": _bytes(32), "from": _int()},
    "ping": {"nonce": _int()},
    "pong": {"nonce": _int()},
}


# Fields a kind may carry besides its own, and their checks: a joiner's deck key (protocol 11).
OPTIONAL: dict[str, dict[str, Check]] = {"hello": {"deck": _deck_key}}


def check_body(kind: str, body: Mapping[str, Any]) -> None:
    """Raise :class:`MalformedMessage` unless ``body`` has exactly ``kind``'s keys (and any of its
    optional ones) and their types."""
    schema = KINDS.get(kind)
    if schema is None:
        raise MalformedMessage(f"unknown message kind {kind!r}")
    optional = OPTIONAL.get(kind, {})
    if not set(schema) <= set(body) <= set(schema) | set(optional):
        missing = sorted(set(schema) - set(body))
        extra = sorted(set(body) - set(schema) - set(optional))
        raise MalformedMessage(f"{kind} body has wrong fields (missing {missing}, unexpected {extra})")
    for key, check in (schema | {key: optional[key] for key in body if key in optional}).items():
        if not check(body[key]):
            raise MalformedMessage(f"{kind} field {key!r} is not valid: {_short(body[key])}")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def clean_text(text: str, limit: int = 500) -> str:
    """Chat and names as they may be shown: no control characters, bounded length."""
    cleaned = "".join(ch if ch.isprintable() else " " for ch in text)
    return cleaned.strip()[:limit]
