"""SPEC.md §B6–§B7, the card duties, followed from their text and held to real transcripts.

This is a small model written from the SPEC's words, not from the replica: sub-steps (runs of
deals, runs of reveals and disclosures, audits), the pass order of each deal, the sets U and K of
§B6.2 and who must publish or seal which key (and which of those keys ride with an act, §B5), and
who audits which deals. Replaying the session vectors' transcripts, every ``pass``, ``keys`` and
``audit`` submission, and every act's keys, must be exactly what the model says is owed, and every
sub-step must end with everything owed submitted.

Both decks: §C5's lock deck (protocol 10, §B6.1–§B6.2: stages of passes, lock keys escrowed before
a lock pass) and the ElGamal deck (protocol 11, §B6.3: one pass per holder, shares in place of
keys under the same U and K, the last holder's pass carrying its shares, no lock escrow).
"""

from __future__ import annotations

import itertools
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from p2pgames import LOCK_DECK_PROTOCOL, PROTOCOL_VERSION
from p2pgames.engine import Act, CardOperations, Disclose, NewDeal, Reshuffle, Reveal
from p2pgames.games import get_game
from p2pgames.session import iter_records
from p2pgames.session._messages import open_envelope
from p2pgames.session._replica import Replica, SeatInfo
from tests.spec.spec_text import SPEC_PATH

VECTORS = SPEC_PATH.parent / "vectors"
# The passes that put a holder's lock keys on the cards (§B6.1).
LOCKING = ("shuffle-lock", "lock")


@dataclass
class Deal:
    holders: tuple[int, ...]
    first: int
    size: int
    stages: tuple[str, ...]  # (at protocol 11: ("pass",), one per holder, §B6.3)
    done: int = 0  # passes made
    last_locks_apart: bool = False  # the form of version 9 and earlier (§B6.1)

    def due(self) -> tuple[str, int] | None:
        """§B6.1: each stage by its holders in increasing order, stage after stage: every holder
        re-keys; all but the last shuffle; the last shuffles and locks in one pass; all but the
        last lock. (Or, in the older form, every holder shuffles, then every holder locks.)"""
        *firsts, last = self.holders
        by_stage = {"rekey": self.holders, "shuffle": firsts, "shuffle-lock": [last], "lock": firsts,
                    "pass": self.holders}
        if self.last_locks_apart:
            by_stage.update(shuffle=self.holders, lock=self.holders)
            del by_stage["shuffle-lock"]
        order = [(stage, seat) for stage in self.stages if stage in by_stage for seat in by_stage[stage]]
        return order[self.done] if self.done < len(order) else None


