"""Whatever a peer sends, a session never crashes, names the sender, and changes nothing else.

House rule: a peer must never crash on a malformed or malicious message; it reports it and names the
sender; bad input changes nothing. Hypothesis throws frames at a host (on a joiner's connection) and
at a joiner (from the host) at every stage of a seeded probe game: random bytes, damaged copies of
real frames, valid msgpack of the wrong shape, non-canonical msgpack, huge and deeply nested values,
envelopes of every kind with one field replaced by a wrong value (signed with the sender's real key,
so they get past the signature to the checks behind it), and submissions and log entries that are
well formed but wrong. After each frame:

* ``receive`` returned normally;
* the session is either unchanged (stage, log position, state hash, chain head, counters, seats) or
  halted with a fault that names the sender (a fault the sender *reported* is recorded as its
  claim, which makes nobody else the culprit) — never anyone else;
* the transcripts the peers hold still verify.

Sessions come from one seeded game played once per module and copied (``copy.deepcopy``: a session
holds no I/O) at the first moment of each state of interest. Everything is deterministic: fixed
seeds and ``derandomize=True``.
"""

from __future__ import annotations

import copy
import functools
import hashlib
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from switchboard import Switchboard

from p2pgames import PROTOCOL_VERSION, canonical
from p2pgames.crypto import Identity, commit, reproducible_bytes
from p2pgames.games import get_game
from p2pgames.session import (
    HOST_CONNECTION,
    FaultCode,
    Halted,
    Rejected,
    open_envelope,
    verify_transcript,
)
from p2pgames.session._messages import KINDS, SIGNATURE_DOMAIN
from p2pgames.session._replica import (
    AuditSub,
    CardPhase,
    CommitPhase,
    DealSub,
    DecisionPhase,
    KeysSub,
)

GAME = "probe"
PLAYERS = 3
SEED = b"robustness"
HOST = 0
JOINER = 1  # the joiner under test, and the seat whose connection the host is fed on
OUTSIDER = Identity.generate(hashlib.sha256(b"not at the table").digest())
FAULT_CODES = {value for name, value in vars(FaultCode).items() if name.isupper()}

FUZZ = settings(
    max_examples=60,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)


# -- boards ----------------------------------------------------------------------------------------


def new_board(seed: bytes = SEED) -> Switchboard:
    board = Switchboard(GAME, PLAYERS, seed=seed)
    for seat, session in enumerate(board.sessions):
        session.random_bytes = reproducible_bytes(seed + b"/rng/" + bytes([seat]))  # deepcopy-able
    return board


def phase_name(replica) -> str:
    phase = replica.phase
    if isinstance(phase, DecisionPhase):
        return "act"
    if isinstance(phase, CommitPhase):
        return ("open" if phase.opening else "commit") + "-" + phase.purpose
    if isinstance(phase, CardPhase):
        current = phase.current
        return {DealSub: "pass", KeysSub: "keys", AuditSub: "audit"}[type(current)]
    return "over"


@functools.cache
def checkpoints() -> dict[str, Switchboard]:
    """Copies of one seeded game at the first moment of each state of interest.

    ``host-*``: the host waits for something from seat 1 (in lobby: seat 1 is seated and seat 2's
    hello is on its way); ``joiner-*``: seat 1 waits for something from the host (seat 0).
    """
    board = new_board()
    saved: dict[str, Switchboard] = {}

    def save(name: str) -> None:
        if name not in saved:
            saved[name] = copy.deepcopy(board)

    save("joiner-before-hello")

    def until() -> bool:
        host, joiner = board.sessions[HOST], board.sessions[JOINER]
        if host.stage == "lobby" and host.lobby_size == 2:
            save("host-lobby")
        if joiner.stage == "lobby" and len(board.received[JOINER]) >= 1:
            save("joiner-lobby")
        if host.stage == "starting":
            save("host-starting")
        if joiner.stage == "starting":
            save("joiner-starting")
        if host.stage == "playing" and JOINER in host.replica.waiting_for():
            save("host-" + phase_name(host.replica))
        if joiner.stage == "playing" and HOST in joiner.replica.waiting_for():
            save("joiner-" + phase_name(joiner.replica))
        return False

    board.run(until=until)
    assert all(session.stage == "over" for session in board.sessions)
    saved["host-over"] = saved["joiner-over"] = copy.deepcopy(board)
    return saved


HOST_POINTS = [
    "host-lobby", "host-starting", "host-commit-random", "host-open-random", "host-pass", "host-keys",
    "host-commit-choice", "host-open-choice", "host-act", "host-audit", "host-over",
]
JOINER_POINTS = [
    "joiner-before-hello", "joiner-lobby", "joiner-starting", "joiner-commit-random", "joiner-open-random",
    "joiner-pass", "joiner-keys", "joiner-commit-choice", "joiner-open-choice", "joiner-act", "joiner-audit",
    "joiner-over",
]


def test_the_seeded_game_reaches_every_checkpoint():
    assert set(HOST_POINTS) | set(JOINER_POINTS) <= set(checkpoints())


def board_at(point: str) -> Switchboard:
    board = copy.deepcopy(checkpoints()[point])
    board.flush()  # whatever the sessions had queued goes to the switchboard's queue
    return board


def target_of(point: str) -> tuple[int, int]:
    """(seat under test, connection the frames arrive on)."""
    return (HOST, JOINER) if point.startswith("host-") else (JOINER, HOST_CONNECTION)


# -- checking one frame ----------------------------------------------------------------------------


def snapshot(session) -> tuple:
    replica = session.replica
    log = None
    if replica is not None:
        log = (
            replica.seq, replica.state_hash, replica.head, tuple(replica.counters), replica.audits,
            phase_name(replica), replica.waiting_for(),
        )
    return (
        session.stage, session.seat, session.game_id, session.fault, tuple(sorted(session.accepts)),
        tuple((seat.key.raw, seat.name) for seat in session.seats), session.lobby_size, session.names,
        session.agreed_through, log,
    )


def sender_of(board: Switchboard, seat: int, connection: int) -> int | None:
    return board.sessions[seat].seat_of_connection(connection)


def is_fault_message(data: bytes) -> bool:
    try:
        return open_envelope(data).kind == "fault"
    except Exception:
        return False


