"""Tables that deal with the ElGamal deck (protocol 11, SPEC §B6.3, every table's since version 11).

These tests play whole games with it, and check what a cheating peer can try against it: every
cheat is named, and proved to all.
"""

import nacl.bindings
import pytest
from switchboard import Switchboard

from p2pgames import PROTOCOL_VERSION, canonical
from p2pgames.crypto import Identity, elgamal, open_sealed, reproducible_bytes
from p2pgames.games import get_game
from p2pgames.session import HOST_CONNECTION, FaultCode, Session, encode_record, iter_records, open_envelope, verify_transcript
from p2pgames.session._elgamal_deals import ElGamalDeal, ProvenShare, sealed_share_context
from p2pgames.session._elgamal_keys import deck_key_record
from p2pgames.session._secrets import SeatSecrets

CHEATER = 1


def elgamal_board(game: str, players: int, seed: bytes = b"elgamal", **options) -> Switchboard:
    return Switchboard(game, players, seed=seed, protocol=PROTOCOL_VERSION, **options)


def logged_submissions(board: Switchboard, seat: int = 0) -> list[tuple[int, dict]]:
    """``(author seat, body)`` of every submission in ``seat``'s transcript, in log order."""
    out = []
    for kind, value in iter_records(bytes(board.transcripts[seat])):
        if kind == "entry":
            inner = open_envelope(open_envelope(value).body["submission"])
            out.append((inner.body["seat"], inner.body["body"]))
    return out


@pytest.mark.parametrize("game, players", [("probe", 3), ("beltpunk", 3), ("steamcourt", 4), ("astonishing", 3)])
def test_every_game_with_cards_plays_to_its_end_at_an_elgamal_table(game, players):
    """(Steam Torpedo deals no cards.)"""
    board = elgamal_board(game, players)
    board.run()
    board.check_finished_and_verified(every_entry_agreed=True)
    replica = board.host.replica
    assert replica.elgamal
    assert all(isinstance(crypto, ElGamalDeal) for crypto in replica.deals.values())
    assert all(len(record) == 6 for record in board.host.start_envelope.body["seats"])
    passes = [body for _, body in logged_submissions(board) if body["t"] == "pass"]
    assert passes and all(set(body) <= {"t", "deal", "cards", "public", "proof"} for body in passes)


def test_a_deal_is_one_pass_per_holder_then_one_round_of_shares():
    """§B6.3: a deal of h holders is h passes in seat order; the last holder's shares of the
    slots the next step shows ride with its pass, and the others' come in one round — h + 1
    round trips where protocol 10 needs 2h (§B6.1)."""
    board = elgamal_board("beltpunk", 4)
    board.run(until=lambda: board.host.replica is not None and len(board.host.replica.deals) > 1)
    card_steps = [(seat, body) for seat, body in logged_submissions(board) if body["t"] in ("pass", "keys")]
    passes = [(seat, body) for seat, body in card_steps if body["t"] == "pass" and body["deal"] == 0]
    assert [seat for seat, _ in passes] == [0, 1, 2, 3]
    assert all(len(body["cards"]) == 52 for _, body in passes)
    assert ["public" in body for _, body in passes] == [False, False, False, True]
    # The round of shares: one from each other holder, none from the last (its shares rode).
    after = card_steps[len(passes):len(passes) + 3]
    assert sorted(seat for seat, body in after if body["t"] == "keys") == [0, 1, 2]
    assert len(passes[-1][1]["public"]) == len(after[0][1]["public"]) > 0


def host_shares(board: Switchboard) -> dict[tuple[int, int], bytes]:
    """Every decryption share the host could hold, by (slot, holder): its own of every slot,
    every published one, and every one sealed to it (opened with its private sealing key)."""
    host = board.host
    replica = host.replica
    known = {}
    for seat, body in logged_submissions(board):
        for item in body.get("public", ()) if body["t"] in ("keys", "pass", "act") else ():
            known[(item[0], seat)] = item[1]
        for slot, to, box, _commitment in body.get("sealed", ()) if body["t"] in ("keys", "act") else ():
            if to == 0:
                context = sealed_share_context(replica.game_id, slot, seat, to)
                known[(slot, seat)] = open_sealed(host.seal_key, box, context)[: elgamal.POINT_SIZE]
    for crypto in replica.deals.values():
        if 0 in crypto.holders and crypto.next_pass() is None:
            for index, card in enumerate(crypto.locked):
                known[(crypto.first_slot + index, 0)] = elgamal.decryption_share(host.secrets.deck_key, card.nonce)
    return known


