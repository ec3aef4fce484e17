"""Transcript verification (SPEC §B11) by the independent implementation: records, signatures,
the chain of entries (§B3), counters, accepts and acknowledgements (§B8).

What a game does with its entries needs the game: for the probe game (§D6), Beltpunk (§D2), Steam
Court (§D3) and Steam Torpedo (§D4) the verifier replays every entry with `replica.Replica` and
compares every state hash; for the other games (whose states this implementation does not follow)
the replayed state after each entry is taken to be the state the host signed, and agreement is
checked as every ack naming that entry's digest and state.

A fault the replay finds (an illegal move, a bad opening, an audit's or a dispute's culprit, a false
claim) stops the replay; the writer's `fault` record must name it. A recorded fault the replay does
not find is *proven* if its evidence proves it against the log (§B9), else it is its writer's word.
Only honest hosts' records are followed in detail: damage and a host's own faults are reported as
the first problem, without §B11's finer blame.

Who signs the entries (§B15): seat 0, then the successor a host's hand-over names from the entry
after it, or the author of a take-over from the take-over's own entry (which its author signs,
not the host it takes the table from); the report's `hosts` says who signed from where.

A win by forfeit (§B17): at a table whose start's ruleset says `forfeit: true` (two players only),
a `forfeit` ends the game with its author the winner; a joiner's forfeit is signed by its author,
who signs from that entry on, as for a take-over. The report's `forfeit` says who claimed the game,
who was gone, and at which entry.
"""

import copy
import struct
from dataclasses import dataclass, field

from . import beltpunk, canon, deck, edwards, probe, replica, steamcourt, steamcourt_solo, torpedo, wire

MAX_RECORD = 16 << 20


@dataclass
class Report:
    ok: bool = False
    problem: str | None = None     # the first problem found, in words
    culprit: int | None = None     # the seat at fault, or None (damage names nobody)
    code: str | None = None        # the §B9 code of a fault, or "damage"
    cut_short: bool = False
    game: str | None = None
    seat: int | None = None
    entries: int = 0
    acks: int = 0                  # acknowledgements: the host's (each entry's `state`) and the ack records
    signatures: int = 0            # signatures checked: start, accepts, entries, submissions, acks
    audits: int = 0                # audit sub-steps: runs of consecutive `audit` submissions
    bodies: list = field(default_factory=list)   # (seat, submit body) of each entry, in order
    states: list = field(default_factory=list)   # each entry's state hash
    result: dict | None = None
    clocks: list | None = None     # the writer's notes: each seat's thinking time (§B11), its word
    stopped: tuple | None = None   # (code, culprit, entry, reason): the fault the replay found, if any
    confirmed: bool = False        # the writer's fault record names the fault the replay found
    proven: list = field(default_factory=list)   # fault records whose evidence proves them against the log (§B9)
    claims: list = field(default_factory=list)   # fault records nothing confirms (culprit: who stopped the game)
    followed: bool = False         # the game's states were replayed (the probe game), not taken from the host
    agreed: int = 0                # entries every seat acknowledged with the same state, or a later one (§B8, §B11)
    open_seats: dict = field(default_factory=dict)  # open seat -> the entry it was opened at (§B14)
    rebuilt: dict = field(default_factory=dict)     # of those, a seat rebuilt from its escrow -> that entry (§B16)
    hosts: list = field(default_factory=list)       # [first entry, seat]: each seat that signs entries from
                                                    # there on (seat 0, then successors and take-overs, §B15)
    forfeit: tuple | None = None   # (winner, gone, entry): "at entry N X claimed the game by forfeit, Y gone" (§B17)


class Problem(Exception):
    """The first problem of a transcript: `code` (§B9, "damage" or "cut-short") and `culprit`."""

    def __init__(self, code, message, culprit=None):
        super().__init__(message)
        self.code, self.culprit = code, culprit


def records(data: bytes):
    """Yield (index, kind, value) for each record; raises Problem("cut-short") at a cut."""
    pos = index = 0
    while pos < len(data):
        if pos + 4 > len(data):
            raise Problem("cut-short", f"the file ends inside record {index}'s length prefix")
        n = struct.unpack(">I", data[pos:pos + 4])[0]
        if n > MAX_RECORD:
            raise Problem("damage", f"record {index}: length prefix over 16 MiB")
        if pos + 4 + n > len(data):
            raise Problem("cut-short", f"the file ends inside record {index}")
        try:
            value = canon.decode(data[pos + 4:pos + 4 + n])
        except canon.CanonError as e:
            raise Problem("damage", f"record {index}: not canonical msgpack ({e})") from e
        if not (isinstance(value, list) and len(value) == 2 and isinstance(value[0], str)):
            raise Problem("damage", f"record {index}: not a [kind, value] pair")
        yield index, value[0], value[1]
        pos += 4 + n
        index += 1


