"""Key escrow keeps cards secret at every entry (issue 25; SPEC §B16, §C8): over real games on the
in-memory switchboard — a joiner or the host gone for good, rebuilt or taken over, the game played
to its end — after every entry, no group of fewer than all the other seats still playing holds
shares (every share ever sealed to one of its members, of every split, with the offsets every lock
escrow ever made public) that add up to an escrow secret or a lock key still unpublished of another
seat; all of them together hold its current split. The host alone is such a group.

What a group can learn of a card is what it can learn of the lock keys still on it: a seat's own
lock keys and published keys are known; a key still unpublished is known only to its seat, and
rebuildable only from the shares of it. So this is the whole of what escrow could leak."""

from __future__ import annotations

from itertools import chain, combinations

import pytest
from switchboard import Switchboard

from p2pgames.crypto import CURVE_ORDER


class EscrowLedger:
    """Every escrow share each seat has ever held, by the key it is a share of: ``("escrow", t)``
    for seat ``t``'s escrow secret, ``("lock", t, slot)`` for its lock key on ``slot``."""

    def __init__(self, board: Switchboard):
        self.board = board
        self.held: list[dict[tuple, set[int]]] = [{} for _ in board.sessions]
        # What everyone knows of a lock key: the offsets of every escrow of it (§B16).
        self.offsets: dict[tuple, set[int]] = {}
        self.checked_at: object = None
        self.entries_checked = 0
        self.full_splits_seen = 0

    def _take_in(self) -> None:
        replica = self.board.host.replica
        for holder, session in enumerate(self.board.sessions):
            secrets = session.secrets
            if holder in self.board.gone or secrets is None:
                continue
            for dealer, (_, share) in secrets.shares.items():
                self.held[holder].setdefault(("escrow", dealer), set()).add(share)
            for (dealer, deal), held in secrets.lock_shares.items():
                crypto = replica.deals.get(deal)
                if crypto is None:
                    continue  # retired: its cards are gone from the game
                for index, share in enumerate(held.shares):
                    self.held[holder].setdefault(("lock", dealer, crypto.first_slot + index), set()).add(share)
            for (dealer, slot), by_holder in secrets.released.items():
                for share in by_holder.values():
                    self.held[holder].setdefault(("lock", dealer, slot), set()).add(share)
        for (dealer, deal), record in replica.lock_escrows.items():
            crypto = replica.deals[deal]
            for index, offset in enumerate(record.offsets):
                if offset:
                    self.offsets.setdefault(("lock", dealer, crypto.first_slot + index), set()).add(offset)

    def _unpublished_keys(self, seat: int) -> dict[tuple, int]:
        """``seat``'s secrets no other seat knows yet: its escrow secret (unless rebuilt) and its
        lock key on every slot its key still locks."""
        replica = self.board.host.replica
        secrets = self.board.sessions[seat].secrets
        keys: dict[tuple, int] = {}
        if secrets is None:
            return keys  # not at the table yet
        if seat not in replica.rebuilt:
            keys[("escrow", seat)] = secrets.escrow
        for crypto in replica.deals.values():
            deal = secrets.deals.get(crypto.deal)
            if deal is None or deal.locks is None:
                continue  # no lock key fixed yet (its first lock escrow fixes them, §B16): none to learn
            for index in range(crypto.size):
                if seat in crypto.unreleased[index]:
                    keys[("lock", seat, crypto.first_slot + index)] = deal.locks[index]
        return keys

    def check(self) -> None:
        """The property at the host's current entry (re-checked whenever what is held or who plays
        changed since the last check)."""
        replica = self.board.host.replica
        if replica is None:
            return
        self._take_in()
        playing = tuple(seat for seat in range(len(self.board.sessions)) if seat not in replica.open_seats)
        state = (replica.seq, playing, tuple(sum(len(v) for v in held.values()) for held in self.held),
                 sum(len(v) for v in self.offsets.values()))
        if state == self.checked_at:
            return
        self.checked_at = state
        self.entries_checked += 1
        for owner in range(len(self.board.sessions)):
            if owner in self.board.gone and owner not in replica.rebuilt:
                continue  # vanished, not rebuilt: its secrets are nobody's now
            others = [seat for seat in playing if seat != owner]
            for name, key in self._unpublished_keys(owner).items():
                for size in range(1, len(others)):
                    for group in combinations(others, size):
                        held = sorted(set(chain.from_iterable(self.held[seat].get(name, ()) for seat in group))
                                      | self.offsets.get(name, set()))
                        assert not adds_up_to(held, key), (
                            f"entry {replica.seq}: seats {group} hold shares that rebuild {name}")
                current = self._current_split(owner, name)
                if current is not None and sorted(current) == others:
                    shares = [share for seat in others for share in self.held[seat].get(name, ())
                              if share in current[seat]]
                    assert (sum(shares) + self._current_offset(owner, name)) % CURVE_ORDER == key, (
                        f"entry {replica.seq}: every other seat together can't rebuild {name}")
                    self.full_splits_seen += 1

    def _current_split(self, owner: int, name: tuple) -> dict[int, set[int]] | None:
        """Each holder's share of ``name`` in ``owner``'s current split of it, if every holder has
        taken that split in."""
        replica = self.board.host.replica
        if name[0] == "escrow":
            record = replica.escrows.get(owner)
            if record is None:
                return None
            found = {holder: self.board.sessions[holder].secrets.shares.get(owner) for holder in record.holders}
            if any(entry is None or entry[0] != record.seq for entry in found.values()):
                return None
            return {holder: {entry[1]} for holder, entry in found.items()}
        crypto, index = replica.deal_of_slot(name[2])
        record = replica.lock_escrows.get((owner, crypto.deal))
        if record is None:
            return None
        found = {holder: self.board.sessions[holder].secrets.lock_shares.get((owner, crypto.deal))
                 for holder in record.holders}
        if any(held is None or held.seq != record.seq for held in found.values()):
            return None
        return {holder: {held.shares[index]} for holder, held in found.items()}

    def _current_offset(self, owner: int, name: tuple) -> int:
        """The offset ``owner``'s current split of ``name`` adds to its shares (0 for an escrow
        secret, and for a lock escrow without offsets)."""
        replica = self.board.host.replica
        if name[0] == "escrow":
            return 0
        crypto, index = replica.deal_of_slot(name[2])
        offsets = replica.lock_escrows[(owner, crypto.deal)].offsets
        return offsets[index] if offsets else 0