def test_the_host_cannot_open_another_players_hand_from_every_share_it_holds():
    """Not by trust: every share the host's process holds of a card in another hand, combined
    every way it can, opens no card — the holder's own share never reached it."""
    from test_host_cannot_see_hands import mid_first_round

    board = mid_first_round(elgamal_board("beltpunk", 3, seed=b"privacy"))
    replica = board.host.replica
    state = replica.state
    known = host_shares(board)
    checked = 0
    for seat in (1, 2):
        for slot in state.hands[seat]:
            if slot in state.cards.revealed or slot in board.host.knowledge:
                continue
            crypto, index = replica.deal_of_slot(slot)
            assert slot in board.sessions[seat].knowledge  # (its holder sees it)
            assert (slot, seat) not in known, (slot, seat)
            shares = {holder: known[(slot, holder)] for holder in crypto.holders if (slot, holder) in known}
            assert crypto.table.name_of(elgamal.decrypt(crypto.locked[index], list(shares.values()))) is None
            checked += 1
    assert checked >= 6


def assert_everyone_names(board: Switchboard, culprit: int, code: FaultCode, *, besides: set[int] = frozenset()):
    for seat, session in enumerate(board.sessions):
        if seat in besides:
            continue
        assert session.fault is not None, seat
        assert (session.fault.culprit, session.fault.code) == (culprit, code), (seat, session.fault)
    report = verify_transcript(bytes(board.transcripts[0]), get_game)
    assert report.ok, report.describe()


def test_a_published_share_that_fails_its_proof_is_refused_and_names_its_publisher(monkeypatch):
    """One wrong share among those one proof covers (§B6.3): the proof fails for them all."""
    honest = SeatSecrets._shares_proven

    def one_share_wrong(self, replica, slots, nonces=None):
        shares, proof = honest(self, replica, slots, nonces)
        if self.seat != CHEATER:
            return shares, proof
        return [elgamal.public_key(7), *shares[1:]], proof  # a point, not its share

    monkeypatch.setattr(SeatSecrets, "_shares_proven", one_share_wrong)
    board = elgamal_board("probe", 3)
    board.run()
    assert_everyone_names(board, CHEATER, FaultCode.BAD_KEY, besides={CHEATER})
    assert "that fail their proof" in board.host.fault.reason


def test_a_sealed_share_that_is_not_the_senders_is_caught_by_its_receiver_and_proved_to_all(monkeypatch):
    from p2pgames.session import _secrets

    honest = SeatSecrets._sealed_item
    sealers = []

    def seal_a_point_that_is_no_share(self, replica, slot, to):
        if not replica.elgamal or sealers:
            return honest(self, replica, slot, to)
        sealers.append((self.seat, to))
        wrong = ProvenShare(elgamal.public_key(7), bytes(64))
        box, commitment = _secrets.seal_share(
            replica.seats[to].seal, wrong, sealed_share_context(replica.game_id, slot, self.seat, to)
        )
        return [slot, to, box, commitment]

    monkeypatch.setattr(SeatSecrets, "_sealed_item", seal_a_point_that_is_no_share)
    board = elgamal_board("probe", 3)
    board.run()
    assert sealers, "nobody sealed a share in this game"
    sealer, receiver = sealers[0]
    assert_everyone_names(board, sealer, FaultCode.BAD_KEY, besides={sealer})
    assert board.sessions[receiver].fault.reason.endswith("fails its proof"), board.sessions[receiver].fault.reason


def test_a_card_put_in_twice_re_randomized_is_named_by_the_audit(monkeypatch):
    """A pass can't be checked card by card (its permutation is secret), so a card swapped for
    another one already in the deck, re-randomized so it looks new, shows only when both copies
    are seen: a card twice among a step's values is an automatic dispute, and the audit remakes
    every pass from its seed (§B7), naming the one that differs."""
    honest = SeatSecrets._elgamal_pass

    def repeat_a_card(self, replica, crypto):
        body = honest(self, replica, crypto)
        if self.seat == CHEATER and crypto.deal == 0:
            cards = [elgamal.Ciphertext(*card) for card in body["cards"]]
            cards[0] = elgamal.reencrypt(cards[1], crypto.joint_key, 12345)
            body = dict(body, cards=[list(card) for card in cards])
        return body

    monkeypatch.setattr(SeatSecrets, "_elgamal_pass", repeat_a_card)
    board = elgamal_board("probe", 3, seed=b"twice")
    board.run()
    assert_everyone_names(board, CHEATER, FaultCode.BAD_PASS)
    assert "is not the one its seed gives" in board.host.fault.reason


