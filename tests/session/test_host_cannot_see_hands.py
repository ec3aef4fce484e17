"""The host's process, given every byte it received, can't tell another player's hand.

Not by trust: we take everything the host holds — its own deck key's decryption shares, every
share published in the log, every share sealed to it (opened with its private sealing key) — and
show that for every card in another player's hand that combination does not decrypt to a card,
because the one share that would (the holder's own, §B6.3) never reached the host in any form, nor
did the holder's deck key. No seed is shared: each peer's passes and deck key come from its own
randomness.
"""

from switchboard import Switchboard

from p2pgames.crypto import elgamal, open_sealed, scalar_to_bytes
from p2pgames.session import open_envelope
from p2pgames.session._elgamal_deals import pass_randomness, sealed_share_context
from p2pgames.session._elgamal_keys import pass_seed


def host_key_material(board):
    """Every decryption share the host could know, by (slot, seat): published ones, ones sealed
    to the host, and its own."""
    host = board.host
    replica = host.replica
    known = {}  # (slot, seat) -> share
    for data in board.received[0]:
        envelope = open_envelope(data)
        if envelope.kind != "submit":
            continue
        body = envelope.body["body"]
        seat = envelope.body["seat"]
        if body["t"] in ("keys", "pass", "act"):
            for item in body.get("public", ()):
                known[(item[0], seat)] = item[1]
        if body["t"] in ("keys", "act"):
            for slot, to, box, _commitment in body.get("sealed", ()):
                if to == 0:
                    plain = open_sealed(host.seal_key, box, sealed_share_context(replica.game_id, slot, seat, to))
                    known[(slot, seat)] = plain[: elgamal.POINT_SIZE]
    # The host's own submissions never travel to it, but it can make its own shares anyway.
    for crypto in replica.deals.values():
        if 0 in crypto.holders and crypto.next_pass() is None:
            for index, card in enumerate(crypto.locked):
                known[(crypto.first_slot + index, 0)] = elgamal.decryption_share(host.secrets.deck_key, card.nonce)
    return known


def mid_first_round(board: Switchboard) -> Switchboard:
    """``board`` stopped in the middle of the first round, before any audit publishes the keys, at
    a moment the table waits for a person (so no key release is half done)."""
    board.run(play=False)
    board.run(until=lambda: getattr(board.host.replica.state, "turn", 0) >= 2
              and board.host.replica.audits == 0
              and board.host.replica.waiting_on_decision() and not board.queue)
    return board


def test_host_cannot_decrypt_other_hands_mid_round():
    board = mid_first_round(Switchboard("beltpunk", 3, seed=b"privacy"))
    replica = board.host.replica
    state = replica.state
    assert state.round == 1 and replica.audits == 0
    known = host_key_material(board)
    checked = 0
    for seat in (1, 2):
        holder = board.sessions[seat]
        for slot in state.hands[seat]:
            if slot in state.cards.revealed or slot in board.host.knowledge:
                continue  # a card everyone saw, or one the host itself passed on: not secret from it
            crypto, index = replica.deal_of_slot(slot)
            card = crypto.locked[index]
            shares = [known[(slot, s)] for s in crypto.holders if (slot, s) in known]
            assert (slot, seat) not in known, "the holder's share reached the host"
            if crypto.table.name_of(elgamal.decrypt(card, shares)) is not None:
                raise AssertionError(f"the host could decrypt slot {slot} of seat {seat}'s hand")
            # The holder's share, and its deck key, never appear anywhere in the host's bytes,
            # in any encoding.
            share = elgamal.decryption_share(holder.secrets.deck_key, card.nonce)
            assert not any(share in data for data in board.received[0])
            assert not any(scalar_to_bytes(holder.secrets.deck_key) in data for data in board.received[0])
            # ...while the holder itself does see the card.
            assert slot in holder.knowledge
            checked += 1
    assert checked >= 8


def test_no_shared_seed_between_peers():
    board = Switchboard("beltpunk", 3, seed=b"privacy")
    board.run(until=lambda: board.host.replica is not None and board.host.replica.deals
              and board.host.replica.deals[0].next_pass() is None)
    size = board.host.replica.deals[0].size
    passes = [pass_randomness(pass_seed(session.secrets.escrow, 0), size) for session in board.sessions]
    permutations = [permutation for permutation, _ in passes]
    scalars = [tuple(scalars) for _, scalars in passes]
    deck_keys = [session.secrets.deck_key for session in board.sessions]
    assert len({tuple(p) for p in permutations}) == 3 and len(set(scalars)) == 3 and len(set(deck_keys)) == 3
