#!/usr/bin/env python3
"""Regenerate the session test vectors in protocol/vectors/ (deterministic; see protocol/SPEC.md).

* ``session-envelopes.json``: signed envelopes of several kinds from fixed keys, with the exact
  signing input, bytes and digest.
* ``session-<game>-<N>p.p2pt`` and ``.json``: a complete game played by seeded peers in memory —
  seat 1's transcript, and what verifying it must report (entries, acknowledgements, audits,
  every state hash, the result). Another implementation must accept the transcript and reach the
  same hashes; this one must reproduce it byte for byte from the same seeds.

Each transcript vector is written at this version's protocol and, as ``…-v10``, at protocol 10
(the lock deck, §C5): a verifier must still accept the transcripts protocol 10 wrote.

Run from the repository root: ``.venv/bin/python scripts/make_session_vectors.py``; naming games
(``... make_session_vectors.py steamcourt2015``) writes only their transcript vectors, so a new
game's vector can be added without rewriting the others.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "session"))

from switchboard import Switchboard  # noqa: E402

from p2pgames import LOCK_DECK_PROTOCOL, PROTOCOL_VERSION, canonical  # noqa: E402
from p2pgames.bots import bot_for  # noqa: E402
from p2pgames.crypto import Identity, reproducible_bytes  # noqa: E402
from p2pgames.games import get_game  # noqa: E402
from p2pgames.session import make_envelope, verify_transcript  # noqa: E402
from p2pgames.session._messages import SIGNATURE_DOMAIN  # noqa: E402

VECTORS = ROOT / "protocol" / "vectors"
GAMES = [
    ("probe", 3, b"vector"), ("beltpunk", 2, b"vector"), ("steamcourt", 3, b"vector"),
    ("torpedo", 2, b"vector"), ("astonishing", 3, b"vector"),
    # The first of the seeds vector, vector2, … whose game (with today's bots) has several bids,
    # the Queen's gift and a dive with cards put back. None tried had the Plague Doctor draw: the
    # bots pass his privilege. A change to the bots changes the game: regenerate this vector then.
    ("steamcourt2015", 3, b"vector4"),
]
# Options other than the defaults: Torpedo's random build covers its chance steps and placement;
# the 2015 Steam Court's auction covers its auction, its three characters the Queen's two-card
# gift, the Submariner's dive into the discards and the Plague Doctor's draw from the Court Hand.
OPTIONS = {
    "torpedo": {"build": "random"},
    "steamcourt2015": {"characters": "auction", "three": "queen+submariner+plaguedoctor"},
}
# Games in which a seat vanishes for good and the others rebuild it from its escrow (§B16):
# (game, players, seed, the seat, the entries before it vanishes).
# Seat 0 is the host: the others take the table over (§B15, a take-over), its successor seat 1,
# and rebuild its keys; every seat says where it listens (``reach``) for that.
DEPARTURES = [("beltpunk", 4, b"vector-gone", 3, 75), ("steamcourt", 4, b"vector-host-gone", 0, 60)]
# Two-player tables that play a win by forfeit (§B17): (game, players, seed, the seat that
# vanishes, the entries before it does); the other claims the game. The host vanishes: seat 1 signs
# the forfeit's entry itself.
FORFEITS = [("beltpunk", 2, b"vector-forfeit", 0, 19)]
# Games stopped by a dispute after a rebuild (§B7, §B16 step 5): (game, players, seed, the seat that
# vanishes, the entries before it does, the disputer). Once the seat is rebuilt, the disputer
# disputes the first slot its escrow still locks (a card it gave, or knew alone); the escrow's
# holders release their shares in a keys round, the audit finds every pass and key right, and the
# disputer is named (bad-dispute).
DISPUTES = [("steamcourt", 4, b"vector-dispute", 2, 35, 1)]
# Tables where no bot takes a leaver's seat (host --no-bot-seats): the probe game's, so that its
# transcript holds no escrow (§B16) and stays the short log, read entry by entry, whose entries
# tests/session/test_transcript_texts.py and test_transcript_blame.py change one at a time. The
# other 3-player vectors carry every seat's escrows.
NO_BOT_SEATS = {"probe"}
# Bots other than the games' default kind: Torpedo's quick heuristic (its default search bot would
# make every replay of the vector slow, and every tuning of its search change the vector).
BOT_KINDS = {"torpedo": "heuristic"}


def vector_board(game: str, players: int, seed: bytes, options: dict | None, bot_kind: str | None,
                 reach: bool = False, forfeit: bool = False, protocol: int = PROTOCOL_VERSION) -> Switchboard:
    """The seeded table a transcript vector is played at (tests/session/test_session_vectors.py
    plays it again)."""
    rules = get_game(game)
    bots = None if bot_kind is None else [bot_for(rules, seed + bytes([seat]), bot_kind) for seat in range(players)]
    return Switchboard(game, players, seed=seed, options=options, bots=bots, open_seats=game not in NO_BOT_SEATS,
                       reach=reach, forfeit=forfeit, protocol=protocol)


def envelopes() -> dict:
    identity = Identity.generate(reproducible_bytes(b"envelope-signer")(32))
    game_id = bytes(range(32))
    bodies = [
        ("ping", {"nonce": 7}),
        ("chat", {"game_id": game_id, "text": "Good game, everyone — à bientôt!"}),
        ("ack", {"game_id": game_id, "seq": 12, "entry": b"\x01" * 32, "state": b"\x02" * 32}),
        ("acks", None),  # the ack above passed on by a host (§B8): as seat 3's, written out, then left to the log
        ("takeover", {"game_id": game_id, "seq": 214, "entry": b"\x03" * 32, "host": 0, "successor": 1}),
        ("submit", {
            "game_id": game_id, "seat": 2, "counter": 5, "based_on": 40,
            "body": {"t": "act", "action": ["discard", 17]},
        }),
        ("rejoin", {"protocol": PROTOCOL_VERSION, "game_id": game_id, "host": b"\x03" * 32, "nonce": b"\x04" * 32,
                    "have": 37}),
        ("caught-up", {"game_id": game_id, "seq": 52}),
        ("gone", None),  # the answer to the rejoin above: its body names that envelope's digest
        ("missing", {"game_id": game_id, "from": 29}),
        ("reach", {"game_id": game_id, "addresses": [["192.168.1.20", 40124], ["2001:db8::20", 40124]]}),
        ("submit", {  # a host leaving: its seat to a bot, the log to seat 1 (§B14, §B15)
            "game_id": game_id, "seat": 0, "counter": 61, "based_on": 122,
            "body": {"t": "hand-over", "keys": [], "received": [], "opening": None, "successor": 1},
        }),
        ("adjourn", {"game_id": game_id, "proposal": 2, "agree": True}),  # §B18
        ("again", {"game_id": game_id, "game": "beltpunk", "agree": True}),  # §B20
        ("watch", {"protocol": PROTOCOL_VERSION, "host": b"\x03" * 32, "nonce": b"\x05" * 32, "name": "wanda"}),  # §B19
        ("watching", {"chat": True}),
        ("watcher-chat", {"game_id": game_id, "name": "wanda", "text": "what a hand!"}),
    ]
    cases = []
    answered = acknowledged = b""
    for kind, body in bodies:
        if kind == "gone":
            body = {"game_id": game_id, "rejoin": answered, "reason": "its host is not playing it any more"}
        if kind == "acks":
            body = {"game_id": game_id, "acks": [
                [3, 12, b"\x01" * 32, b"\x02" * 32, acknowledged], [3, 12, None, None, acknowledged],
            ]}
        envelope = make_envelope(identity, kind, body)
        if kind == "rejoin":
            answered = envelope.digest
        if kind == "ack":
            acknowledged = envelope.signature
        signed = [kind, identity.public_key.raw, body]
        cases.append({
            "kind": kind,
            "signer_private": identity.private_bytes().hex(),
            "signer_public": identity.public_key.raw.hex(),
            "signing_input": (
                b"p2pgames/v1/sign/" + SIGNATURE_DOMAIN.encode() + b"\x00" + canonical.encode(signed)
            ).hex(),
            "signature": envelope.signature.hex(),
            "envelope": envelope.raw.hex(),
            "digest": envelope.digest.hex(),
        })
    return {
        "description": (
            "Signed envelopes (protocol/SPEC.md, 'Envelopes'). envelope = canonical msgpack of "
            "{body, kind, sender, sig}; sig = Ed25519 over signing_input = b'p2pgames/v1/sign/message\\x00' "
            "+ canonical [kind, sender, body]; digest = SHA-256(envelope). Bytes are lowercase hex. "
            "Bodies are given only inside the envelope bytes: decode them."
        ),
        "cases": cases,
    }


def transcript(game: str, players: int, seed: bytes, gone: tuple[int, int] | None = None,
               forfeit: bool = False, disputer: int | None = None, protocol: int = PROTOCOL_VERSION) -> tuple[bytes, dict]:
    reach = gone is not None and gone[0] == 0 and not forfeit
    board = vector_board(game, players, seed, OPTIONS.get(game), BOT_KINDS.get(game), reach, forfeit, protocol)
    if forfeit:
        assert gone is not None
        board.forfeit(*gone)  # the other claims the game (tests/session/test_session_vectors.py: the same)
    elif gone is not None:
        # Seat ``gone[0]`` vanishes after ``gone[1]`` entries; the others play on (Switchboard.depart;
        # tests/session/test_session_vectors.py plays it again the same way).
        board.depart(*gone)
    disputed = None
    if disputer is not None:
        assert gone is not None
        board.run(play=False)  # the rebuild
        disputed = board.escrowed_slots(gone[0])[0]
        board.dispute(disputer, disputed)
    board.run()
    data = bytes(board.transcripts[1])
    report = verify_transcript(data, get_game)
    if disputer is None:
        assert report.ok and report.complete, report.describe()
    else:
        assert report.ok and report.stopped is not None, report.describe()
        assert (report.stopped.code, report.stopped.culprit) == ("bad-dispute", disputer), report.describe()
    hashes = []
    replica = board.sessions[1].replica
    # Every state hash along the way, from an independent replay of the same log.
    from p2pgames.session import iter_records
    from p2pgames.session._replica import Replica, SeatInfo
    from p2pgames.session._faults import ProtocolFault
    from p2pgames.session._messages import open_envelope

    records = list(iter_records(data))
    start = open_envelope(next(value for kind, value in records if kind == "start"))
    seats = [SeatInfo.decode(item) for item in start.body["seats"]]
    rules = get_game(game)
    again = Replica(rules, rules.decode_ruleset(start.body["ruleset"]), start.body["game_id"], seats, start.digest)
    for kind, value in records:
        if kind == "entry":
            try:
                again.apply_entry(value)
            except ProtocolFault:  # the entry that stops the game: its host signed 32 zero bytes (§B3)
                assert disputer is not None and open_envelope(value).body["state"] == bytes(32)
                hashes.append(bytes(32).hex())
                continue
            hashes.append(again.state_hash.hex())
    assert again.state_hash == replica.state_hash
    stem = f"session-{game}-{players}p" + (
        "" if gone is None else "-forfeit" if forfeit else "-host-gone" if reach else "-gone") + (
        "" if disputer is None else "-dispute") + ("" if protocol == PROTOCOL_VERSION else f"-v{protocol}")
    summary = {
        "description": (
            f"A {'complete ' if disputer is None else ''}{players}-player {game} game between seeded peers, "
            f"as seat 1 recorded it at protocol {protocol} ({stem}.p2pt, format in protocol/SPEC.md 'Transcripts'). A "
            "verifier must accept it, count these entries, acknowledgements and audits, and reach "
            "state_hashes[i] after entry i; the result must match."
            + ("" if disputer is None else
               f" Seat {gone[0]} vanished after entry {gone[1]} and was rebuilt from its escrow (§B16); "
               f"then seat {disputer} disputed slot {disputed}, which that escrow still locked (§B7). The escrow's "
               "holders released their shares in a keys round before the audit (§B16 step 5), which found every "
               f"pass and key right: entry {report.stopped.seq - 1 if report.stopped else None} stopped the game "
               f"naming seat {disputer} (bad-dispute), and it has no result. Its state hash is the 32 zero "
               "bytes its host signed (§B3)."
               if gone is not None else "")
            + ("" if gone is None or disputer is not None else
               f" The table plays a win by forfeit (its ruleset's forfeit: true); seat {gone[0]}, the host, "
               f"vanished after entry {gone[1]} and seat 1 claimed the game, signing the forfeit's entry "
               "itself (§B17)." if forfeit else
               f" Seat {gone[0]} vanished after entry {gone[1]}; the others rebuilt its keys from its "
               "escrow and a bot played it to the end (§B16)." if not reach else
               f" The host, seat 0, vanished after entry {gone[1]}; the others took the table over, seat 1 "
               "signing the take-over entry and every entry after it (§B15), rebuilt its keys from its "
               "escrow and a bot played it to the end (§B16).")
        ),
        "file": f"{stem}.p2pt",
        "sha256": hashlib.sha256(data).hexdigest(),
        "game": game,
        "players": players,
        "options": OPTIONS.get(game, {}),
        "bot_kind": BOT_KINDS.get(game),
        "open_seats": game not in NO_BOT_SEATS,
        "seed": seed.decode(),
        "protocol": protocol,
        "entries": report.entries,
        "acks": report.acks,
        "audits": report.audits,
        "signatures": report.signatures,
        "result": report.result,
        "state_hashes": hashes,
    }
    if forfeit:
        assert gone is not None and report.forfeit is not None
        summary["forfeit"] = {"gone": gone[0], "after": gone[1], "winner": report.forfeit[0], "entry": report.forfeit[2]}
        summary["hosts"] = [list(pair) for pair in report.hosts]
    elif gone is not None:
        summary["gone"] = {"seat": gone[0], "after": gone[1], "entry": report.open_seats[gone[0]]}
    if disputer is not None:
        assert report.stopped is not None
        summary["dispute"] = {"seat": disputer, "slot": disputed}
        # "entry": the stopping entry's number; the report counts it among the entries applied.
        summary["stopped"] = {"code": report.stopped.code, "culprit": report.stopped.culprit, "entry": report.stopped.seq - 1}
    if reach:
        summary["reach"] = True
        summary["hosts"] = [list(pair) for pair in report.hosts]  # (first entry, seat) signing from there
    return data, summary


def main(named: list[str]) -> None:
    for protocol in (PROTOCOL_VERSION, LOCK_DECK_PROTOCOL):
        transcripts(named, protocol)


def transcripts(named: list[str], protocol: int) -> None:
    """The transcript vectors (those of the ``named`` games, or all) at ``protocol``; and the
    envelope vectors, when all are written at this version's protocol."""
    unknown = set(named) - {game for game, _players, _seed, *_ in GAMES + DEPARTURES + FORFEITS + DISPUTES}
    if unknown:
        raise SystemExit(f"no transcript vector for {', '.join(sorted(unknown))}; the games: "
                         f"{', '.join(game for game, _players, _seed in GAMES)}")
    if not named and protocol == PROTOCOL_VERSION:
        (VECTORS / "session-envelopes.json").write_text(json.dumps(envelopes(), indent=1) + "\n")
        print("wrote protocol/vectors/session-envelopes.json")
    for game, players, seed, *gone in GAMES + DEPARTURES:
        if named and game not in named:
            continue
        data, summary = transcript(game, players, seed, tuple(gone) if gone else None, protocol=protocol)  # type: ignore[arg-type]
        write(data, summary)
    for game, players, seed, *gone in FORFEITS:
        if named and game not in named:
            continue
        write(*transcript(game, players, seed, tuple(gone), forfeit=True, protocol=protocol))  # type: ignore[arg-type]
    for game, players, seed, gone, after, disputer in DISPUTES:
        if named and game not in named:
            continue
        write(*transcript(game, players, seed, (gone, after), disputer=disputer, protocol=protocol))


def write(data: bytes, summary: dict) -> None:
    (VECTORS / summary["file"]).write_bytes(data)
    (VECTORS / summary["file"].replace(".p2pt", ".json")).write_text(json.dumps(summary, indent=1) + "\n")
    print(f"wrote protocol/vectors/{summary['file']} ({len(data)} bytes, {summary['entries']} entries)")


if __name__ == "__main__":
    main(sys.argv[1:])
