"""The independent peer plays the probe game against a real host (SPEC §B2–§B8): the host and the
other joiner are the product's bot peers, over loopback TCP; everyone agrees on every entry, and
every transcript — the independent peer's own included — verifies with both verifiers.

The independent peer speaks protocol 11 (the ElGamal deck, §B6.3; `peer.PROTOCOL`), and 10 (§C5's
lock deck) where asked: the whole game and the false accusation are played at both, the product's
peers speaking the same."""

import functools
import subprocess
import sys
from contextlib import asynccontextmanager

import pytest
import trio

from p2pgames.bots import bot_for
from p2pgames.crypto import Identity, reproducible_bytes
from p2pgames.games import get_game
from disk_full import through_entry
from p2pgames.net import LOOPBACK, Node, drive_bot, open_host_listeners
from p2pgames.net._resume import resume_seat
from p2pgames.session import Session, verify_transcript

from . import canon, deck, edwards, transcript, wire
from .peer import LOCK_DECK_PROTOCOL, PROTOCOL, Peer


def product_peer(seat, seed, ruleset, path, protocol=PROTOCOL):
    random_bytes = reproducible_bytes(seed + b"/seat/" + bytes([seat]))
    session = Session(Identity.generate(random_bytes(32)), f"bot-{seat}", get_game,
                      ruleset=ruleset if seat == 0 else None, bot=True, random_bytes=random_bytes, protocol=protocol)
    return Node(session, transcript_path=path)