def adds_up_to(shares: list[int], key: int) -> bool:
    """Some non-empty subset of ``shares`` adds up to ``key`` (mod the group order)."""
    sums = {0}
    for share in shares:
        sums |= {(total + share) % CURVE_ORDER for total in sums}
        if key in sums:
            return True
    return False


def test_the_ledger_finds_a_group_that_holds_enough():
    """The check can fail: shares of a two-way split add up to their secret, one of them doesn't."""
    assert adds_up_to([5, CURVE_ORDER - 2], 3)
    assert adds_up_to([7, 11, 13], 24) and not adds_up_to([7, 11], 3)


@pytest.mark.parametrize(("game", "players", "seed", "after", "gone"), [
    ("steamcourt", 4, b"secrecy-joiner", 53, 2),   # a joiner rebuilt mid-deal
    ("beltpunk", 4, b"secrecy-host", 40, 0),        # the host taken over, its seat rebuilt
])
def test_no_group_short_of_every_other_seat_ever_holds_enough_shares(game, players, seed, after, gone):
    board = Switchboard(game, players, seed=seed, reach=True)
    ledger = EscrowLedger(board)
    flush = board.flush

    def flush_and_check() -> None:
        flush()
        ledger.check()

    board.flush = flush_and_check  # after every frame delivered, every entry applied
    board.depart(gone, after)
    board.run()
    replica = board.host.replica
    assert board.host.result is not None and gone in replica.open_seats
    assert ledger.entries_checked > after and ledger.full_splits_seen