def deliver(board: Switchboard, seat: int, connection: int, data: bytes) -> str:
    """Feed ``data`` to ``seat`` on ``connection`` and check the house rule; returns the outcome."""
    session = board.sessions[seat]
    sender = sender_of(board, seat, connection)
    before = snapshot(session)
    in_lobby = seat == HOST and any(number == connection for _, number in session.role.lobby)
    session.receive(connection, data)  # must not raise, whatever the bytes
    sent = session.take_outgoing()
    events = session.take_events()
    board.events[seat].extend(events)
    for out_connection, out_data in sent:  # as Switchboard.flush would have queued them
        if seat == HOST:
            board.queue.append(("down", out_connection, out_connection, out_data))
        else:
            board.queue.append(("up", seat, out_connection, out_data))
    if session.stage == "halted" and before[0] != "halted":
        fault = session.fault
        assert sender is not None, f"halted on a frame from a connection with no seat: {fault}"
        if fault.reporter is None:
            assert fault.culprit == sender, f"a frame from seat {sender} got {fault} ({data[:80]!r})"
            assert fault.code in FAULT_CODES and len(fault.reason) > 10, fault
        else:  # the sender's own accusation, recorded as its claim: the sender stopped the game
            assert fault.reporter == sender and is_fault_message(data), fault
            assert fault.culprit == sender, fault
        assert any(isinstance(event, Halted) for event in events)
        return "halted"
    if seat != HOST and before[0] == "lobby" and session.stage == "closed":
        # Before the game starts the host may turn a joiner away (or the joiner refuse the host).
        assert any(isinstance(event, Rejected) for event in events)
        return "turned away"
    closing = set(session.take_closing())
    if sender is None and connection in closing and in_lobby:
        # A lobby seat's connection turned away: the seat leaves the lobby, and everyone left
        # there is told (a `lobby` without it); nothing else changes.
        assert snapshot(session) == (*before[:6], before[6] - 1, *before[7:]), f"{data[:80]!r} changed the session"
        assert all(out_connection == connection or open_envelope(out_data).kind == "lobby" for out_connection, out_data in sent)
        assert closing == {connection}
        return "turned away"
    assert snapshot(session) == before, f"{data[:80]!r} changed the session"
    if sender is None:
        # A connection without a seat at a game (not yet in the lobby) may be answered and
        # turned away, nothing else.
        assert all(out_connection == connection for out_connection, _ in sent)
        assert closing <= {connection}
    return "unchanged"


def check_transcripts(board: Switchboard, seats=None) -> None:
    """Every (non-empty) transcript the peers hold verifies."""
    for seat in range(PLAYERS) if seats is None else seats:
        board.flush()
        data = bytes(board.transcripts[seat])
        if not data:
            continue
        report = verify_transcript(data, get_game)
        assert report.ok, f"seat {seat}: {report.describe()}"


def settle(board: Switchboard, attacker: int) -> None:
    """Run the table until nothing moves: every other peer that stopped blames the attacker, or
    records a claim that names the attacker (whose reporter stopped the game) or the attacker's own
    claim, and what every peer holds verifies.

    The attacker's own session is the honest one of the switchboard, unaware of the frames sent in
    its name: what it concludes doesn't count (a real attacker runs other code), but its transcript
    must still verify."""
    board.run()
    for seat, session in enumerate(board.sessions):
        if seat != attacker and session.stage == "halted":
            fault = session.fault
            # The attacker is the culprit, or an honest seat's claim names it (that seat stopped the
            # game on its word, §B9).
            if fault.reporter is not None and fault.reporter != attacker:
                assert (fault.culprit, fault.accused) == (fault.reporter, attacker), f"seat {seat}: {fault}"
            else:
                assert fault.culprit == attacker, f"seat {seat}: {fault}"
    check_transcripts(board)


# -- strategies ------------------------------------------------------------------------------------

LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.integers(-40, 300)
    | st.text(max_size=12)
    | st.binary(max_size=40)
    | st.binary(min_size=32, max_size=32)
)
VALUES = st.recursive(
    LEAVES,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


def nested(depth: int, leaf: Any = 0) -> Any:
    value = leaf
    for level in range(depth):
        value = [value] if level % 2 else {"k": value}
    return value


# Values that stress sizes and depth: big lists, long strings, nesting at and past the limit.
SPECIAL = st.sampled_from([
    list(range(5000)),
    [b"\x00" * 32] * 5000,
    [[0, b"\x01" * 32]] * 5000,
    "x" * 100_000,
    b"\xff" * 200_000,
    {f"k{i}": i for i in range(3000)},
    nested(20),
    nested(30),
    nested(31),
    nested(32),
    nested(40),
    2**64 - 1,
    -(2**63),
    "\u202e\x1b[2J\x00",
    {"t": None},
    [],
    {},
])
ANY_VALUE = VALUES | SPECIAL


def pack(value: Any) -> bytes:
    """Canonical msgpack if the value has one, else plain msgpack (too deep for the canonical form)."""
    try:
        return canonical.encode(value)
    except canonical.CanonicalError:
        return msgpack.packb(value, use_bin_type=True)


def envelope_bytes(identity: Identity, kind: Any, body: Any, *, sender: Any = None, sig: Any = None,
                   extra: dict | None = None) -> bytes:
    """An envelope signed by ``identity`` over whatever it holds (no schema check)."""
    if sender is None:
        sender = identity.public_key.raw
    if sig is None:
        try:
            sig = identity.sign(SIGNATURE_DOMAIN, [kind, sender, body])
        except Exception:  # too deep or otherwise unsignable: a signature of the right size
            sig = bytes(64)
    value = {"kind": kind, "sender": sender, "body": body, "sig": sig}
    value.update(extra or {})
    return pack(value)


def sender_identity(board: Switchboard, seat: int) -> Identity:
    """The key of whoever talks to ``seat`` on the connection under test."""
    return board.sessions[HOST if seat != HOST else JOINER].identity


def templates(board: Switchboard, seat: int) -> dict[str, dict]:
    """A plausible body of every kind, as the sender could sign it now (most are wrong here)."""
    session = board.sessions[seat]
    host = board.sessions[HOST]
    author = HOST if seat != HOST else JOINER
    replica = session.replica
    game_id = session.game_id or bytes(32)
    seq = replica.seq if replica is not None else 0
    head = replica.head if replica is not None else bytes(32)
    counter = replica.counters[author] if replica is not None else 0
    start = session.start_envelope.digest if session.start_envelope is not None else bytes(32)
    ruleset = get_game(GAME).ruleset(PLAYERS).encode()
    record = [OUTSIDER.public_key.raw, b"s" * 32, "outsider", False]
    return {
        "host-hello": {"protocol": PROTOCOL_VERSION, "game": GAME, "ruleset": ruleset, "name": "h",
                       "seal": b"s" * 32, "nonce": b"n" * 32},
        "hello": {"protocol": PROTOCOL_VERSION, "game": GAME, "name": "j", "seal": b"s" * 32,
                  "host": host.identity.public_key.raw, "nonce": b"n" * 32, "bot": False},
        "reject": {"reason": "go away"},
        "gone": {"game_id": game_id, "rejoin": b"r" * 32, "reason": "not here"},
        "lobby": {"players": [record], "seats": PLAYERS, "table": b"t" * 32},
        "start": {"game_id": b"g" * 32, "ruleset": ruleset, "seats": [record] * PLAYERS},
        "accept": {"game_id": game_id, "start": start},
        "reach": {"game_id": game_id, "addresses": [["127.0.0.1", 4242]]},
        "submit": {"game_id": game_id, "seat": author, "counter": counter, "based_on": seq,
                   "body": {"t": "act", "action": ["cheer", True]}},
        "stale": {"game_id": game_id, "counter": counter, "reason": "too late"},
        "entry": {"game_id": game_id, "seq": seq, "prev": head, "submission": b"", "state": bytes(32)},
        "ack": {"game_id": game_id, "seq": seq, "entry": b"e" * 32, "state": b"s" * 32},
        "acks": {"game_id": game_id, "acks": [[1, seq, None, b"s" * 32, b"z" * 64]]},
        "takeover": {"game_id": game_id, "seq": seq, "entry": head, "host": 0, "successor": 1},
        "chat": {"game_id": game_id, "text": "hello"},
        "fault": {"game_id": game_id, "culprit": 2, "code": FaultCode.MALFORMED, "reason": "bad",
                  "seq": seq, "evidence": []},
        "leave": {"game_id": game_id, "reason": "bye"},
        "adjourn": {"game_id": game_id, "proposal": 0, "agree": True},
        "again": {"game_id": game_id, "game": "probe", "agree": True},
        "watch": {"protocol": PROTOCOL_VERSION, "host": host.identity.public_key.raw, "nonce": b"n" * 32, "name": "w"},
        "watching": {"chat": True},
        "watcher-chat": {"game_id": game_id, "name": "w", "text": "hello"},
        "rejoin": {"protocol": PROTOCOL_VERSION, "game_id": game_id, "host": host.identity.public_key.raw,
                   "nonce": b"n" * 32, "have": seq},
        "away": {"game_id": game_id, "seat": 2, "reason": "gone"},
        "back": {"game_id": game_id, "seat": 2},
        "caught-up": {"game_id": game_id, "seq": seq},
        "missing": {"game_id": game_id, "from": seq},
        "ping": {"nonce": 7},
        "pong": {"nonce": 7},
    }


def like(value: Any) -> st.SearchStrategy:
    """Values shaped like ``value`` (same type and size; inside a map or list, one item changed):
    well formed, most likely wrong."""
    if isinstance(value, bool):
        return st.booleans()
    if isinstance(value, int):
        return st.integers(0, 2**63 - 1) | st.integers(-3, 3).map(lambda d: max(0, value + d))
    if isinstance(value, bytes):
        return st.binary(min_size=len(value), max_size=len(value)) | st.just(bytes(len(value)))
    if isinstance(value, str):
        return st.text(max_size=40)
    if isinstance(value, dict) and value:
        return VALUES | st.sampled_from(sorted(value)).flatmap(
            lambda key: (like(value[key]) | ANY_VALUE).map(lambda item: {**value, key: item})
        )
    if isinstance(value, (list, tuple)) and value:
        return VALUES | st.integers(0, len(value) - 1).flatmap(
            lambda index: (like(value[index]) | ANY_VALUE).map(
                lambda item: [*value[:index], item, *value[index + 1:]]
            )
        )
    return VALUES


BODY_TEMPLATES = {
    "act": {"action": ["cheer", True]},
    "commit": {"commitment": b"c" * 32},
    "open": {"salt": b"s" * 32, "value": b"v" * 32},
    # (Protocol 11's card bodies, §B6.3: a pass's re-encrypted cards, shares under one proof.)
    "pass": {"deal": 0, "cards": [[b"n" * 32, b"m" * 32]] * 12},
    "keys": {"public": [[0, b"k" * 32]], "proof": b"p" * 64, "sealed": [[1, 2, b"b" * 144, b"c" * 32]]},
    "audit": {"keys": [[0, b"s" * 32, [b"k" * 32] * 12, b"p" * 64]]},
    "dispute": {"slot": 0, "reason": "no card"},
}


def due_template(replica, author: int) -> tuple[str, dict]:
    """The kind of submission the log waits for now, and a plausible body of it from ``author``."""
    name = phase_name(replica)
    kind = name.split("-")[0]
    body = dict(BODY_TEMPLATES.get(kind, BODY_TEMPLATES["act"]))
    phase = replica.phase
    if kind == "pass":
        crypto = replica.deals[phase.current.deals[0]]
        body = {"deal": crypto.deal, "cards": [[bytes([i % 256]) * 32, bytes([(i + 1) % 256]) * 32] for i in range(crypto.size)]}
    elif kind == "audit":
        deals = phase.current.deals
        body = {"keys": [[deal, b"\x01" * 32, [b"\x02" * 32] * replica.deals[deal].size, b"\x04" * 64] for deal in deals]}
    elif kind == "keys":
        requirement = replica.keys_requirement(author)
        slots = sorted(requirement.publish) if requirement else [0]
        body = {"public": [[slot, b"\x03" * 32] for slot in slots], "proof": b"\x04" * 64, "sealed": []}
    return kind, body


@st.composite
def inner_bodies(draw, replica=None, author: int = JOINER) -> dict:
    """Submission bodies (the ``body`` of a ``submit``) with one thing wrong: of the kind due now
    (so the checks behind the kind's fields run) or of any kind."""
    if replica is not None and draw(st.booleans()):
        kind, fields = due_template(replica, author)
    else:
        kind = draw(st.sampled_from(sorted(BODY_TEMPLATES)))
        fields = BODY_TEMPLATES[kind]
    body = {"t": kind, **fields}
    how = draw(st.sampled_from(["like", "like", "like", "field", "drop", "extra", "t", "any"]))
    name = draw(st.sampled_from(sorted(body)))
    if how == "field":
        body[name] = draw(ANY_VALUE)
    elif how == "like":
        body[name] = draw(like(body[name]))
    elif how == "drop":
        del body[name]
    elif how == "extra":
        body[draw(st.text(min_size=1, max_size=6))] = draw(VALUES)
    elif how == "t":
        body["t"] = draw(VALUES | st.sampled_from(sorted(BODY_TEMPLATES)))
    else:
        return draw(st.dictionaries(st.text(max_size=6), VALUES, max_size=5))
    return body


def submission_bytes(board: Switchboard, seat: int, author: int, body: dict) -> bytes:
    """A submission by ``author`` at the current point of ``seat``'s log, signed by ``author``."""
    replica = board.sessions[seat].replica
    return envelope_bytes(board.sessions[author].identity, "submit", {
        "game_id": replica.game_id, "seat": author, "counter": replica.counters[author],
        "based_on": replica.seq, "body": body,
    })


@st.composite
def envelopes(draw, board: Switchboard, seat: int) -> bytes:
    """An envelope of any kind from the sender, signed with its key, with something wrong in it."""
    identity = sender_identity(board, seat)
    bodies = templates(board, seat)
    kind = draw(st.sampled_from(sorted(bodies)))
    body = dict(bodies[kind])
    how = draw(st.sampled_from([
        "wrong-type", "wrong-type", "like", "like", "drop", "extra", "as-is", "not-a-map", "kind",
        "sender", "sig", "envelope-extra", "inner",
    ]))
    sender = sig = extra = None
    if how == "wrong-type":
        name = draw(st.sampled_from(sorted(body)))
        check = KINDS[kind][name]
        body[name] = draw(ANY_VALUE.filter(lambda value: not check(value)))
    elif how == "like":
        name = draw(st.sampled_from(sorted(body)))
        body[name] = draw(like(body[name]))
    elif how == "drop":
        del body[draw(st.sampled_from(sorted(body)))]
    elif how == "extra":
        body[draw(st.text(min_size=1, max_size=8).filter(lambda key: key not in body))] = draw(VALUES)
    elif how == "not-a-map":
        body = draw(ANY_VALUE.filter(lambda value: not isinstance(value, dict)))
    elif how == "kind":
        kind = draw(st.text(max_size=12).filter(lambda text: text not in KINDS) | VALUES)
    elif how == "sender":
        sender = draw(
            st.sampled_from([OUTSIDER.public_key.raw] + [s.identity.public_key.raw for s in board.sessions])
            | st.binary(max_size=40)
            | VALUES
        )
    elif how == "sig":
        sig = draw(st.binary(min_size=64, max_size=64) | st.binary(max_size=70) | VALUES)
    elif how == "envelope-extra":
        extra = {draw(st.text(min_size=1, max_size=8).filter(lambda key: key not in ("kind", "sender", "body", "sig"))): draw(VALUES)}
    elif how == "inner":
        if seat == HOST:
            kind, body = "submit", dict(bodies["submit"], body=draw(inner_bodies(board.sessions[seat].replica, JOINER)))
        else:
            kind, body = "entry", dict(bodies["entry"], submission=draw(entry_submissions(board, seat)))
    return envelope_bytes(identity, kind, body, sender=sender, sig=sig, extra=extra)


@st.composite
def entry_submissions(draw, board: Switchboard, seat: int) -> bytes:
    """What a host might put inside an entry: its own bad submissions, forgeries, replays, garbage."""
    session = board.sessions[seat]
    host = board.sessions[HOST]
    replica = session.replica
    game_id = session.game_id or bytes(32)
    seq = replica.seq if replica is not None else 0
    counters = replica.counters if replica is not None else [0] * PLAYERS
    how = draw(st.sampled_from(["own", "own", "forged", "replayed", "garbage", "other-kind"]))
    if how == "garbage":
        return draw(st.binary(max_size=200) | VALUES.map(pack))
    if how == "other-kind":  # a well-formed envelope of another kind
        return draw(st.sampled_from(real_frames(board, seat)) | envelopes(board, seat))
    if how == "replayed":
        old = [open_envelope(data).body["submission"] for data in board.received[seat]
               if open_envelope(data).kind == "entry"]
        assume(old)
        return draw(st.sampled_from(old))
    author = HOST if how == "own" else draw(st.sampled_from([1, 2]))
    if replica is None:
        return draw(st.binary(max_size=200))
    body = {"game_id": game_id, "seat": author, "counter": counters[author], "based_on": seq,
            "body": draw(inner_bodies(replica, author))}
    if draw(st.booleans()):
        name = draw(st.sampled_from(sorted(body)))
        body[name] = draw(like(body[name]) | ANY_VALUE)
    if how == "own":
        return envelope_bytes(host.identity, "submit", body)
    # In another seat's name: its key as sender, a signature the host made up.
    key = board.sessions[author].identity.public_key.raw
    return envelope_bytes(host.identity, "submit", body, sender=key, sig=draw(st.binary(min_size=64, max_size=64)))


def real_frames(board: Switchboard, seat: int) -> list[bytes]:
    frames = list(board.received[seat])
    return frames or [envelope_bytes(sender_identity(board, seat), "ping", {"nonce": 1})]


@st.composite
def damaged(draw, board: Switchboard, seat: int) -> bytes:
    """A real frame of this game (sent to ``seat``), cut, bit-flipped, spliced or patched."""
    frames = real_frames(board, seat)
    data = bytearray(draw(st.sampled_from(frames)))
    how = draw(st.sampled_from(["truncate", "flip", "flip", "flips", "insert", "delete", "splice", "byte"]))
    position = draw(st.integers(0, max(0, len(data) - 1)))
    if how == "truncate":
        return bytes(data[:position])
    if how == "flip":
        data[position] ^= 1 << draw(st.integers(0, 7))
    elif how == "flips":
        for _ in range(draw(st.integers(2, 8))):
            data[draw(st.integers(0, len(data) - 1))] ^= draw(st.integers(1, 255))
    elif how == "insert":
        data[position:position] = draw(st.binary(min_size=1, max_size=8))
    elif how == "delete":
        del data[position:position + draw(st.integers(1, 8))]
    elif how == "splice":
        other = draw(st.sampled_from(frames))
        data = data[:position] + other[draw(st.integers(0, max(0, len(other) - 1))):]
    else:
        data[position] = draw(st.integers(0, 255))
    return bytes(data)


NON_CANONICAL = st.sampled_from([
    msgpack.packb({"sig": b"", "kind": "ping", "sender": b"", "body": {}}, use_bin_type=True),  # key order
    msgpack.packb(1.5),
    msgpack.packb({1: 2}),
    msgpack.packb(msgpack.ExtType(1, b"x")),
    b"\xcd\x00\x01",  # 1 as uint16
    b"\xd9\x01a",  # "a" as str8
    b"\xdc\x00\x00",  # [] as array16
    b"\x91" * 100_000 + b"\xc0",  # nesting far past any limit
    b"\xdd\xff\xff\xff\xff",  # an array claiming 4 billion items
    b"\xc6\xff\xff\xff\xff",  # bytes claiming 4 GB
    b"\x80\x80",  # trailing bytes
    b"",
    b"\xc1",  # never-used byte
    canonical.encode(None),
    canonical.encode(2**64 - 1),
])


def frames_for(board: Switchboard, seat: int) -> st.SearchStrategy:
    return st.one_of(
        st.binary(max_size=300),
        damaged(board, seat),
        ANY_VALUE.map(pack),
        NON_CANONICAL,
        envelopes(board, seat),
        envelopes(board, seat),
        envelopes(board, seat),
    )


def verdict(board: Switchboard, seat: int, data: bytes) -> str:
    """What the rules make of ``data`` now: ``valid`` (a move they accept: the fuzzers want wrong
    ones only), ``deferred`` (an entry holding another joiner's submission that is valid but for
    its author's signature, which a joiner checks later), or ``invalid``."""
    session = board.sessions[seat]
    replica = session.replica
    try:
        envelope = open_envelope(data)
    except Exception:
        return "invalid"
    try:
        if envelope.kind == "accept":
            author = board.sessions[HOST if seat != HOST else JOINER].identity.public_key
            envelope.verify(author)
            start = session.start_envelope
            fits = (
                envelope.sender == author.raw and start is not None
                and envelope.body["start"] == start.digest and envelope.body["game_id"] == session.game_id
            )
            return "valid" if fits else "invalid"
        if replica is None or session.stage != "playing":
            return "invalid"
        if seat == HOST and envelope.kind == "submit":
            replica.check_submission(envelope, JOINER)
            return "valid"
        if seat != HOST and envelope.kind == "entry":
            body = envelope.body
            if (body["game_id"], body["seq"], body["prev"]) != (replica.game_id, replica.seq, replica.head):
                return "invalid"
            envelope.verify(replica.seats[HOST].key)
            inner = open_envelope(body["submission"])
            author = inner.body["seat"]
            lazy = author not in (HOST, seat)
            replica.check_submission(inner, None, host_signed=True, verify_author=not lazy)
            if lazy:
                try:
                    inner.verify(replica.seats[author].key)
                except Exception:
                    return "deferred"
            return "valid"
    except Exception:  # ProtocolFault, BadSignature, MalformedMessage, a missing field...
        return "invalid"
    return "invalid"


# -- the fuzzers -----------------------------------------------------------------------------------


@st.composite
def cases(draw, points: list[str]) -> tuple[Switchboard, int, int, bytes]:
    point = draw(st.sampled_from(points))
    seat, connection = target_of(point)
    board = board_at(point)
    data = draw(frames_for(board, seat))
    assume(verdict(board, seat, data) == "invalid")
    return board, seat, connection, data


@FUZZ
@given(cases(HOST_POINTS))
def test_host_survives_anything_from_a_joiner(case):
    board, seat, connection, data = case
    if deliver(board, seat, connection, data) == "halted":
        settle(board, attacker=HOST if seat != HOST else JOINER)
    else:
        check_transcripts(board, [seat])


@FUZZ
@given(cases(JOINER_POINTS))
def test_joiner_survives_anything_from_the_host(case):
    board, seat, connection, data = case
    if deliver(board, seat, connection, data) == "halted":
        settle(board, attacker=HOST if seat != HOST else JOINER)
    else:
        check_transcripts(board, [seat])


@settings(FUZZ, max_examples=25)
@given(st.sampled_from(HOST_POINTS + JOINER_POINTS), st.data())
def test_a_stream_of_bad_frames(point, data):
    """Frame after frame: the first one that halts names the sender; after that nothing moves; and
    whatever the session only checks later (relayed acknowledgements) is pinned on the sender."""
    seat, connection = target_of(point)
    board = board_at(point)
    for _ in range(data.draw(st.integers(2, 12))):
        frame = data.draw(frames_for(board, seat))
        if verdict(board, seat, frame) == "invalid":
            deliver(board, seat, connection, frame)
    settle(board, attacker=HOST if seat != HOST else JOINER)


PLAYING = ["commit-random", "open-random", "pass", "keys", "commit-choice", "open-choice", "act", "audit"]


@st.composite
def submissions_to_host(draw) -> tuple[Switchboard, bytes]:
    """Seat 1's submissions, signed by seat 1 at the right point of the log, with something wrong."""
    board = board_at("host-" + draw(st.sampled_from(PLAYING)))
    replica = board.host.replica
    body = {"game_id": replica.game_id, "seat": JOINER, "counter": replica.counters[JOINER],
            "based_on": replica.seq, "body": draw(inner_bodies(replica, JOINER))}
    if draw(st.integers(0, 4)) == 0:  # and sometimes a wrong envelope field too
        name = draw(st.sampled_from(["game_id", "seat", "counter", "based_on"]))
        body[name] = draw(like(body[name]))
    return board, envelope_bytes(board.sessions[JOINER].identity, "submit", body)


@st.composite
def entries_to_joiner(draw) -> tuple[Switchboard, bytes]:
    """Host-signed entries at the right point of seat 1's log holding something wrong."""
    board = board_at("joiner-" + draw(st.sampled_from(PLAYING)))
    replica = board.sessions[JOINER].replica
    body = {"game_id": replica.game_id, "seq": replica.seq, "prev": replica.head,
            "submission": draw(entry_submissions(board, JOINER)), "state": draw(st.binary(min_size=32, max_size=32))}
    if draw(st.integers(0, 4)) == 0:
        name = draw(st.sampled_from(["game_id", "seq", "prev"]))
        body[name] = draw(like(body[name]))
    return board, envelope_bytes(board.host.identity, "entry", body)


@FUZZ
@given(submissions_to_host())
def test_host_checks_every_submission(case):
    board, data = case
    assume(verdict(board, HOST, data) == "invalid")
    if deliver(board, HOST, JOINER, data) == "halted":
        settle(board, attacker=JOINER)
    else:
        check_transcripts(board, [HOST])


@FUZZ
@given(entries_to_joiner())
def test_joiner_checks_every_entry(case):
    board, data = case
    kind = verdict(board, JOINER, data)
    assume(kind != "valid")
    if kind == "deferred":
        # A forgery in another joiner's name that looks like a fine move: applied for now, and
        # caught (naming the host) as soon as the log goes on or the signatures are checked.
        # Only seat 1 was sent it: that is the host telling peers different things, and seat 2,
        # which only sees seat 1 disagree with everyone else, may well blame seat 1 (in a star
        # a host can always make a joiner look bad to the others: it could also drop its frames).
        board.sessions[JOINER].receive(HOST_CONNECTION, data)
        board.run()
        fault = board.sessions[JOINER].fault
        assert board.sessions[JOINER].stage == "halted" and fault.culprit == HOST, fault
        # Seat 1's transcript holds the forged entry: replaying it names the host.
        board.flush()
        report = verify_transcript(bytes(board.transcripts[JOINER]), get_game)
        verdict_ = report.failure or report.stopped
        assert verdict_ is not None and verdict_.culprit == HOST, report.describe()
    elif deliver(board, JOINER, HOST_CONNECTION, data) == "halted":
        settle(board, attacker=HOST)
    else:
        check_transcripts(board, [JOINER])


# -- specific attacks ------------------------------------------------------------------------------


def signed(identity: Identity, kind: str, body: dict) -> bytes:
    return envelope_bytes(identity, kind, body)


def submissions_in(frames: list[bytes], author: int) -> list[bytes]:
    """The raw submissions by ``author`` inside the entries among ``frames``."""
    found = []
    for data in frames:
        envelope = open_envelope(data)
        if envelope.kind == "entry":
            inner = open_envelope(envelope.body["submission"])
            if inner.body["seat"] == author:
                found.append(envelope.body["submission"])
    return found


def halted_by(board: Switchboard, seat: int, culprit: int, code: str):
    session = board.sessions[seat]
    assert session.stage == "halted", (session.stage, session.fault)
    assert (session.fault.culprit, session.fault.code) == (culprit, code), session.fault
    return session.fault


@pytest.mark.parametrize("kind", ["ack", "chat", "fault", "leave"])
def test_relayed_message_signed_by_a_key_not_at_the_table(kind):
    board = board_at("joiner-keys")
    game_id = board.sessions[JOINER].game_id
    bodies = {
        "ack": {"game_id": game_id, "seq": 0, "entry": b"e" * 32, "state": b"s" * 32},
        "chat": {"game_id": game_id, "text": "hello from nowhere"},
        "fault": {"game_id": game_id, "culprit": 2, "code": FaultCode.MALFORMED, "reason": "framed", "seq": 0,
                  "evidence": []},
        "leave": {"game_id": game_id, "reason": "bye"},
    }
    assert deliver(board, JOINER, HOST_CONNECTION, signed(OUTSIDER, kind, bodies[kind])) == "halted"
    assert "key not at the table" in halted_by(board, JOINER, HOST, FaultCode.BAD_SIGNATURE).reason
    settle(board, attacker=HOST)


def test_relayed_accept_signed_by_a_key_not_at_the_table():
    board = board_at("joiner-starting")
    joiner = board.sessions[JOINER]
    data = signed(OUTSIDER, "accept", {"game_id": joiner.game_id, "start": joiner.start_envelope.digest})
    assert deliver(board, JOINER, HOST_CONNECTION, data) == "halted"
    halted_by(board, JOINER, HOST, FaultCode.BAD_SIGNATURE)
    settle(board, attacker=HOST)


@pytest.mark.parametrize("kind", ["chat", "fault", "leave", "ack-of-another-game"])
def test_relayed_message_with_a_bad_signature_is_the_hosts_doing(kind):
    """The host checks every message before relaying it: one in seat 2's name that does not
    verify was made (or spoilt) by the host, and seat 2 is not to blame. Seat 2 itself has only
    seat 1's word for it: a claim against the host it can't check, which blames the host nowhere
    and names seat 1 as the one who stopped the game."""
    board = board_at("joiner-act")
    game_id = board.sessions[JOINER].game_id
    bodies = {
        "chat": ("chat", {"game_id": game_id, "text": "I never said this"}),
        "fault": ("fault", {"game_id": game_id, "culprit": 1, "code": FaultCode.MALFORMED, "reason": "framed",
                            "seq": 0, "evidence": []}),
        "leave": ("leave", {"game_id": game_id, "reason": "I never left"}),
        "ack-of-another-game": ("ack", {"game_id": bytes(32), "seq": 0, "entry": b"e" * 32, "state": b"s" * 32}),
    }
    message_kind, body = bodies[kind]
    seat_2 = board.sessions[2].identity.public_key.raw
    data = envelope_bytes(board.host.identity, message_kind, body, sender=seat_2, sig=b"\x07" * 64)
    assert deliver(board, JOINER, HOST_CONNECTION, data) == "halted"
    halted_by(board, JOINER, HOST, FaultCode.BAD_SIGNATURE)
    settle(board, attacker=HOST)
    fault = board.sessions[2].fault
    assert (fault.culprit, fault.accused, fault.reporter, fault.code) == (JOINER, HOST, JOINER, FaultCode.BAD_SIGNATURE)


def test_relayed_accept_of_another_start_is_the_hosts_doing():
    """Seat 2's genuine accept of some other table, replayed by the host into this one."""
    board = board_at("joiner-starting")
    joiner = board.sessions[JOINER]
    data = signed(board.sessions[2].identity, "accept", {"game_id": joiner.game_id, "start": b"\x09" * 32})
    assert deliver(board, JOINER, HOST_CONNECTION, data) == "halted"
    halted_by(board, JOINER, HOST, FaultCode.ILLEGAL)
    settle(board, attacker=HOST)


def test_reject_after_the_start_is_a_fault_of_the_host():
    """Before the start a host may turn a joiner away; after it, a host that quits leaves."""
    for point in ("joiner-starting", "joiner-pass"):
        board = board_at(point)
        assert deliver(board, JOINER, HOST_CONNECTION, signed(board.host.identity, "reject", {"reason": "go"})) == "halted"
        halted_by(board, JOINER, HOST, FaultCode.ILLEGAL)
        settle(board, attacker=HOST)
    board = board_at("joiner-lobby")
    assert deliver(board, JOINER, HOST_CONNECTION, signed(board.host.identity, "reject", {"reason": "go"})) == "turned away"


def test_submission_naming_another_seat_than_its_connections():
    """Seat 1 signs a submission as seat 2, or passes on seat 2's own (taken from an entry): the
    wrong key for its connection, a bad signature (§B9), whoever's key it is."""
    board = board_at("host-pass")
    replica = board.host.replica
    mine = {"game_id": replica.game_id, "seat": 2, "counter": replica.counters[2], "based_on": replica.seq,
            "body": {"t": "act", "action": ["cheer", True]}}
    theirs = submissions_in(board.received[JOINER], author=2)[-1]
    for data in (signed(board.sessions[JOINER].identity, "submit", mine), theirs):
        board = board_at("host-pass")
        assert deliver(board, HOST, JOINER, data) == "halted"
        fault = halted_by(board, HOST, JOINER, FaultCode.BAD_SIGNATURE)
        assert "signed as seat 2" in fault.reason
        settle(board, attacker=JOINER)


def test_replayed_submission():
    """Seat 1 sends again a submission of its own that the host already sequenced."""
    board = board_at("host-keys")
    old = submissions_in(board.received[JOINER], author=JOINER)
    for data in (old[0], old[-1]):
        board = board_at("host-keys")
        assert deliver(board, HOST, JOINER, data) == "halted"
        assert "replayed an old submission" in halted_by(board, HOST, JOINER, FaultCode.REPLAY).reason
        settle(board, attacker=JOINER)


def test_replayed_entry():
    board = board_at("joiner-audit")
    entries = [data for data in board.received[JOINER] if open_envelope(data).kind == "entry"]
    for data in (entries[0], entries[-1]):
        board = board_at("joiner-audit")
        assert deliver(board, JOINER, HOST_CONNECTION, data) == "halted"
        assert "out of order" in halted_by(board, JOINER, HOST, FaultCode.BAD_SEQUENCE).reason
        settle(board, attacker=HOST)


def next_entries_for(board: Switchboard, seat: int, count: int) -> list[bytes]:
    """Run the table until ``count`` entries wait in the queue for ``seat``; take them out."""
    def waiting():
        return [item for item in board.queue
                if item[0] == "down" and item[1] == seat and open_envelope(item[3]).kind == "entry"]
    board.run(until=lambda: len(waiting()) >= count)
    taken = waiting()[:count]
    for item in taken:
        board.queue.remove(item)
    return [item[3] for item in taken]


def test_entries_out_of_order():
    board = board_at("joiner-commit-random")
    first, second = next_entries_for(board, JOINER, 2)
    assert deliver(board, JOINER, HOST_CONNECTION, second) == "halted"
    assert "out of order" in halted_by(board, JOINER, HOST, FaultCode.BAD_SEQUENCE).reason
    settle(board, attacker=HOST)


def test_an_entry_dropped():
    board = board_at("joiner-commit-random")  # everyone commits at once: the log goes on without seat 1
    next_entries_for(board, JOINER, 1)  # never delivered
    board.run()
    halted_by(board, JOINER, HOST, FaultCode.BAD_SEQUENCE)
    settle(board, attacker=HOST)


def test_entry_holding_an_illegal_move_forged_in_another_joiners_name():
    """A joiner checks other joiners' signatures lazily; a fault in seat 2's name must still be
    seat 2's own doing before it is pinned on seat 2."""
    board = board_at("joiner-commit-random")
    replica = board.sessions[JOINER].replica
    forged = envelope_bytes(board.host.identity, "submit", {
        "game_id": replica.game_id, "seat": 2, "counter": replica.counters[2], "based_on": replica.seq,
        "body": {"t": "act", "action": ["cheer", True]},  # not a move of a commit phase
    }, sender=board.sessions[2].identity.public_key.raw, sig=b"\x01" * 64)
    entry = signed(board.host.identity, "entry", {
        "game_id": replica.game_id, "seq": replica.seq, "prev": replica.head, "submission": forged,
        "state": bytes(32),
    })
    assert deliver(board, JOINER, HOST_CONNECTION, entry) == "halted"
    halted_by(board, JOINER, HOST, FaultCode.BAD_SIGNATURE)
    settle(board, attacker=HOST)


def test_entry_holding_a_message_of_another_kind():
    board = board_at("joiner-pass")
    replica = board.sessions[JOINER].replica
    for inner in (signed(board.host.identity, "ping", {"nonce": 1}), board.received[JOINER][0]):
        board = board_at("joiner-pass")
        entry = signed(board.host.identity, "entry", {
            "game_id": replica.game_id, "seq": replica.seq, "prev": replica.head, "submission": inner,
            "state": bytes(32),
        })
        assert deliver(board, JOINER, HOST_CONNECTION, entry) == "halted"
        halted_by(board, JOINER, HOST, FaultCode.MALFORMED)
        settle(board, attacker=HOST)


def test_false_accusation_names_the_accuser():
    """Seat 1 accuses seat 2 of an illegal move, with seat 2's perfectly legal submission as
    evidence: the host checks the evidence and names seat 1."""
    board = board_at("host-commit-random")
    board.run(until=lambda: any(item[0] == "up" and item[1] == 2 and open_envelope(item[3]).kind == "submit"
                                for item in board.queue))
    legal = next(item[3] for item in board.queue if item[0] == "up" and item[1] == 2
                 and open_envelope(item[3]).kind == "submit")
    accusation = signed(board.sessions[JOINER].identity, "fault", {
        "game_id": board.host.game_id, "culprit": 2, "code": FaultCode.ILLEGAL, "reason": "cheat!",
        "seq": board.host.replica.seq, "evidence": [legal],
    })
    assert deliver(board, HOST, JOINER, accusation) == "halted"
    assert "falsely" in halted_by(board, HOST, JOINER, FaultCode.ILLEGAL).reason
    settle(board, attacker=JOINER)


def test_evidence_from_another_point_of_the_log_is_no_proof_of_a_false_accusation():
    """A host that sent seat 1 an entry with its own illegal move while seat 2 went on: seat 1's
    accusation reaches seat 2 when seat 2 is further on, where the evidence can't be re-checked.
    Seat 2 must not conclude that seat 1 lied, nor that the host did: it records seat 1's claim
    against the host, which names seat 1 only as the one who stopped the game."""
    board = board_at("joiner-commit-random")
    replica = board.sessions[JOINER].replica
    illegal = signed(board.host.identity, "submit", {
        "game_id": replica.game_id, "seat": HOST, "counter": replica.counters[HOST], "based_on": replica.seq,
        "body": {"t": "act", "action": ["cheer", True]},
    })
    entry = signed(board.host.identity, "entry", {
        "game_id": replica.game_id, "seq": replica.seq, "prev": replica.head, "submission": illegal,
        "state": bytes(32),
    })
    probe = copy.deepcopy(board)
    assert deliver(probe, JOINER, HOST_CONNECTION, entry) == "halted"
    accusation = probe.sessions[JOINER].fault
    assert (accusation.culprit, accusation.code, accusation.evidence) == (HOST, FaultCode.ILLEGAL, (illegal,))
    # Seat 2 plays on (without seat 1's trouble) and only then hears seat 1's accusation.
    further = replica.seq + 3
    board.run(until=lambda: board.sessions[2].replica.seq >= further)
    message = signed(board.sessions[JOINER].identity, "fault", {
        "game_id": replica.game_id, "culprit": HOST, "code": accusation.code, "reason": accusation.reason,
        "seq": accusation.seq, "evidence": list(accusation.evidence),
    })
    board.sessions[2].receive(HOST_CONNECTION, message)
    fault = board.sessions[2].fault
    assert board.sessions[2].stage == "halted", fault
    assert (fault.culprit, fault.accused, fault.reporter) == (JOINER, HOST, JOINER), fault


def test_wrongly_shaped_pass_is_proved_to_the_other_peers():
    """A pass with too few cards: the host names seat 1, and seat 2 confirms it from the signed
    pass rather than suspecting the host of a false accusation."""
    board = board_at("host-pass")
    replica = board.host.replica
    crypto = replica.deals[replica.phase.current.deals[0]]
    data = signed(board.sessions[JOINER].identity, "submit", {
        "game_id": replica.game_id, "seat": JOINER, "counter": replica.counters[JOINER], "based_on": replica.seq,
        "body": {"t": "pass", "deal": crypto.deal, "cards": []},
    })
    assert deliver(board, HOST, JOINER, data) == "halted"
    halted_by(board, HOST, JOINER, FaultCode.BAD_PASS)
    settle(board, attacker=JOINER)
    fault = halted_by(board, 2, JOINER, FaultCode.BAD_PASS)
    assert fault.reporter is None  # confirmed from the evidence, not taken on the host's word


def test_a_halted_joiner_keeps_a_transcript_that_verifies():
    """After it stops, a joiner still hears the others' acknowledgements of entries it never
    applied: they are not written into its transcript."""
    board = board_at("joiner-open-random")
    assert deliver(board, JOINER, HOST_CONNECTION, b"\xc1") == "halted"
    settle(board, attacker=HOST)


def test_a_joiner_that_stops_before_the_start_writes_no_transcript_and_stays_stopped():
    board = board_at("joiner-before-hello")
    assert deliver(board, JOINER, HOST_CONNECTION, b"") == "halted"
    board.run()
    joiner = board.sessions[JOINER]
    assert joiner.stage == "halted" and not board.transcripts[JOINER]
    assert not joiner.take_outgoing()


@pytest.mark.parametrize("options", ["xyz", ["abc"], 5, {"target": [1]}, {"nope": 1}])
def test_host_offering_a_malformed_ruleset(options):
    """The ruleset in the host's hello or start is the host's to get right (the game's decoder
    must not take a joiner down with it)."""
    ruleset = {"game": GAME, "players": PLAYERS, "options": options}
    board = board_at("joiner-before-hello")
    host = board.host
    hello = signed(host.identity, "host-hello", {
        "protocol": PROTOCOL_VERSION, "game": GAME, "ruleset": ruleset, "name": "h",
        "seal": host.seal_key.public_bytes(), "nonce": b"n" * 32,
    })
    assert deliver(board, JOINER, HOST_CONNECTION, hello) in ("turned away", "halted")
    assert board.sessions[JOINER].fault is None or board.sessions[JOINER].fault.culprit == HOST
    board = board_at("joiner-lobby")
    joiner = board.sessions[JOINER]
    seats = [[s.identity.public_key.raw, s.seal_key.public_bytes(), s.name, True] for s in board.sessions]
    start = signed(host.identity, "start", {"game_id": b"g" * 32, "ruleset": ruleset, "seats": seats})
    assert deliver(board, JOINER, HOST_CONNECTION, start) == "halted"
    assert joiner.fault.culprit == HOST


@settings(FUZZ, max_examples=16)
@given(st.sampled_from(["choice", "random"]), VALUES)
def test_commitment_opened_to_a_value_that_is_no_move(purpose, value):
    """Seat 1 commits to garbage (so the opening matches) and opens it: the host names seat 1, and
    the signed opening proves it to seat 2 and to anyone reading the transcripts."""
    if purpose == "random":
        assume(not (isinstance(value, bytes) and len(value) == 32))
    else:
        try:
            get_game(GAME).decode_action(value)
        except Exception:
            pass
        else:
            assume(False)  # an action, maybe even a legal one: not what this test is about
    board = board_at("host-commit-" + purpose)
    identity = board.sessions[JOINER].identity

    def tamper(seat, data):
        envelope = open_envelope(data)
        phase = board.host.replica.phase if board.host.replica is not None else None
        if seat != JOINER or envelope.kind != "submit" or not isinstance(phase, CommitPhase) or phase.purpose != purpose:
            return data
        body, replica = dict(envelope.body), board.host.replica
        if body["body"]["t"] == "commit":
            commitment, _ = commit(purpose, replica.game_id, JOINER, [phase.phase_id, value], b"\x05" * 32)
            body["body"] = {"t": "commit", "commitment": commitment}
        else:
            body["body"] = {"t": "open", "salt": b"\x05" * 32, "value": value}
        return signed(identity, "submit", body)

    board.tamper = tamper
    board.run()
    fault = board.host.fault
    assert board.host.stage == "halted" and fault.culprit == JOINER and fault.code == FaultCode.MALFORMED, fault
    assert fault.evidence and open_envelope(fault.evidence[-1]).body["body"]["t"] == "open"
    halted_by(board, 2, JOINER, FaultCode.MALFORMED)
    assert board.sessions[2].fault.reporter is None  # proved, not merely reported
    check_transcripts(board)
    for seat in (HOST, 2):
        assert verify_transcript(bytes(board.transcripts[seat]), get_game).stop_confirmed


HARMLESS = ("ack", "acks", "accept", "lobby", "stale", "ping", "pong")


@pytest.mark.parametrize("point", ["host-keys", "host-act", "joiner-pass", "joiner-open-choice"])
def test_old_frames_replayed_change_nothing(point):
    """Every harmless frame the sender sent so far, again: the game ends exactly as without them."""
    seat, connection = target_of(point)
    reference = board_at(point)
    reference.run()
    board = board_at(point)
    sender_key = board.sessions[HOST if seat != HOST else JOINER].identity.public_key.raw
    replayed = 0
    for data in list(board.received[seat]):
        envelope = open_envelope(data)
        if envelope.kind in HARMLESS and (seat != HOST or envelope.sender == sender_key):
            assert deliver(board, seat, connection, data) == "unchanged"
            replayed += len(envelope.body["acks"]) if envelope.kind == "acks" else 1  # (each ack again)
    assert replayed >= 5
    board.run()
    for session, expected in zip(board.sessions, reference.sessions):
        assert session.stage == expected.stage == "over"
        assert (session.replica.seq, session.replica.state_hash, session.result) == (
            expected.replica.seq, expected.replica.state_hash, expected.result)
    check_transcripts(board)


@pytest.mark.parametrize("deal", [None, "0", b"\x00", [0], True])
def test_audit_keys_for_something_that_is_no_deal(deal):
    board = board_at("host-audit")
    replica = board.host.replica
    deals = replica.phase.current.deals
    keys = [[number, None, b"\x01" * 32, [b"\x02" * 32] * replica.deals[number].size] for number in deals]
    keys.append([deal, None, b"\x01" * 32, []])
    data = submission_bytes(board, HOST, JOINER, {"t": "audit", "keys": keys})
    assert deliver(board, HOST, JOINER, data) == "halted"
    halted_by(board, HOST, JOINER, FaultCode.MALFORMED)
    settle(board, attacker=JOINER)


def wrong_values(check) -> list:
    """Values the schema check ``check`` refuses: other types, sizes just off, too long, too big."""
    candidates = [
        None, True, 0, -1, 2**63, "", "x" * 501, b"", b"\x00" * 31, b"\x00" * 33, b"\x00" * 64,
        [], [0] * 5000, {}, {"k": None}, nested(31), [[b"\x00" * 32, b"\x00" * 32, "name", "not a bool"]],
    ]
    return [value for value in candidates if not check(value)]


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_field_of_every_kind_with_a_wrong_value(kind):
    """Each field of ``kind`` in turn gets each wrong value. Mid-game the host and a joiner halt
    naming the sender; the host in the lobby, where the joiner's connection has no seat yet, stays
    unchanged and answers on that connection alone."""
    checked = 0
    for point in ("host-keys", "host-lobby", "joiner-act"):
        seat, connection = target_of(point)
        base = checkpoints()[point]
        identity = sender_identity(base, seat)
        template = templates(base, seat)[kind]
        for field in sorted(KINDS[kind]):
            for value in wrong_values(KINDS[kind][field]):
                board = copy.copy(base)  # shallow: only the session under test is replaced below
                board.sessions = list(base.sessions)
                board.sessions[seat] = copy.deepcopy(base.sessions[seat])
                board.queue, board.events = copy.deepcopy(base.queue), [[] for _ in base.sessions]
                data = envelope_bytes(identity, kind, {**template, field: value})
                outcome = deliver(board, seat, connection, data)
                if point == "host-lobby":
                    # Not a halt: a joiner in the lobby has no seat at a game yet. deliver checks that
                    # the host changed nothing but, if it turned the joiner away, its lobby seat
                    # (which everyone left there is told), and closed no other connection.
                    assert outcome in ("unchanged", "turned away"), (field, value)
                else:
                    assert outcome == "halted", (field, value)
                    fault = board.sessions[seat].fault
                    assert fault.code == FaultCode.MALFORMED and f"field {field!r}" in fault.reason, fault
                checked += 1
    assert checked >= 3 * len(KINDS[kind])


def test_accept_of_the_right_start_naming_another_game():
    """Found by the fuzzer: an accept with the start's digest but another game id was taken."""
    board = board_at("host-starting")
    start = board.host.start_envelope
    data = signed(board.sessions[JOINER].identity, "accept", {"game_id": bytes(32), "start": start.digest})
    assert deliver(board, HOST, JOINER, data) == "halted"
    halted_by(board, HOST, JOINER, FaultCode.ILLEGAL)
    settle(board, attacker=JOINER)