def test_a_wrong_re_shuffle_pass_found_by_a_reveal_is_audited_and_names_its_author(monkeypatch):
    """The counterpart of test_automatic_dispute.py at protocol 11: in a re-shuffle the cheater
    moves every card by a point of the group (their nonces kept, so every share still proves),
    and nobody disputes a card shown only to them. The first sign is a revealed card that is no
    card: every peer starts the same automatic audit (§B7) — before the game's own audit, at its
    end — which remakes each pass of the re-shuffle from its seed and names the cheater, for every
    seat and for the transcript's verifier."""
    honest_game = elgamal_board("probe", 3, seed=b"auto")
    honest_game.run()
    own_audit = next(index for index, (_, body) in enumerate(logged_submissions(honest_game)) if body["t"] == "audit")
    honest = SeatSecrets._elgamal_pass
    spoiled = []

    def move_every_card(self, replica, crypto):
        body = honest(self, replica, crypto)
        if self.seat == CHEATER and crypto.source_slots and not spoiled:
            spoiled.append(crypto.deal)
            moved = [[nonce, elgamal.point_sum([masked, elgamal.public_key(7)])] for nonce, masked in body["cards"]]
            body = dict(body, cards=moved)
        return body

    monkeypatch.setattr(SeatSecrets, "_elgamal_pass", move_every_card)
    board = elgamal_board("probe", 3, seed=b"auto")
    for session in board.sessions:
        session._maybe_dispute = lambda: False
    board.run()
    assert spoiled, "the cheater made a pass of a re-shuffle"
    assert_everyone_names(board, CHEATER, FaultCode.BAD_PASS)
    assert f"its pass of deal {spoiled[0]} is not the one its seed gives" in board.host.fault.reason
    kinds = [body["t"] for _, body in logged_submissions(board)]
    assert "dispute" not in kinds and board.host.fault.seq < own_audit  # (automatic, and early)


# A point of order 8 (y = 0 … as libsodium's list of small-order encodings has it): on the curve,
# outside the prime-order group. A card plus it is on the curve but no point of the group.
SMALL_ORDER = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
# y = 2 is on no point of the curve: a value of 32 bytes under p, no point at all.
OFF_CURVE = (2).to_bytes(32, "little")


@pytest.mark.parametrize("bad", ["outside-the-group", "off-the-curve"])
def test_a_pass_holding_a_card_that_is_no_point_of_the_group_is_its_authors_bad_pass(monkeypatch, bad):
    """Whoever finds it — the next holder, whose pass can't add to a point off the curve, or
    everyone at the last pass, whose cards must all be points of the group — names the first
    pass that holds one (§B6.3), proved by that pass alone."""
    honest = SeatSecrets._elgamal_pass

    def spoil_a_card(self, replica, crypto):
        body = honest(self, replica, crypto)
        if self.seat == CHEATER and crypto.deal == 0:
            cards = [list(card) for card in body["cards"]]
            if bad == "outside-the-group":
                cards[3][1] = nacl.bindings.crypto_core_ed25519_add(cards[3][1], SMALL_ORDER)
            else:
                cards[3][1] = OFF_CURVE
            body = dict(body, cards=cards)
        return body

    assert not elgamal.is_valid_point(SMALL_ORDER) and not elgamal.is_valid_point(OFF_CURVE)
    monkeypatch.setattr(SeatSecrets, "_elgamal_pass", spoil_a_card)
    board = elgamal_board("probe", 3)
    board.run()
    assert_everyone_names(board, CHEATER, FaultCode.BAD_PASS, besides={CHEATER})
    assert "no point of the group" in board.host.fault.reason, board.host.fault.reason