def replayer(start_body):
    """A replica of the game the start names, or None for a game this implementation doesn't follow
    (Astonishing! and the 2015 Steam Court)."""
    ruleset = start_body["ruleset"]
    players, options = ruleset["players"], ruleset["options"]
    # §D1: a ruleset of another edition of the rules than §D describes is refused, not replayed.
    described = {"probe": 2, "beltpunk": 3, "steamcourt": 4, "torpedo": 2, "astonishing": 3,
                 "steamcourt2015": 3}.get(ruleset["game"], 1)
    if ruleset.get("edition", 1) != described:
        raise Problem("other-edition", f"a ruleset of edition {ruleset.get('edition', 1)} of {ruleset['game']}'s "
                      f"rules; the SPEC describes edition {described}")
    if ruleset["game"] == "probe":
        game, domain = probe.Probe(players), probe.DECK_DOMAIN
    elif ruleset["game"] == "beltpunk":
        game, domain = beltpunk.Beltpunk(players, options["target"]), beltpunk.DECK_DOMAIN
    elif ruleset["game"] == "steamcourt" and options.get("variant") == "solo":
        game, domain = steamcourt_solo.Solo(), steamcourt.DECK_DOMAIN
    elif ruleset["game"] == "steamcourt":
        game, domain = steamcourt.SteamCourt(players, options), steamcourt.DECK_DOMAIN
    elif ruleset["game"] == "torpedo":
        # §D4: a ruleset of another tile set's edition is refused, as another edition of the rules.
        if options.get("tiles", torpedo.EDITION) != torpedo.EDITION:
            raise Problem("other-edition", f"a ruleset of Steam Torpedo's tile set {options['tiles']!r}; the SPEC "
                                           f"gives edition {torpedo.EDITION}")
        game, domain = torpedo.Torpedo(options), torpedo.DECK_DOMAIN
    else:
        return None
    return replica.Replica(game, start_body["game_id"], start_body["seats"], domain, ruleset)


def verify(data: bytes, follow_games: bool = True) -> Report:
    report = Report()
    try:
        _verify(data, follow_games, report)
    except Problem as p:
        report.problem, report.code, report.culprit = str(p), p.code, p.culprit
        report.cut_short = p.code == "cut-short"
        return report
    report.ok = True
    return report