@dataclass
class CardDuties:
    """What §B6 and §B7 say each seat owes, step by step."""

    players: int
    elgamal: bool = False  # protocol 11's deck (§B6.3)
    deals: dict[int, Deal] = field(default_factory=dict)
    unpublished: dict[int, set[int]] = field(default_factory=dict)  # U, by slot
    knows: dict[int, set[int]] = field(default_factory=dict)  # K, by slot
    subs: list[tuple[str, list]] = field(default_factory=list)  # the step's sub-steps still to do
    # The current sub-step's debts by seat: (slots to publish, (slot, seat to seal to) pairs) in a keys
    # sub-step, the deals to publish audit keys for in an audit.
    owed: dict = field(default_factory=dict)
    working: tuple[dict, dict] = field(default_factory=lambda: ({}, {}))  # U and K within a keys sub-step

    @property
    def idle(self) -> bool:
        return not self.subs

    def deal_of(self, slot: int) -> Deal:
        return next(d for d in self.deals.values() if d.first <= slot < d.first + d.size)

    def start(self, operations) -> None:
        """§B6: maximal runs of deals, maximal runs of reveals/disclosures, each audit alone."""
        for op in operations:
            kind = "deal" if isinstance(op, (NewDeal, Reshuffle)) else "keys" if isinstance(op, (Reveal, Disclose)) else "audit"
            if kind != "audit" and self.subs and self.subs[-1][0] == kind:
                self.subs[-1][1].append(op)
            else:
                self.subs.append((kind, [op]))
        self._begin()

    def _begin(self) -> None:
        while self.subs:
            kind, ops = self.subs[0]
            if kind == "deal":
                for op in ops:
                    holders = tuple(op.holders) or tuple(range(self.players))
                    size = len(op.cards) if isinstance(op, NewDeal) else len(op.source_slots)
                    if self.elgamal:  # §B6.3: one pass per holder, in increasing seat order
                        stages = ("pass",)
                    elif isinstance(op, NewDeal):
                        stages = ("shuffle", "shuffle-lock", "lock")
                    else:
                        stages = ("rekey", "shuffle", "shuffle-lock", "lock")
                    self.deals[op.deal] = Deal(holders, op.first_slot, size, stages)
                    for slot in range(op.first_slot, op.first_slot + size):
                        self.unpublished[slot], self.knows[slot] = set(holders), set()
                return
            if kind == "keys":
                self.owed = self._keys_owed(ops)
                if any(self.owed.values()):
                    return
                self._finish_keys(ops)
                continue
            (audit,) = ops
            self.owed = {
                seat: {d for d in audit.deals if seat in self.deals[d].holders}
                for seat in sorted({s for d in audit.deals for s in self.deals[d].holders})
            }
            return

    def _keys_owed(self, ops) -> dict[int, tuple[set[int], set[tuple[int, int]]]]:
        """§B6.2, word for word: go through the operations and their slots in order."""
        owed, self.working = self._owed(ops)
        return {seat: duty for seat, duty in owed.items() if duty[0] or duty[1]}

    def riding(self, seat: int, deal: Deal) -> set[int]:
        """§B6.1: the slots of ``deal`` whose keys ``seat``'s lock pass may carry — those it would
        publish in the keys sub-step right after the deals, over the deal's own slots (§B6.3: its
        shares, on the last holder's pass)."""
        if len(self.subs) < 2 or self.subs[1][0] != "keys":
            return set()
        return self._owed(_restricted(self.subs[1][1], range(deal.first, deal.first + deal.size)))[0][seat][0]

    def act_with_keys(self, seat: int, body: dict, operations) -> None:
        """§B5: an act that carries keys begins a card step (``operations``) whose first sub-step
        is a keys sub-step; what it carries is exactly what its author owes there of the slots
        only it knows and only it has not published, each kind (``public``, ``sealed``) absent
        or whole. Its public keys leave U before the sub-step begins; its seals are owed no more."""
        assert self.idle, "an act while a card step is under way"
        first = operations[0] if operations else None
        assert isinstance(first, (Reveal, Disclose)), "keys with an act that begins no keys sub-step"
        ops = list(itertools.takewhile(lambda op: isinstance(op, (Reveal, Disclose)), operations))
        alone = {slot for op in ops for slot in op.slots
                 if self.unpublished[slot] == {seat} and self.knows[slot] == {seat}}
        publish, seal = self._owed(_restricted(ops, alone))[0][seat]
        if "public" in body:
            assert publish and sorted(slot for slot, _ in body["public"]) == sorted(publish)
            self._proof_beside(body)
            for slot in publish:
                self.unpublished[slot].discard(seat)
        pairs = [(slot, to) for slot, to, _, _ in body.get("sealed", ())]
        if "sealed" in body:
            assert seal and sorted(pairs) == sorted(seal)
        self.start(operations)
        if pairs:
            assert self.subs and self.subs[0][0] == "keys" and seat in self.owed
            self.owed[seat][1].difference_update(pairs)
            if not any(self.owed[seat]):
                del self.owed[seat]
            if not self.owed:
                self._finish_keys(self.subs[0][1])

    def _owed(self, ops) -> tuple[dict[int, tuple[set[int], set[tuple[int, int]]]], tuple[dict, dict]]:
        owed = {seat: (set(), set()) for seat in range(self.players)}
        u = {slot: set(self.unpublished[slot]) for op in ops for slot in op.slots}
        k = {slot: set(self.knows[slot]) for op in ops for slot in op.slots}
        for op in ops:
            for slot in op.slots:
                if isinstance(op, Reveal):
                    for seat in u[slot]:
                        owed[seat][0].add(slot)
                    u[slot] = set()
                    continue
                if op.to in k[slot]:
                    continue
                if op.to in u[slot]:
                    for seat in u[slot] - {op.to}:
                        owed[seat][0].add(slot)
                    u[slot] = {op.to}
                else:
                    for seat in u[slot]:
                        owed[seat][1].add((slot, op.to))
                k[slot].add(op.to)
        for publish, seal in owed.values():  # a seal of a slot the same seat publishes is dropped
            seal -= {(slot, to) for slot, to in seal if slot in publish}
        return owed, (u, k)

    def _finish_keys(self, ops) -> None:
        u, k = self.working
        self.unpublished.update(u)
        self.knows.update(k)
        for op in ops:
            if isinstance(op, Reveal):
                for slot in op.slots:
                    self.knows[slot] = set(range(self.players))
        self._next()

    def _next(self) -> None:
        self.subs.pop(0)
        self._begin()

    def submitted(self, seat: int, body: dict) -> None:
        assert self.subs, f"a {body['t']} from seat {seat} while no card step is under way"
        kind, ops = self.subs[0]
        assert body["t"] == {"deal": "pass", "keys": "keys", "audit": "audit"}[kind], (kind, body["t"])
        if kind == "deal":
            deal = self.deals[body["deal"]]
            assert body["deal"] in [op.deal for op in ops]
            if self.elgamal:
                # §B6.3: the holders' passes in increasing seat order, each the deal's every card;
                # shares ride on the last holder's pass only.
                assert deal.due() == ("pass", seat) and set(body) <= {"t", "deal", "cards", "public", "proof"}
                assert len(body["cards"]) == deal.size and all(len(card) == 2 for card in body["cards"])
                may_carry = seat == deal.holders[-1]
            else:
                if deal.due() == ("shuffle-lock", seat) and body["stage"] == "shuffle":
                    deal.last_locks_apart = True  # (the older form, still valid)
                assert deal.due() == (body["stage"], seat)
                assert len(body["values"]) == deal.size
                assert len(body["verifiers"]) == (deal.size if body["stage"] in LOCKING else 0)
                may_carry = body["stage"] in LOCKING
            if "public" in body:  # §B6.1 (§B6.3): the keys (shares) it would publish just after, published now
                rides = self.riding(seat, deal)
                assert may_carry and rides and sorted(slot for slot, _ in body["public"]) == sorted(rides)
                self._proof_beside(body)
                for slot in rides:
                    self.unpublished[slot].discard(seat)
            deal.done += 1
            if all(self.deals[op.deal].due() is None for op in ops):
                self._next()
        elif kind == "keys":
            publish, seal = self.owed.pop(seat)
            assert sorted(slot for slot, _ in body["public"]) == sorted(publish)
            assert {(slot, to) for slot, to, _, _ in body["sealed"]} == seal
            assert len(body["sealed"]) == len(seal)
            if self.elgamal:
                self._proof_beside(body)
            if not self.owed:
                self._finish_keys(ops)
        elif self.elgamal:
            # §B6.3: for each listed deal it holds, its pass seed and its share of every slot.
            assert sorted(item[0] for item in body["keys"]) == sorted(self.owed.pop(seat))
            for deal, seed, shares, proof in body["keys"]:
                assert len(seed) == 32 and len(shares) == self.deals[deal].size and len(proof) == 64
            if not self.owed:
                self._next()
        else:
            assert sorted(item[0] for item in body["keys"]) == sorted(self.owed.pop(seat))
            for deal, rekey, shuffle, locks in body["keys"]:
                assert (rekey is None) == (self.deals[deal].stages[0] != "rekey")
                # (The last holder's shuffle-lock pass used no shuffle key.)
                assert (shuffle is None) == (seat == self.deals[deal].holders[-1] and not self.deals[deal].last_locks_apart)
                assert len(locks) == self.deals[deal].size
            if not self.owed:
                self._next()


    def _proof_beside(self, body: dict) -> None:
        """§B6.3 *Published shares*: one proof of all the shares published, nil where none are
        (protocol 10's keys have none)."""
        if self.elgamal:
            proof = body.get("proof")
            assert (proof is None) == (not body["public"]) and (proof is None or len(proof) == 64)
        else:
            assert "proof" not in body