def a_table_of_two(monkeypatch, host_protocol: int, joiner_protocol: int, *, host_record=None, joiner_record=None):
    """A host of the probe game and one joiner, speaking the protocols given, through their
    lobby (and the game, if it starts); ``*_record`` replaces that seat's ``[deck key, proof]``."""
    honest = Session.deck_key_record
    replaced = {"p0": host_record, "p1": joiner_record}
    monkeypatch.setattr(Session, "deck_key_record", lambda self: replaced.get(self.name) or honest(self))
    game = get_game("probe")
    host, joiner = (
        Session(Identity.generate(rng(32)), f"p{seat}", get_game, random_bytes=rng, bot=True,
                ruleset=game.ruleset(2, {}) if seat == 0 else None, protocol=protocol)
        for seat, protocol, rng in ((seat, protocol, reproducible_bytes(b"lobby" + bytes([seat])))
                                    for seat, protocol in enumerate((host_protocol, joiner_protocol)))
    )
    host.connected(1)
    joiner.connected(HOST_CONNECTION)
    for _ in range(50):
        frames = [(joiner, HOST_CONNECTION, data) for connection, data in host.take_outgoing() if connection == 1]
        frames += [(host, 1, data) for _connection, data in joiner.take_outgoing()]
        if not frames:
            break
        for session, connection, data in frames:
            session.receive(connection, data)
    return host, joiner


def test_a_table_of_two_at_protocol_11_starts(monkeypatch):
    host, joiner = a_table_of_two(monkeypatch, 11, 11)
    assert host.stage == joiner.stage == "playing" and host.replica.elgamal and joiner.replica.elgamal


@pytest.mark.parametrize("host_protocol, joiner_protocol", [(11, 10), (10, 11)])
def test_a_peer_of_the_other_protocol_is_refused_with_one_line_naming_both(monkeypatch, host_protocol, joiner_protocol):
    host, joiner = a_table_of_two(monkeypatch, host_protocol, joiner_protocol)
    assert joiner.stage != "playing" and host.stage == "lobby"
    assert joiner.rejection == f"the host speaks protocol {host_protocol}, this p2pgames speaks {joiner_protocol}"


def test_a_hello_whose_deck_key_is_not_proven_is_refused_by_the_host(monkeypatch):
    """A key whose proof fails could be another seat's, or the sum of the others' keys negated
    (which would leave the joint key to its sender alone): the host seats no such joiner."""
    rng = reproducible_bytes(b"impostor")
    someone_elses = deck_key_record(rng(32), Identity.generate(rng(32)).public_key.raw)
    host, joiner = a_table_of_two(monkeypatch, 11, 11, joiner_record=someone_elses)
    assert joiner.stage != "playing" and host.stage == "lobby"
    assert "deck key is missing or not proven" in joiner.rejection


def test_a_start_whose_deck_key_is_not_proven_is_the_hosts_illegal_start(monkeypatch):
    rng = reproducible_bytes(b"impostor")
    key, _proof = deck_key_record(rng(32), b"k" * 32)
    host, joiner = a_table_of_two(monkeypatch, 11, 11, host_record=[key, bytes(64)])
    assert joiner.fault is not None and (joiner.fault.culprit, joiner.fault.code) == (0, FaultCode.ILLEGAL)
    assert joiner.fault.reason == "the host's start is not valid: seat 0's deck key is not proven"


def test_a_transcript_whose_start_mixes_seat_records_is_refused_by_the_verifier(monkeypatch):
    """A start signed by its host with one seat record of protocol 10 among protocol 11's: no
    deck can be dealt among them (§A4), and the verifier says the start is not valid."""
    from p2pgames.session import TranscriptError, make_envelope

    board = elgamal_board("probe", 2)
    board.run()
    records = list(iter_records(bytes(board.transcripts[0])))
    kind, start_bytes = next(record for record in records if record[0] == "start")
    start = open_envelope(start_bytes)
    seats = [list(record) for record in start.body["seats"]]
    seats[1] = seats[1][:4]
    forged = make_envelope(board.host.identity, "start", dict(start.body, seats=seats))
    data = b"".join(encode_record(canonical.encode([kind, forged.raw if value is start_bytes else value]))
                    for kind, value in records)
    with pytest.raises(TranscriptError, match="some seats have a deck key and some don't"):
        verify_transcript(data, get_game)


