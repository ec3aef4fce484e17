"""The public cryptographic record of one deal, and the checks every peer makes on it.

A deal (``p2pgames.engine.NewDeal`` or ``Reshuffle``) goes through *passes*, one per seat per
stage, in seat order:

* ``rekey`` (re-shuffles only): seat *j* replaces its old lock on each source slot by one new
  key ``a_j``: ``out[i] = E(in[i], a_j · old_j[i]⁻¹)``, order unchanged;
* ``shuffle``: ``out = permute(E(in[i], r_j))``;
* ``lock``: ``out[i] = E(in[i], k_j[i] · (r_j · a_j)⁻¹)`` and ``verifier[i] = E(G0, k_j[i])``
  (``a_j = 1`` for fresh deals).

Only the deal's *holders* make passes (every seat, unless the deal names some). After the last
lock pass, slot *i* is locked by every holder's key *i* and nobody knows its card. Keys are then
published, or sealed to each seat that must see the card (protocol/SPEC.md §B6.2). A published key
is checked against its verifier when the slot fails to decrypt (the check is public, so the
culprit is proved then); a sealed key by its recipient at once.
At the audit every holder publishes its ``a_j``, ``r_j`` and ``k_j[·]``; every pass is re-checked
with them in log order (the first inconsistent pass names its author), then every sealed key
against its commitment (one that wasn't the real key names its sender).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Sequence

from p2pgames.crypto import (
    BadCardValue,
    CardTable,
    CryptoError,
    check_lock_key,
    check_lock_pass,
    check_shuffle_pass,
    combine_keys,
    lock_scalars,
    rekey_pass,
    rekey_scalars,
    sealed_commitment,
    transform,
    unlock,
)

__all__ = ["DealCrypto", "SeatAuditKeys", "PassProblem", "bad_point"]

STAGES_FRESH = ("shuffle", "lock")
STAGES_RESHUFFLE = ("rekey", "shuffle", "lock")


class PassProblem(Exception):
    """A pass, key or audit publication is inconsistent; the message says how."""


@dataclass(frozen=True, slots=True)
class SeatAuditKeys:
    """What one seat publishes at the audit for one deal."""

    rekey: int | None
    shuffle: int
    locks: tuple[int, ...]


@dataclass(slots=True)
class SealedKey:
    """A key seat ``sender`` sealed to seat ``to`` for a slot, with the commitment it signed."""

    sender: int
    to: int
    commitment: bytes
    seq: int


@dataclass
class DealCrypto:
    """Everything public about one deal's cryptography, as the log built it."""

    deal: int
    first_slot: int
    players: int
    table: CardTable
    inputs: list[bytes]
    source_slots: tuple[int, ...] | None = None
    holders: tuple[int, ...] = ()  # the seats that shuffle and lock it, in seat order; () = all
    passes: dict[tuple[str, int], list[bytes]] = field(default_factory=dict)
    pass_messages: dict[tuple[str, int], bytes] = field(default_factory=dict)  # signed submissions
    verifiers: dict[int, list[bytes]] = field(default_factory=dict)
    published: list[dict[int, int]] = field(default_factory=list)
    published_in: list[dict[int, bytes]] = field(default_factory=list)  # the signed submission
    sealed: list[list[SealedKey]] = field(default_factory=list)
    unreleased: list[set[int]] = field(default_factory=list)
    knows: list[set[int]] = field(default_factory=list)
    audit_keys: dict[int, SeatAuditKeys] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.holders:
            self.holders = tuple(range(self.players))
        size = len(self.inputs)
        self.published = [{} for _ in range(size)]
        self.published_in = [{} for _ in range(size)]
        self.sealed = [[] for _ in range(size)]
        self.unreleased = [set(self.holders) for _ in range(size)]
        self.knows = [set() for _ in range(size)]

    # -- passes --------------------------------------------------------------------------------

    @property
    def size(self) -> int:
        return len(self.inputs)

    @property
    def stages(self) -> tuple[str, ...]:
        return STAGES_RESHUFFLE if self.source_slots is not None else STAGES_FRESH

    def next_pass(self) -> tuple[str, int] | None:
        """The ``(stage, seat)`` whose pass is due, or ``None`` once the deal is locked."""
        for stage in self.stages:
            for seat in self.holders:
                if (stage, seat) not in self.passes:
                    return stage, seat
        return None

    def input_of(self, stage: str, seat: int) -> list[bytes]:
        """The values pass ``(stage, seat)`` starts from: the previous pass's output."""
        order = self.pass_order()
        position = order.index((stage, seat))
        return self.inputs if position == 0 else self.passes[order[position - 1]]

    def pass_order(self) -> list[tuple[str, int]]:
        """Every pass of the deal, as ``(stage, seat)``, in the order they are made."""
        return [(stage, seat) for stage in self.stages for seat in self.holders]

    @property
    def locked(self) -> list[bytes]:
        """The final value of every slot (after the last lock pass)."""
        return self.passes[("lock", self.holders[-1])]

    def check_pass(self, stage: str, seat: int, values: Sequence[bytes], verifiers: Sequence[bytes]) -> None:
        """Check a pass's shape; raises :class:`PassProblem`.

        Whether each value is a curve point is not checked here: whoever uses the values next
        (the next pass, a decryption, the audit) finds out, and :func:`bad_point` proves it.
        """
        if (stage, seat) != self.next_pass():
            raise PassProblem(f"a {stage} pass from seat {seat} is not due (next: {self.next_pass()})")
        if len(values) != self.size:
            raise PassProblem(f"{stage} pass has {len(values)} values for {self.size} slots")
        if stage == "lock":
            if len(verifiers) != self.size:
                raise PassProblem(f"lock pass has {len(verifiers)} verifiers for {self.size} slots")
        elif verifiers:
            raise PassProblem(f"a {stage} pass carries no verifiers")
        if len(set(values)) != len(values):
            raise PassProblem(f"{stage} pass repeats a value")

    def record_pass(
        self, stage: str, seat: int, values: Sequence[bytes], verifiers: Sequence[bytes], message: bytes
    ) -> None:
        self.passes[(stage, seat)] = list(values)
        self.pass_messages[(stage, seat)] = message
        if stage == "lock":
            self.verifiers[seat] = list(verifiers)

    def previous_pass(self, stage: str, seat: int) -> tuple[str, int] | None:
        """The pass whose output pass ``(stage, seat)`` takes as input (``None`` for the first)."""
        order = self.pass_order()
        position = order.index((stage, seat))
        return None if position == 0 else order[position - 1]


    # -- keys ----------------------------------------------------------------------------------

    def check_published_key(self, index: int, seat: int, key: int) -> bool:
        """Whether ``key`` is ``seat``'s lock key on slot ``index`` (never for a non-holder)."""
        verifiers = self.verifiers.get(seat)
        return verifiers is not None and check_lock_key(key, verifiers[index])

    def wrong_published_key(self, index: int) -> tuple[int, bytes] | None:
        """``(seat, its signed message)`` of the first published key of slot ``index`` that does
        not match its verifier, in seat order, or ``None`` if they all match."""
        for seat in sorted(self.published[index]):
            if not self.check_published_key(index, seat, self.published[index][seat]):
                return seat, self.published_in[index][seat]
        return None

    def publish(self, index: int, seat: int, key: int, message: bytes) -> None:
        self.published[index][seat] = key
        self.published_in[index][seat] = message
        self.unreleased[index].discard(seat)

    def record_sealed(self, index: int, sealed: SealedKey) -> None:
        self.sealed[index].append(sealed)

    def value_if_public(self, index: int) -> str:
        """Decrypt a slot whose every key is published; raises :class:`PassProblem` if no card."""
        keys = [self.published[index][seat] for seat in self.holders]
        try:
            return self.table.name_of(unlock(self.locked[index], keys))
        except (BadCardValue, CryptoError):
            raise PassProblem(f"slot {self.first_slot + index} does not decrypt to a card") from None

    # -- audit ---------------------------------------------------------------------------------

    def check_audit_keys(self, seat: int, keys: SeatAuditKeys) -> None:
        """Check a seat's audit publication against its verifiers and earlier publications."""
        if (keys.rekey is None) != (self.source_slots is None):
            raise PassProblem("re-key key present for a fresh deal or missing for a re-shuffle")
        if len(keys.locks) != self.size:
            raise PassProblem(f"{len(keys.locks)} lock keys for {self.size} slots")
        for index, key in enumerate(keys.locks):
            published = self.published[index].get(seat)
            if published is not None and published != key:
                raise PassProblem(f"lock key for slot {self.first_slot + index} differs from the one published")

    def audit(self, old_lock_keys: dict[int, list[int]] | None) -> tuple[int, str, str] | None:
        """Check the deal with the published audit keys: every stage, then every sealed key.

        ``old_lock_keys[seat]`` are each seat's lock keys of the source slots (re-shuffles only).
        Returns ``None`` if all is consistent, else ``(seat, fault code, what was wrong)`` for the
        first bad item in log order: a pass (``"bad-pass"``), then a sealed key that was not the
        sender's real lock key (``"bad-key"``).

        Each stage is checked as a whole first — its last output must be its first input under
        the product of every holder's keys — which costs one pass instead of one per holder. Only
        if that fails are its passes checked one by one, to name the first wrong one. (A change
        that a later pass undoes leaves every card as the keys say, so it is not reported.)
        Verifiers are not re-checked here: a published key is compared with the audit key, and a
        sealed one with its commitment, which is what the verifiers are for.
        """
        for stage in self.stages:
            if self._stage_holds(stage, old_lock_keys):
                continue
            culprit = self._first_wrong_pass(stage, old_lock_keys)
            if culprit is not None:
                return culprit[0], "bad-pass", culprit[1]
        for index, sealed_keys in enumerate(self.sealed):
            for sealed in sealed_keys:
                key = self.audit_keys[sealed.sender].locks[index]
                if sealed_commitment(key.to_bytes(32, "big")) != sealed.commitment:
                    return sealed.sender, "bad-key", (
                        f"the key it sealed to seat {sealed.to} for slot {self.first_slot + index} "
                        "was not its real key"
                    )
        return None

    def _stage_holds(self, stage: str, old_lock_keys: dict[int, list[int]] | None) -> bool:
        """Whether the stage as a whole turned its input into its output under the audit keys."""
        inputs = self.input_of(stage, self.holders[0])
        outputs = self.passes[(stage, self.holders[-1])]
        keys = [self.audit_keys[seat] for seat in self.holders]
        try:
            if stage == "shuffle":
                total = combine_keys(*(key.shuffle for key in keys))
                return Counter(transform(inputs, total)) == Counter(outputs)
            scalars = [1] * len(inputs)
            for seat, key in zip(self.holders, keys):
                if stage == "rekey":
                    assert key.rekey is not None and old_lock_keys is not None
                    factors = rekey_scalars(old_lock_keys[seat], key.rekey)
                else:
                    factors = lock_scalars(combine_keys(key.shuffle, key.rekey or 1), key.locks)
                scalars = [combine_keys(a, b) for a, b in zip(scalars, factors)]
            return transform(inputs, scalars) == outputs
        except (CryptoError, ValueError, AssertionError):
            return False

    def _first_wrong_pass(self, stage: str, old_lock_keys: dict[int, list[int]] | None) -> tuple[int, str] | None:
        """Check the stage's passes one by one: ``(seat, what was wrong)`` for the first bad one."""
        for seat in self.holders:
            keys = self.audit_keys[seat]
            inputs = self.input_of(stage, seat)
            outputs = self.passes[(stage, seat)]
            try:
                if stage == "rekey":
                    assert keys.rekey is not None and old_lock_keys is not None
                    expected = rekey_pass(inputs, old_lock_keys[seat], keys.rekey)
                    bad = next((i for i, (a, b) in enumerate(zip(expected, outputs)) if a != b), None)
                elif stage == "shuffle":
                    bad = check_shuffle_pass(inputs, outputs, keys.shuffle)
                else:
                    strip = combine_keys(keys.shuffle, keys.rekey or 1)
                    bad = check_lock_pass(inputs, outputs, self.verifiers[seat], strip, list(keys.locks))
            except (CryptoError, ValueError) as error:
                return seat, f"its {stage} pass can't be checked with the keys it published ({error})"
            if bad is not None:
                return seat, (
                    f"its {stage} pass of deal {self.deal} does not match the keys it published "
                    f"(first wrong value at position {bad})"
                )
        return None

    def all_values(self) -> dict[int, str]:
        """Every slot's card, from the audit keys (call after a clean :meth:`audit`)."""
        values = {}
        for index in range(self.size):
            keys = [self.audit_keys[seat].locks[index] for seat in self.holders]
            values[self.first_slot + index] = self.table.name_of(unlock(self.locked[index], keys))
        return values


def bad_point(values: Sequence[bytes]) -> int | None:
    """The index of the first value that is not the x-coordinate of a P-256 point, or ``None``."""
    for index, value in enumerate(values):
        try:
            unlock(value, ())
        except BadCardValue:
            return index
    return None