def _restricted(ops, slots) -> list:
    """The reveals and disclosures ``ops`` over ``slots`` alone (§B6.1's and §B5's riding keys are
    what §B6.2 owes over some of a sub-step's slots)."""
    return [Reveal(tuple(s for s in op.slots if s in slots)) if isinstance(op, Reveal)
            else Disclose(tuple(s for s in op.slots if s in slots), op.to) for op in ops]


# Submissions a seat may make out of turn, in any phase but the end, card steps included (§B7
# disputes, §B14 consents and hand-overs, §B16 escrows and rebuilds).
OUT_OF_TURN = {"dispute", "open-seat", "hand-over", "escrow", "lock-escrow", "rebuild"}


def check_card_duties(transcript: bytes, loader) -> int:
    """Replay ``transcript``, checking each card submission against the model; how many there were."""
    records = list(iter_records(transcript))
    start = open_envelope(next(value for kind, value in records if kind == "start"))
    game = loader(start.body["ruleset"]["game"])
    ruleset = game.decode_ruleset(start.body["ruleset"])
    game = game.for_ruleset(ruleset)
    replica = Replica(game, ruleset, start.body["game_id"], [SeatInfo.decode(s) for s in start.body["seats"]], start.digest)
    # §A4: 6-item seat records are protocol 11's (the ElGamal deck), 4-item protocol 10's.
    elgamal = len(start.body["seats"][0]) == 6
    duties = CardDuties(ruleset.players, elgamal)
    if isinstance(replica.step, CardOperations):  # a game may deal before anything else
        duties.start(replica.step.operations)
    checked = 0
    escrowed: set[tuple[int, int]] = set()  # (seat, deal): lock keys escrowed (§B16)
    escrows = ruleset.open_seats and ruleset.players >= 3  # two players: no escrow (§C8)
    for kind, value in records:
        if kind != "entry":
            continue
        submission = open_envelope(open_envelope(value).body["submission"]).body
        body = submission["body"]
        if body["t"] in ("pass", "keys", "audit"):
            if escrows and body["t"] == "pass" and not elgamal and body["stage"] in LOCKING:
                # §B16: every lock key is escrowed before it locks a card.
                assert (submission["seat"], body["deal"]) in escrowed, "a lock pass before its lock escrow"
            duties.submitted(submission["seat"], body)
            checked += 1
        elif body["t"] == "act" and ("public" in body or "sealed" in body):
            # The step the act begins (its own entry may end it: read from the game, before it).
            step = game.step(game.apply(replica.state, Act(submission["seat"], game.decode_action(body["action"]))))
            assert isinstance(step, CardOperations), "keys with an act that begins no card step"
            duties.act_with_keys(submission["seat"], body, step.operations)
            checked += 1
        elif body["t"] in OUT_OF_TURN:
            assert not (elgamal and body["t"] == "lock-escrow"), "a lock escrow at protocol 11 (§B16.6)"
            if body["t"] == "lock-escrow":
                escrowed.add((submission["seat"], body["deal"]))
        else:
            assert duties.idle, f"a {body['t']} while the card step waits for {duties.subs[0][0]}"
        replica.apply_entry(value)
        if duties.idle and isinstance(replica.step, CardOperations):
            duties.start(replica.step.operations)
    assert duties.idle
    return checked