def test_a_hand_over_with_a_wrong_share_is_its_authors_bad_key():
    """Two of its shares swapped (the proof of the deal's shares holds for them in their places
    only): refused as it comes, and proved by the hand-over alone."""
    from p2pgames.session._faults import ProtocolFault
    from p2pgames.session._messages import make_envelope

    board = elgamal_board("beltpunk", 3, seed=b"hand-beltpunk")
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 60
              and board.host.replica.hand_over_problem(2) is None)
    board.run(play=False)
    leaver, replica = board.sessions[2], board.host.replica
    body = leaver._hand_over_body()
    deal, seed, shares, proof = body["keys"][0]
    crypto = replica.deals[deal]
    first, second = [index for index in range(crypto.size) if 2 in crypto.unreleased[index]][:2]
    shares = list(shares)
    shares[first], shares[second] = shares[second], shares[first]  # two shares it never published, swapped
    envelope = make_envelope(leaver.identity, "submit", {
        "game_id": leaver.game_id, "seat": 2, "counter": replica.counters[2], "based_on": replica.seq,
        "body": {**body, "keys": [[deal, seed, shares, proof], *body["keys"][1:]]},
    })
    with pytest.raises(ProtocolFault) as caught:
        replica.check_submission(envelope, 2)
    assert (caught.value.fault.culprit, caught.value.fault.code) == (2, FaultCode.BAD_KEY)
    assert caught.value.fault.reason == f"handed over shares of deal {deal} that fail their proof"
    assert replica.confirm(caught.value.fault) is None  # (anyone checks it again from the hand-over)


def test_an_escrow_splits_the_deck_key_among_the_others_and_each_holder_opens_its_share():
    """§B16 at an ElGamal table: beside its escrow secret, a seat splits its deck key among the
    others, one share sealed to each; the shares' commitments add up to its key."""
    board = elgamal_board("beltpunk", 4)
    board.run(until=lambda: board.host.replica is not None and len(board.host.replica.escrows) == 4)
    board.run(play=False)
    replica = board.host.replica
    for dealer, record in replica.escrows.items():
        assert record.deck.holders == record.holders == tuple(seat for seat in range(4) if seat != dealer)
        assert elgamal.check_key_split(replica.seats[dealer].deck_key, record.deck.commitments)
        for holder in record.holders:
            share = board.sessions[holder].secrets.deck_shares[dealer]
            assert elgamal.public_key(share) == record.deck.commitment_of(holder)
    total = sum(board.sessions[holder].secrets.deck_shares[1] for holder in replica.escrows[1].holders)
    assert total % elgamal.GROUP_ORDER == board.sessions[1].secrets.deck_key


def escrow_cheat(monkeypatch, how: str) -> Switchboard:
    """Seat 2's escrow with its deck key's split spoilt ``how``; the game played to its stop."""
    from p2pgames.crypto import seal
    from p2pgames.session._elgamal_keys import key_share_context

    honest = SeatSecrets.escrow_body

    def spoilt(secrets, replica, holders):
        body = honest(secrets, replica, holders)
        if secrets.seat == 2 and how == "box":  # the first holder's box holds another share
            holder = holders[0]
            context = key_share_context(replica.game_id, 2, holder, len(holders))
            body["deck_boxes"][0] = seal(replica.seats[holder].seal, elgamal.scalar_to_bytes(12345), context)
        elif secrets.seat == 2:  # commitments that don't add up to its key
            body["deck"][0] = elgamal.public_key(12345)
        return body

    monkeypatch.setattr(SeatSecrets, "escrow_body", spoilt)
    board = elgamal_board("beltpunk", 4, seed=b"escrow-deck")
    board.run()
    return board


def test_a_deck_key_share_sealed_wrong_is_named_with_the_holders_sealing_key_as_evidence(monkeypatch):
    board = escrow_cheat(monkeypatch, "box")
    assert_everyone_names(board, 2, FaultCode.BAD_ESCROW, besides={2})
    assert board.sessions[0].fault.reason.startswith("sealed a share of its deck key that")


def test_deck_key_shares_that_do_not_add_up_to_the_key_are_refused(monkeypatch):
    board = escrow_cheat(monkeypatch, "sum")
    assert_everyone_names(board, 2, FaultCode.ILLEGAL, besides={2})
    assert board.host.fault.reason == "escrowed shares of its deck key that don't add up to its key"


