"""The public cryptographic record of one deal, and the checks every peer makes on it.

A deal (``p2pgames.engine.NewDeal`` or ``Reshuffle``) goes through *passes*, one per seat per
stage, in seat order:

* ``rekey`` (re-shuffles only): seat *j* replaces its old lock on each source slot by one new
  key ``a_j``: ``out[i] = E(in[i], a_j · old_j[i]⁻¹)``, order unchanged;
* ``shuffle`` (every holder but the last): ``out = permute(E(in[i], r_j))``;
* ``shuffle-lock`` (the last holder): ``out[t] = E(in[π_j(t)], k_j[t] · a_j⁻¹)`` and
  ``verifier[t] = E(G0, k_j[t])`` — it permutes and locks in one pass, with no shuffle key
  (nobody permutes after it);
* ``lock`` (every holder but the last): ``out[i] = E(in[i], k_j[i] · (r_j · a_j)⁻¹)`` and
  ``verifier[i] = E(G0, k_j[i])`` (``a_j = 1`` for fresh deals).

Only the deal's *holders* make passes (every seat, unless the deal names some). After the last
lock pass, slot *i* is locked by every holder's key *i* and nobody knows its card. Keys are then
published, or sealed to each seat that must see the card (protocol/SPEC.md §B6.2). A published key
is checked against its verifier when the slot fails to decrypt (the check is public, so the
culprit is proved then); a sealed key by its recipient at once.
At the audit every holder publishes its ``a_j``, ``r_j`` (none from the last) and ``k_j[·]``; every pass is re-checked
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
    check_shuffle_lock_pass,
    check_shuffle_pass,
    combine_keys,
    lock_scalars,
    rekey_pass,
    rekey_scalars,
    sealed_commitment,
    transform,
    unlock,
)

__all__ = ["DealCrypto", "SeatAuditKeys", "PassProblem", "bad_point", "slot_books", "LOCKING_STAGES"]

STAGES_FRESH = ("shuffle", "shuffle-lock", "lock")
STAGES_RESHUFFLE = ("rekey", "shuffle", "shuffle-lock", "lock")
#: The stages whose pass puts a seat's lock keys on the cards: they carry verifiers, wait for the
#: seat's lock escrow (§B16) and may carry the keys that ride with them (§B6.1).
LOCKING_STAGES = ("shuffle-lock", "lock")


def slot_books(holders: tuple[int, ...], size: int) -> tuple[list, list, list, list, list]:
    """A new deal's books, one entry per slot, whatever its deck: what each holder published
    (and the signed message it came in), what was sealed to whom, which holders have not
    published (all, at first: §B6.2's U) and which seats know the card (none: K)."""
    return (
        [{} for _ in range(size)], [{} for _ in range(size)], [[] for _ in range(size)],
        [set(holders) for _ in range(size)], [set() for _ in range(size)],
    )


class PassProblem(Exception):
    """A pass, key or audit publication is inconsistent; the message says how."""


@dataclass(frozen=True, slots=True)
class SeatAuditKeys:
    """What one seat publishes at the audit for one deal."""

    rekey: int | None
    shuffle: int | None  # None from the last holder: its shuffle-lock pass uses no shuffle key
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
        self.published, self.published_in, self.sealed, self.unreleased, self.knows = slot_books(
            self.holders, len(self.inputs)
        )

    # -- passes --------------------------------------------------------------------------------

    @property
    def size(self) -> int:
        return len(self.inputs)

    @property
    def audited(self) -> bool:
        """Whether every holder's audit keys are in (the deal's audit is complete)."""
        return len(self.audit_keys) == len(self.holders)

    @property
    def stages(self) -> tuple[str, ...]:
        return STAGES_RESHUFFLE if self.source_slots is not None else STAGES_FRESH

    @property
    def last_locks_apart(self) -> bool:
        """Whether the deal takes the form of version 9 and earlier, which every peer still
        accepts (§B6.1): its last holder made a plain shuffle pass, so it locks after the others
        rather than in a shuffle-lock pass."""
        return ("shuffle", self.holders[-1]) in self.passes

    def stage_holders(self, stage: str) -> tuple[int, ...]:
        """The seats that make a pass of ``stage``, in order: every holder re-keys; the last
        holder shuffles and locks in one pass, the others shuffle, then lock (§B6.1) — or, in
        the older form, every holder shuffles, then every holder locks."""
        if stage == "rekey" or (self.last_locks_apart and stage != "shuffle-lock"):
            return self.holders
        if stage == "shuffle-lock":
            return () if self.last_locks_apart else self.holders[-1:]
        return self.holders[:-1]

    def locking_pass(self, seat: int) -> tuple[str, int]:
        """The pass with which holder ``seat`` puts its lock keys on the cards."""
        return ("shuffle-lock" if seat == self.holders[-1] and not self.last_locks_apart else "lock"), seat

    def next_pass(self) -> tuple[str, int] | None:
        """The ``(stage, seat)`` whose pass is due, or ``None`` once the deal is locked. (Where
        the last holder's shuffle-lock pass is due, its plain shuffle pass of the older form is
        too: :meth:`is_due`.)"""
        return next((due for due in self.pass_order() if due not in self.passes), None)

    def next_holder(self) -> int | None:
        """The holder whose pass is due, or ``None`` once the deal is locked."""
        due = self.next_pass()
        return None if due is None else due[1]

    def is_due(self, stage: str, seat: int) -> bool:
        """Whether pass ``(stage, seat)`` may come next."""
        due = self.next_pass()
        return (stage, seat) == due or (due == ("shuffle-lock", seat) and stage == "shuffle")

    def input_of(self, stage: str, seat: int) -> list[bytes]:
        """The values pass ``(stage, seat)`` starts from: the previous pass's output."""
        previous = self.previous_pass(stage, seat)
        return self.inputs if previous is None else self.passes[previous]

    def pass_order(self) -> list[tuple[str, int]]:
        """Every pass of the deal, as ``(stage, seat)``, in the order they are made."""
        return [(stage, seat) for stage in self.stages for seat in self.stage_holders(stage)]

    @property
    def locked(self) -> list[bytes]:
        """The final value of every slot (after the last lock pass)."""
        return self.passes[self.pass_order()[-1]]

    def check_pass(self, stage: str, seat: int, values: Sequence[bytes], verifiers: Sequence[bytes]) -> None:
        """Check a pass's shape; raises :class:`PassProblem`.

        Whether each value is a curve point is not checked here: whoever uses the values next
        (the next pass, a decryption, the audit) finds out, and :func:`bad_point` proves it.
        """
        if not self.is_due(stage, seat):
            raise PassProblem(f"a {stage} pass from seat {seat} is not due (next: {self.next_pass()})")
        if len(values) != self.size:
            raise PassProblem(f"{stage} pass has {len(values)} values for {self.size} slots")
        if stage in LOCKING_STAGES:
            if len(verifiers) != self.size:
                raise PassProblem(f"{stage} pass has {len(verifiers)} verifiers for {self.size} slots")
        elif verifiers:
            raise PassProblem(f"a {stage} pass carries no verifiers")
        if len(set(values)) != len(values):
            raise PassProblem(f"{stage} pass repeats a value")

    def record_pass(
        self, stage: str, seat: int, values: Sequence[bytes], verifiers: Sequence[bytes], message: bytes
    ) -> None:
        self.passes[(stage, seat)] = list(values)
        self.pass_messages[(stage, seat)] = message
        if stage in LOCKING_STAGES:
            self.verifiers[seat] = list(verifiers)

    def previous_pass(self, stage: str, seat: int) -> tuple[str, int] | None:
        """The pass whose output pass ``(stage, seat)`` takes as input (``None`` for the first)."""
        order = self.pass_order()
        if (stage, seat) not in order and self.is_due(stage, seat):
            stage = "shuffle-lock"  # the older form's shuffle pass, not made yet: where this one is due
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
        if (keys.shuffle is None) != (self.locking_pass(seat)[0] == "shuffle-lock"):
            raise PassProblem("shuffle key present from the last holder (it shuffles and locks in one pass, with "
                              "none) or missing from another")
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
            if not self.stage_holders(stage) or self._stage_holds(stage, old_lock_keys):
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
        holders = self.stage_holders(stage)
        if stage == "shuffle-lock":  # one pass: its own check
            return self._first_wrong_pass(stage, old_lock_keys) is None
        inputs = self.input_of(stage, holders[0])
        outputs = self.passes[(stage, holders[-1])]
        keys = [self.audit_keys[seat] for seat in holders]
        try:
            if stage == "shuffle":
                total = combine_keys(*(key.shuffle for key in keys))  # type: ignore[misc]
                return Counter(transform(inputs, total)) == Counter(outputs)
            scalars = [1] * len(inputs)
            for seat, key in zip(holders, keys):
                if stage == "rekey":
                    assert key.rekey is not None and old_lock_keys is not None
                    factors = rekey_scalars(old_lock_keys[seat], key.rekey)
                else:
                    factors = lock_scalars(combine_keys(key.shuffle, key.rekey or 1), key.locks)  # type: ignore[arg-type]
                scalars = [combine_keys(a, b) for a, b in zip(scalars, factors)]
            return transform(inputs, scalars) == outputs
        except (CryptoError, ValueError, AssertionError):
            return False

    def _first_wrong_pass(self, stage: str, old_lock_keys: dict[int, list[int]] | None) -> tuple[int, str] | None:
        """Check the stage's passes one by one: ``(seat, what was wrong)`` for the first bad one."""
        for seat in self.stage_holders(stage):
            keys = self.audit_keys[seat]
            inputs = self.input_of(stage, seat)
            outputs = self.passes[(stage, seat)]
            try:
                if stage == "rekey":
                    assert keys.rekey is not None and old_lock_keys is not None
                    expected = rekey_pass(inputs, old_lock_keys[seat], keys.rekey)
                    bad = next((i for i, (a, b) in enumerate(zip(expected, outputs)) if a != b), None)
                elif stage == "shuffle":
                    bad = check_shuffle_pass(inputs, outputs, keys.shuffle)  # type: ignore[arg-type]
                elif stage == "shuffle-lock":
                    bad = check_shuffle_lock_pass(inputs, outputs, self.verifiers[seat], keys.rekey or 1, list(keys.locks))
                else:
                    strip = combine_keys(keys.shuffle, keys.rekey or 1)  # type: ignore[arg-type]
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