def _verify(data, follow_games, report):
    game = None
    it = records(data)
    first = next(it, None)
    if first is None or first[1] != "header":
        raise Problem("damage", "the first record is not a header")
    header = first[2]
    if not (isinstance(header, dict) and set(header) == {"format", "version", "game", "seat"}
            and header["format"] == "p2pgames-transcript" and header["version"] == 1):
        raise Problem("damage", "not a p2pgames transcript header")
    report.game, report.seat = header["game"], header["seat"]

    start = None
    seats = []            # seat records of the start
    keys = {}             # identity key -> seat
    chain = []            # chain[0]: start digest, chain[i+1]: digest of entry i
    counters = {}
    opened, consents = {}, {}  # open seat -> its entry, and the consents to opening each seat (§B14)
    host = 0  # the seat that signs the entries: seat 0, then each successor it names (§B15)
    signers = []  # the seat that signed each entry: its state is that seat's acknowledgement
    logged = {}           # submission envelope bytes -> (seat, body), for evidence
    said = {}             # seat -> {digest: bytes of text} of its chat lines of this game (§B10)
    accepts = set()
    acks = []             # (record index, envelope)
    fault_messages = []   # the fault-message envelopes, checked against reported faults at the end
    reported = []         # (where, fault record) of records of another seat's report
    in_audit = False
    for index, kind, value in it:
        where = f"record {index}"
        if kind == "start":
            env = _open(value, where)
            if env.kind != "start":
                raise Problem("damage", f"{where}: a start record holding a {env.kind}")
            seats = env.body["seats"]
            if not seats or env.sender != seats[0][0]:
                raise Problem("damage", f"{where}: the start is not signed by seat 0")
            start = env
            keys = {record[0]: seat for seat, record in enumerate(seats)}
            # §B6.3 (protocol 11): every record has 4 items or every one 6, each deck key proven
            # with the context canon(["deck-key", signing key]); else the host's start is illegal.
            if len({len(record) for record in seats}) != 1:
                raise Problem("illegal", f"{where}: a start whose seat records mix 4 and 6 items", 0)
            if len(seats[0]) == 6:
                for seat, record in enumerate(seats):
                    if not edwards.key_proof_holds(record[4], record[5], canon.encode(["deck-key", record[0]])):
                        raise Problem("illegal", f"{where}: seat {seat}'s deck key proof fails", 0)
            if len(keys) != len(seats) or env.body["ruleset"]["players"] != len(seats):
                raise Problem("illegal", f"{where}: the start's seats are not the ruleset's players", 0)
            if env.body["ruleset"]["game"] != report.game:
                raise Problem("damage", f"{where}: the start is of another game than the header")
            ruleset = env.body["ruleset"]
            if ruleset.get("forfeit") is True and ruleset["players"] != 2:
                # §A4: refused as the game refuses a bad option (below), whether the game is followed or not.
                raise Problem("illegal", f"{where}: a ruleset with forfeit: true for {ruleset['players']} players "
                                         f"(a win by forfeit is for 2, §B17)", 0)
            chain = [env.digest]
            report.hosts = [[0, 0]]
            report.signatures += 1
            if follow_games:
                try:
                    game = replayer(env.body)
                except ValueError as e:  # a ruleset the game refuses (a bad option): the host's start
                    raise Problem("illegal", f"{where}: a ruleset the game refuses ({e})", 0) from e
            report.followed = game is not None
            continue
        if start is None:
            raise Problem("damage", f"{where}: a {kind} record before the start")
        game_id = start.body["game_id"]
        if kind == "accept":
            env = _open(value, where)
            seat = _seat_of(env, keys, where)
            if env.kind != "accept" or env.body["game_id"] != game_id or env.body["start"] != chain[0]:
                raise Problem("illegal", f"{where}: an accept of another game or start", seat)
            accepts.add(seat)
            report.signatures += 1
        elif kind == "entry":
            if report.stopped is not None:
                continue  # the entries after the verdict are not replayed (§B11)
            # §B15, §B17: an entry holding a take-over or a forfeit is signed by its author, not by
            # the host (one the host signed instead is checked as the host's, and the claim is illegal).
            claimant = _claimant(value, seats)
            signer = claimant if claimant is not None and _signed_by(value, seats[claimant][0]) else host
            env = _open_entry(value, where, seats[signer][0], game_id, chain, signer)
            n = len(chain) - 1
            signers.append(signer)
            try:
                sub = wire.open_envelope(env.body["submission"], check_signature=False)
            except wire.WireError as e:
                raise Problem("malformed", f"entry {n}: its submission is not an envelope ({e})", signer) from e
            if sub.kind != "submit":
                raise Problem("malformed", f"entry {n}: its submission is a {sub.kind}", signer)
            seat = sub.body["seat"]
            body = sub.body["body"]
            takeover = body.get("t") == "take-over"
            forfeit = body.get("t") == "forfeit"
            if game is not None:
                opened = game.open  # the replay knows which seats are open (rebuilt ones too, §B16)
            # An open seat's caretaker, the host, signs for it (§B14); a take-over's author signs its own (§B15).
            author = host if seat in opened and not takeover else seat
            if seat >= len(seats) or not sub.signed_by(seats[author][0]):
                raise Problem("bad-signature", f"entry {n}: a submission seat {seat}'s author's key did not sign",
                              signer)
            if sub.body["game_id"] != game_id or sub.body["counter"] != counters.get(seat, 0):
                # §B9: an old counter (or another game) is a replay; one ahead skips submissions.
                code = "bad-sequence" if sub.body["game_id"] == game_id and sub.body["counter"] > counters.get(seat, 0) \
                    else "replay"
                raise Problem(code, f"entry {n}: seat {seat}'s submission has counter "
                                    f"{sub.body['counter']}, not {counters.get(seat, 0)}", signer)
            if accepts != set(range(len(seats))):
                raise Problem("illegal", f"entry {n}: sequenced before every seat accepted", signer)
            counters[seat] = counters.get(seat, 0) + 1
            if body.get("t") == "hand-over":
                successor = body.get("successor")
                if seat == host and type(successor) is int and 0 <= successor < len(seats):
                    host = successor  # it signs the entries after this one (§B15)
                    report.hosts.append([n + 1, host])
            if game is None:
                _follow_open_seats(opened, consents, len(seats), n, seat, body)
            if not isinstance(body.get("t"), str):
                raise Problem("malformed", f"entry {n}: a submission body without a type", seat)
            if body["t"] == "audit" and not in_audit:
                report.audits += 1
            in_audit = body["t"] == "audit"
            try:
                if game is None and takeover:
                    # Not replayed: what can be checked without the game's state (§B15 step 4).
                    _check_takeover(game_id, seats, opened, host, n, chain[n], signer, seat, body)
                    opened[host] = n
                if game is None and forfeit:
                    # Not replayed: what can be checked without the game's state (§B17).
                    _check_forfeit(start.body["ruleset"], opened, report.forfeit, signer, seat, body)
                if game is not None:
                    state = game.apply(seat, body, prev=chain[n], signer=signer)
            except replica.Fault as p:
                # The first fault found is the verdict (§B11): the author's, whatever state the
                # host signed (an honest host signs 32 zero bytes for an entry that stops, §B3).
                report.stopped = (p.code, p.culprit, n, str(p))
                report.bodies.append((seat, body))
                report.states.append(env.body["state"])
                chain.append(env.digest)
                report.entries += 1
                report.signatures += 2
                continue
            if game is not None and state != env.body["state"]:
                raise Problem("desync", f"entry {n}: the host signed state {env.body['state'].hex()[:16]}, "
                                        f"the replay reached {state.hex()[:16]}", signer)
            if takeover or (forfeit and seat != host):
                host = seat  # it signs this entry and every later one (§B15 step 4, §B17)
                report.hosts.append([n, host])
            if forfeit:  # the game is over, its author the winner, the other seat gone (§B17)
                report.forfeit = (seat, next(s for s in range(len(seats)) if s != seat), n)
            report.bodies.append((seat, body))
            report.states.append(env.body["state"])
            logged[env.body["submission"]] = (seat, body)
            chain.append(env.digest)
            report.entries += 1
            report.acks += 1
            report.signatures += 2
        elif kind == "ack":
            try:
                env = wire.open_envelope(value)
            except wire.WireError as e:
                raise Problem("damage", f"{where}: an ack record that does not open ({e})") from e
            if env.kind != "ack" or env.sender not in keys or env.body["game_id"] != game_id:
                raise Problem("damage", f"{where}: not an ack of this game by a seat")
            acks.append((index, env))
            report.signatures += 1
        elif kind == "acks":
            # §B8, §B11: items, rebuilt below into their seats' ack envelopes (against the log).
            if not (chain and wire._CHECKS["ack_items"](value)):  # (chain: after the start)
                raise Problem("damage", f"{where}: an acks record of the wrong shape")
            for item in value:
                if item[0] >= len(seats):
                    raise Problem("damage", f"{where}: an ack of seat {item[0]}, not at the table")
                acks.append((index, item))
        elif kind in ("chat", "leave", "fault-message"):
            try:
                env = wire.open_envelope(value)
            except wire.WireError as e:
                raise Problem("damage", f"{where}: a {kind} record that does not open ({e})") from e
            if env.sender not in keys:
                raise Problem("damage", f"{where}: a {kind} by a key not at the table")
            if kind == "fault-message":
                fault_messages.append(env)
            if (kind == "chat" and start is not None and env.body["game_id"] == start.body["game_id"]
                    and env.signed_by(env.sender)):
                said.setdefault(keys[env.sender], {})[env.digest] = len(env.body["text"].encode())
        elif kind == "fault":
            if not (isinstance(value, dict) and {"culprit", "code", "reason", "seq", "reporter", "evidence"} <= set(value)
                    and isinstance(value["evidence"], list) and all(isinstance(e, bytes) for e in value["evidence"])):
                # (§B9: evidence is signed messages and keys, bytes each)
                raise Problem("damage", f"{where}: a fault record of the wrong shape")
            if value["reporter"] is not None:
                reported.append((where, value))
            # A claim is checked as the accusation it carries: its accused as the culprit.
            accusation = dict(value, culprit=named_by(value))
            if report.stopped is not None and (value["code"], accusation["culprit"]) == report.stopped[:2]:
                report.confirmed = True
            elif game is not None and report.stopped is None and evidence_proves(game, seats, logged, accusation, said):
                report.proven.append(value)
            else:
                report.claims.append(dict(value, culprit=stopped_by(value)))
        elif kind == "end":
            report.result = value
        elif kind == "notes":
            # §B11: the writer's own notes, its word: one whole number of seconds per seat.
            clocks = value.get("clocks") if isinstance(value, dict) else None
            if not (isinstance(clocks, list) and len(clocks) == len(seats)
                    and all(wire._is_int(c) and 0 <= c < 2**32 for c in clocks)):
                raise Problem("damage", f"{where}: notes of the wrong shape")
            report.clocks = clocks
        else:
            raise Problem("damage", f"{where}: unknown record kind {kind!r}")
    if start is None:
        raise Problem("damage", "no start record")
    # §B11: a record of another seat's report needs that seat's signed fault message, naming
    # the seat the record says it named, with the record's code.
    for where, value in reported:
        reporter = value["reporter"]
        if not (isinstance(reporter, int) and 0 <= reporter < len(seats)) or not any(
            env.sender == seats[reporter][0] and env.body["game_id"] == game_id
            and env.body["culprit"] == named_by(value) and env.body["code"] == value["code"]
            for env in fault_messages
        ):
            raise Problem("damage", f"{where}: a report by seat {reporter} that no fault message of theirs says")
    if report.stopped is not None and not report.confirmed:
        code, culprit, n, reason = report.stopped
        raise Problem(code, f"entry {n}: {reason} (the writer's record does not name it)", culprit)
    # §B8: every ack names an entry of the log, and that entry's replayed state.
    acked = {}
    for index, env in acks:
        if isinstance(env, list):  # an item of an acks record
            env = _rebuilt_ack(index, env, game_id, seats, chain, report)
            if env is None:
                continue
        seq = env.body["seq"]
        if report.stopped is not None and seq >= report.stopped[2]:
            continue
        seat = keys[env.sender]
        if seq >= report.entries or env.body["entry"] != chain[seq + 1]:
            raise Problem("damage", f"record {index}: seat {seat}'s ack of entry {seq} names another entry")
        if env.body["state"] != report.states[seq]:
            raise Problem("desync", f"record {index}: seat {seat}'s ack of entry {seq} names another state", seat)
        acked[seat] = max(acked.get(seat, -1), seq)  # (§B11: it vouches for the entries before it too)
        report.acks += 1
    if game is not None:
        opened = game.open
        report.rebuilt = dict(game.rebuilt)
    report.open_seats = dict(opened)
    # The seats that must agree: every seat but the open ones (§B8, §B14).
    everyone = {s for s in range(len(seats)) if s not in opened}
    while report.agreed < report.entries and everyone <= {
            seat for seat, last in acked.items() if last >= report.agreed} | {signers[report.agreed]}:
        report.agreed += 1
    if game is not None and report.stopped is None:
        expected = game.result()
        # A result's summary is prose, not hashed nor given by the SPEC (§D2, §D3): the scores and
        # the winners are what must agree.
        if expected is not None and (not isinstance(report.result, dict) or [
            report.result.get(key) for key in ("scores", "winners")
        ] != [expected["scores"], expected["winners"]]):
            raise Problem("damage", f"the recorded result {report.result!r} is not the replayed {expected!r}")
    if game is None and report.forfeit is not None and report.stopped is None and report.result is not None and [
        report.result.get(key) if isinstance(report.result, dict) else None for key in ("scores", "winners")
    ] != [[], [report.forfeit[0]]]:
        # A game not replayed still ends with the forfeit's result (§B17).
        raise Problem("damage", f"the recorded result {report.result!r} is not the forfeit's")