def played_on_after_a_rebuild(board: Switchboard, gone: int) -> int:
    """Every seat but ``gone`` ended the game unblamed, with a transcript that verifies and says
    from which entry a bot played ``gone``, its keys rebuilt; that entry."""
    entry = board.host.replica.open_seats[gone]
    for seat in range(len(board.sessions)):
        if seat == gone:
            continue
        session = board.sessions[seat]
        assert session.fault is None and session.result is not None, (seat, session.fault)
        report = verify_transcript(bytes(board.transcripts[seat]), get_game)
        assert report.ok and report.complete, report.describe()
        assert report.open_seats == {gone: entry} and report.rebuilt == {gone}
    return entry


@pytest.mark.parametrize(("game", "players", "at", "gone"), [
    ("beltpunk", 4, 90, 1), ("steamcourt", 4, 30, 2), ("beltpunk", 4, 70, 0),
])
def test_a_seat_gone_for_good_is_rebuilt_by_all_the_others_and_the_game_is_played_to_its_end(game, players, at, gone):
    """§B16 at an ElGamal table: the others give their shares of its escrow secret (its pass
    seeds), their parts of its shares of the cards it keeps and their own shares of the cards
    sealed to it; a bot plays on, its hand shown to all. Seat 0 is the host: taken over (§B15)."""
    board = elgamal_board(game, players, seed=f"x{at}".encode(), reach=gone == 0)
    board.depart(gone, at)
    board.run()
    played_on_after_a_rebuild(board, gone)
    kinds = [body["t"] for _, body in logged_submissions(board, 1 if gone == 0 else 0)]
    assert kinds.count("rebuild") == players - 1 and "lock-escrow" not in kinds


def test_a_card_the_departed_seat_gave_stays_hidden_until_a_card_step_needs_its_share():
    """Its share of a card it gave (its receiver's secret: no other share still hides it) is
    never rebuilt: its escrow's holders each give a part of it when a card step needs it, and
    only then — to the seat that may see it, or to all at the audit."""
    board = elgamal_board("steamcourt", 4, seed=b"g0")
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 24 and not board.queue)
    replica = board.host.replica
    given = [crypto.first_slot + index for crypto in replica.unaudited_deals_of(2) for index in range(crypto.size)
             if crypto.unreleased[index] == {2} and crypto.knows[index] - {2}
             and crypto.first_slot + index not in replica.game.kept_slots(replica.state, 2)]
    assert given, "this seed's seat 2 has given a card"
    board.depart(2, 24)
    assert 2 in replica.rebuilt
    for slot in given:
        crypto, index = replica.deal_of_slot(slot)
        assert 2 in crypto.unreleased[index]  # still escrowed: nobody but its receiver knows it
    problem = "holds a share of p2's key of cards still hidden"
    assert problem in replica.rebuild_problem(3) and problem in replica.hand_over_problem(3)
    board.run()
    played_on_after_a_rebuild(board, 2)
    assert any(body["t"] == "release" for _, body in logged_submissions(board))


def test_a_re_shuffle_keeps_a_rebuilt_seat_whose_share_of_a_source_is_hidden_and_its_caretaker_passes_for_it():
    """Astonishing!: a pile re-shuffled with a card the gone seat gave (its share of it hidden:
    taking it off would show the card to all): the seat stays a holder of the re-shuffle — its
    caretaker makes its pass from its rebuilt pass seed, and its escrow's holders give its
    shares, sealed part by part to whoever may see a card."""
    board = elgamal_board("astonishing", 4, seed=b"x90")
    board.depart(2, 90)
    replica = board.host.replica
    opened = replica.open_seats[2]
    board.run()
    played_on_after_a_rebuild(board, 2)
    caretaker_passes = [body for seat, body in logged_submissions(board)[opened:] if seat == 2 and body["t"] == "pass"]
    assert caretaker_passes, "the caretaker made a pass for the rebuilt seat"
    sealed_parts = [item for _, body in logged_submissions(board) if body["t"] == "release" for item in body["sealed"]]
    assert sealed_parts


def test_a_wrong_part_in_a_rebuild_consent_is_refused_and_names_its_giver(monkeypatch):
    honest = SeatSecrets._released_part

    def a_part_of_another_slot(self, replica, seat, slot):
        part = honest(self, replica, seat, slot)
        return ProvenShare(elgamal.public_key(7), part.proof) if self.seat == 3 else part

    monkeypatch.setattr(SeatSecrets, "_released_part", a_part_of_another_slot)
    board = elgamal_board("beltpunk", 4, seed=b"x90")
    board.depart(1, 90)
    assert_everyone_names(board, 3, FaultCode.BAD_KEY, besides={1, 3})
    assert board.host.fault.reason.startswith("gave a wrong part of seat 1's share of slot")