@pytest.mark.parametrize("protocol", [PROTOCOL, LOCK_DECK_PROTOCOL])
@pytest.mark.parametrize("players, my_turn", [(2, 1), (3, 1), (4, 3)])
async def test_the_independent_peer_plays_the_probe_game_against_a_real_host(tmp_path, autojump_clock, players, my_turn,
                                                                            protocol):
    """`my_turn`: the independent peer dials after the product joiners before it; the seats follow
    the order the host accepts the hellos in (§B1), so its seat is read from the start."""
    # (At 11, seeds at which this seat also seals a share in a keys round: with the first ones the
    # product's seats sealed every share, riding with their acts.)
    seed = b"independent-peer-%d" % players + (b"a" if protocol != LOCK_DECK_PROTOCOL else b"")
    game = get_game("probe")
    ruleset = game.ruleset(players, {})
    # §B2: names are made unique ignoring case by appending -2, -3, …
    peer = Peer(name="BOT-1" if players == 4 else "indie", seed=seed, protocol=protocol)
    others = {seat: product_peer(seat, seed, ruleset, tmp_path / f"product{seat}.p2pt", protocol)
              for seat in range(players - 1)}
    listeners = await open_host_listeners(0, LOOPBACK)
    port = listeners[0].socket.getsockname()[1]
    with trio.fail_after(600):  # virtual seconds on the autojump clock: a guard against a hang
        async with trio.open_nursery() as nursery:
            await nursery.start(others[0].serve, listeners)
            nursery.start_soon(functools.partial(drive_bot, others[0], bot_for(game, seed + b"0"),
                                                 if_away="end"))
            for turn in range(1, players):
                if turn == my_turn:
                    nursery.start_soon(peer.run, LOOPBACK, port)
                    await peer.seated.wait()
                else:
                    node = others[turn if turn < my_turn else turn - 1]
                    await nursery.start(node.connect, LOOPBACK, port)
                    nursery.start_soon(functools.partial(drive_bot, node, bot_for(game, seed + bytes([turn])),
                                                         if_away="end"))
    my_seat = peer.seat
    assert my_seat in range(1, players)
    if players == 4:  # "BOT-1" and "bot-1": whichever was seated second got "-2"
        names = sorted(record[2].lower() for record in peer.seats if record[2].lower().startswith("bot-1"))
        assert names == ["bot-1", "bot-1-2"], names
    host = others[0].session
    assert host.fault is None and peer.result is not None
    assert peer.result == {"scores": list(host.result.scores), "winners": list(host.result.winners),
                           "summary": host.result.summary}
    assert all(node.session.fault is None for node in others.values())
    assert len(peer.own_states) == host.replica.seq
    mine = tmp_path / "independent.p2pt"
    mine.write_bytes(peer.transcript())
    report = transcript.verify(mine.read_bytes())
    assert report.ok and report.followed and report.agreed == report.entries, report.problem
    for node in others.values():
        assert transcript.verify(node.transcript_path.read_bytes()).ok
    run = subprocess.run([sys.executable, "-m", "p2pgames", "verify", str(mine)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Verified." in run.stdout
    # It took every part: the lobby, the random phase, the deal's and the re-shuffles' passes, keys
    # (published and, passing or passed a card, sealed), a choice, a move, the audit; and it held
    # the others' escrows, checking its shares (§B16; two players: no escrow, §C8). At protocol 10
    # it escrowed each deal's lock keys before its lock pass; at 11 there is no lock escrow (§B16.6),
    # the last holder's pass carries its shares (§B6.3), and sealed shares may ride with an act (§B5).
    assert {"host-hello", "lobby", "start", "accept", "entry"} <= set(peer.reached)
    made = [body["t"] for seat, body in report.bodies if seat == my_seat]
    escrows = set() if players == 2 else {"escrow", "lock-escrow"} if protocol == LOCK_DECK_PROTOCOL else {"escrow"}
    assert {"commit", "open", "pass", "keys", "act", "audit"} | (escrows - {"escrow"}) == set(made)
    assert escrows == {body["t"] for seat, body in report.bodies if seat != my_seat} & {"escrow", "lock-escrow"}
    sealed = [(seat, body["t"], item[1]) for seat, body in report.bodies for item in body.get("sealed", ())]
    if protocol == LOCK_DECK_PROTOCOL:
        assert any(kind == "keys" for _seat, kind, _to in sealed)
    else:
        assert any(my_seat in (seat, to) for seat, _kind, to in sealed), sealed
        if players > 2:  # (two players: the product's acts carry them, to this seat)
            assert (my_seat, "keys") in {(seat, kind) for seat, kind, _to in sealed}, sealed
        riding = [seat for seat, body in report.bodies if body["t"] == "pass" and "public" in body]
        assert (my_seat in riding) == (my_seat == players - 1), riding  # (the last holder's, §B6.3)
        for seat, body in report.bodies:  # its box of each deck key's part opened right; one wrong would not
            if body["t"] == "escrow":
                assert transcript.escrow_box_is_right(peer.game_id, seat, peer.seal_private, body, my_seat)
                j, m = body["holders"].index(my_seat), len(body["holders"])
                context = canon.encode(["deck-key-share", peer.game_id, seat, my_seat, m])
                wrong = dict(body, deck_boxes=list(body["deck_boxes"]))
                wrong["deck_boxes"][j] = deck.seal(peer.seal_public, (5).to_bytes(32, "little"), context)
                assert not transcript.escrow_box_is_right(peer.game_id, seat, peer.seal_private, wrong, my_seat)


@asynccontextmanager
async def two_player_probe_host(tmp_path, seed, protocol=PROTOCOL):
    """A product host of a 2-player probe game on loopback, its seat played by a product bot, for
    the independent peer to join: yields (the host's node, its port, the nursery it runs in)."""
    game = get_game("probe")
    host = product_peer(0, seed, game.ruleset(2, {}), tmp_path / "host.p2pt", protocol)
    listeners = await open_host_listeners(0, LOOPBACK)
    with trio.fail_after(600):
        async with trio.open_nursery() as nursery:
            await nursery.start(host.serve, listeners)
            nursery.start_soon(functools.partial(drive_bot, host, bot_for(game, seed), if_away="end"))
            yield host, listeners[0].socket.getsockname()[1], nursery


async def answer_to(port, kind, body_for):
    """A stranger dials the host, answers its host-hello with `kind`, its body `body_for(hello)`:
    returns (the host-hello, the envelope sent, the host's answer, whether the host then closed)."""
    private = bytes(range(32))
    reader = wire.FrameReader()
    async with await trio.open_tcp_stream(LOOPBACK, port) as stream:
        messages = []
        while not messages:
            messages = reader.feed(await stream.receive_some(65536))
        hello = wire.open_envelope(messages[0])
        assert hello.kind == "host-hello"
        sent = wire.make_envelope(private, kind, body_for(hello))
        await stream.send_all(wire.frame(sent))
        messages = messages[1:]
        while not messages:
            data = await stream.receive_some(65536)
            assert data, "the host closed the connection without an answer"
            messages = reader.feed(data)
        closed = await stream.receive_some(65536) == b""
        return hello, sent, wire.open_envelope(messages[0]), closed


async def late_hello(port):
    """A stranger dials a table whose game has started: §B2 says the host still sends host-hello
    and answers the hello with reject ("the game has already started"). Returns that reject's body."""
    hello, _, reject, _ = await answer_to(port, "hello", lambda hello: {
        "protocol": PROTOCOL, "game": "probe", "name": "late", "seal": bytes(32), "host": hello.sender,
        "nonce": hello.body["nonce"], "bot": False,
    })
    assert hello.body["game"] == "probe"
    assert reject.kind == "reject" and reject.sender == hello.sender
    return reject.body


async def test_a_stranger_dialling_a_started_game_gets_host_hello_then_reject(tmp_path, autojump_clock):
    seed = b"independent-late"
    peer = Peer(seed=seed)
    async with two_player_probe_host(tmp_path, seed) as (_host, port, nursery):
        nursery.start_soon(peer.run, LOOPBACK, port)
        await peer.seated.wait()  # two players: the lobby is full, the game starts
        reject = await late_hello(port)
    assert "already started" in reject["reason"], reject
    assert peer.result is not None


def deck_field(private):
    """A hello's `deck` (§B6.3): a deck key and its key proof, for the signing key of `private`."""
    secret = 7 + private[0]
    context = canon.encode(["deck-key", wire.public_key(private)])
    return [edwards.encode(edwards.multiply_base(secret)), edwards.key_proof(secret, context, 11 + private[0])]


async def host_with_the_peer(nursery, host, peer, game, seed):
    """Start ``host`` (a product host played by a bot) on loopback, and ``peer`` dialling it;
    return the port once the peer is in the lobby."""
    listeners = await open_host_listeners(0, LOOPBACK)
    await nursery.start(host.serve, listeners)
    nursery.start_soon(functools.partial(drive_bot, host, bot_for(game, seed), if_away="end"))
    port = listeners[0].socket.getsockname()[1]
    nursery.start_soon(peer.run, LOOPBACK, port)
    await peer.seated.wait()
    return port


async def bot_joins(nursery, node, port, game, seed):
    """``node``, a product joiner played by a bot, joins the host at ``port``."""
    await nursery.start(node.connect, LOOPBACK, port)
    nursery.start_soon(functools.partial(drive_bot, node, bot_for(game, seed), if_away="end"))


async def test_a_lobby_seat_the_host_refuses_leaves_the_lobby_and_the_game_starts_without_it(tmp_path, autojump_clock):
    """§B2: a seat in the lobby whose connection ends — here refused by the host for a malformed
    message — leaves the lobby at once: the others get a `lobby` without it, and the game starts
    only with seats that are connected (the independent peer plays it to its end)."""
    seed = b"independent-ghost"
    game = get_game("probe")
    peer = Peer(seed=seed)
    others = {seat: product_peer(seat, seed, game.ruleset(4, {}), tmp_path / f"product{seat}.p2pt") for seat in (0, 2, 3)}
    with trio.fail_after(600):
        async with trio.open_nursery() as nursery:
            port = await host_with_the_peer(nursery, others[0], peer, game, seed)
            async with await trio.open_tcp_stream(LOOPBACK, port) as ghost:
                reader = wire.FrameReader()
                messages = []
                while not messages:
                    messages = reader.feed(await ghost.receive_some(65536))
                hello = wire.open_envelope(messages[0])
                await ghost.send_all(wire.frame(wire.make_envelope(bytes([9]) * 32, "hello", {
                    "protocol": PROTOCOL, "game": "probe", "name": "ghost", "seal": bytes(32), "host": hello.sender,
                    "nonce": hello.body["nonce"], "bot": False, "deck": deck_field(bytes([9]) * 32),
                })))
                host = others[0]
                await host.wait_until(lambda: host.session.lobby_size == 3)
                await ghost.send_all(wire.frame(b"\xc1 not msgpack"))
                await host.wait_until(lambda: host.session.lobby_size == 2)
            for seat in (2, 3):
                await bot_joins(nursery, others[seat], port, game, seed + bytes([seat]))
    assert peer.lobbies[:3] == [["bot-0", "indie"], ["bot-0", "indie", "ghost"], ["bot-0", "indie"]], peer.lobbies
    assert [record[2] for record in peer.seats] == ["bot-0", "indie", "bot-2", "bot-3"]
    assert peer.result is not None and others[0].session.fault is None


async def test_a_rejoin_for_a_game_the_host_is_not_playing_gets_gone_naming_that_rejoin(tmp_path, autojump_clock):
    """§B12: the host answers a real rejoin for another game (here: a game that never was) with
    `gone`, its `rejoin` that rejoin's digest, signed by the host, then closes the connection."""
    seed = b"independent-gone"
    peer = Peer(seed=seed)
    async with two_player_probe_host(tmp_path, seed) as (_host, port, nursery):
        nursery.start_soon(peer.run, LOOPBACK, port)
        await peer.seated.wait()
        other_game = bytes([7]) * 32
        hello, rejoin, answer, closed = await answer_to(port, "rejoin", lambda hello: {
            "protocol": PROTOCOL, "game_id": other_game, "host": hello.sender, "nonce": hello.body["nonce"], "have": 0,
        })
    assert answer.kind == "gone" and answer.sender == hello.sender  # open_envelope checked its signature
    assert (answer.body["game_id"], answer.body["rejoin"]) == (other_game, wire.H(rejoin))
    assert answer.body["reason"], "why, in words"
    assert closed


async def test_a_move_not_allowed_now_based_on_an_older_entry_is_stale_and_a_ping_is_answered(tmp_path, autojump_clock):
    """§B3: a submission that fails only "is this move allowed now", with `based_on` below the host's
    entry count, gets `stale` (its counter not used up) and the game goes on; §B10: a ping gets a
    pong with its nonce."""
    seed = b"independent-stale"
    # (After entry 5 a cheer is not allowed yet: the cards are being dealt.)
    peer = Peer(seed=seed, ping=4242, stale_move_after=5)
    async with two_player_probe_host(tmp_path, seed) as (host, port, nursery):
        nursery.start_soon(peer.run, LOOPBACK, port)
    assert peer.pongs == [4242]
    assert len(peer.stales) == 1 and peer.stales[0]["game_id"] == peer.game_id, peer.stales
    assert host.session.fault is None and peer.result is not None
    report = transcript.verify(peer.transcript())
    assert report.ok, report.problem
    assert verify_transcript(peer.transcript(), get_game).ok


async def test_a_burst_of_chat_past_the_hosts_bucket_is_cut_at_its_depth_and_the_game_goes_on(tmp_path, autojump_clock):
    """§B10: 25 lines at once, past the 20 a host's bucket holds: it takes 20 (recorded, relayed),
    drops 5 — far from the 100 that would name the sender — and the game goes on."""
    seed = b"independent-chat"
    peer = Peer(seed=seed, chat_burst=25)
    async with two_player_probe_host(tmp_path, seed) as (host, port, nursery):
        nursery.start_soon(peer.run, LOOPBACK, port)
    assert host.session.fault is None and peer.result is not None
    kept = [wire.open_envelope(value).body["text"] for _, kind, value in transcript.records(host.transcript_path.read_bytes())
            if kind == "chat"]
    assert kept == [f"hello {n}" for n in range(20)]


async def accuse_a_sealer(tmp_path, how, protocol):
    """A 2-player game in which the independent peer, when the host first seals a key (at 11, a
    share) to it, accuses the host of `bad-key` with the keys submission and, `how`, made-up key
    bytes or its own sealing key as evidence."""
    seed = b"d"  # a seed with which the host wins a round and passes a card (sealing its key)
    peer = Peer(seed=seed, accuse_sealer=how, protocol=protocol)
    async with two_player_probe_host(tmp_path, seed, protocol) as (host, port, nursery):
        await peer.run(LOOPBACK, port)
        nursery.cancel_scope.cancel()
    assert peer.accusation["culprit"] == 0, "the host sealed no key to the peer with this seed"
    return host.session.fault, peer


@pytest.mark.parametrize("protocol", [PROTOCOL, LOCK_DECK_PROTOCOL])
@pytest.mark.parametrize("how", ["made-up", "sealing-key"])
async def test_a_false_sealed_key_accusation_names_the_accuser_not_the_honest_sealer(tmp_path, autojump_clock, how,
                                                                                    protocol):
    """§B6.2 (§B6.3): made-up key bytes prove nothing (anyone can make them), and the accuser's
    own sealing key opens the honest sealer's box to the right key (share); either way the accuser
    made a false accusation (issue 11, item 1: an innocent seat is never the culprit). The
    independent verifier's reading of the evidence agrees, and at 11 it finds the same evidence
    proving against a box that holds a share its proof does not prove."""
    fault, peer = await accuse_a_sealer(tmp_path, how, protocol)
    assert fault is not None and fault.culprit == peer.seat and fault.code == "illegal", fault
    accusation = peer.accusation
    keys_submission = accusation["evidence"][0]
    body = wire.open_envelope(keys_submission).body["body"]
    logged = {keys_submission: (0, body)}
    assert not transcript.evidence_proves(peer.replica, peer.seats, logged, accusation)
    if protocol == PROTOCOL and how == "sealing-key":
        (slot, to, _box, _commitment), *_ = [item for item in body["sealed"] if item[1] == peer.seat]
        wrong = edwards.encode(edwards.multiply_base(5))  # a point, with another share's proof
        context = canon.encode(["sealed-share", peer.game_id, slot, 0, to])
        box = deck.seal(peer.seal_public, wrong + bytes(64), context)
        forged = dict(body, sealed=[[slot, to, box, deck.sealed_commitment(wrong)]])
        assert transcript.evidence_proves(peer.replica, peer.seats, {keys_submission: (0, forged)}, accusation)


async def with_two_product_peers(tmp_path, seed, peer, until=None):
    """A 3-player probe game on loopback: the product's host (seat 0, a bot), the independent
    `peer` (seated next) and a product bot joiner. Runs until every peer is done, or until
    `until(session)` holds for both product peers (then stops everything). Returns the product
    peers' nodes, by seat among them (0: the host)."""
    game = get_game("probe")
    ruleset = game.ruleset(3, {})
    others = {seat: product_peer(seat, seed, ruleset, tmp_path / f"product{seat}.p2pt") for seat in range(2)}
    with trio.fail_after(600):
        async with trio.open_nursery() as nursery:
            port = await host_with_the_peer(nursery, others[0], peer, game, seed)
            await bot_joins(nursery, others[1], port, game, seed + b"2")
            if until is not None:
                for node in others.values():
                    await node.wait_until(lambda node=node: until(node.session))
                nursery.cancel_scope.cancel()
    return others


async def test_a_peer_that_walks_out_with_a_claim_nobody_can_check_is_named_for_stopping_the_game(
    tmp_path, autojump_clock
):
    """Issue 23, point 5: the independent peer ends the game with a `fault` naming nobody and no
    evidence. Before, every peer stopped with nobody blamed (a `leave` names the leaver); now the
    host, which received it, and the other joiner, to which the host relayed it, both record it as
    the peer stopping the game on its word (§B9 case 4), and both verifiers read their transcripts
    so."""
    peer = Peer(seed=b"independent-walk-out", walk_out_after=6)
    others = await with_two_product_peers(
        tmp_path, b"independent-walk-out", peer, until=lambda session: session.stage == "halted",
    )
    assert peer.walked_out is not None and peer.seat == 1
    said = set()
    for node in others.values():
        fault = node.session.fault
        assert (fault.culprit, fault.reporter, fault.accused, fault.code) == (1, 1, None, "oversize"), fault
        assert fault.describe(node.session.names) == (
            "indie (seat 1) stopped the game, claiming someone sent an oversize frame, in its words: “something was "
            "too big”; the claim is unproven"
        )
        data = node.transcript_path.read_bytes()
        product, mine = verify_transcript(data, get_game), transcript.verify(data)
        assert product.ok and mine.ok, (product.describe(), mine.problem)
        assert (product.stopped.culprit, product.stop_confirmed) == (1, False), product.describe()
        assert [claim["culprit"] for claim in mine.claims] == [1], mine.claims
        said.add(product.describe().splitlines()[-2])
    assert said == {
        f"The game stopped after {peer.walked_out['seq']} log entries: indie (seat 1) stopped the game, claiming "
        "someone sent an oversize frame, in its words: “something was too big”; the claim is unproven."
    }


@pytest.mark.parametrize("drop_after, lost", [(1, True), (9, False)])
async def test_the_independent_peer_drops_its_connection_and_rejoins(tmp_path, autojump_clock, drop_after, lost):
    """§B12: with its `drop_after`-th submission sent (or `lost`: never sent) the peer closes its
    connection, dials again and rejoins with `have`; the host catches it up (the entries and acks
    since, `caught-up` at its count); it sends a lost submission again, unchanged, and the game goes
    on to the end."""
    peer = Peer(seed=b"independent-rejoin", drop_after_submissions=drop_after, lose_that_submission=lost)
    others = await with_two_product_peers(tmp_path, b"independent-rejoin", peer)
    assert peer.rejoins == 1 and len(peer.caught_up) == 1
    assert peer.resent == ([drop_after - 1] if lost else []), peer.resent
    if not lost:
        assert peer.entries_caught_up >= 1, "the entry of the submission sent before the drop comes in the catch-up"
    host = others[0].session
    assert host.fault is None and others[1].session.fault is None, (host.fault, others[1].session.fault)
    assert peer.result is not None and len(peer.own_states) == host.replica.seq
    report = transcript.verify(peer.transcript())
    assert report.ok and report.agreed == report.entries, report.problem
    assert verify_transcript(peer.transcript(), get_game).ok
    for node in others.values():
        assert transcript.verify(node.transcript_path.read_bytes()).ok


async def test_a_host_that_lost_its_last_entries_takes_them_back_from_the_independent_peer(tmp_path, autojump_clock):
    """§B12 step 5: the host's process dies after a full disk kept its transcript only up to entry
    12 (the test cuts the file there); resumed, it waits for every joiner, asks the one holding most
    (`missing`), takes back each entry it gives back, and the game goes on to the end: everyone
    agrees, and every transcript verifies — the resumed host's whole again."""
    seed = b"independent-lost"
    game = get_game("probe")
    random_bytes = reproducible_bytes(seed + b"/seat/" + bytes([0]))
    identity = Identity.generate(random_bytes(32))
    host = Node(Session(identity, "bot-0", get_game, ruleset=game.ruleset(3, {}), bot=True, random_bytes=random_bytes,
                        protocol=PROTOCOL),
                transcript_dir=tmp_path / "transcripts", seat_dir=tmp_path / "seats")
    joiner = product_peer(2, seed, None, tmp_path / "product2.p2pt")
    peer = Peer(seed=seed, dial_again=True)
    listeners = await open_host_listeners(0, LOOPBACK)
    port = listeners[0].socket.getsockname()[1]
    first_life, dead = trio.CancelScope(), trio.Event()

    async def run_host(task_status=trio.TASK_STATUS_IGNORED):
        with first_life:
            async with trio.open_nursery() as inner:
                await inner.start(host.serve, listeners)
                task_status.started()
                await drive_bot(host, bot_for(game, seed), if_away="end")
        dead.set()  # its files closed as a dying process leaves them

    with trio.fail_after(600):
        async with trio.open_nursery() as nursery:
            await nursery.start(run_host)
            nursery.start_soon(peer.run, LOOPBACK, port)
            await peer.seated.wait()
            await nursery.start(joiner.connect, LOOPBACK, port)
            nursery.start_soon(functools.partial(drive_bot, joiner, bot_for(game, seed + b"2"), if_away="end"))
            await host.wait_until(lambda: host.session.replica is not None and host.session.replica.seq >= 20)
            first_life.cancel()  # kill -9
            await dead.wait()
            written = host.transcript_path.read_bytes()
            host.transcript_path.write_bytes(written[:through_entry(written, 12)])  # what the full disk kept
            [seat_path] = (tmp_path / "seats").iterdir()
            again = await resume_seat(nursery, identity=identity, seat_path=seat_path, name="bot-0", port=port,
                                      bind=LOOPBACK, bot=True)
            assert again.session.replica.seq == 12
            nursery.start_soon(functools.partial(drive_bot, again, bot_for(game, seed), if_away="end"))
    assert peer.missing and peer.missing[0]["from"] <= 12, peer.missing
    assert again.session.role.took_back and not again.session.role.refused
    assert again.session.fault is None and joiner.session.fault is None and peer.result is not None
    assert len(peer.own_states) == again.session.replica.seq > 20
    report = transcript.verify(peer.transcript())
    assert report.ok and report.agreed == report.entries, report.problem
    for node in (again, joiner):
        assert transcript.verify(node.transcript_path.read_bytes()).ok
        assert verify_transcript(node.transcript_path.read_bytes(), get_game).ok