def _follow_open_seats(opened, consents, players, n, seat, body):
    """Who signs for whom (§B14) in a game not replayed: a hand-over opens its author's seat; a
    seat is open once every other seat not open has consented, by either kind (§B16: whether a
    seat with keys waits for shares is the replay's to say; here a `rebuild` is taken to complete
    what it joins), from then on (the shares given after, for it, change nothing); a take-over opens
    the host's seat (§B15, checked by the caller). The replay, for a game it follows, checks every
    consent and says it instead."""
    if body.get("t") == "hand-over":
        opened[seat] = n
    elif body.get("t") in ("open-seat", "rebuild") and type(body.get("seat")) is int and body["seat"] not in opened:
        consents.setdefault(body["seat"], set()).add(seat)
        if all(s in consents[body["seat"]] for s in range(players) if s != body["seat"] and s not in opened):
            opened[body["seat"]] = n


def _claimant(value, seats) -> int | None:
    """The seat of the take-over or forfeit an entry record holds (§B15, §B17: its key, not the
    host's, signs that entry — the host's own being the same), or None: not an entry holding a
    `submit` whose body's `t` is `take-over` or `forfeit`."""
    if not isinstance(value, bytes):
        return None
    try:
        entry = wire.open_envelope(value, check_signature=False)
        if entry.kind != "entry":
            return None
        sub = wire.open_envelope(entry.body["submission"], check_signature=False)
    except wire.WireError:
        return None
    if sub.kind != "submit" or sub.body["body"].get("t") not in ("take-over", "forfeit") or sub.body["seat"] >= len(seats):
        return None
    return sub.body["seat"]


