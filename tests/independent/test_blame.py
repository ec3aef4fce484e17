"""The independent verifier reaches the product's verdict on transcripts of cheated probe games
(SPEC §B7, §B9, §B11): the honest seats' transcripts of a game with a real misbehaving peer (the
cheaters of tests/adversarial) verify, naming the same culprit with the same code — confirmed by the
replay or proved by the recorded evidence exactly where the product confirms it, and shown as the
writer's word where it doesn't."""

import importlib.util
import struct
from pathlib import Path

import pytest

from p2pgames import LOCK_DECK_PROTOCOL, PROTOCOL_VERSION
from p2pgames.crypto import Identity, reproducible_bytes
from p2pgames.games import get_game
from p2pgames.net import play_table
from p2pgames.session import Session, verify_transcript

from . import canon, transcript, wire

ADVERSARIAL = Path(__file__).resolve().parents[1] / "adversarial" / "cheaters.py"
_spec = importlib.util.spec_from_file_location("independent_cheaters", ADVERSARIAL)
cheaters = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cheaters)

CHEATER_SEAT = 1
# A cheater that ends the game with a fault message naming nobody, with no evidence (issue 23).
CHEATERS = {"WalkOut": type("WalkOut", (cheaters.FalseAccuser,), {"victim": None, "code": "oversize"})}


# The cheats of §C5's lock deck: played at protocol 10, which deals with it (at protocol 11 the
# same wrongs are the ElGamal deck's: WrongShare, UndecodableCard, ForeignElGamalCard).
LOCK_DECK_CHEATS = {"WrongKey", "NotAPoint", "SwappedCard"}


def honest(seat, ruleset, seed, protocol=PROTOCOL_VERSION):
    random_bytes = reproducible_bytes(seed + b"/honest/" + bytes([seat]))
    return Session(Identity.generate(random_bytes(32)), f"honest-{seat}", get_game,
                   ruleset=ruleset if seat == 0 else None, bot=True, random_bytes=random_bytes, protocol=protocol)


@pytest.mark.parametrize("cheater, seed", [
    ("ChangedOpening", b"cheat"),   # refused by the host; proved by the commit and the open
    ("WrongKey", b"cheat"),         # a published key unlike its verifier; proved by the keys
    ("NotAPoint", b"cheat"),        # a pass holding a non-point; proved by the pass
    ("SwappedCard", b"cheat"),      # a foreign card: a dispute, whose audit names the passer
    ("WrongShare", b"cheat"),       # protocol 11's WrongKey: refused by its proof; proved by the submission
    ("UndecodableCard", b"cheat"),  # protocol 11's NotAPoint: refused by its form; proved by the pass
    ("ForeignElGamalCard", b"cheat"),  # protocol 11's SwappedCard: the audit remakes the pass and names it
    ("FalseClaim", b"claim-1"),     # a false claim, found by the audit in the log
    ("BadSignature", b"cheat"),     # unprovable: as reported
    ("WrongSealedKey", b"claim-1"),  # a box unlike its commitment; proved by the receiver's sealing key
    ("SealedToAnotherSeat", b"claim-1"),  # a key riding with a move (§B5) sealed to the wrong seat: illegal
    ("FalseAccuser", b"cheat"),     # an accusation nothing proves: the accuser stopped the game
    ("WalkOut", b"cheat"),          # a fault naming nobody, with no evidence: the same
])
async def test_the_independent_verdict_on_cheated_games_is_the_products(tmp_path, autojump_clock, cheater, seed):
    ruleset = get_game("probe").ruleset(3)
    protocol = LOCK_DECK_PROTOCOL if cheater in LOCK_DECK_CHEATS else PROTOCOL_VERSION
    sessions = [honest(seat, ruleset, seed, protocol) for seat in range(3)]
    sessions[CHEATER_SEAT] = CHEATERS.get(cheater, getattr(cheaters, cheater, None))(seed=seed + b"/cheater", protocol=protocol)
    table = await play_table("probe", 3, sessions=sessions, transcripts=tmp_path, seed=seed, verify=False)
    assert sessions[CHEATER_SEAT].cheated
    for seat in (0, 2):
        data = table.seats[seat].transcript.read_bytes()
        product = verify_transcript(data, get_game)
        mine = transcript.verify(data)
        assert product.ok and mine.ok, (mine.problem, product.describe())
        assert product.stopped is not None, product.describe()
        # The seat that saw an unprovable fault names the culprit; the others keep its claim, naming
        # its reporter as the one who stopped the game (§B9): a cheater's claim names the cheater.
        stopped = product.stopped
        named = stopped.culprit if stopped.reporter in (None, CHEATER_SEAT) else stopped.accused
        assert named == CHEATER_SEAT, product.describe()
        if mine.stopped is not None:
            found, confirmed = mine.stopped[:2], mine.confirmed
            assert mine.stopped[2] + 1 == product.stopped.seq  # the entry that stopped it
        elif mine.proven:
            found, confirmed = (mine.proven[0]["code"], mine.proven[0]["culprit"]), True
        else:
            found, confirmed = (mine.claims[0]["code"], mine.claims[0]["culprit"]), False
        assert found == (product.stopped.code, product.stopped.culprit)
        assert confirmed == product.stop_confirmed


