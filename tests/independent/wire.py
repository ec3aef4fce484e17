"""Identities, signatures, envelopes and frames (SPEC §A2, §A3, §A4, §C2), from the SPEC alone."""

import base64
import functools
import hashlib
import struct

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from . import canon, edwards

MAX_FRAME = 1 << 20


class WireError(ValueError):
    """A frame, envelope or body that a receiver must refuse; `code` is the §B9 fault code."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def H(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


# --- Ed25519 public keys (§C2.1): decoding and the small-order check --------------------------

# (edwards25519's arithmetic is edwards.py's, which the ElGamal deck of §C9 shares.)
_P, L = edwards.P, edwards.L
_decompress, _add = edwards.decode, edwards.add


def valid_public_key(key) -> bool:
    """§C2.1: 32 bytes, a curve point (canonical y, no "−0"), not of small order."""
    if type(key) is not bytes or len(key) != 32:
        return False
    return _valid_point(key)


# A table's few keys are checked with every message they sign: each answer is kept.
@functools.lru_cache(maxsize=1024)
def _valid_point(key: bytes) -> bool:
    point = _decompress(key)
    if point is None:
        return False
    for _ in range(3):
        point = _add(point, point)
    x, y, z, _t = point
    return not (x % _P == 0 and (y - z) % _P == 0)


def signing_input(domain: str, payload) -> bytes:
    return b"p2pgames/v1/sign/" + domain.encode() + b"\x00" + canon.encode(payload)


def sign(private: bytes, domain: str, payload) -> bytes:
    return Ed25519PrivateKey.from_private_bytes(private).sign(signing_input(domain, payload))


def public_key(private: bytes) -> bytes:
    return Ed25519PrivateKey.from_private_bytes(private).public_key().public_bytes_raw()


def verify(public: bytes, domain: str, payload, signature) -> bool:
    """§C2.2: RFC 8032 without the cofactor; S ≥ L refused; the key must pass §C2.1."""
    if not valid_public_key(public) or not isinstance(signature, bytes) or len(signature) != 64:
        return False
    if int.from_bytes(signature[32:], "little") >= L:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, signing_input(domain, payload))
    except InvalidSignature:
        return False
    return True


def fingerprint(public: bytes) -> str:
    raw = H(b"p2pgames/v1/fingerprint\x00" + public)[:10]
    text = base64.b32encode(raw).decode().lower()
    return "-".join(text[i:i + 4] for i in range(0, 16, 4))


def fingerprint_matches(public: bytes, text: str) -> bool:
    typed = "".join(c for c in text.strip() if c != "-").lower()
    return len(typed) == 16 and typed == fingerprint(public).replace("-", "")


# --- envelopes (§A3) and bodies (§A4) ---------------------------------------------------------

B32, INT, TEXT, NAME, SEAT, BOOL, BYTES, MAP, ANY_INT = "b32", "int", "text", "name", "seat", "bool", "bytes", "map", "any_int"

SCHEMAS = {
    "host-hello": {"protocol": INT, "game": NAME, "ruleset": "ruleset", "name": NAME, "seal": B32, "nonce": B32},
    "hello": {"protocol": INT, "game": NAME, "name": NAME, "seal": B32, "host": B32, "nonce": B32, "bot": BOOL},
    "reject": {"reason": TEXT},
    "gone": {"game_id": B32, "rejoin": B32, "reason": TEXT},
    "lobby": {"players": "records", "seats": "seats", "table": B32},
    "start": {"game_id": B32, "ruleset": "ruleset", "seats": "records"},
    "accept": {"game_id": B32, "start": B32},
    "reach": {"game_id": B32, "addresses": "addresses"},
    "submit": {"game_id": B32, "seat": SEAT, "counter": INT, "based_on": INT, "body": MAP},
    "entry": {"game_id": B32, "seq": INT, "prev": B32, "submission": BYTES, "state": B32},
    "stale": {"game_id": B32, "counter": INT, "reason": TEXT},
    "ack": {"game_id": B32, "seq": INT, "entry": B32, "state": B32},
    "acks": {"game_id": B32, "acks": "ack_items"},
    "takeover": {"game_id": B32, "seq": INT, "entry": B32, "host": SEAT, "successor": SEAT},
    "chat": {"game_id": B32, "text": TEXT},
    "fault": {"game_id": B32, "culprit": "seat_or_nil", "code": NAME, "reason": TEXT, "seq": INT, "evidence": "evidence"},
    "leave": {"game_id": B32, "reason": TEXT},
    "adjourn": {"game_id": B32, "proposal": INT, "agree": BOOL},
    "again": {"game_id": B32, "game": NAME, "agree": BOOL},
    "watch": {"protocol": INT, "host": B32, "nonce": B32, "name": NAME},
    "watching": {"chat": BOOL},
    "watcher-chat": {"game_id": B32, "name": NAME, "text": TEXT},
    "rejoin": {"protocol": INT, "game_id": B32, "host": B32, "nonce": B32, "have": INT},
    "away": {"game_id": B32, "seat": SEAT, "reason": TEXT},
    "back": {"game_id": B32, "seat": SEAT},
    "caught-up": {"game_id": B32, "seq": INT},
    "missing": {"game_id": B32, "from": INT},
    "ping": {"nonce": INT},
    "pong": {"nonce": INT},
}


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _is_text(v, limit):
    return isinstance(v, str) and len(v) <= limit


def _is_record(v):
    # §A4: 4 items; at protocol 11 (§B6.3) 6, the deck key (32 bytes) and its key proof (64 bytes).
    return (isinstance(v, list) and len(v) in (4, 6) and isinstance(v[0], bytes) and len(v[0]) == 32
            and isinstance(v[1], bytes) and len(v[1]) == 32 and _is_text(v[2], 40) and isinstance(v[3], bool)
            and (len(v) == 4 or (isinstance(v[4], bytes) and len(v[4]) == 32
                                 and isinstance(v[5], bytes) and len(v[5]) == 64)))


def _is_ruleset(v):
    # `open_seats` and `forfeit` are written only as false and true (§A4, §B14, §B17): the other
    # value is malformed; `forfeit` with players other than 2 the game refuses, not the schema.
    return (isinstance(v, dict) and set(v) - {"edition", "open_seats", "forfeit", "move_time"} == {"game", "players", "options"}
            and _is_text(v["game"], 40) and _is_int(v["players"]) and 1 <= v["players"] <= 64
            and isinstance(v["options"], dict)
            and ("edition" not in v or (_is_int(v["edition"]) and 2 <= v["edition"] <= 1000))
            and ("open_seats" not in v or v["open_seats"] is False)
            and ("forfeit" not in v or v["forfeit"] is True)
            and ("move_time" not in v or (_is_int(v["move_time"]) and 1 <= v["move_time"] <= 86_400)))


_CHECKS = {
    B32: lambda v: isinstance(v, bytes) and len(v) == 32,
    INT: lambda v: _is_int(v) and 0 <= v < 2**63,
    TEXT: lambda v: _is_text(v, 500),
    NAME: lambda v: _is_text(v, 40),
    SEAT: lambda v: _is_int(v) and 0 <= v <= 63,
    BOOL: lambda v: isinstance(v, bool),
    BYTES: lambda v: isinstance(v, bytes),
    MAP: lambda v: isinstance(v, dict),
    "ruleset": _is_ruleset,
    "records": lambda v: isinstance(v, list) and len(v) <= 64 and all(_is_record(r) for r in v),
    "seats": lambda v: _is_int(v) and 1 <= v <= 64,
    "addresses": lambda v: isinstance(v, list) and len(v) <= 8 and all(
        isinstance(a, list) and len(a) == 2 and _is_text(a[0], 253) and a[0] != "" and _is_int(a[1]) and 1 <= a[1] <= 65535
        for a in v),
    "seat_or_nil": lambda v: v is None or (_is_int(v) and 0 <= v <= 63),
    # §B8: 1 … 1024 items [seat, seq, entry: b32 or nil, state: b32 or nil, sig: 64 bytes]
    "ack_items": lambda v: isinstance(v, list) and 1 <= len(v) <= 1024 and all(
        isinstance(i, list) and len(i) == 5 and _is_int(i[0]) and 0 <= i[0] <= 63 and _is_int(i[1]) and 0 <= i[1] < 2**63
        and all(x is None or (isinstance(x, bytes) and len(x) == 32) for x in i[2:4])
        and isinstance(i[4], bytes) and len(i[4]) == 64 for i in v),
    "evidence": lambda v: isinstance(v, list) and len(v) <= 16 and all(isinstance(e, bytes) for e in v),
}


def body_problem(kind: str, body) -> str | None:
    """What is wrong with `body` for `kind` (§A4), or None."""
    schema = SCHEMAS.get(kind)
    if schema is None:
        return f"unknown kind {kind!r}"
    if not isinstance(body, dict) or set(body) != set(schema):
        return f"{kind}: wrong fields"
    for key, typ in schema.items():
        if not _CHECKS[typ](body[key]):
            return f"{kind}: bad {key}"
    return None


class Envelope:
    """An opened envelope: `kind`, `sender`, `body`, `sig`, its exact `raw` bytes and `digest`."""

    __slots__ = ("kind", "sender", "body", "sig", "raw", "digest")

    def __init__(self, kind, sender, body, sig, raw):
        self.kind, self.sender, self.body, self.sig, self.raw = kind, sender, body, sig, raw
        self.digest = H(raw)

    def signed_by(self, key: bytes) -> bool:
        return self.sender == key and verify(key, "message", [self.kind, self.sender, self.body], self.sig)


def make_envelope(private: bytes, kind: str, body: dict) -> bytes:
    sender = public_key(private)
    sig = sign(private, "message", [kind, sender, body])
    return canon.encode({"body": body, "kind": kind, "sender": sender, "sig": sig})


def open_envelope(raw: bytes, check_signature: bool = True) -> Envelope:
    """Decode and check shape, schema and (by default) the signature by its `sender`.

    Raises WireError("malformed", …) or WireError("bad-signature", …).
    """
    try:
        value = canon.decode(raw)
    except canon.CanonError as e:
        raise WireError("malformed", f"not canonical msgpack: {e}") from e
    if not isinstance(value, dict) or set(value) != {"body", "kind", "sender", "sig"}:
        raise WireError("malformed", "not an envelope")
    kind, sender, sig, body = value["kind"], value["sender"], value["sig"], value["body"]
    if not (isinstance(kind, str) and isinstance(sender, bytes) and len(sender) == 32
            and isinstance(sig, bytes) and len(sig) == 64 and isinstance(body, dict)):
        raise WireError("malformed", "not an envelope")
    problem = body_problem(kind, body)
    if problem:
        raise WireError("malformed", problem)
    env = Envelope(kind, sender, body, sig, bytes(raw))
    if check_signature and not verify(sender, "message", [kind, sender, body], sig):
        raise WireError("bad-signature", f"{kind}: signature does not verify")
    return env


# --- frames (§A2) -----------------------------------------------------------------------------

def frame(payload: bytes) -> bytes:
    if not 1 <= len(payload) <= MAX_FRAME:
        raise WireError("oversize", "frame length out of range")
    return struct.pack(">I", len(payload)) + payload


class FrameReader:
    """Feed bytes in, take whole payloads out; raises WireError on a bad length prefix."""

    def __init__(self):
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[bytes]:
        self._buffer += data
        payloads = []
        while len(self._buffer) >= 4:
            n = struct.unpack(">I", self._buffer[:4])[0]
            if n == 0:
                raise WireError("malformed", "frame of length 0")
            if n > MAX_FRAME:
                raise WireError("oversize", f"frame of {n} bytes")
            if len(self._buffer) < 4 + n:
                break
            payloads.append(bytes(self._buffer[4:4 + n]))
            del self._buffer[:4 + n]
        return payloads