def _signed_by(value, key) -> bool:
    try:
        return wire.open_envelope(value, check_signature=False).signed_by(key)
    except wire.WireError:
        return False


def _check_takeover(game_id, seats, opened, host, n, prev, signer, seat, body):
    """A take-over in a game not replayed (§B15 step 4): its form, its author a remaining seat
    signing it, its consents; whether the host's seat can be opened is the replay's to say."""
    if set(body) != replica.BODY_FIELDS["take-over"]:
        raise replica.Fault("malformed", f"seat {seat}: a take-over with the wrong fields", seat)
    remaining = [s for s in range(len(seats)) if s not in opened and s != host]
    if signer != seat or seat not in remaining:
        raise replica.Fault("illegal", f"seat {seat}: a take-over sequenced by seat {signer}, or from a seat "
                                       f"that is not a remaining seat", seat)
    replica.check_takeover_consents(game_id, seats, remaining, seat, host, n, prev, body["consents"])


def _check_forfeit(ruleset, opened, earlier, signer, seat, body):
    """A forfeit in a game not replayed (§B17): its form, its table's ruleset, no seat open, its
    author signing it; over only if an earlier forfeit ended it (the game's end is the replay's)."""
    if set(body) != replica.BODY_FIELDS["forfeit"]:
        raise replica.Fault("malformed", f"seat {seat}: a forfeit with the wrong fields", seat)
    if ruleset.get("forfeit") is not True or earlier is not None or opened or signer != seat:
        raise replica.Fault("illegal", f"seat {seat}: a forfeit at a table without forfeit: true, after the "
                                       f"game ended, while a seat is open, or sequenced by seat {signer}", seat)