async def test_a_claim_recorded_against_another_seat_than_the_reporter_named_is_refused(tmp_path, autojump_clock):
    """§B11: a record of another seat's report needs that seat's signed fault message naming the
    same seat; a bystander's claim rewritten to accuse someone else verifies with neither."""
    seed = b"cheat"
    ruleset = get_game("probe").ruleset(3)
    sessions = [honest(seat, ruleset, seed) for seat in range(3)]
    sessions[CHEATER_SEAT] = cheaters.BadSignature(seed=seed + b"/cheater")
    table = await play_table("probe", 3, sessions=sessions, transcripts=tmp_path, seed=seed, verify=False)
    items = [(kind, value) for _index, kind, value in transcript.records(table.seats[2].transcript.read_bytes())]
    claims = [i for i, (kind, value) in enumerate(items) if kind == "fault" and value.get("accused") == CHEATER_SEAT]
    assert claims, "seat 2 recorded no claim against the cheater"
    assert verify_transcript(file_of(items), get_game).ok and transcript.verify(file_of(items)).ok
    items[claims[0]] = ("fault", dict(items[claims[0]][1], accused=2))
    product, mine = verify_transcript(file_of(items), get_game), transcript.verify(file_of(items))
    assert not product.ok, product.describe()
    assert not mine.ok and "no fault message" in mine.problem, mine.problem


# --- correctly signed records that break the rules, and damage (§B11 cases 1–4) ----------------------

VECTOR = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "session-probe-3p.p2pt"
# The vector's players' keys, as its generator seeds them (so the tests can sign as they would).
PRIVATE = [reproducible_bytes(b"vector" + bytes([seat]))(32) for seat in range(3)]
RECORDS = [(kind, value) for _index, kind, value in transcript.records(VECTOR.read_bytes())]
ENTRIES = [i for i, (kind, _value) in enumerate(RECORDS) if kind == "entry"]
E5 = ENTRIES[5]  # entry 5: seat 2 opens its random contribution


def file_of(items):
    return b"".join(struct.pack(">I", len(raw)) + raw for raw in (canon.encode([k, v]) for k, v in items))


def resigned(raw, change, signer=0):
    envelope = wire.open_envelope(raw)
    body = dict(envelope.body)
    change(body)
    return wire.make_envelope(PRIVATE[signer], envelope.kind, body)


def with_entry_5(change):
    items = list(RECORDS)
    items[E5] = ("entry", resigned(items[E5][1], change))
    return items


def flipped_last_byte(raw):
    return raw[:-1] + bytes([raw[-1] ^ 1])


def host_signed_malformed():
    envelope = wire.open_envelope(RECORDS[E5][1])
    body = dict(envelope.body, state=bytes(31))
    sig = wire.sign(PRIVATE[0], "message", ["entry", envelope.sender, body])
    items = list(RECORDS)
    items[E5] = ("entry", canon.encode({"kind": "entry", "sender": envelope.sender, "body": body, "sig": sig}))
    return items


def inserted(at, record):
    items = list(RECORDS)
    items.insert(at, record)
    return items


def swapped(a, b):
    items = list(RECORDS)
    items[a], items[b] = items[b], items[a]
    return items