def test_a_part_sealed_wrong_in_a_release_is_named_with_its_receivers_sealing_key(monkeypatch):
    """A part sealed to the seat that may see the card is checked by that seat alone; a wrong one
    is its sender's ``bad-escrow``, and the receiver's sealing key proves it to everyone."""
    from p2pgames.crypto import seal
    from p2pgames.session._elgamal_keys import released_part_context

    honest = SeatSecrets._release
    cheats = []

    def seal_a_wrong_part(self, replica):
        body = honest(self, replica)
        if body is None or not body["sealed"] or cheats:
            return body
        seat, slot, to, _box = body["sealed"][0]
        cheats.append(self.seat)
        wrong = elgamal.public_key(7) + bytes(elgamal.PROOF_SIZE)
        box = seal(replica.seats[to].seal, wrong, released_part_context(replica.game_id, seat, slot, self.seat, to))
        return {**body, "sealed": [[seat, slot, to, box], *body["sealed"][1:]]}

    monkeypatch.setattr(SeatSecrets, "_release", seal_a_wrong_part)
    board = elgamal_board("astonishing", 4, seed=b"x90")
    board.depart(2, 90)
    board.run()
    assert cheats, "nobody sealed a part in this game"
    assert_everyone_names(board, cheats[0], FaultCode.BAD_ESCROW, besides={2, cheats[0]})
    assert "that fails its proof" in board.host.fault.reason or "that fails its proof" in board.sessions[1].fault.reason


def test_a_caretakers_pass_for_a_rebuilt_seat_not_as_its_seed_makes_it_is_refused(monkeypatch):
    """Every peer makes a rebuilt seat's pass from the pass seed its escrow secret gives, and
    refuses any other: its caretaker (the host) can't slip in a pass of its own."""
    from p2pgames.session import Session

    honest = Session._rebuilt_seat_duty
    swapped = []

    def swap_two_cards(self, seat):
        body = honest(self, seat)
        if body is not None and body["t"] == "pass":
            cards = list(body["cards"])
            cards[0], cards[1] = cards[1], cards[0]
            body = {**body, "cards": cards}
            swapped.append(body["deal"])
        return body

    monkeypatch.setattr(Session, "_rebuilt_seat_duty", swap_two_cards)
    board = elgamal_board("astonishing", 4, seed=b"x90")
    board.depart(2, 90)
    board.run()
    assert swapped, "the caretaker made no pass for the rebuilt seat"
    assert_everyone_names(board, 0, FaultCode.BAD_PASS, besides={2})
    assert board.sessions[1].fault.reason == "sent seat 2's pass, but not as its rebuilt seed makes it"


def test_a_wrong_dispute_after_a_rebuild_is_audited_once_the_escrow_gives_what_it_keeps():
    """A dispute of a card the gone seat gave — still hidden by its escrowed share — is audited
    after a keys round in which its escrow's holders publish their parts (§B7, §B16): the audit
    then finds every pass and share right, and names the disputer (``bad-dispute``)."""
    board = elgamal_board("steamcourt", 4, seed=b"g0")
    board.depart(2, 24)
    board.run(play=False)
    escrowed = board.escrowed_slots(2)
    assert escrowed, "a share of the rebuilt seat that stays escrowed"
    board.dispute(1, escrowed[0])
    board.run()
    assert_everyone_names(board, 1, FaultCode.BAD_DISPUTE, besides={2})
    kinds = [body["t"] for _, body in logged_submissions(board)]
    after = kinds[kinds.index("dispute") + 1:]
    assert "release" in after and "audit" in after and after.index("release") < after.index("audit"), after
    report = verify_transcript(bytes(board.transcripts[0]), get_game)
    assert report.stopped is not None and (report.stopped.code, report.stopped.culprit) == (FaultCode.BAD_DISPUTE, 1)


def test_a_wrong_dispute_is_the_disputers_bad_dispute():
    board = elgamal_board("beltpunk", 3, seed=b"dispute")
    board.run(until=lambda: board.host.replica is not None and board.host.replica.seq >= 40)
    slot = next(slot for slot in board.sessions[1].secrets.knowledge if slot not in board.host.replica.state.cards.revealed)
    board.dispute(1, slot)
    board.run()
    assert_everyone_names(board, 1, FaultCode.BAD_DISPUTE)