def _open(value, where):
    if not isinstance(value, bytes):
        raise Problem("damage", f"{where}: not envelope bytes")
    try:
        return wire.open_envelope(value)
    except wire.WireError as e:
        raise Problem("damage", f"{where}: {e}") from e


def _seat_of(env, keys, where):
    if env.sender not in keys:
        raise Problem("damage", f"{where}: signed by a key not at the table")
    return keys[env.sender]


def _rebuilt_ack(index, item, game_id, seats, chain, report):
    """§B8: the ack envelope an item of an acks record stands for — a nil `entry` is the digest of
    logged entry `seq`, a nil `state` that entry's `state` field —, its seat's signature checked;
    None for an item at or past the entry that stopped the log, or with a nil field of an entry the
    log does not hold (nothing to rebuild it from)."""
    seat, seq, entry, state, sig = item
    if report.stopped is not None and seq >= report.stopped[2]:
        return None
    if entry is None or state is None:
        if seq >= len(chain) - 1:
            return None
        entry = chain[seq + 1] if entry is None else entry
        state = report.states[seq] if state is None else state
    raw = canon.encode({"body": {"game_id": game_id, "seq": seq, "entry": entry, "state": state},
                        "kind": "ack", "sender": seats[seat][0], "sig": sig})
    try:
        env = wire.open_envelope(raw)
    except wire.WireError as e:
        raise Problem("damage", f"record {index}: seat {seat}'s ack of entry {seq} does not verify ({e})") from e
    report.signatures += 1
    return env


def _open_entry(value, where, host_key, game_id, chain, host):
    """An entry record that is case 1 of §B11, else the Problem its case names (a host's problem
    names `host`, the seat whose key is `host_key`)."""
    n = len(chain) - 1
    if not isinstance(value, bytes):
        raise Problem("damage", f"{where}: not envelope bytes")
    try:
        env = wire.open_envelope(value, check_signature=False)
    except wire.WireError as e:
        try:
            loose = canon.decode(value)
            signed = (isinstance(loose, dict) and loose.get("kind") == "entry" and loose.get("sender") == host_key
                      and isinstance(loose.get("body"), dict) and loose["body"].get("game_id") == game_id
                      and wire.verify(host_key, "message", ["entry", host_key, loose["body"]], loose.get("sig")))
        except (canon.CanonError, TypeError):
            signed = False
        if signed:
            raise Problem("malformed", f"{where}: a host-signed entry whose body breaks the schema ({e})", host) from e
        raise Problem("damage", f"{where}: not a well-formed envelope ({e})") from e
    if env.kind != "entry":
        raise Problem("damage", f"{where}: a {env.kind} message in an entry record")
    if not env.signed_by(host_key):
        raise Problem("damage", f"{where}: the entry's signature is not the host's (damage, or the host's "
                                f"bad-signature as a joiner received it)")
    body = env.body
    seq, prev = body["seq"], body["prev"]
    if body["game_id"] != game_id:
        if prev in chain:
            raise Problem("replay", f"{where}: a host-signed entry of another game linked into the log", host)
        raise Problem("damage", f"{where}: a host-signed entry of another game, linked to no entry")
    if seq == n and prev == chain[n]:
        return env
    if (seq < n and env.digest != chain[seq + 1]) or (seq <= n and prev != chain[seq]) or (
            prev in chain and chain.index(prev) != seq):
        if not (seq < n and env.digest == chain[seq + 1]):
            raise Problem("bad-sequence", f"{where}: a host-signed entry {seq} that contradicts the log", host)
    raise Problem("damage", f"{where}: entry {seq} where entry {n} was due (a record dropped, repeated or moved)")