ALTERED = {
    "a fork: entry 5 linked elsewhere": lambda: with_entry_5(lambda b: b.update(prev=bytes(32))),
    "entry 5 numbered 7": lambda: with_entry_5(lambda b: b.update(seq=7)),
    "an entry of another game linked in": lambda: with_entry_5(lambda b: b.update(game_id=bytes(32))),
    "a second, different entry 5": lambda: inserted(E5 + 1, ("entry", resigned(RECORDS[E5][1], lambda b: b.update(state=bytes(32))))),
    "a state the replay does not reach": lambda: with_entry_5(lambda b: b.update(state=bytes(32))),
    "an old submission sequenced again": lambda: with_entry_5(
        lambda b: b.update(submission=wire.open_envelope(RECORDS[ENTRIES[2]][1]).body["submission"])),
    "a submission its author did not sign": lambda: with_entry_5(
        lambda b: b.update(submission=flipped_last_byte(b["submission"]))),
    "a host-signed malformed entry": host_signed_malformed,
    "an author's bad opening": lambda: with_entry_5(lambda b: b.update(submission=resigned(
        b["submission"], lambda inner: inner["body"].update(value=bytes(32)), 2))),
    "an author's move out of turn": lambda: with_entry_5(lambda b: b.update(submission=resigned(
        b["submission"], lambda inner: inner.update(seat=1, counter=2), 1))),
    "a repeated entry record": lambda: inserted(E5 + 1, RECORDS[E5]),
    "entry records out of order": lambda: swapped(E5, E5 + 2),
}


@pytest.mark.parametrize("alteration", list(ALTERED))
def test_the_independent_blame_for_an_altered_transcript_is_the_products(alteration):
    """The first problem, and whom it blames: the host (its signature proves it), an author (its
    signature proves it), or nobody (damage)."""
    data = file_of(ALTERED[alteration]())
    mine = transcript.verify(data)
    product = verify_transcript(data, get_game)
    assert not mine.ok and not product.ok
    if product.damage:
        assert (mine.code, mine.culprit) == ("damage", None), mine.problem
    else:
        if mine.stopped is not None:  # a fault the replay found, which no record of the writer's names
            found = mine.stopped[:2]
        else:
            found = (mine.code, mine.culprit)
        assert found == (product.failure.code, product.failure.culprit), mine.problem


def test_a_fault_record_whose_evidence_is_not_bytes_is_damage_to_both_verifiers():
    """§B9's evidence is signed messages and keys: a record holding something else is damaged (the
    independent verifier once raised TypeError on it, looking it up among the log's submissions)."""
    fault = {"culprit": 1, "code": "bad-key", "reason": "r", "seq": 3, "reporter": None, "evidence": [[1]]}
    data = file_of(inserted(len(RECORDS) - 1, ("fault", fault)))
    mine, product = transcript.verify(data), verify_transcript(data, get_game)
    assert not mine.ok and mine.code == "damage" and "fault record of the wrong shape" in mine.problem, mine.problem
    assert not product.ok and "the writer's record of why the game stopped, is damaged" in product.describe()


# --- a flood: a chat line past a seat's totals proves itself (§B10) ---------------------------------

def flooded(lines_before):
    """The vector's first five entries, then ``lines_before`` chat lines of seat 1, then the
    writer's own verdict: seat 1's flood, with one more line of its as the evidence."""
    [start] = [value for kind, value in RECORDS if kind == "start"]
    game_id = wire.open_envelope(start).body["game_id"]

    def line(text):
        return wire.make_envelope(PRIVATE[1], "chat", {"game_id": game_id, "text": text})

    chats = [("chat", line(f"line {n}")) for n in range(lines_before)]
    fault = {"culprit": 1, "code": "flood", "reason": "seat 1 sent chat past its limits", "seq": 5,
             "reporter": None, "evidence": [line("past the total")]}
    return RECORDS[:E5] + chats + [("fault", fault)]


@pytest.mark.parametrize("lines_before, proved", [(2000, True), (1999, False)])
def test_the_independent_verdict_on_a_flood_is_the_products(lines_before, proved):
    """With a seat's 2000 lines recorded, one more it signed proves its flood to both verifiers;
    with 1999, the line proves nothing, and the verdict is the writer's word to both."""
    data = file_of(flooded(lines_before))
    product, mine = verify_transcript(data, get_game), transcript.verify(data)
    assert product.ok and mine.ok, (mine.problem, product.describe())
    assert (product.stopped.code, product.stopped.culprit, product.stop_confirmed) == ("flood", 1, proved)
    verdicts = mine.proven if proved else mine.claims
    assert [(fault["code"], fault["culprit"]) for fault in verdicts] == [("flood", 1)]