@pytest.mark.parametrize("version", ["", "-v10"])  # protocol 11's vectors and protocol 10's
@pytest.mark.parametrize("game", ["probe-3p", "beltpunk-2p", "steamcourt-3p", "steamcourt2015-3p"])
def test_every_card_submission_in_a_transcript_is_one_the_spec_says_is_owed(game, version):
    summary = json.loads((VECTORS / f"session-{game}{version}.json").read_text(encoding="utf-8"))
    assert check_card_duties((VECTORS / summary["file"]).read_bytes(), get_game) > 0


@pytest.mark.parametrize("protocol", [PROTOCOL_VERSION, LOCK_DECK_PROTOCOL])
def test_two_decks_held_by_two_groups_with_a_card_shown_to_a_seat_holding_no_key_of_it(protocol):
    # The session tests' two-deck game: seats 0-1 hold deck A and 2-3 deck B, dealt at once; seat 2
    # is shown a card of deck A (its holders seal their keys, at 11 their shares, to it); each deck
    # audited by its own.
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "session"))
    from switchboard import Switchboard
    from test_split_deals import SHOWN_TWICE, loader

    from p2pgames.bots import RandomBot

    board = Switchboard("twodecks", 4, seed=b"spec-split", loader=loader, bots=[RandomBot(b"")] * 4,
                        protocol=protocol)
    board.run()
    assert all(session.stage == "over" for session in board.sessions)
    assert check_card_duties(bytes(board.transcripts[1]), loader) > 0
    # The same, with that card shown to both seats of the other table in one step: sealed to each.
    def shown_twice(name):
        return SHOWN_TWICE if name == "shown-twice" else loader(name)

    board = Switchboard("shown-twice", 4, seed=b"spec-split", loader=shown_twice, bots=[RandomBot(b"")] * 4,
                        protocol=protocol)
    board.run()
    assert all(session.stage == "over" for session in board.sessions)
    assert check_card_duties(bytes(board.transcripts[1]), shown_twice) > 0
