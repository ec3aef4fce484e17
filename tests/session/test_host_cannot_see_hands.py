"""The host's process, given every byte it received, can't tell another player's hand.

Not by trust: we take everything the host holds — its own keys, every key published in the log,
every key sealed to it (opened with its private sealing key) — and show that for every card in
another player's hand that combination does not decrypt to a card, because the one key that would
(the holder's own lock key) never reached the host in any form. No seed is shared: each peer's
shuffle and keys come from its own randomness.
"""

from switchboard import Switchboard

from p2pgames.crypto import BadCardValue, scalar_to_bytes, unlock
from p2pgames.session import open_envelope
from p2pgames.session._secrets import sealing_context
from p2pgames.crypto import open_sealed, scalar_from_bytes


def host_key_material(board):
    """Every lock key the host could know: published ones, and ones sealed to the host."""
    host = board.host
    replica = host.replica
    known = {}  # (slot, seat) -> key
    for data in board.received[0]:
        envelope = open_envelope(data)
        if envelope.kind != "submit":
            continue
        body = envelope.body["body"]
        seat = envelope.body["seat"]
        if body["t"] == "keys":
            for slot, key in body["public"]:
                known[(slot, seat)] = scalar_from_bytes(key)
            for slot, to, box, _commitment in body["sealed"]:
                if to == 0:
                    plain = open_sealed(host.seal_key, box, sealing_context(replica.game_id, slot, seat, to))
                    known[(slot, seat)] = scalar_from_bytes(plain)
    # The host's own submissions never travel to it, but it knows its own keys anyway.
    for deal, secret in host.secrets.deals.items():
        crypto = replica.deals[deal]
        for index, key in enumerate(secret.locks):
            known[(crypto.first_slot + index, 0)] = key
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
            keys = [known[(slot, s)] for s in range(3) if (slot, s) in known]
            assert (slot, seat) not in known, "the holder's key reached the host"
            try:
                value = unlock(crypto.locked[index], keys)
                crypto.table.name_of(value)
            except BadCardValue:
                pass
            else:
                raise AssertionError(f"the host could decrypt slot {slot} of seat {seat}'s hand")
            # The holder's key never appears anywhere in the host's bytes, in any encoding.
            secret_key = holder.secrets.deals[crypto.deal].locks[index]
            assert not any(scalar_to_bytes(secret_key) in data for data in board.received[0])
            # ...while the holder itself does see the card.
            assert slot in holder.knowledge
            checked += 1
    assert checked >= 8


def test_no_shared_seed_between_peers():
    board = Switchboard("beltpunk", 3, seed=b"privacy")
    board.run(until=lambda: board.host.replica is not None and board.host.replica.deals
              and board.host.replica.deals[0].next_pass() is None)
    permutations = [session.secrets.deals[0].permutation for session in board.sessions]
    shuffles = [session.secrets.deals[0].shuffle for session in board.sessions]
    assert len({tuple(p) for p in permutations}) == 3 and len(set(shuffles)) == 3