def named_by(fault) -> int | None:
    """The seat a fault record names: its culprit; for a record of another seat's report (`reporter`
    set), the seat that report named — its `accused`, or in an older record without one its
    `culprit` (§B11)."""
    if fault["reporter"] is not None and "accused" in fault:
        return fault["accused"]
    return fault["culprit"]


def stopped_by(fault) -> int | None:
    """The culprit of the stop a fault record nothing confirms shows: its writer's verdict, or for
    a record of another seat's report, the reporter, who stopped the game on its word (§B9)."""
    return fault["reporter"] if fault["reporter"] is not None else fault["culprit"]


def seat_of_seal_key(seats, private) -> int | None:
    """The seat whose `seal` (in the start's seat records) is the X25519 public key of `private`."""
    if not (isinstance(private, bytes) and len(private) == 32):
        return None
    public = deck.X25519PrivateKey.from_private_bytes(private).public_key().public_bytes_raw()
    return next((seat for seat, record in enumerate(seats) if record[1] == public), None)


def sealed_key_is_right(game, sender, private, slot, to, box, commitment) -> bool:
    """§B6.2's four checks of a key `sender` sealed to `to` for `slot`, opened with `private`."""
    context = canon.encode(["sealed-key", game.game_id, slot, sender, to])
    try:
        key_bytes = deck.open_sealed(private, box, context)
        key = deck.scalar_from(key_bytes)
    except deck.DeckError:  # a box that does not open, or no scalar: the sender's fault
        return False
    deal = game.deal_of(slot)
    return (deck.sealed_commitment(key_bytes) == commitment
            and deck.encrypt(deck.VERIFIER_BASE, key) == deal.verifiers[sender][slot - deal.first])


def opened_sealed_share(game, sender, private, slot, to, box, commitment) -> bytes | None:
    """§B6.3's checks of a share `sender` sealed to `to` for `slot`, opened with `private`: the
    share, if the box opens to 96 bytes, a share whose `sealed_commitment` is `commitment` and
    its share proof; else None (the sender's `bad-key`)."""
    try:
        opened = deck.open_sealed(private, box, canon.encode(["sealed-share", game.game_id, slot, sender, to]))
    except deck.DeckError:  # a box that does not open: the sender's fault
        return None
    share, proof = opened[:32], opened[32:]
    right = len(opened) == 96 and deck.sealed_commitment(share) == commitment and game._share_holds(slot, sender, share, proof)
    return share if right else None


def escrow_box_is_right(game_id, author, private, body, holder, size=None) -> bool:
    """§B16's check on receipt of `holder`'s box of an `escrow` or a `lock-escrow` by `author`,
    opened with `private`: a share, a scalar matching its commitment; or a 32-byte seed whose
    shares (one per slot of the deal's `size`) have the holder's signed root."""
    j, m = body["holders"].index(holder), len(body["holders"])
    if body["t"] == "escrow":
        context = canon.encode(["escrow-share", game_id, author, holder, m])
    else:
        context = canon.encode(["lock-escrow", game_id, author, body["deal"], holder, m])
    try:
        opened = deck.open_sealed(private, body["boxes"][j], context)
    except deck.DeckError:  # a box that does not open: the author's fault
        return False
    if body["t"] == "escrow":
        return (len(opened) == 32 and deck.check_share(int.from_bytes(opened, "big"), body["commitments"][j])
                and ("deck" not in body or _deck_key_box_is_right(game_id, author, private, body, holder)))
    if len(opened) != 32:
        return False
    leaves = deck.lock_leaves(game_id, author, body["deal"], holder, deck.seed_shares(opened, size))
    return deck.mth(leaves) == body["roots"][j]


def _deck_key_box_is_right(game_id, author, private, body, holder) -> bool:
    """§B16.6: `holder`'s box of the author's deck key holds a scalar s in [1, ℓ − 1], 32 bytes
    little-endian, with s·G its signed commitment."""
    j, m = body["holders"].index(holder), len(body["holders"])
    try:
        opened = deck.open_sealed(private, body["deck_boxes"][j],
                                  canon.encode(["deck-key-share", game_id, author, holder, m]))
    except deck.DeckError:
        return False
    value = int.from_bytes(opened, "little")
    return len(opened) == 32 and 0 < value < edwards.L and edwards.encode(edwards.multiply_base(value)) == body["deck"][j]


def evidence_proves(game, seats, logged, fault, said=None) -> bool:
    """Whether a recorded fault's evidence proves it against the log replayed so far (§B9, §B11);
    a `flood`, against `said`: each seat's chat lines recorded so far, digest -> text bytes (§B10)."""
    code, culprit, evidence = fault["code"], fault["culprit"], fault["evidence"]
    if not evidence or not isinstance(culprit, int) or not 0 <= culprit < len(seats):
        return False
    if code == "flood":
        # A chat line of this game, signed by the seat, that its totals here can't take.
        try:
            line = wire.open_envelope(evidence[0])
        except wire.WireError:
            return False
        lines = (said or {}).get(culprit, {})
        return (line.kind == "chat" and line.body["game_id"] == game.game_id and line.signed_by(seats[culprit][0])
                and line.digest not in lines
                and (len(lines) >= 2000 or sum(lines.values()) + len(line.body["text"].encode()) > 262144))
    # A submission the host refused before sequencing it (§B6.3: shares failing their proof, a pass
    # of the wrong form) proves its fault as an illegal one does: the rules refuse it so.
    refused = code in ("bad-key", "bad-pass") and len(evidence) == 1 and evidence[0] not in logged
    if code in ("illegal", "malformed", "bad-opening") or refused:
        try:
            sub = wire.open_envelope(evidence[-1])
        except wire.WireError:
            return False
        body = sub.body
        if (sub.kind != "submit" or sub.sender != seats[culprit][0] or body["seat"] != culprit
                or body["game_id"] != game.game_id or evidence[-1] in logged):
            return False
        trial = copy.deepcopy(game)
        try:
            trial.apply(culprit, body["body"])
        except replica.Fault as f:
            return (f.code, f.culprit) == (code, culprit)
        return False
    if evidence[0] not in logged or logged[evidence[0]][0] != culprit:
        return False
    _seat, body = logged[evidence[0]]
    if code == "bad-pass" and body["t"] == "pass":
        # (§B6.3: a logged pass's cards all decode; one holding a point outside the group is
        # found by the replay at the deal's last pass, not by a peer's word.)
        return not game.elgamal and not all(deck.is_card_value(v) for v in body["values"])
    if code == "bad-escrow" and body["t"] in ("escrow", "lock-escrow") and len(evidence) >= 2:
        # §B16: the holder's private sealing key opens its box, which must hold what was signed.
        holder = seat_of_seal_key(seats, evidence[1])
        size = game.deals[body["deal"]].size if body["t"] == "lock-escrow" else None
        return holder in body["holders"] and not escrow_box_is_right(game.game_id, culprit, evidence[1], body, holder,
                                                                     size)
    if code == "bad-key" and (body["t"] in ("keys", "act") or (body["t"] == "pass" and "public" in body)):  # (§B6.1, §B5)
        if game.elgamal:  # §B6.3: published shares were proven as they came; a sealed one is checked
            receiver = seat_of_seal_key(seats, evidence[1]) if len(evidence) >= 2 else None
            return receiver is not None and any(
                to == receiver and opened_sealed_share(game, culprit, evidence[1], slot, to, box, commitment) is None
                for slot, to, box, commitment in body.get("sealed", ()))
        for slot, key in body.get("public", ()):
            deal = game.deal_of(slot)
            try:
                scalar = deck.scalar_from(key)
            except deck.DeckError:
                return True  # §B6.2: a published key outside [1, n−1] is `bad-key` by itself
            if deck.encrypt(deck.VERIFIER_BASE, scalar) != deal.verifiers[culprit][slot - deal.first]:
                return True
        if len(evidence) >= 2 and body.get("sealed"):
            receiver = seat_of_seal_key(seats, evidence[1])
            if receiver is not None:
                # §B6.2: the receiver's sealing key; open its boxes and check them as it did.
                for slot, to, box, commitment in body["sealed"]:
                    if to == receiver and not sealed_key_is_right(game, culprit, evidence[1], slot, to, box, commitment):
                        return True
                return False
            # An earlier version's evidence: the opened key; it proves only if committed to.
            try:
                key = deck.scalar_from(evidence[1])
            except deck.DeckError:
                return False
            for slot, _to, _box, commitment in body["sealed"]:
                deal = game.deal_of(slot)
                if (deck.sealed_commitment(evidence[1]) == commitment
                        and deck.encrypt(deck.VERIFIER_BASE, key) != deal.verifiers[culprit][slot - deal.first]):
                    return True
    return False
