"""``scripts/bench``: the project's performance figures, each next to its floor and target.

These machines' speed drifts by 2× from hour to hour, so a figure in milliseconds says little on
its own. Each figure is printed next to its **floor** — the least work it can take, measured in the
same run on the same machine — and the **ratio** of the two, which is what the targets are about.
``--json`` prints one JSON object (every figure, floor and ratio) instead of the table; ``--quick``
takes fewer repetitions; ``--only`` runs some groups of figures.

Network figures run every peer as its own process on 127.0.0.1 (as players would), so bytes and
peak memory are per peer and the peers share the machine's cores as real ones would. Each figure is
a median over repetitions. The targets (issue 11), on the project's 2-core machines:

* **secret deal** (shuffle + lock + every hand readable by its player), 52 cards among 4 peers and
  84 among 6 (Steam Court): the deal's time in *passes*, one pass being one P-256 shuffle pass
  over the same cards (:func:`pass_time`: one point decompression and one scalar multiplication a
  card). Its floor is 2 passes a peer (a shuffle and a lock pass each, one after the other) plus
  decrypting one's own hand (hand/deck of a pass); target: the deal ≤ 2× its floor. Two tables of
  6 dealt at once ≤ 2× one table's deal. The end-of-quarter audit of 6 peers is shown in passes
  next to its floor of 2 (each stage re-checked as one pass), without a target. With
  ``--against COMMIT``, both deals as that commit's code deals them too, in the same rounds
  (the two taking turns to go first) and over the same floor: ``deal_before_ratio`` beside
  ``deal_ratio``, and this tree's deal over that one's, ``deal_over_before``; so too protocol
  11's deal, if that commit speaks it (``deal_p11_before_ratio``, ``deal_p11_over_before``).
* **deal constructions** (issue 28): the CPU on a deal's critical path, the cryptography alone,
  as protocol 10 deals (§C5) and as the ElGamal deck would (§C9), side by side in each round, for
  52 cards among 4 holders, 84 among 7 and 104 among 12, with the round trips each needs (no
  target: the figures for deciding to build it).
* **one event**, 4 peers in one process over loopback TCP: from its author sending it to every
  peer having applied it and seen every hash agree. Its floor is the signatures and checks it needs
  (SPEC §B3, §B8; :data:`SIGNATURES_PER_ENTRY`, :data:`CHECKS_PER_ENTRY`), all made in that one
  process; target: p50 ≤ 2.5× the floor, p99 ≤ 6×. The same with a process per peer is shown too.
  With ``--against COMMIT``, both as that commit's code plays them too, in the same rounds and
  over floors measured alike: ``event_before_p99_ratio`` beside ``event_p99_ratio``, and this
  tree's ratio over that one's, ``event_p99_over_before``.
* **the engine**: events per second of each game's random legal playout (with the playout bias a
  game needs to end), with games per second, next to the floor every networked event pays (one
  Ed25519 signature made and checked): Steam Torpedo's engine ≥ 3 events per signed event.
* **verify**: ``python -m p2pgames verify FILE`` as a user runs it (a new process, so start-up
  counts) on a host's transcript of a full game of bot peers, next to the Ed25519 checks of that
  transcript's signatures alone (measured in this process); target ≤ 2.5× for every game.
* the same for the Steam Torpedo transcript vector (a short game: mostly start-up, which is what
  loading only the rules saves), and with ``--against COMMIT`` the same command as that commit
  runs it, in the same rounds: old and new side by side.
* round trips (issue 28): a table of bot peers in one process, each joiner reaching its host
  through a delay proxy, played twice from the same seeds (no delay, then 25 ms each way): the
  round trips per log entry on the table's critical path, frames and bytes per entry, for Steam
  Court at 4, 7 and 12 players, Beltpunk at 4, Astonishing! at 3 and Steam Torpedo (no targets
  yet); and each game's first deal on its own, by deck (two at once at 12 players), a median over
  tables stopped once every seat can read its cards, beside the protocol's count for that deal in
  its log and the target h + 1 round trips for a deal of h holders (issue 28).
* full games of bot peers (Beltpunk, Steam Court, Steam Torpedo, Astonishing!): wall time, bytes
  sent per peer, peak memory per peer ≤ 80 MB.
* Astonishing!: a card taken at random from a rival's hand end to end with 4 peers, next to the
  floor of the cryptography it needs (≤ 3×, see :func:`bench_astonishing_take`); the bot against
  random legal play (≥ 75 % of 4-player games).
* Steam Torpedo: the search bot's positions per second and its median time per decision ≤ 2 s (a
  wait a person sees, so in seconds), next to a heuristic decision; the balance of the starter
  submarines (heuristic bots on both sides): first-player and faction win rates within 40–60 %.
* floods (issue 23): a real host in its own process, flooded over loopback for *N* seconds and
  then, by a new host, for 2*N* — by a seated peer's chat, a lobby player's chat, a seated peer
  that never reads — next to a host nobody attacks: the host's peak memory must not grow with
  the attack's length (2*N* / *N* ≤ 1.1), and stays within 20 MB of the idle host's (see
  :func:`bench_floods` for why).
* history (issue 26): ``history`` over 500 transcripts of whole games, next to reading those
  files' bytes (its floor); target ≤ 3×.
* succession (issue 25): a host leaving with a hand-over, 4-player Steam Court of bot peers over
  loopback: from its last entry to the successor's first, in milliseconds and in entries' time on
  the same table (no target yet: the first figure); and the host killed for good, the others
  taking the table over (grace period 1 s): from the crash to the successor's first entry (the
  take-over), in milliseconds, and from the last joiner's agreement, also in entries' time.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import msgpack
import trio

from p2pgames import LOCK_DECK_PROTOCOL, PROTOCOL_VERSION
from p2pgames.bots import PlayoutBot
from p2pgames.crypto import (
    CardTable, ClassicSRA, Identity, check_lock_key, elgamal, lock_pass, lock_verifiers, nothing_remembered,
    random_permutation, random_scalar, shuffle_lock_pass, shuffle_pass, unlock,
)
from p2pgames.engine import LocalTable
from p2pgames.games import get_game
from p2pgames.session import Envelope

MB = 1024 * 1024


# -- peers in processes ------------------------------------------------------------------------------


def run_peers(
    players: int, seed: str, stop_after: str, game: str = "beltpunk", timeout: float = 300,
    options: dict | None = None, transcript_dir: str | None = None, escrow: bool = True,
    tree: Path | None = None, protocol: int = PROTOCOL_VERSION,
) -> list[dict]:
    """Start a host and ``players - 1`` joiners, each its own process running ``tree``'s code
    (``None``: this tree's, see :func:`python_of`); return their reports (the host's transcript
    is written into ``transcript_dir`` if given). Without ``escrow`` the table plays no bot in a
    leaver's seat, so nobody escrows its keys (§B16)."""
    command = [sys.executable, "-m", "p2pgames.net._bench_peer"]
    environment, folder = python_of(tree)
    common = [
        "--game", game, "--players", str(players), "--seed", seed, "--stop-after", stop_after,
        "--options", json.dumps(options or {}), *([] if escrow else ["--no-bot-seats"]),
        *_protocol_option(protocol, tree),
    ]
    keep = ["--transcript-dir", transcript_dir] if transcript_dir is not None else []
    whose = "" if tree is None else f" (the code of {tree})"
    host = subprocess.Popen(command + ["host", "--seat", "0", *common, *keep], stdout=subprocess.PIPE, text=True,
                            env=environment, cwd=folder)
    assert host.stdout is not None
    first = host.stdout.readline()
    if not first.startswith("PORT "):
        host.kill()
        raise RuntimeError(f"benchmark host did not start{whose}: {first!r}")
    port = first.split()[1]
    joiners = [
        subprocess.Popen(command + ["join", "--seat", str(seat), "--port", port, *common], stdout=subprocess.PIPE, text=True,
                         env=environment, cwd=folder)
        for seat in range(1, players)
    ]
    reports = []
    for process in [host, *joiners]:
        try:
            out, _ = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            for other in [host, *joiners]:
                other.kill()
            raise RuntimeError(f"a benchmark peer of {game} did not finish in {timeout} s{whose}") from None
        line = next((line for line in out.splitlines() if line.startswith("REPORT ")), None)
        if line is None or process.returncode != 0:
            raise RuntimeError(f"benchmark peer failed (exit {process.returncode}){whose}")
        reports.append(_decoded_report(json.loads(line[len("REPORT "):])))
    for report in reports:
        if report["fault"]:
            raise RuntimeError(f"benchmark peer stopped: {report['fault']}")
    return reports


def _decoded_report(report: dict) -> dict:
    """A peer's report as it was before JSON made the keys of its tables of times strings."""
    for table in ("submitted", "agreed_at"):
        report[table] = {int(key): value for key, value in report[table].items()}
    return report


def python_of(tree: Path | None, environment: dict[str, str] | None = None) -> tuple[dict[str, str], Path]:
    """The environment (from ``environment``, else this process's) and the working directory in
    which ``python -m p2pgames…`` or ``python -c`` runs ``tree``'s code (``None``: this tree's,
    whatever the caller's directory): both put the working directory first on the path, and a
    tree's package goes first on ``PYTHONPATH`` too, whatever this environment installed. A
    tree's bytecode is kept (in the checkout, removed with it, unless the environment names a
    cache), so that its processes don't each compile it again, even where the environment turns
    caching off."""
    environment = dict(os.environ if environment is None else environment)
    if tree is None:
        return environment, _THIS_TREE
    environment["PYTHONPATH"] = str(tree)
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    return environment, tree


def _protocol_option(protocol: int, tree: Path | None) -> list[str]:
    """The bench peer's option asking ``tree``'s code for ``protocol``: none for a tree whose
    peer has no such option (one from before protocol 11, which speaks only the lock deck's)."""
    peer = (_THIS_TREE if tree is None else tree) / "p2pgames" / "net" / "_bench_peer.py"
    if "--protocol" in peer.read_text(encoding="utf-8"):
        return ["--protocol", str(protocol)]
    if protocol != LOCK_DECK_PROTOCOL:
        raise RuntimeError(f"the code of {tree} speaks only protocol {LOCK_DECK_PROTOCOL}, not {protocol}")
    return []


# The folder holding the package this module is in: the working directory of its subprocesses.
_THIS_TREE = Path(__file__).resolve().parents[1]


def deal_time(reports: list[dict]) -> float:
    """From the first shuffle pass to the moment the last peer holds (and can read) its hand."""
    start = min(r["deal_started_at"] for r in reports if r["deal_started_at"] is not None)
    end = max(r["hand_known_at"] for r in reports)
    return end - start


def audit_time(reports: list[dict]) -> float:
    """From the move that ends the deal to the moment the last peer has checked the audit."""
    start = min(r["act_submitted_at"] for r in reports if r["act_submitted_at"] is not None)
    return max(r["audit_done_at"] for r in reports) - start


def event_latencies(reports: list[dict]) -> list[float]:
    """For each move (an ``act`` entry): author's send → the last peer's agreement on it."""
    by_seat = {r["seat"]: r for r in reports}
    entries = reports[0]["entries"]
    latencies = []
    for seq, author, counter, kind in entries:
        if kind != "act":
            continue
        sent = by_seat[author]["submitted"].get(counter)
        agreed = [r["agreed_at"].get(seq) for r in reports]
        if sent is None or None in agreed:
            continue
        latencies.append(max(agreed) - sent)
    return latencies


def take_latencies(reports: list[dict], act_kind: str = "take-from") -> list[tuple[float, int, int]]:
    """For each ``act_kind`` move (Astonishing!'s card taken at random from a rival's hand): its
    author's send → the last peer's agreement on the entry after which the table waits for a
    person again (the chance drawn, the card's keys sealed to the taker), with how many entries
    that took and how many of them were ``keys`` submissions: ``(seconds, entries, keys)``."""
    by_seat = {r["seat"]: r for r in reports}
    entries = reports[0]["entries"]
    kinds = {seq: kind for seq, _, _, kind in entries}
    ready = sorted(reports[0]["decision_ready"])
    found = []
    for seq, author, counter, kind in entries:
        if kind != "act" or reports[0]["act_kinds"].get(seq) != act_kind:
            continue
        end = next((later for later in ready if later >= seq), None)
        sent = by_seat[author]["submitted"].get(counter)
        if end is None or sent is None:
            continue
        agreed = [r["agreed_at"].get(end) for r in reports]
        if None in agreed:
            continue
        keys = sum(1 for later in range(seq, end + 1) if kinds.get(later) == "keys")
        found.append((max(agreed) - sent, end - seq + 1, keys))
    return found


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


# -- figures -----------------------------------------------------------------------------------------


def pass_time(cards: int) -> float:
    """Seconds for one P-256 shuffle pass over ``cards`` cards: the deal's unit (median of 5)."""
    points = list(CardTable("p2pgames/bench", [f"card{n}" for n in range(cards)]).points)
    key = random_scalar()
    permutation = random_permutation(cards)
    return _median_time(lambda: shuffle_pass(points, key, permutation), 5)


def lock_time(cards: int) -> float:
    """Seconds for one P-256 lock pass over ``cards`` cards (median of 5): a key per slot, each
    stripping the shuffle key and locking, and each slot's verifier — about 2.4 shuffle passes,
    since every per-slot key costs the library a k·G besides its exchange (issue 28)."""
    points = list(CardTable("p2pgames/bench", [f"card{n}" for n in range(cards)]).points)
    shuffle_key = random_scalar()
    locks = [random_scalar() for _ in range(cards)]
    return _median_time(lambda: lock_pass(points, shuffle_key, locks), 5)


def _timed_deals(
    repeats: int, cards: int, run: Callable[[int, Path | None], list[dict]]
) -> tuple[dict[str, list[float]], list[float], list[float], int]:
    """``repeats`` rounds of deals (``run(n, tree)`` gives the peers' reports of deal *n* as
    ``tree``'s code plays it; ``None``: this tree's), each round's deals just after its units
    (:func:`pass_time`, :func:`lock_time`) were measured, so the machine's speed drifts little
    between them; with ``--against``, a deal as that commit plays it in each round too, the two
    taking turns to go first (:func:`trees_in_round`). Returns ``(each tree's deal times by its
    figures' infix, shuffle pass times, lock pass times, the largest hand)``."""
    deals: dict[str, list[float]] = {name: [] for name, _ in trees_in_round(0)}
    passes, locks, hand = [], [], 0
    for n in range(repeats):
        passes.append(pass_time(cards))
        locks.append(lock_time(cards))
        for name, tree in trees_in_round(n):
            reports = run(n, tree)
            deals[name].append(deal_time(reports))
            hand = max(hand, *(report["hand_size"] for report in reports))
    return deals, passes, locks, hand


def _deal_figures(
    prefix: str, deals: dict[str, list[float]], passes: list[float], locks: list[float], hand: int, cards: int,
    players: int,
) -> dict:
    """A deal's median time, in shuffle passes (each deal over the pass measured in its round),
    next to its floor: the passes one after the other — a shuffle pass by each peer but the last,
    whose pass shuffles and locks at once (protocol/SPEC.md §B6.1), and a lock pass by each — and
    decrypting one's own hand; a lock pass (and the last peer's, which costs as much: permuting
    is free) counted at what it costs, in shuffle passes measured beside it. The same floor for
    each tree's deals (``{prefix}_{infix}…``, see :func:`_timed_deals`), and with ``--against``
    this tree's deal over that commit's, round by round (``{prefix}_over_before``)."""
    lock_passes = statistics.median(lock / one_pass for lock, one_pass in zip(locks, passes))
    floor = (players - 1) + players * lock_passes + hand / cards
    figures = {
        f"{prefix}_pass_ms": statistics.median(passes) * 1000,
        f"{prefix}_lock_passes": lock_passes,
        f"{prefix}_floor_passes": floor,
    }
    for name, times in deals.items():
        in_passes = statistics.median(deal / one_pass for deal, one_pass in zip(times, passes))
        figures.update({
            f"{prefix}_{name}ms": statistics.median(times) * 1000,
            f"{prefix}_{name}passes": in_passes,
            f"{prefix}_{name}ratio": in_passes / floor,
        })
    if "before_" in deals:
        figures[f"{prefix}_over_before"] = over_rounds(deals[""], deals["before_"])
    return figures


def bench_deal(repeats: int) -> dict:
    """52 cards among 4 peers (Beltpunk's deal) with the lock deck (protocol 10, §C5), in passes
    next to its floor (with ``--against``, that commit's deal too); the same deal at a table with
    no escrow, next to it (what the escrow of every lock key costs, §B16); the deal protocol 11
    makes with the ElGamal deck, next to that deck's floor; and, for scale, one pass of classic
    2048-bit SRA over the same cards."""
    _require_bench_peer()
    bare: list[float] = []

    def deal(n: int, tree: Path | None) -> list[dict]:
        if tree is None:
            bare.append(deal_time(run_peers(4, f"deal-{n}", "deal", escrow=False, protocol=LOCK_DECK_PROTOCOL)))
        return run_peers(4, f"deal-{n}", "deal", tree=tree, protocol=LOCK_DECK_PROTOCOL)

    deals, passes, locks, hand = _timed_deals(repeats, 52, deal)
    figures = _deal_figures("deal", deals, passes, locks, hand, 52, 4)
    figures["deal_no_escrow_ms"] = statistics.median(bare) * 1000
    figures["escrow_per_deal_ratio"] = statistics.median(
        (deal - without) / without for deal, without in zip(deals[""], bare)
    )
    figures.update(_elgamal_deal_figures(repeats))
    classic = ClassicSRA.generate()
    messages = [int.from_bytes(p, "big") for p in CardTable("p2pgames/bench", [f"card{n}" for n in range(52)]).points]
    classic_time = _median_time(lambda: [classic.encrypt(m) for m in messages], 3)
    figures["classic_pass_ms"] = classic_time * 1000
    figures["classic_ratio"] = classic_time * 1000 / figures["deal_pass_ms"]
    return figures


def _elgamal_deal_figures(repeats: int) -> dict:
    """The same deal (52 cards, 4 peers in processes of their own) as protocol 11 makes it with
    the ElGamal deck, next to its floor in that deck's units, measured in the same round:
    :func:`elgamal_deal_path`, the four re-encryption passes one after another, one holder's
    shares and proofs of the others' hands, and one holder opening its hand. With ``--against``
    (a commit that speaks protocol 11), that commit's deal too, in the same rounds (the two
    taking turns to go first) and over the same floors."""
    trees = [(name, tree) for name, tree in trees_in_round(0) if tree is None or _speaks(PROTOCOL_VERSION, tree)]
    deals: dict[str, list[float]] = {name: [] for name, _ in trees}
    floors = []
    for n in range(repeats):
        floors.append(elgamal_deal_path(52, 4))
        for name, tree in (trees if n % 2 == 0 else trees[::-1]):
            deals[name].append(deal_time(run_peers(4, f"deal-{n}", "deal", tree=tree, protocol=PROTOCOL_VERSION)))
    return _elgamal_deal_ratios(deals, floors)


def _elgamal_deal_ratios(deals: dict[str, list[float]], floors: list[float]) -> dict:
    """:func:`_elgamal_deal_figures`'s figures from each tree's deal times (by infix, as
    :func:`trees_in_round` names them) and the floors timed in the same rounds."""
    figures = {"deal_p11_floor_ms": statistics.median(floors) * 1000}
    for name, times in deals.items():
        figures[f"deal_p11_{name}ms"] = statistics.median(times) * 1000
        figures[f"deal_p11_{name}ratio"] = statistics.median(deal / floor for deal, floor in zip(times, floors))
    if "before_" in deals:
        figures["deal_p11_over_before"] = over_rounds(deals[""], deals["before_"])
    return figures


def _speaks(protocol: int, tree: Path) -> bool:
    """Whether ``tree``'s benchmark peer can be asked for ``protocol`` (see :func:`_protocol_option`)."""
    try:
        _protocol_option(protocol, tree)
    except RuntimeError:
        return False
    return True


def bench_deal_table(repeats: int) -> dict:
    """Steam Court-sized deals (84 cards): 6 peers (with ``--against``, as that commit deals them
    too); two tables of 6 at once (each deal next to a deal of one table, for their ratio); the
    audit of 6 in passes."""
    _require_bench_peer()
    audits: list[float] = []
    twelve: list[float] = []

    def one_table(n: int, tree: Path | None) -> list[dict]:
        if tree is None:
            twelve.append(deal_time(
                run_peers(12, f"deal84x2-{n}", "game", game="dealbench", options={"cards": 84, "tables": 2},
                          protocol=LOCK_DECK_PROTOCOL)
            ))
        reports = run_peers(6, f"deal84-{n}", "game", game="dealbench", options={"cards": 84}, tree=tree,
                            protocol=LOCK_DECK_PROTOCOL)
        if tree is None:
            audits.append(audit_time(reports))
        return reports

    six, passes, locks, hand = _timed_deals(repeats, 84, one_table)
    figures = _deal_figures("deal84", six, passes, locks, hand, 84, 6)
    audit_passes = statistics.median(audit / one_pass for audit, one_pass in zip(audits, passes))
    figures.update({
        "deal84_two_tables_ms": statistics.median(twelve) * 1000,
        "deal84_two_tables_ratio": statistics.median(twelve) / statistics.median(six[""]),
        "audit84_ms": statistics.median(audits) * 1000,
        "audit84_passes": audit_passes,
        "audit84_floor_passes": 2.0,
        "audit84_ratio": audit_passes / 2,
    })
    return figures


#: The deals :func:`bench_deal_constructions` times: Beltpunk's deck among 4, Steam Court's among 7,
#: and a 12-seat table's.
DEAL_CONSTRUCTIONS = ((52, 4), (84, 7), (104, 12))


def today_deal_path(cards: int, holders: int) -> float:
    """Seconds of CPU on the critical path of a deal as protocol 10 makes it (§B6.1, §C5): a
    shuffle pass by each holder but the last, the last one's shuffle-lock pass and a lock pass by
    each other holder, one after another; then a holder checks the lock keys sealed to it for its
    hand (``cards / holders`` of them) against their verifiers and unlocks it."""
    points = list(CardTable("p2pgames/bench", [f"card{n}" for n in range(cards)]).points)
    order = list(range(cards))[::-1]
    locks = [[random_scalar() for _ in range(cards)] for _ in range(holders)]
    shuffle_keys = [random_scalar() for _ in range(holders - 1)]
    hand = cards // holders
    verifiers = [lock_verifiers(keys[:hand]) for keys in locks]
    began = time.perf_counter()
    values = points
    for key in shuffle_keys:
        values = shuffle_pass(values, key, order)
    values, _ = shuffle_lock_pass(values, 1, order, locks[-1])
    for key, keys in zip(shuffle_keys, locks):
        values, _ = lock_pass(values, key, keys)
    for slot in range(hand):
        for holder in range(holders - 1):
            assert check_lock_key(locks[holder][slot], verifiers[holder][slot])
        unlock(values[slot], [keys[slot] for keys in locks])
    return time.perf_counter() - began


def elgamal_deal_path(cards: int, holders: int) -> float:
    """Seconds of CPU on the critical path of the same deal by the ElGamal deck (SPEC §C9, as
    §B6.3 deals it): a re-encryption pass by each holder, one after another, each reading the
    deck it received first; then, all at once, each holder makes its decryption shares of every
    card of the other holders' hands under one batched proof; every peer checks each other
    holder's batch (§B6.3: every published share is checked before its entry is applied) and
    opens its hand."""
    points = [elgamal.card_point("p2pgames/bench", f"card{n}") for n in range(cards)]
    secrets = [elgamal.random_scalar() for _ in range(holders)]
    keys = [elgamal.public_key(secret) for secret in secrets]
    joint_key = elgamal.combine_public_keys(keys)
    order = list(range(cards))[::-1]
    hand = cards // holders
    began = time.perf_counter()
    deck = elgamal.open_deck(points)
    for _ in range(holders):
        scalars = [elgamal.random_scalar() for _ in range(cards)]
        deck = elgamal.reencryption_pass(elgamal.read_deck(deck), joint_key, order, scalars)
    passes = time.perf_counter() - began
    # One holder's round: its shares of the others' hands, one proof for them all.
    nonces = [card.nonce for card in deck[hand:hand * holders]]
    began = time.perf_counter()
    shares, proof = elgamal.proven_decryption_shares(secrets[0], nonces, b"bench")
    making = time.perf_counter() - began
    # A peer's checks: each other holder's batch (as big as the one made above), then its hand
    # opened with every other holder's share (the first's, as made above: any share costs the same).
    began = time.perf_counter()
    for _ in range(holders - 1):
        assert elgamal.check_decryption_shares(keys[0], nonces, shares, proof, b"bench")
    for slot in range(hand):
        elgamal.decrypt(deck[slot], [shares[0]] * holders)
    return passes + making + time.perf_counter() - began


def bench_deal_constructions(repeats: int) -> dict:
    """Issue 28: the CPU on a deal's critical path as protocol 10 deals (§C5) and as the ElGamal
    deck would (§C9), for each of :data:`DEAL_CONSTRUCTIONS`, the two taking turns in each round
    (the crypto alone, without the network: what the deck's construction costs), and the round
    trips each needs: ``2h − 3`` (shuffle passes, the shuffle-lock pass and lock passes, the
    host's own free) against ``h + 1`` (the passes, then one round of shares)."""
    figures: dict[str, Any] = {}
    for cards, holders in DEAL_CONSTRUCTIONS:
        today, new = [], []
        for round_number in range(repeats):
            first, second = (today, new) if round_number % 2 == 0 else (new, today)
            for times in (first, second):
                times.append((today_deal_path if times is today else elgamal_deal_path)(cards, holders))
        name = f"construction_{cards}_{holders}"
        figures[f"{name}_today_ms"] = statistics.median(today) * 1000
        figures[f"{name}_elgamal_ms"] = statistics.median(new) * 1000
        figures[f"{name}_ratio"] = statistics.median(n / t for n, t in zip(new, today))
        figures[f"{name}_today_round_trips"] = 2 * holders - 3
        figures[f"{name}_elgamal_round_trips"] = holders + 1
    return figures


def bench_games(repeats: int, game: str = "beltpunk", players: int = 4, prefix: str = "") -> dict:
    """Whole games of bot peers, every peer its own process; then ``verify`` on the host's
    transcript of the first (:func:`bench_verify`)."""
    walls, sent, memory, entries = [], [], [], []
    with tempfile.TemporaryDirectory(prefix="p2pgames-bench-") as folder:
        transcript = None
        for n in range(repeats):
            reports = run_peers(players, f"{game}-game-{n}", "game", game=game, transcript_dir=folder if n == 0 else None)
            walls.append(max(r["wall"] for r in reports))
            sent.extend(r["bytes_sent"] for r in reports)
            memory.extend(r["peak_memory"] for r in reports)
            entries.append(len(reports[0]["entries"]))
            transcript = transcript or reports[0]["transcript"]
        if transcript is None:
            raise RuntimeError(f"the benchmark host of {game} wrote no transcript")
        figures = bench_verify(Path(transcript), prefix, 3 if repeats < 3 else 5)
    figures.update({
        f"{prefix}game_wall_s": statistics.median(walls),
        f"{prefix}game_entries": statistics.median(entries),
        f"{prefix}bytes_sent_per_peer": statistics.median(sent),
        f"{prefix}peak_memory_per_peer_mb": max(memory) / MB,
    })
    return figures


# The one-way delay the round-trip figures put between a host and each joiner.
ROUND_TRIP_DELAY = 0.025
# The tables whose round trips are measured: (game, players, the bots' kind, the figures' prefix).
ROUND_TRIP_TABLES = (
    ("steamcourt", 4, None, "rt_court4_"),
    ("beltpunk", 4, None, "rt_belt4_"),
    ("astonishing", 3, None, "rt_ast3_"),
    ("torpedo", 2, "heuristic", "rt_torpedo2_"),
    ("steamcourt", 7, None, "rt_court7_"),
    ("steamcourt", 12, None, "rt_party12_"),
)


def bench_round_trips(quick: bool) -> dict:
    """Round trips and frames per log entry (issue 28): a whole table of bot peers in this process
    (no think time), every joiner reaching its host through a :class:`DelayProxy`, played twice
    from the same seeds — through the proxy with no delay, then with ``ROUND_TRIP_DELAY`` each
    way. The same seeds play the same game, or nearly: a seat's move carries its keys only when
    the log waits for it alone (§B5), so at a party of two boards, where that depends on how far
    the other board has got, when a seat moves can change an entry and the rest of the game with
    it. So each run's time is taken per entry: the second run is longer by 2·D for every round
    trip on the table's critical path, and (T(D)/entries(D) − T(0)/entries(0)) / 2·D counts them
    per entry, on any machine (the lobby and the goodbyes, a few round trips, are included); the
    whole game's figure is that times its entries. Beside it, the
    protocol's minimum and the physical one for that log (:func:`critical_round_trips`), per
    entry and for the whole game: a change that saves entries (keys riding with an act, §B5)
    saves round trips but raises the per-entry figures, so the game's total over its physical
    minimum is the figure that compares protocols. Frames
    per entry are every frame the proxy passed, both ways, over the entries, beside the bound
    3(N − 1) + 2; the transcript's bytes are seat 1's file.

    The game's first deal (games with one) is measured on its own, the same way, 3 times (5
    without ``quick``) from other seeds, each table stopped once every seat can read its cards
    (:func:`bench_first_deal`)."""
    from p2pgames.net import play_table_now
    from p2pgames.net._bench_peer import InstrumentedSession
    from p2pgames.net._players import table_session

    figures: dict[str, Any] = {}
    for game, players, kind, prefix in ROUND_TRIP_TABLES[: 1 if quick else None]:
        seed = f"round trips/{game}/{players}".encode()
        runs = []
        for delay in (0.0, ROUND_TRIP_DELAY):
            ruleset = get_game(game).ruleset(players)
            seated = [table_session(ruleset, seat, seed, kind=InstrumentedSession, protocol=_PROTOCOL)
                      for seat in range(players)]
            began = time.perf_counter()
            with tempfile.TemporaryDirectory(prefix="p2pgames-bench-") as folder:
                table = play_table_now(game, players, seed=seed, verify=False, bot_kinds=(kind,), delay=delay,
                                       sessions=seated, transcripts=Path(folder))
                wall = time.perf_counter() - began
                path = table.seats[1].transcript
                transcript_bytes = path.stat().st_size if path is not None and path.exists() else None
            runs.append((wall, table))
        (plain, unhurried), (delayed, table) = runs
        if not (unhurried.ok and table.ok):
            raise RuntimeError(f"the round-trip tables of {game} did not play their game to its end")
        up, down = table.relayed  # type: ignore[misc]
        protocol, physical = critical_round_trips(seated[1].role.entries)  # type: ignore[attr-defined]
        measured = (delayed / table.entries - plain / unhurried.entries) / (2 * ROUND_TRIP_DELAY) * table.entries
        figures.update({
            f"{prefix}entries": table.entries,
            f"{prefix}entries_without_delay": unhurried.entries,
            f"{prefix}round_trips": measured,
            f"{prefix}protocol_round_trips": protocol,
            f"{prefix}physical_round_trips": physical,
            f"{prefix}round_trips_over_physical": measured / physical if physical else None,
            f"{prefix}round_trips_per_entry": measured / table.entries,
            f"{prefix}protocol_round_trips_per_entry": protocol / table.entries,
            f"{prefix}physical_round_trips_per_entry": physical / table.entries,
            f"{prefix}frames_per_entry": (up.frames + down.frames) / table.entries,
            f"{prefix}frames_bound": 3 * (players - 1) + 2,
            f"{prefix}bytes_per_entry": (up.bytes + down.bytes) / table.entries,
        })
        if transcript_bytes is not None:
            figures[f"{prefix}transcript_bytes_per_entry"] = transcript_bytes / table.entries
            figures[f"{prefix}transcript_mb"] = transcript_bytes / MB
        if seated[1].deals_began:  # type: ignore[attr-defined]
            figures.update(bench_first_deal(game, players, kind, prefix, 3 if quick else 5))
    return figures


def bench_first_deal(game: str, players: int, kind: str | None, prefix: str, repeats: int) -> dict:
    """The round trips of a game's first deal (issue 28: ≤ h + 1 for a deal of h holders), by
    deck when several tables deal at once (``{prefix}first_deal_{deck}…``: ``""`` for the first,
    ``deck2_`` …), each the median of ``repeats``: a table of bot peers played through a delay
    proxy with no delay and then with ``ROUND_TRIP_DELAY``, from the same seed, each stopped once
    every seat can read the cards the first deal shows it (:func:`_first_deal`). A deal's span
    is the longest any of its holders waited from seeing it begin to reading its cards (so each
    holder's own clock, and the last entry's way down to it, is in), and (span(D) − span(0)) /
    2·D counts its round trips (the two runs taking turns to go first). Beside it, the
    protocol's count for that deal in the delayed run's log (:func:`deal_round_trips`), and the
    target h + 1.

    Every seat computes in this one process, so the work off the deal's path (each seat checking
    every pass, opening escrow boxes) runs one piece after another without delay, but partly in
    the waits the delay makes with it: the difference reads low by that part, which is much at
    a table of 12. The count is exact for the log played; the measured figure shows it holds on
    a real clock where the table computes little. Two decks dealt at once share their card step,
    whose keys come once both are locked: a deck's holders read their cards only then, so its
    measured span includes waiting for the other deck, which its count (its own entries) doesn't."""
    measured: dict[int, list[float]] = {}
    counted: dict[int, list[int]] = {}
    holders: dict[int, int] = {}
    for repeat in range(repeats):
        seed = f"round trips/{game}/{players}/first deal/{repeat}".encode()
        delays = (0.0, ROUND_TRIP_DELAY) if repeat % 2 == 0 else (ROUND_TRIP_DELAY, 0.0)
        runs = {delay: _first_deal(game, players, kind, seed, delay) for delay in delays}
        (plain, _), (delayed, entries) = runs[0.0], runs[ROUND_TRIP_DELAY]
        for without, span in zip(plain, delayed, strict=True):
            measured.setdefault(span.deal, []).append((span.seconds - without.seconds) / (2 * ROUND_TRIP_DELAY))
            counted.setdefault(span.deal, []).append(deal_round_trips(entries, span.deal, span.begins, span.ends))
            holders[span.deal] = len(span.holders)
    figures: dict[str, Any] = {}
    for number, deal in enumerate(sorted(measured)):
        deck = f"deck{number + 1}_" if number else ""
        figures.update({
            f"{prefix}first_deal_{deck}round_trips": statistics.median(measured[deal]),
            f"{prefix}first_deal_{deck}protocol_round_trips": statistics.median(counted[deal]),
            f"{prefix}first_deal_{deck}target_round_trips": holders[deal] + 1,
            f"{prefix}first_deal_{deck}holders": holders[deal],
        })
    figures[f"{prefix}first_deals_measured"] = repeats
    return figures


def critical_round_trips(entries: Sequence[bytes]) -> tuple[int, int]:
    """The round trips a log's order forces, as ``(protocol, physical)``, from its entries alone.

    Each submission was made once its author had applied ``based_on`` entries, so it can't be
    sequenced before entry ``based_on − 1`` reached its author and the submission came back: one
    round trip after that entry for a joiner's, none for the host's own (it sequences at once);
    and no entry before the one ahead of it. The longest such chain is the protocol's minimum for
    this log. The physical minimum counts along the same chains only the moves a person makes (an
    ``act`` by a joiner): one round trip each between two peers, with every card operation, key,
    acknowledgement and random contribution free — what any protocol must spend at the least."""
    if not entries:
        return 0, 0
    submissions = _submissions(entries)
    protocol = _chains(submissions, lambda joiner, submitted: joiner)
    physical = _chains(submissions, lambda joiner, submitted: joiner and submitted["body"].get("t") == "act")
    return protocol[-1], physical[-1]


def deal_round_trips(entries: Sequence[bytes], deal: int, begins: int, ends: int) -> int:
    """The round trips the protocol's order forces on deal ``deal``, from the log alone: from
    entry ``begins`` (the one after which its card step began: nothing before it counts) to
    entry ``ends`` (the one after which the last of its holders could read the cards it shows
    them), counted as :func:`critical_round_trips` counts, over the deal's own entries: every
    submission of its holders (the seats that made its passes), for each of them submits one at
    a time. Another table's deck dealt at the same time, by other seats, is not on its path."""
    submissions = _submissions(entries[: ends + 1])
    holders = {
        submitted["seat"] for _, submitted in submissions
        if submitted["body"].get("t") == "pass" and submitted["body"].get("deal") == deal
    }
    return _chains(submissions, lambda joiner, submitted: joiner,
                   origin=begins, on_path=lambda submitted: submitted["seat"] in holders)[ends]


def _submissions(entries: Sequence[bytes]) -> list[tuple[bool, dict]]:
    """Each entry's submission: whether a joiner made it (not the host that sequenced it), and
    its signed fields (``seat``, ``based_on``, ``body``…)."""
    from p2pgames.session import open_envelope

    found = []
    for raw in entries:
        entry = open_envelope(raw)
        submission = open_envelope(entry.body["submission"])
        found.append((submission.sender != entry.sender, submission.body))
    return found


def _chains(
    submissions: Sequence[tuple[bool, dict]], cost: Callable[[bool, dict], int], origin: int = -1,
    on_path: Callable[[dict], bool] = lambda submitted: True,
) -> list[int]:
    """For each entry of a log (its :func:`_submissions`), the longest chain of round trips
    that ends there, from entry ``origin`` (−1: the start): a submission ``on_path`` is
    sequenced ``cost(joiner, submission)`` round trips after the entry it was based on, and not
    before the path's entry ahead of it; an entry off the path, or up to ``origin``, adds none."""
    reached: list[int] = []
    for seq, (joiner, submitted) in enumerate(submissions):
        longest = reached[-1] if reached and seq > origin else 0
        if seq > origin and on_path(submitted):
            after = submitted["based_on"] - 1
            longest = max(longest, (reached[after] if after >= 0 else 0) + cost(joiner, submitted))
        reached.append(longest)
    return reached


@dataclass(frozen=True)
class DealSpan:
    """One deal of a game's first card step (one table's deck, when several deal at once), as
    a table played it: the entries after which it began and after which the last of its holders
    could read what it shows them, and the longest a holder waited between the two — from
    applying the first to reading the cards — in seconds."""

    deal: int
    holders: tuple[int, ...]
    begins: int
    ends: int
    seconds: float


def first_deal_spans(seated: Sequence[Any]) -> list[DealSpan]:
    """The first deals of a table of :class:`~p2pgames.net._bench_peer.InstrumentedSession`s,
    from what each seat noted (its ``deals_began``, ``deals_read``, ``deal_holders``): a deal
    that shows nobody a card has no span."""
    spans = []
    for deal, holders in sorted(seated[0].deal_holders.items()):
        readers = [session for session in seated if deal in session.deals_read]
        if not readers:
            continue
        spans.append(DealSpan(
            deal, holders, seated[0].deals_began[deal][0], max(session.deals_read[deal][0] for session in readers),
            max(session.deals_read[deal][1] - session.deals_began[deal][1] for session in readers),
        ))
    return spans


def _first_deal(game: str, players: int, kind: str | None, seed: bytes, delay: float) -> tuple[list[DealSpan], list[bytes]]:
    """A table of bot peers in this process (:func:`bench_round_trips`'s), played through a
    delay proxy until every seat can read what the game's first deals show it, then stopped —
    every node cancelled, nothing written: its spans, and the log as seat 1 holds it."""
    from p2pgames.net._bench_peer import InstrumentedSession
    from p2pgames.net._players import play_table, table_session

    async def main() -> list[InstrumentedSession]:
        ruleset = get_game(game).ruleset(players)
        seated = [table_session(ruleset, seat, seed, kind=InstrumentedSession, protocol=_PROTOCOL)
                  for seat in range(players)]
        async with trio.open_nursery() as nursery:
            nursery.start_soon(functools.partial(
                play_table, game, players, seed=seed, verify=False, bot_kinds=(kind,), delay=delay, sessions=seated,
            ))
            # (the deal's times are noted by the seats as they read; this only ends the table)
            while not all(session.first_deals_read for session in seated):
                if all(session.finished for session in seated):
                    raise RuntimeError(f"the table of {game} ended before every seat could read its first deal")
                await trio.sleep(0.01)
            nursery.cancel_scope.cancel()
        return seated

    seated = trio.run(main)
    return first_deal_spans(seated), list(seated[1].role.entries)  # type: ignore[attr-defined]


def bench_verify(path: Path, prefix: str, repeats: int) -> dict:
    """``python -m p2pgames verify FILE`` as a user runs it (start-up included), next to the
    Ed25519 checks of the file's signatures alone (:func:`signature_checks`), timed here. With
    ``--against COMMIT``, the same command of that commit's tree too, in the same rounds
    (``{prefix}verify_before_*``, and this tree's time over that one's, ``{prefix}verify_over_before``):
    a change's speed-up is measured side by side.

    An installed package keeps its compiled bytecode, so the command runs with a bytecode cache
    (filled by one untimed run first) even where the environment turns caching off, as these
    machines do (``PYTHONDONTWRITEBYTECODE``): otherwise every run would time compiling the
    source. Each round times the command and then the floor, and the ratio is the median of the
    rounds' ratios, so the machine's drift cancels."""
    checks = signature_checks(path.read_bytes())
    times: dict[str, list[float]] = {name: [] for name, _ in trees_in_round(0)}
    floors, bare = [], []
    with tempfile.TemporaryDirectory() as cache:
        environment = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        environment["PYTHONPYCACHEPREFIX"] = cache
        listed = Path(cache) / "signatures.msgpack"
        listed.write_bytes(msgpack.packb([[key.public_bytes_raw(), signature, message] for key, signature, message in checks]))
        bare_command = [sys.executable, "-c", _BARE_VERIFIER, str(listed)]
        for round_number in range(repeats + 1):
            for name, tree in trees_in_round(round_number):
                elapsed = _time_verify(path, tree, environment)
                if round_number:  # (round 0 warms up: it fills the bytecode cache)
                    times[name].append(elapsed)
            began = time.perf_counter()
            subprocess.run(bare_command, check=True, env=environment)
            bare_elapsed = time.perf_counter() - began
            if round_number == 0:
                continue
            bare.append(bare_elapsed)
            floors.append(_median_time(lambda: [key.verify(signature, message) for key, signature, message in checks], 3))
    figures = {
        f"{prefix}verify_floor_ms": statistics.median(floors) * 1000,
        f"{prefix}verify_signatures": len(checks),
        f"{prefix}verify_bare_ms": statistics.median(bare) * 1000,
        f"{prefix}verify_bare_ratio": statistics.median(b / f for b, f in zip(bare, floors)),
    }
    for name, measured in times.items():
        figures[f"{prefix}verify_{name}ms"] = statistics.median(measured) * 1000
        figures[f"{prefix}verify_{name}ratio"] = statistics.median(t / f for t, f in zip(measured, floors))
    if "before_" in times:
        figures[f"{prefix}verify_over_before"] = over_rounds(times[""], times["before_"])
    return figures


def _time_verify(path: Path, tree: Path | None, environment: dict[str, str]) -> float:
    """Seconds ``python -m p2pgames verify path`` takes, as this tree's or ``tree``'s code."""
    environment, folder = python_of(tree, environment)
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "p2pgames", "verify", str(path)], capture_output=True, text=True,
                          env=environment, cwd=folder)
    elapsed = time.perf_counter() - began
    if done.returncode != 0:
        raise RuntimeError(f"verify failed on a benchmark transcript (exit {done.returncode}): {done.stdout}{done.stderr}")
    return elapsed


class CannotCompare(ValueError):
    """The commit given to ``--against`` can't be measured: git can't check it out, or its tree
    lacks what a benchmark runs of it. The message says which, for the user."""


@dataclass(frozen=True)
class Against:
    """The commit given to ``--against`` and its checkout, measured beside this tree."""

    commit: str
    tree: Path


# The commit given to ``--against`` while main runs (None: none given): bench_verify,
# bench_deal, bench_deal_table and bench_events measure its tree's code beside this tree's.
_AGAINST: Against | None = None
# The protocol the round-trip tables speak (``--protocol``): this version's unless asked.
_PROTOCOL = PROTOCOL_VERSION


def trees_in_round(round_number: int) -> list[tuple[str, Path | None]]:
    """The code a round of a benchmark measures, as ``(its figures' infix, its tree)``: this
    tree's (``""``, ``None``) and, with ``--against``, that commit's (``"before_"``, its
    checkout) — the two taking turns to go first, round by round, so that the machine's drift
    within a round favours neither."""
    trees: list[tuple[str, Path | None]] = [("", None)]
    if _AGAINST is not None:
        trees.append(("before_", _AGAINST.tree))
    return trees if round_number % 2 == 0 else trees[::-1]


def over_rounds(new: Sequence[float], old: Sequence[float]) -> float:
    """This tree's time over the ``--against`` commit's, as the median of the rounds' ratios
    (each round timed both, :func:`trees_in_round`): below 1, this tree is faster."""
    return statistics.median(n / o for n, o in zip(new, old))


@functools.cache
def _require_bench_peer_of(tree: Path) -> None:
    """Raises :class:`CannotCompare` unless ``tree``'s benchmark peer can play what the deal and
    event figures ask of it (``python -m p2pgames.net._bench_peer`` with ``--stop-after deal``,
    ``game`` and ``paced``, the ``dealbench`` game, ``paced_table_in_one_process``)."""
    environment, folder = python_of(tree)
    done = subprocess.run([sys.executable, "-c", _BENCH_PEER_PROBE], capture_output=True, text=True,
                          env=environment, cwd=folder)
    if done.returncode != 0 or done.stdout.strip():
        lacking = done.stdout.strip() or " ".join(done.stderr.strip().splitlines()[-1:])
        raise CannotCompare(f"the tree of {_AGAINST.commit if _AGAINST else tree} can't be benchmarked "
                            f"beside this one: {lacking}")


def _require_bench_peer() -> None:
    """:func:`_require_bench_peer_of` the ``--against`` commit's tree, if one is given."""
    if _AGAINST is not None:
        _require_bench_peer_of(_AGAINST.tree)


# What the deal and event figures run of an older tree, checked there before they start: prints
# what it lacks (nothing when it has everything).
_BENCH_PEER_PROBE = """
import contextlib, io, inspect
lacking = []
try:
    from p2pgames.net import _bench_peer
except ImportError as error:
    print(f"no benchmark peer (p2pgames.net._bench_peer: {error})")
    raise SystemExit
shown = io.StringIO()
with contextlib.redirect_stdout(shown), contextlib.suppress(SystemExit):
    _bench_peer.main(["--help"])
for needed in ("--stop-after", "deal,game,paced", "--options", "--seat", "--port"):
    if needed not in shown.getvalue().replace(" ", ""):
        lacking.append(f"no {needed} in its benchmark peer's options")
paced = getattr(_bench_peer, "paced_table_in_one_process", None)
if paced is None or "seed" not in inspect.signature(paced).parameters:
    lacking.append("no paced_table_in_one_process(seed) in p2pgames.net._bench_peer")
from p2pgames.games import get_game
try:
    get_game("dealbench")
except Exception as error:
    lacking.append(f"no dealbench game ({error})")
print("; ".join(lacking))
"""


@contextlib.contextmanager
def checked_out(commit: str) -> Iterator[Path]:
    """A temporary checkout of ``commit`` of this repository (a git worktree, removed after).
    Raises :class:`CannotCompare` (a ``ValueError``) naming the commit when git can't check it out."""
    repository = _THIS_TREE
    with tempfile.TemporaryDirectory() as parent:
        tree = Path(parent) / "tree"
        done = subprocess.run(["git", "-C", str(repository), "worktree", "add", "--detach", str(tree), commit],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise CannotCompare(f"can't check out {commit!r}: {done.stderr.strip()}")
        try:
            yield tree
        finally:
            subprocess.run(["git", "-C", str(repository), "worktree", "remove", "--force", str(tree)], capture_output=True)


def bench_verify_vector(repeats: int, game: str = "torpedo") -> dict:
    """``verify`` of ``game``'s whole-game transcript vector (``protocol/vectors``), against its
    floor: a short transcript, so mostly start-up (what the rules load)."""
    vectors = Path(__file__).resolve().parents[1] / "protocol" / "vectors"
    (path,) = sorted(vectors.glob(f"session-{game}-*p.p2pt"))
    return bench_verify(path, f"vector_{game}_", repeats)


# The least a verifier written in Python can take, shown next to ``p2pgames verify`` for scale: a
# new process that loads msgpack and cryptography's Ed25519, reads the signed bytes and checks them.
_BARE_VERIFIER = """
import sys, msgpack
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
keys = {}
for raw, signature, message in msgpack.unpackb(open(sys.argv[1], "rb").read()):
    key = keys.get(raw) or keys.setdefault(raw, Ed25519PublicKey.from_public_bytes(raw))
    key.verify(signature, message)
"""


def signature_checks(data: bytes) -> list[tuple[Any, bytes, bytes]]:
    """Every signature a verifier checks in transcript ``data``, as ``(loaded Ed25519 key,
    signature, signed bytes)``: the start, each accept, each entry and the submission inside it,
    each acknowledgement, chat, leave and fault message. Assumes an honest transcript."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    from p2pgames.crypto._identity import _signing_input
    from p2pgames.session import SeatInfo, iter_records, open_envelope
    from p2pgames.session._acks import acks_of_record
    from p2pgames.session._messages import SIGNATURE_DOMAIN

    keys: dict[bytes, Any] = {}
    checks = []

    def add(raw: bytes) -> Envelope:
        envelope = open_envelope(raw)
        message = _signing_input(SIGNATURE_DOMAIN, [envelope.kind, envelope.sender, envelope.body])
        checks.append((keys[envelope.sender], envelope.signature, message))
        return envelope

    logged: list[tuple[bytes, bytes]] = []  # each entry's digest and state field
    for kind, value in iter_records(data):
        if kind == "start":
            start = open_envelope(value)
            seats = [SeatInfo.decode(item) for item in start.body["seats"]]
            keys = {seat.key.raw: Ed25519PublicKey.from_public_bytes(seat.key.raw) for seat in seats}
            add(value)
        elif kind == "entry":
            entry = add(value)
            add(entry.body["submission"])
            logged.append((entry.digest, entry.body["state"]))
        elif kind in ("accept", "ack", "chat", "leave", "fault-message"):
            add(value)
        elif kind == "acks":
            in_log = lambda seq: logged[seq] if seq < len(logged) else None  # noqa: E731
            for _, ack in acks_of_record(value, start.body["game_id"], list(keys), in_log):
                add(ack.raw)
    return checks


def flood_host(kind: str | None, seconds: float) -> dict:
    """A host (``p2pgames.net._bench_flood``) in its own process, attacked by ``kind`` (``None``:
    nobody) from this one for ``seconds``: its report (peak memory, transcript, what it showed),
    with the attack's own figures under ``"attack"``."""
    from p2pgames.net._bench_flood import SEATS, attack

    with tempfile.TemporaryDirectory(prefix="p2pgames-flood-") as folder:
        command = [
            sys.executable, "-m", "p2pgames.net._bench_flood", "--players", str(SEATS.get(kind, 2)),
            "--transcript-dir", folder,
        ]
        host = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert host.stdin is not None and host.stdout is not None
        try:
            first = host.stdout.readline()
            if not first.startswith("PORT "):
                raise RuntimeError(f"flood benchmark host did not start: {first!r}")
            stats = attack(kind, int(first.split()[1]), seconds) if kind is not None else time.sleep(seconds)
            out, _ = host.communicate(timeout=60)  # closes its standard input: it reports
        finally:
            host.kill()
            host.wait()
    line = next((line for line in out.splitlines() if line.startswith("REPORT ")), None)
    if line is None or host.returncode != 0:
        raise RuntimeError(f"flood benchmark host failed (exit {host.returncode})")
    return {**json.loads(line[len("REPORT "):]), "attack": stats}


#: The attacks measured, as ``(attack, prefix of their figures)``.
FLOODS = (("seated-chat", "flood_seated_"), ("lobby-chat", "flood_lobby_"), ("never-reads", "flood_unread_"))


def bench_floods(seconds: int) -> dict:
    """Each flood for ``seconds`` and for twice as long, each on a new host process: its peak
    memory, next to a host nobody attacks for as long.

    Why bounded: chat past a seat's limits (§B10) is neither relayed, kept nor recorded — at most
    2000 lines and 256 KB of text a seat a game (about 1 MB kept); a seat far past the rate (100
    lines dropped) is hung up on, and each time it comes back only the lines its bucket has
    refilled are taken; a lobby player is turned away and keeps nothing when it comes back with a
    new key. A connection's send queue holds 8 MiB at most
    (``NetSettings.max_queued_bytes``): a peer that never reads is closed there, and its
    catch-up on coming back is sent from the log the host keeps anyway, never queued. So a host
    under attack holds at most 8 MiB of frames more than one nobody attacks, however long the
    attack lasts: about 12 MB of Python objects when they are the smallest (pongs), whence the
    target of 20 MB over the idle host."""
    idle = flood_host(None, seconds)
    figures: dict[str, Any] = {"flood_seconds": seconds, "flood_idle_mb": idle["peak_memory"] / MB}
    for kind, prefix in FLOODS:
        short, long = flood_host(kind, seconds), flood_host(kind, 2 * seconds)
        figures.update({
            f"{prefix}mb": short["peak_memory"] / MB,
            f"{prefix}long_mb": long["peak_memory"] / MB,
            f"{prefix}ratio": long["peak_memory"] / short["peak_memory"],
            f"{prefix}over_idle_mb": (long["peak_memory"] - idle["peak_memory"]) / MB,
            f"{prefix}transcript_bytes": long["transcript_bytes"],
            f"{prefix}sent": long["attack"]["lines"] + long["attack"]["pings"],
            f"{prefix}closed": long["attack"]["closed"],
        })
    return figures


def bench_events(repeats: int) -> dict:
    """One move at a time on an idle table: author's send → every peer applied it and agreed.

    Measured twice: with the 4 peers in one process (over real loopback TCP), which is the
    protocol's own latency and the figure held to the target, next to its floor
    (:func:`entry_floor`: every signature and check the entry needs, made in that one process);
    and with each peer in its own process, which on a 2-core machine mostly measures the
    scheduler: 4 processes share 2 cores, and each frame wakes a peer that preempts the sender.
    The one-process table is a process of its own too (:func:`paced_table_in_a_process`), this
    benchmark's waiting aside. Each event's ratio is over the floor measured just before its
    game, so the machine's drift cancels. With ``--against COMMIT``, each round plays the same
    games with that commit's code as well (``event_before_*``, ``event_processes_before_*``,
    the two trees taking turns to go first), over floors measured alike, and this tree's ratio
    over that one's (``event_p50_over_before``…).
    """
    _require_bench_peer()
    # The two ways of playing, by their figures' prefix: (seed, tree) -> the peers' reports.
    kinds = {"event": paced_table_in_a_process, "event_processes": lambda seed, tree: run_peers(4, seed, "paced", tree=tree)}
    latencies: dict[str, list[float]] = {f"{kind}_{name}": [] for kind in kinds for name, _ in trees_in_round(0)}
    over_floor: dict[str, list[float]] = {key: [] for key in latencies}
    floors = []
    for n in range(repeats):
        for name, tree in trees_in_round(n):
            for kind, play in kinds.items():
                floors.append(entry_floor())  # next to each game: the machine's speed drifts
                measured = event_latencies(play(f"events-{n}", tree))
                latencies[f"{kind}_{name}"].extend(measured)
                over_floor[f"{kind}_{name}"].extend(latency / floors[-1] for latency in measured)
    return _event_figures(latencies, over_floor, floors)


def _event_figures(latencies: dict[str, list[float]], over_floor: dict[str, list[float]], floors: list[float]) -> dict:
    """The event figures from each way of playing's latencies (keyed by its figures' prefix:
    ``event_``, ``event_before_``, ``event_processes_``…) and the same over the floor measured
    next to each: p50 and p99 of each, and where that commit's were measured
    (``{kind}_before_``), this tree's ratios over them (``{kind}_{p50,p99}_over_before``)."""
    figures: dict[str, Any] = {
        "event_floor_ms": statistics.median(floors) * 1000,
        "events_measured": sum(len(measured) for measured in latencies.values()),
    }
    for key in latencies:
        for rank, fraction in (("p50", 0.5), ("p99", 0.99)):
            figures[f"{key}{rank}_ms"] = percentile(latencies[key], fraction) * 1000
            figures[f"{key}{rank}_ratio"] = percentile(over_floor[key], fraction)
    for key in latencies:
        kind = key.removesuffix("before_")
        for rank in ("p50", "p99") if kind != key else ():
            figures[f"{kind}{rank}_over_before"] = figures[f"{kind}{rank}_ratio"] / figures[f"{key}{rank}_ratio"]
    return figures


def paced_table_in_a_process(seed: str, tree: Path | None = None) -> list[dict]:
    """The reports of ``paced_table_in_one_process(seed)`` (every peer in one process, each move
    on an idle table) played in a new process with ``tree``'s code (``None``: this tree's)."""
    environment, folder = python_of(tree)
    done = subprocess.run([sys.executable, "-c", _PACED_TABLE, seed], capture_output=True, text=True,
                          env=environment, cwd=folder, timeout=600)
    line = next((line for line in done.stdout.splitlines() if line.startswith("REPORTS ")), None)
    if done.returncode != 0 or line is None:
        whose = "" if tree is None else f" (the code of {tree})"
        raise RuntimeError(f"the paced table failed (exit {done.returncode}){whose}: {done.stderr.strip()[-2000:]}")
    return [_decoded_report(report) for report in json.loads(line[len("REPORTS "):])]


# Plays paced_table_in_one_process in the tree it runs in, and prints its reports as JSON.
_PACED_TABLE = """
import contextlib, json, sys
from p2pgames.net._bench_peer import paced_table_in_one_process
try:  # peers in one process, timed as if each were in its own (see _report)
    from p2pgames.crypto import nothing_remembered
except ImportError:  # a tree from before the memos could be turned off: its one memo, by hand
    from p2pgames.crypto import _identity
    if hasattr(_identity, "_remember_verified"):
        _identity._remember_verified = lambda key: None
    nothing_remembered = contextlib.nullcontext
with nothing_remembered():
    print("REPORTS " + json.dumps(paced_table_in_one_process(sys.argv[1])))
"""


def bench_succession(repeats: int) -> dict:
    """A host leaving with a hand-over (protocol/SPEC.md §B15), 4-player Steam Court of bot peers
    in one process over loopback: from the entry that hands the table over (the old host's last)
    to the first entry the successor sequences — the others hang up, dial it, rejoin and are
    gathered — in seconds, and in entries' worth of time: over the median time an entry took on
    the same table just before (each entry being about one round trip at bot speed)."""
    took, entries = [], []
    for number in range(repeats):
        seconds, interval = trio.run(_succession_once, number)
        took.append(seconds)
        entries.append(seconds / interval)
    return {
        "succession_ms": statistics.median(took) * 1000,
        "succession_entries": statistics.median(entries),
        "successions_measured": repeats,
    }


async def _succession_once(number: int) -> tuple[float, float]:
    from p2pgames.bots import bot_for
    from p2pgames.crypto import Identity
    from p2pgames.net import LOOPBACK, JoinCode, drive_bot, host_table, join_table

    game = get_game("steamcourt")
    async with trio.open_nursery() as nursery:
        host = await host_table(
            nursery, identity=Identity.generate(), name="host", ruleset=game.ruleset(4), bind=LOOPBACK,
            announce_on_lan=False,
        )
        _, port = host.address  # type: ignore[misc]
        joiners = [
            await join_table(nursery, identity=Identity.generate(), name=f"j{seat}", code=JoinCode(LOOPBACK, port, None))
            for seat in (1, 2, 3)
        ]
        for seat, node in enumerate([host, *joiners]):
            nursery.start_soon(drive_bot, node, bot_for(game, b"succession-%d-%d" % (number, seat)))
        session = host.session
        await host.wait_until(lambda: session.replica is not None and session.replica.seq >= 20)
        began, first = trio.current_time(), session.replica.seq  # type: ignore[union-attr]
        await host.wait_until(lambda: session.replica.seq >= first + 20)  # type: ignore[union-attr]
        interval = (trio.current_time() - began) / (session.replica.seq - first)  # type: ignore[union-attr]
        await host.wait_until(lambda: session.replica.hand_over_problem(0) is None and session.successor() is not None)  # type: ignore[union-attr]
        host.hand_over()
        await host.wait_until(lambda: 0 in session.replica.open_seats)  # type: ignore[union-attr]
        handed, entry = trio.current_time(), session.replica.open_seats[0]  # type: ignore[union-attr]
        successor = joiners[0].session
        await joiners[0].wait_until(lambda: successor.replica.seq >= entry + 2)  # type: ignore[union-attr]
        seconds = trio.current_time() - handed
        nursery.cancel_scope.cancel()
    return seconds, interval


#: The grace period of the take-over measured: each joiner agrees to play on this long after
#: its host vanished (the product's default is 3 minutes; a person may agree at once).
TAKE_OVER_GRACE = 1.0


def bench_take_over(repeats: int) -> dict:
    """The host killed for good (protocol/SPEC.md §B15, a take-over), 4-player Steam Court of bot
    peers in one process over loopback, each joiner agreeing to play on after a grace period of
    :data:`TAKE_OVER_GRACE`: from the crash (the host's connections drop, as the system closes a
    killed process's sockets) to the successor's first entry — the take-over, signed by it after
    the others dialled it, rejoined, were gathered and consented. In seconds; and from the moment
    the last joiner agreed to play on (its grace period over, checked once a second), in seconds
    and in entries' worth of time on the same table just before (about a round trip each)."""
    took, after_agreement, entries = [], [], []
    for number in range(repeats):
        seconds, agreed, interval = trio.run(_take_over_once, number)
        took.append(seconds)
        after_agreement.append(seconds - agreed)
        entries.append((seconds - agreed) / interval)
    return {
        "take_over_ms": statistics.median(took) * 1000,
        "take_over_after_agreement_ms": statistics.median(after_agreement) * 1000,
        "take_over_entries": statistics.median(entries),
        "take_overs_measured": repeats,
    }


async def _take_over_once(number: int) -> tuple[float, float, float]:
    from p2pgames.bots import bot_for
    from p2pgames.crypto import Identity
    from p2pgames.net import LOOPBACK, JoinCode, NetSettings, drive_bot, host_table, join_table

    game = get_game("steamcourt")
    settings = NetSettings(away_grace=TAKE_OVER_GRACE)
    async with trio.open_nursery() as nursery:
        host_scope = trio.CancelScope()
        host_ready = trio.Event()
        nodes: list = []

        async def run_host() -> None:
            with host_scope:
                async with trio.open_nursery() as host_nursery:
                    nodes.append(await host_table(
                        host_nursery, identity=Identity.generate(), name="host", ruleset=game.ruleset(4), bind=LOOPBACK,
                        announce_on_lan=False,
                    ))
                    host_ready.set()
                    await trio.sleep_forever()

        nursery.start_soon(run_host)
        await host_ready.wait()
        host = nodes[0]
        _, port = host.address  # type: ignore[misc]
        joiners = [
            await join_table(nursery, identity=Identity.generate(), name=f"j{seat}", code=JoinCode(LOOPBACK, port, None),
                             settings=settings)
            for seat in (1, 2, 3)
        ]
        for seat, node in enumerate([host, *joiners]):
            nursery.start_soon(functools.partial(
                drive_bot, node, bot_for(game, b"take-over-%d-%d" % (number, seat)), if_away="bot"))
        session = host.session
        await host.wait_until(lambda: session.replica is not None and session.replica.seq >= 20)
        began, first = trio.current_time(), session.replica.seq  # type: ignore[union-attr]
        await host.wait_until(lambda: session.replica.seq >= first + 20)  # type: ignore[union-attr]
        interval = (trio.current_time() - began) / (session.replica.seq - first)  # type: ignore[union-attr]
        host_scope.cancel()  # the crash
        crashed = trio.current_time()
        agreed = 0.0
        for joiner in joiners:
            await joiner.wait_until(lambda: joiner.session.taking_over)  # noqa: B023 - awaited at once
            agreed = max(agreed, trio.current_time() - crashed)
        successor = joiners[0].session
        await joiners[0].wait_until(lambda: successor.replica.sequencer == successor.seat)  # type: ignore[union-attr]
        seconds = trio.current_time() - crashed
        nursery.cancel_scope.cancel()
    return seconds, agreed, interval


def bench_engine(seconds: float, game_name: str = "beltpunk", players: int = 4, prefix: str = "") -> dict:
    """Random legal play (the game's playout policy) on the engine alone, no checks, no copies."""
    game = get_game(game_name)
    ruleset = game.ruleset(players)
    rates = []
    played = events = 0
    for batch in range(5):
        count = 0
        began = time.perf_counter()
        while time.perf_counter() - began < seconds / 5:
            events += _random_game(game, ruleset, f"{batch}-{count}".encode())
            count += 1
        rates.append(count / (time.perf_counter() - began))
        played += count
    return {
        f"{prefix}engine_games_per_s": statistics.median(rates),
        f"{prefix}engine_games": played,
        f"{prefix}engine_events_per_game": events / played,
    }


def _random_game(game: Any, ruleset: Any, seed: bytes) -> int:
    """One game of random legal play, unchecked; returns its number of events."""
    table = LocalTable(game, ruleset, seed, check=False)
    bot = PlayoutBot(seed)
    table.play_with([bot] * ruleset.players)
    return len(table.log)


#: The engines measured, as ``(game, players, prefix of their figures)``.
ENGINES = (("beltpunk", 4, ""), ("steamcourt", 6, "court_"), ("torpedo", 2, "torpedo_"), ("astonishing", 4, "ast_"))


def bench_engines(seconds: float) -> dict:
    """Each game's engine alone (random legal play): games and events per second, next to the
    floor every event on the network pays (one Ed25519 signature made and checked) as a ratio:
    engine events per event signed and checked."""
    signature = _signed_and_checked_time()
    figures: dict[str, Any] = {"signed_events_per_s": 1 / signature}
    for game, players, prefix in ENGINES:
        found = bench_engine(seconds, game, players, prefix)
        events_per_s = found[f"{prefix}engine_games_per_s"] * found[f"{prefix}engine_events_per_game"]
        found[f"{prefix}engine_events_per_s"] = events_per_s
        found[f"{prefix}engine_ratio"] = events_per_s * signature
        figures.update(found)
    return figures


def _signed_and_checked_time() -> float:
    """Seconds to make one Ed25519 signature over a small body and check it."""
    return _sign_time() + _check_time()


def _small_body() -> dict:
    return {"kind": "ack", "seq": 1234, "entry": bytes(32), "state": bytes(32), "game_id": bytes(16)}


def _sign_time() -> float:
    """Seconds to sign a small body (an acknowledgement's size) as the protocol does: its
    canonical encoding and one Ed25519 signature."""
    identity, body = Identity.generate(), _small_body()
    return _median_time(lambda: [identity.sign("p2pgames/bench", body) for _ in range(200)], 5) / 200


def _check_time() -> float:
    """Seconds to check one signature over a small body as the protocol does."""
    identity, body = Identity.generate(), _small_body()
    public_key, signature = identity.public_key, identity.sign("p2pgames/bench", body)
    return _median_time(lambda: [public_key.verify("p2pgames/bench", body, signature) for _ in range(200)], 5) / 200


# What one log entry needs among 4 peers (SPEC §B3, §B8), with a joiner as its author (3 moves in
# 4 at a table of 4; the host's own need one check fewer, its submission being its own):
# signatures — the author's submission, the host's entry, and an acknowledgement by each of the 3
# joiners (the host's is the entry's state field): 5; checks — the host checks the submission, each
# joiner the host's signature on the entry, and the host each acknowledgement before relaying it:
# 7. The joiners check the submission inside an entry and the relayed acknowledgements lazily (§B8:
# the latest of each seat every 64 entries), which is not per entry and not counted.
SIGNATURES_PER_ENTRY, CHECKS_PER_ENTRY = 5, 7


def entry_floor() -> float:
    """Seconds for the signatures and checks one entry needs (see :data:`CHECKS_PER_ENTRY`)."""
    return SIGNATURES_PER_ENTRY * _sign_time() + CHECKS_PER_ENTRY * _check_time()


def bench_astonishing_take(repeats: int) -> dict:
    """A card taken at random from a rival's hand, end to end with 4 peers on loopback (in one
    process, each move when the table is idle, as the "one event" figure): from the Queen's
    player sending the move to every peer agreeing on the entry after which the table waits for
    a person again. Next to it, the floor of the cryptography those entries need, measured in
    the same run: the signatures and checks of each entry (:func:`entry_floor`), a key sealed and
    opened for each ``keys`` entry, and one card unlocked."""
    from p2pgames.crypto import SealKey, open_sealed, seal
    from p2pgames.net._bench_peer import paced_table_in_one_process

    entry = entry_floor()
    recipient = SealKey.generate()
    seal_and_open = _median_time(
        lambda: [open_sealed(recipient, seal(recipient.public_bytes(), bytes(32), b"bench"), b"bench") for _ in range(50)], 5
    ) / 50
    point = CardTable("p2pgames/bench", ["card"]).points[0]
    key = random_scalar()
    locked = shuffle_pass([point], key, [0])[0]
    unlock_time = _median_time(lambda: [unlock(locked, [key]) for _ in range(50)], 5) / 50
    times, floors = [], []
    for n in range(repeats):
        for seconds, entries, keys in take_latencies(paced_table_in_one_process(f"take-{n}", 4, "astonishing")):
            times.append(seconds)
            floors.append(entries * entry + keys * seal_and_open + unlock_time)
    if not times:
        raise RuntimeError("no card was taken at random in the benchmark games")
    return {
        "ast_take_ms": statistics.median(times) * 1000,
        "ast_take_floor_ms": statistics.median(floors) * 1000,
        "ast_take_ratio": statistics.median(t / f for t, f in zip(times, floors)),
        "ast_takes_measured": len(times),
    }


def bench_astonishing_strength(games: int) -> dict:
    """The Astonishing! bot against random legal play: one bot and three random players (each
    uniform over its legal actions), the bot's seat going round; a shared win counts its share."""
    from p2pgames.bots import RandomBot
    from p2pgames.games.astonishing.bots import make_bot

    game = get_game("astonishing")
    ruleset = game.ruleset(4)
    won = 0.0
    for number in range(games):
        seat = number % 4
        bots: list[Any] = [RandomBot(f"ast-random-{number}-{other}".encode()) for other in range(4)]
        bots[seat] = make_bot(f"ast-bot-{number}".encode())
        table = LocalTable(game, ruleset, f"ast-strength-{number}".encode(), check=False)
        table.play_with(bots)
        winners = game.step(table.state).winners
        if seat in winners:
            won += 1 / len(winners)
    return {"ast_bot_wins_pct": 100 * won / games, "ast_strength_games": games}


def bench_torpedo_search(games: int) -> dict:
    """The search bot's speed, in games of the starter submarines against the heuristic bot."""
    result = torpedo_strength(games)
    return {
        "torpedo_search_positions_per_s": result.positions / sum(result.times),
        "torpedo_search_decision_ms": statistics.median(result.times) * 1000,
        "torpedo_search_decision_max_ms": max(result.times) * 1000,
        "torpedo_heuristic_decision_ms": statistics.median(result.heuristic_times) * 1000,
        "torpedo_search_decisions": len(result.times),
        "torpedo_search_wins": result.wins,
    }


def bench_torpedo_balance(games: int) -> dict:
    """The starter submarines' balance, heuristic bots on both sides, in percent of decided games."""
    result = torpedo_balance(games)
    decided = max(1, result.games - result.draws)
    return {
        "torpedo_balance_games": games,
        "torpedo_first_player_wins_pct": 100 * result.first_wins / decided,
        "torpedo_first_faction_wins_pct": 100 * result.faction_wins[0] / decided,
        "torpedo_draws": result.draws,
        "torpedo_turns_per_game": result.turns / games,
    }


# -- Steam Torpedo's measurements, shared with scripts/measure_torpedo.py ------------------------------


def _seed_of(number: int) -> bytes:
    return number.to_bytes(4, "big")


def _play_starters(bots: list[Any], seed: bytes) -> LocalTable:
    """One starter game between ``bots`` (by seat), played to the end unchecked (the bots only
    choose legal moves)."""
    game = get_game("torpedo")
    table = LocalTable(game, game.ruleset(2, {"build": "starter"}), seed, check=False)
    table.play_with(bots)
    return table


def _ending(state: Any) -> str:
    """How the game ended: the loser's reasons ("draw: …" when both lost at once)."""
    from p2pgames.games.torpedo.effects import loss_reasons

    reasons = sorted({reason for seat in state.losers for reason in loss_reasons(state, seat)})
    prefix = "draw: " if len(state.losers) == 2 else ""
    return prefix + " and ".join(reasons)


@dataclass
class TorpedoBalance:
    games: int = 0
    draws: int = 0
    first_wins: int = 0  # games won by the first player
    faction_wins: list[int] = field(default_factory=lambda: [0, 0])  # by seat = faction
    # [faction][0 first, 1 second] -> (games, wins)
    cases: list[list[list[int]]] = field(default_factory=lambda: [[[0, 0], [0, 0]], [[0, 0], [0, 0]]])
    turns: int = 0
    endings: dict[str, int] = field(default_factory=dict)


def torpedo_balance(games: int) -> TorpedoBalance:
    """``games`` Steam Torpedo starter games, heuristic bot against heuristic bot (game *n* from
    seed *n*)."""
    from p2pgames.games.torpedo.bots import HeuristicBot

    result = TorpedoBalance()
    for number in range(games):
        seed = _seed_of(number)
        table = _play_starters([HeuristicBot(seed + bytes([seat])) for seat in range(2)], seed)
        state = table.state
        result.games += 1
        result.turns += state.turn
        how = _ending(state)
        result.endings[how] = result.endings.get(how, 0) + 1
        winner = state.winner
        for seat in range(2):
            case = result.cases[seat][0 if seat == state.first else 1]
            case[0] += 1
            case[1] += winner == seat
        if winner is None:
            result.draws += 1
            continue
        result.first_wins += winner == state.first
        result.faction_wins[winner] += 1
    return result


class TimedBot:
    """Wraps a bot to time each of its decisions (the clock stays out of the bots)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.times: list[float] = []

    def choose(self, game: Any, state: Any, player: int, knowledge: Any, step: Any) -> Any:
        start = time.perf_counter()
        action = self.bot.choose(game, state, player, knowledge, step)
        self.times.append(time.perf_counter() - start)
        return action


@dataclass
class TorpedoStrength:
    games: int = 0
    wins: int = 0
    draws: int = 0
    wins_by_seat: list[int] = field(default_factory=lambda: [0, 0])
    turns: int = 0
    times: list[float] = field(default_factory=list)  # the search bot's, per decision
    heuristic_times: list[float] = field(default_factory=list)  # its opponent's: the floor
    positions: int = 0
    width: int = 0
    horizon: int = 0


def torpedo_strength(games: int, progress: bool = False) -> TorpedoStrength:
    """``games`` starter games, the search bot (default budget) against the heuristic bot, seats
    alternated: its time per decision is measured around each ``choose``."""
    from p2pgames.games.torpedo.bots import HeuristicBot, SearchBot

    result = TorpedoStrength()
    for number in range(games):
        seed = _seed_of(number)
        seat = number % 2
        search = SearchBot(seed + bytes([seat]))
        result.width, result.horizon = search.width, search.horizon
        timed = TimedBot(search)
        heuristic = TimedBot(HeuristicBot(seed + bytes([1 - seat])))
        bots: list[Any] = [heuristic] * 2
        bots[seat] = timed
        table = _play_starters(bots, seed)
        state = table.state
        result.games += 1
        result.turns += state.turn
        result.times.extend(timed.times)
        result.heuristic_times.extend(heuristic.times)
        result.positions += search.positions
        if state.winner is None:
            result.draws += 1
        elif state.winner == seat:
            result.wins += 1
            result.wins_by_seat[seat] += 1
        if progress:
            print(
                f"  game {number}: search bot as player {seat}, "
                f"{'won' if state.winner == seat else 'draw' if state.winner is None else 'lost'} "
                f"in {state.turn} turns, {sum(timed.times):.1f} s deciding",
                file=sys.stderr,
                flush=True,
            )
    return result


# How a Steam Torpedo game was lost, by the loser's reasons (effects.loss_reasons).
TORPEDO_LOSSES = {
    "its control room destroyed": "control room destroyed",
    "all its crew eliminated": "all crew lost",
    "no oxygen left": "out of oxygen",
}
TORPEDO_SETTINGS = {  # name: (build option, bot kind of each seat)
    "heuristic-starter": ("starter", ("heuristic", "heuristic")),
    "heuristic-custom": ("custom", ("heuristic", "heuristic")),
    "search-starter": ("starter", ("search", "search")),
    "search-vs-heuristic": ("starter", ("search", "heuristic")),  # seats alternate by game
}


@dataclass
class TorpedoGame:
    """One traced Steam Torpedo game: who won and how, and what each tile did. A tile is
    ``(seat, name)``; its *harm* is what its effects did to the enemy: an attack's damage total (after
    armour, however the defender then placed or absorbed it), each oxygen token an oxygen attack
    took (the fallback token too), each crew member a crew attack or a repel eliminated."""

    seed: int
    build: str
    bots: tuple[str, str]  # the bot kind by seat
    first: int
    winner: int | None
    turns: int
    losses: tuple[str, ...]  # the loser's ways of losing (both seats' for a draw)
    tiles: tuple[tuple[str, ...], tuple[str, ...]]  # by seat, by position
    harm: dict[tuple[int, str], int] = field(default_factory=dict)
    activations: dict[tuple[int, str], int] = field(default_factory=dict)  # triggers and reactions
    reactions: int = 0

    def control(self, tile: tuple[int, str]) -> bool:
        from p2pgames.games.torpedo.tiles import TILESET

        return TILESET.tiles[tile[1]].is_control


class _TracedTable(LocalTable):
    """A table that reads each event's notes: which tile's effect is resolving, and what it did."""

    def __init__(self, *args: Any, traced: TorpedoGame, **kwargs: Any) -> None:
        self.traced = traced
        self.source: tuple[int, str] | None = None
        super().__init__(*args, **kwargs)

    def feed(self, event: Any) -> None:
        super().feed(event)
        state, game = self.state, self.traced
        for note in state.notes:
            kind = note[0]
            if kind in ("trigger", "react"):
                seat, position = note[1], note[2]
                self.source = (seat, state.tiles[seat][position])
                game.activations[self.source] = game.activations.get(self.source, 0) + 1
                game.reactions += kind == "react"
            elif self.source is None:
                continue
            elif kind == "attack" and note[2] == "attack":
                self._harm(note[6])
            elif kind == "drain":
                self._harm(note[3])
            elif kind == "scavenge" or (kind == "eliminated" and note[2] in ("crew-attack", "repel")):
                self._harm(1)

    def _harm(self, amount: int) -> None:
        assert self.source is not None
        self.traced.harm[self.source] = self.traced.harm.get(self.source, 0) + amount


def torpedo_game(number: int, build: str, kinds: Sequence[str], search_budget: dict[str, int] | None = None) -> TorpedoGame:
    """Game *number* (seed *number*) of Steam Torpedo with ``build`` and the bot ``kinds`` by seat
    (``heuristic`` or ``search``, the search bot with ``search_budget``'s fields), traced."""
    from p2pgames.games.torpedo.bots import HeuristicBot, SearchBot
    from p2pgames.games.torpedo.effects import loss_reasons

    seed = _seed_of(number)
    bots = [
        SearchBot(seed + bytes([seat]), **(search_budget or {})) if kind == "search" else HeuristicBot(seed + bytes([seat]))
        for seat, kind in enumerate(kinds)
    ]
    game = get_game("torpedo")
    traced = TorpedoGame(number, build, (kinds[0], kinds[1]), -1, None, 0, (), ((), ()))
    table = _TracedTable(game, game.ruleset(2, {"build": build}), seed, check=False, traced=traced)
    table.play_with(bots)
    state = table.state
    traced.first, traced.winner, traced.turns = state.first, state.winner, state.turn
    traced.tiles = (tuple(state.tiles[0]), tuple(state.tiles[1]))
    traced.losses = tuple(sorted({TORPEDO_LOSSES[r] for seat in state.losers for r in loss_reasons(state, seat)}))
    return traced


def torpedo_games(setting: str, games: int, start: int = 0, search_budget: dict[str, int] | None = None,
                  progress: Callable[[TorpedoGame], None] | None = None) -> list[TorpedoGame]:
    """Games ``start`` … ``start + games - 1`` of a setting of :data:`TORPEDO_SETTINGS` (in
    ``search-vs-heuristic`` the search bot takes seat 0 in even games, seat 1 in odd ones)."""
    build, kinds = TORPEDO_SETTINGS[setting]
    played = []
    for number in range(start, start + games):
        seats = kinds if setting != "search-vs-heuristic" or number % 2 == 0 else kinds[::-1]
        played.append(torpedo_game(number, build, seats, search_budget))
        if progress is not None:
            progress(played[-1])
    return played


def bench_history(repeats: int, transcripts: int = 500) -> dict:
    """``history`` over ``transcripts`` transcripts (the protocol's vectors, whole games of every
    game, linked under new names: about half a megabyte each), in this process, next to its floor: reading
    those files' bytes, the least any listing that counts the entries can do. Both warm (the
    files in the page cache, the games' modules imported). Target ≤ 3×. The command as a user
    runs it (a new process: start-up included) is shown beside them."""
    from p2pgames.cli import transcript_files
    from p2pgames.games import get_game
    from p2pgames.history import read_history

    vectors = sorted((Path(__file__).resolve().parents[1] / "protocol" / "vectors").glob("session-*.p2pt"))
    with tempfile.TemporaryDirectory(prefix="p2pgames-bench-history-") as folder:
        directory = Path(folder)
        for number in range(transcripts):
            os.link(vectors[number % len(vectors)], directory / f"game-{number:04}.p2pt")
        paths = sorted(directory.glob("*.p2pt"))
        size = sum(path.stat().st_size for path in paths)
        played, unreadable = read_history(transcript_files(directory), get_game)  # warm: imports, page cache
        if len(played) != transcripts or unreadable:
            raise RuntimeError(f"history read {len(played)} of {transcripts} benchmark transcripts")
        times, floors, commands = [], [], []
        environment = {**os.environ, "P2PGAMES_HOME": folder}
        for _ in range(repeats):
            floors.append(_median_time(lambda: [data for _, _, data in transcript_files(directory)], 3))
            times.append(_median_time(lambda: read_history(transcript_files(directory), get_game), 3))
            began = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "p2pgames", "history", "--transcripts", folder],
                env=environment, check=True, stdout=subprocess.DEVNULL,
            )
            commands.append(time.perf_counter() - began)
    return {
        "history_transcripts": transcripts,
        "history_mb": size / 1e6,
        "history_ms": statistics.median(times) * 1000,
        "history_floor_ms": statistics.median(floors) * 1000,
        "history_ratio": statistics.median(t / f for t, f in zip(times, floors)),
        "history_command_ms": statistics.median(commands) * 1000,
    }


def _median_time(function: Callable[[], Any], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        function()
        times.append(time.perf_counter() - began)
    return statistics.median(times)


# -- report ------------------------------------------------------------------------------------------

ROWS = [
    ("deal_ms", "secret deal, 52 cards, 4 peers on loopback, protocol 10's lock deck (median)", "ms", None, None),
    ("deal_pass_ms", "  one P-256 pass over the same 52 cards (its unit)", "ms", None, None),
    ("deal_passes", "  the deal in passes", "passes", None, None),
    ("deal_lock_passes", "  one lock pass over them, in those passes", "passes", None, None),
    ("deal_floor_passes", "  floor: a shuffle pass a peer but the last, a lock pass each, one's hand", "passes", None, None),
    ("deal_ratio", "  deal / floor", "x", "<=", 2),
    ("deal_before_ms", "  the same deal as the commit given to --against deals it", "ms", None, None),
    ("deal_before_passes", "  that deal in passes", "passes", None, None),
    ("deal_before_ratio", "  that deal / the same floor (same rounds)", "x", None, None),
    ("deal_over_before", "  this tree's deal / that commit's (round by round)", "x", None, None),
    ("deal_no_escrow_ms", "  the same deal at a table with no escrow (host --no-bot-seats)", "ms", None, None),
    ("deal_p11_ms", "  the same deal at protocol 11, the ElGamal deck (every table's)", "ms", None, None),
    ("deal_p11_floor_ms", "  its floor: 4 re-encryption passes in turn, one holder's shares, a peer's checks, one hand", "ms", None, None),
    ("deal_p11_ratio", "  that deal / its floor (same rounds)", "x", "<=", 2),
    ("deal_p11_before_ms", "  the same deal as the commit given to --against deals it", "ms", None, None),
    ("deal_p11_before_ratio", "  that deal / the same floor (same rounds)", "x", None, None),
    ("deal_p11_over_before", "  this tree's deal / that commit's (round by round)", "x", None, None),
    ("escrow_per_deal_ratio", "  the escrow of every lock key: its cost / the deal without it", "x", None, None),
    ("classic_pass_ms", "  one classic 2048-bit SRA pass over 52 cards", "ms", None, None),
    ("classic_ratio", "  classic SRA / P-256, per pass", "x", None, None),
    ("deal84_ms", "secret deal, 84 cards, 6 peers (Steam Court)", "ms", None, None),
    ("deal84_pass_ms", "  one P-256 pass over the same 84 cards", "ms", None, None),
    ("deal84_passes", "  the deal in passes", "passes", None, None),
    ("deal84_lock_passes", "  one lock pass over them, in those passes", "passes", None, None),
    ("deal84_floor_passes", "  floor: a shuffle pass a peer but the last, a lock pass each, one's hand", "passes", None, None),
    ("deal84_ratio", "  deal / floor", "x", "<=", 2),
    ("deal84_before_ms", "  the same deal as the commit given to --against deals it", "ms", None, None),
    ("deal84_before_passes", "  that deal in passes", "passes", None, None),
    ("deal84_before_ratio", "  that deal / the same floor (same rounds)", "x", None, None),
    ("deal84_over_before", "  this tree's deal / that commit's (round by round)", "x", None, None),
    ("deal84_two_tables_ms", "two tables of 6 (12 peers), 84 cards each, dealt at once", "ms", None, None),
    ("deal84_two_tables_ratio", "  / one table's deal", "x", "<=", 2),
    ("audit84_ms", "end-of-quarter audit of an 84-card deal, 6 peers", "ms", None, None),
    ("audit84_passes", "  in passes (floor: 2, each stage checked as one pass)", "passes", None, None),
    ("audit84_ratio", "  audit / floor", "x", None, None),
    ("event_p50_ms", "one event, 4 peers in one process: send -> all agreed, p50", "ms", None, None),
    ("event_p99_ms", "  p99", "ms", None, None),
    ("event_floor_ms", "  floor: 5 signatures and 7 checks an entry needs", "ms", None, None),
    ("event_p50_ratio", "  p50 / floor", "x", "<=", 2.5),
    ("event_p99_ratio", "  p99 / floor", "x", "<=", 6),
    ("event_before_p50_ms", "  the same as the commit given to --against plays it: p50", "ms", None, None),
    ("event_before_p99_ms", "  that commit's p99", "ms", None, None),
    ("event_before_p50_ratio", "  that commit's p50 / floor (same rounds)", "x", None, None),
    ("event_before_p99_ratio", "  that commit's p99 / floor (same rounds)", "x", None, None),
    ("event_p50_over_before", "  p50 / floor, this tree's over that commit's", "x", None, None),
    ("event_p99_over_before", "  p99 / floor, this tree's over that commit's", "x", None, None),
    ("event_processes_p50_ratio", "  each peer its own process on 2 cores: p50 / floor", "x", None, None),
    ("event_processes_p99_ratio", "  each peer its own process on 2 cores: p99 / floor", "x", None, None),
    ("event_processes_before_p50_ratio", "  the same, that commit's code: p50 / floor", "x", None, None),
    ("event_processes_before_p99_ratio", "  the same, that commit's code: p99 / floor", "x", None, None),
    ("event_processes_p50_over_before", "  own processes: p50 / floor, this tree's over that commit's", "x", None, None),
    ("event_processes_p99_over_before", "  own processes: p99 / floor, this tree's over that commit's", "x", None, None),
    ("signed_events_per_s", "engine floor: events signed and checked per second (Ed25519)", "events/s", None, None),
    ("engine_events_per_s", "engine alone, random legal play, 4-player Beltpunk", "events/s", None, None),
    ("engine_games_per_s", "  games per second", "games/s", None, None),
    ("engine_ratio", "  engine events per event signed and checked", "x", None, None),
    ("court_engine_events_per_s", "engine alone, random legal play, 6-player Steam Court", "events/s", None, None),
    ("court_engine_games_per_s", "  games per second", "games/s", None, None),
    ("court_engine_ratio", "  engine events per event signed and checked", "x", None, None),
    ("torpedo_engine_events_per_s", "engine alone, random legal play, Steam Torpedo (custom builds)", "events/s", None, None),
    ("torpedo_engine_games_per_s", "  games per second", "games/s", None, None),
    ("torpedo_engine_ratio", "  engine events per event signed and checked", "x", ">=", 3),
    ("ast_engine_events_per_s", "engine alone, random legal play, 4-player Astonishing!", "events/s", None, None),
    ("ast_engine_games_per_s", "  games per second", "games/s", None, None),
    ("ast_engine_ratio", "  engine events per event signed and checked", "x", None, None),
]
for _prefix, _title in (("", "4-player Beltpunk"), ("court_", "6-player Steam Court"), ("torpedo_", "Steam Torpedo (search bots)"), ("ast_", "4-player Astonishing!")):
    ROWS += [
        (f"{_prefix}game_wall_s", f"full {_title} game of bot peers: wall time", "s", None, None),
        (f"{_prefix}game_entries", "  log entries in that game (median)", "", None, None),
        (f"{_prefix}bytes_sent_per_peer", "  bytes sent per peer (median)", "B", None, None),
        (f"{_prefix}peak_memory_per_peer_mb", "  peak memory per peer (largest)", "MB", "<=", 80),
        (f"{_prefix}verify_ms", "  p2pgames verify of the host's transcript (a new process)", "ms", None, None),
        (f"{_prefix}verify_floor_ms", "  floor: checking its signatures alone", "ms", None, None),
        (f"{_prefix}verify_ratio", "  verify / floor", "x", "<=", 2.5),
        (f"{_prefix}verify_bare_ms", "  a bare Python verifier: start-up, msgpack, Ed25519 checks", "ms", None, None),
        (f"{_prefix}verify_bare_ratio", "  bare verifier / floor (the least any Python verifier takes)", "x", None, None),
    ]
for _game, _players, _kind, _prefix in ROUND_TRIP_TABLES:
    ROWS += [
        (f"{_prefix}round_trips_per_entry", f"{_game} {_players}p over a {ROUND_TRIP_DELAY * 1000:.0f} ms delay proxy: round trips per entry",
         "", None, None),
        (f"{_prefix}protocol_round_trips_per_entry", "  the protocol's minimum for that log (its based_on chains)", "", None, None),
        (f"{_prefix}physical_round_trips_per_entry", "  the physical minimum (one round trip per sequential move)", "", None, None),
        (f"{_prefix}round_trips", "  round trips in the whole game", "", None, None),
        (f"{_prefix}protocol_round_trips", "  the protocol's minimum for that log", "", None, None),
        (f"{_prefix}physical_round_trips", "  the physical minimum for that log", "", None, None),
        (f"{_prefix}round_trips_over_physical", "  round trips over the physical minimum", "x", None, None),
        (f"{_prefix}frames_per_entry", "  frames per entry (both ways, host and joiners)", "", None, None),
        (f"{_prefix}frames_bound", "  the bound for frames per entry, 3(N - 1) + 2", "", None, None),
        (f"{_prefix}transcript_mb", "  seat 1's transcript", "MB", None, None),
        (f"{_prefix}transcript_bytes_per_entry", "  seat 1's transcript per entry", "B", None, None),
        (f"{_prefix}bytes_per_entry", "  bytes per entry", "B", None, None),
        (f"{_prefix}entries", "  log entries in that game", "", None, None),
        (f"{_prefix}entries_without_delay", "  log entries in the game played without the delay", "", None, None),
        (f"{_prefix}first_deal_round_trips", "  first deal's round trips: its start to every holder's cards",
         "", "<=", f"{_prefix}first_deal_target_round_trips"),
        (f"{_prefix}first_deal_protocol_round_trips", "  the protocol's count for that deal in its log",
         "", "<=", f"{_prefix}first_deal_target_round_trips"),
        (f"{_prefix}first_deal_target_round_trips", "  target: h + 1, for h holders", "", None, None),
        (f"{_prefix}first_deal_deck2_round_trips", "  the second table's deck, dealt at once: its round trips", "",
         "<=", f"{_prefix}first_deal_deck2_target_round_trips"),
        (f"{_prefix}first_deal_deck2_protocol_round_trips", "  the protocol's count for that deck in its log",
         "", "<=", f"{_prefix}first_deal_deck2_target_round_trips"),
        (f"{_prefix}first_deal_deck2_target_round_trips", "  target: h + 1, for h holders", "", None, None),
    ]
ROWS += [
    ("construction_52_4_today_ms", "a deal's crypto on its critical path, 52 cards, 4 holders, as protocol 10 deals", "ms", None, None),
    ("construction_52_4_elgamal_ms", "  the same deal by the ElGamal deck (SPEC §C9)", "ms", None, None),
    ("construction_52_4_ratio", "  ElGamal / protocol 10 (round by round)", "x", None, None),
    ("construction_52_4_today_round_trips", "  round trips: protocol 10 (2h − 3)", "", None, None),
    ("construction_52_4_elgamal_round_trips", "  round trips: ElGamal (h + 1)", "", None, None),
    ("construction_84_7_today_ms", "a deal's crypto on its critical path, 84 cards, 7 holders, as protocol 10 deals", "ms", None, None),
    ("construction_84_7_elgamal_ms", "  the same deal by the ElGamal deck (SPEC §C9)", "ms", None, None),
    ("construction_84_7_ratio", "  ElGamal / protocol 10 (round by round)", "x", None, None),
    ("construction_84_7_today_round_trips", "  round trips: protocol 10 (2h − 3)", "", None, None),
    ("construction_84_7_elgamal_round_trips", "  round trips: ElGamal (h + 1)", "", None, None),
    ("construction_104_12_today_ms", "a deal's crypto on its critical path, 104 cards, 12 holders, as protocol 10 deals", "ms", None, None),
    ("construction_104_12_elgamal_ms", "  the same deal by the ElGamal deck (SPEC §C9)", "ms", None, None),
    ("construction_104_12_ratio", "  ElGamal / protocol 10 (round by round)", "x", None, None),
    ("construction_104_12_today_round_trips", "  round trips: protocol 10 (2h − 3)", "", None, None),
    ("construction_104_12_elgamal_round_trips", "  round trips: ElGamal (h + 1)", "", None, None),
]
ROWS += [
    ("vector_torpedo_verify_ms", "p2pgames verify of the Steam Torpedo transcript vector (a new process)", "ms", None, None),
    ("vector_torpedo_verify_floor_ms", "  floor: checking its signatures alone", "ms", None, None),
    ("vector_torpedo_verify_ratio", "  verify / floor", "x", None, None),
    ("vector_torpedo_verify_before_ms", "  verify as the commit given to --against runs it", "ms", None, None),
    ("vector_torpedo_verify_before_ratio", "  that verify / floor (same rounds)", "x", None, None),
    ("vector_torpedo_verify_over_before", "  this tree's verify / that commit's (round by round)", "x", None, None),
    ("vector_torpedo_verify_bare_ratio", "  a bare Python verifier / floor", "x", None, None),
]
ROWS += [
    ("history_ms", "history of 500 transcripts (whole games), in-process, warm", "ms", None, None),
    ("history_mb", "  the transcripts' size", "MB", None, None),
    ("history_floor_ms", "  floor: reading those files' bytes", "ms", None, None),
    ("history_ratio", "  history / floor", "x", "<=", 3),
    ("history_command_ms", "  p2pgames history as a user runs it (a new process)", "ms", None, None),
    ("ast_take_ms", "a card taken at random from a rival's hand, 4 peers, end to end", "ms", None, None),
    ("ast_take_floor_ms", "  floor: the signatures, sealed keys and unlock it needs", "ms", None, None),
    ("ast_take_ratio", "  end to end / floor (median of the takes)", "x", "<=", 3),
    ("ast_bot_wins_pct", "Astonishing! bot against 3 random players: bot wins", "%", ">=", 75),
    ("torpedo_search_positions_per_s", "Torpedo search bot: positions searched per second", "/s", None, None),
    ("torpedo_search_decision_ms", "  median time per decision (starter submarines)", "ms", "<=", 2000),
    ("torpedo_search_decision_max_ms", "  longest decision", "ms", None, None),
    ("torpedo_heuristic_decision_ms", "  floor: a heuristic bot's decision (median)", "ms", None, None),
    ("torpedo_first_player_wins_pct", "Torpedo starters, heuristic bots: first player wins", "%", "in", (40, 60)),
    ("torpedo_first_faction_wins_pct", "  Panzer la Rochelle wins (against Talion)", "%", "in", (40, 60)),
    ("torpedo_turns_per_game", "  turns per game (mean)", "", None, None),
    ("flood_idle_mb", "a host nobody attacks, N s: peak memory", "MB", None, None),
    ("succession_ms", "host hands the table over: its last entry -> successor's first", "ms", None, None),
    ("succession_entries", "  in entries' time on the same table (each about a round trip)", "x", None, None),
    ("take_over_ms", "host killed for good: crash -> successor's take-over entry", "ms", None, None),
    ("take_over_after_agreement_ms", "  from the last joiner's agreement (grace 1 s, then)", "ms", None, None),
    ("take_over_entries", "  that, in entries' time on the same table", "x", None, None),
]
for _prefix, _title in (
    ("flood_seated_", "a seated peer floods chat"), ("flood_lobby_", "a lobby player floods chat"),
    ("flood_unread_", "a seated peer never reads, and pings"),
):
    ROWS += [
        (f"{_prefix}mb", f"host while {_title}, N s: peak memory", "MB", None, None),
        (f"{_prefix}long_mb", "  the same for 2N s", "MB", None, None),
        (f"{_prefix}ratio", "  2N s / N s (bounded: no growth with the attack's length)", "x", "<=", 1.1),
        (f"{_prefix}over_idle_mb", "  2N s, over the idle host (bound: 8 MiB queue, chat limits)", "MB", "<=", 20),
        (f"{_prefix}transcript_bytes", "  the host's transcript after 2N s", "B", None, None),
        (f"{_prefix}sent", "  lines or pings the attacker sent in 2N s", "", None, None),
        (f"{_prefix}closed", "  times the host closed its connection", "", None, None),
    ]


def _verdict(value: float, comparison: str | None, target: float | None) -> str:
    if comparison is None:
        return ""
    if comparison == "in":
        low, high = target  # type: ignore[misc]
        ok = low <= value <= high
        return ("ok  " if ok else "MISS") + f" (target {low}–{high})"
    ok = value <= target if comparison == "<=" else value >= target  # type: ignore[operator]
    return ("ok  " if ok else "MISS") + f" (target {comparison} {target})"


#: The groups of figures ``--only`` can pick, in the order they run: ``(quick, full) -> figures``.
GROUPS: dict[str, Callable[[bool], dict]] = {
    "engine": lambda quick: bench_engines(2.0 if quick else 6.0),
    "deal": lambda quick: {**bench_deal(2 if quick else 7), **bench_deal_table(2 if quick else 5)},
    "deal-constructions": lambda quick: bench_deal_constructions(2 if quick else 5),
    "events": lambda quick: bench_events(1 if quick else 3),
    "games": lambda quick: {
        **bench_games(1 if quick else 3),
        **bench_games(1 if quick else 3, "steamcourt", 6, prefix="court_"),
        **bench_games(1 if quick else 3, "torpedo", 2, prefix="torpedo_"),
        **bench_games(1 if quick else 3, "astonishing", 4, prefix="ast_"),
    },
    "astonishing": lambda quick: {
        **bench_astonishing_take(1 if quick else 3),
        **bench_astonishing_strength(40 if quick else 200),
    },
    "torpedo": lambda quick: {
        **bench_torpedo_search(2 if quick else 6),
        **bench_torpedo_balance(40 if quick else 200),  # fewer than 200 is too rough for 40–60 %
    },
    "floods": lambda quick: bench_floods(5 if quick else 15),
    "history": lambda quick: bench_history(1 if quick else 5),
    "verify": lambda quick: bench_verify_vector(3 if quick else 9),
    "round-trips": bench_round_trips,
    "succession": lambda quick: {**bench_succession(1 if quick else 5), **bench_take_over(1 if quick else 5)},
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/bench", description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions and games (rougher figures)")
    parser.add_argument(
        "--only", metavar="GROUP,...", help=f"run only these groups of figures: {', '.join(GROUPS)}",
    )
    parser.add_argument(
        "--protocol", type=int, choices=(PROTOCOL_VERSION, LOCK_DECK_PROTOCOL), default=PROTOCOL_VERSION,
        help=f"the protocol the round-trip tables speak (default {PROTOCOL_VERSION}; {LOCK_DECK_PROTOCOL}: the "
             "lock deck's, §C5)",
    )
    parser.add_argument(
        "--against", metavar="COMMIT",
        help="also measure the deal, event and verify figures with COMMIT's code, in the same rounds and over "
             "the same floors, side by side with this tree's (COMMIT checked out in a temporary git worktree)",
    )
    args = parser.parse_args(argv)
    global _PROTOCOL
    _PROTOCOL = args.protocol
    if args.against is not None:
        global _AGAINST
        try:
            with checked_out(args.against) as tree:
                _AGAINST = Against(args.against, tree)
                return _report(args, parser)
        except CannotCompare as error:
            parser.error(str(error))
        finally:
            _AGAINST = None
    return _report(args, parser)


def _report(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    chosen = list(GROUPS) if args.only is None else [name.strip() for name in args.only.split(",")]
    unknown = [name for name in chosen if name not in GROUPS]
    if unknown:
        parser.error(f"no group {', '.join(unknown)}: the groups are {', '.join(GROUPS)}")
    figures: dict[str, Any] = {"cpus": os.cpu_count(), "protocol": _PROTOCOL}
    if args.against is not None:
        figures["against"] = args.against
    # Timed with crypto's memos, a floor would be a look-up (the same product or signature checked
    # again), and peers in this process would find what another computed, which peers of their own
    # never do: nothing is remembered while the figures are taken. Bench peers in processes of
    # their own keep their memos.
    with nothing_remembered():
        for name in GROUPS:
            if name in chosen:
                figures.update(GROUPS[name](args.quick))
    rows = [  # (a target may be another figure: a bound measured in the same run)
        (key, label, unit, comparison, figures.get(target) if isinstance(target, str) else target)
        for key, label, unit, comparison, target in ROWS if key in figures
    ]
    figures["misses"] = [
        key for key, _, _, comparison, target in rows
        if comparison is not None and _verdict(figures[key], comparison, target).startswith("MISS")
    ]
    if args.json:
        print(json.dumps(figures, sort_keys=True))
        return 0
    for key, label, unit, comparison, target in rows:
        value = figures[key]
        shown = f"{value:,.0f}" if unit == "B" or value >= 100 or isinstance(value, int) else f"{value:.2f}"
        print(f"{label:<64} {shown:>10} {unit:<8} {_verdict(value, comparison, target)}")
    counts = [
        (figures.get("events_measured"), "events timed"), (figures.get("engine_games"), "Beltpunk engine games"),
        (figures.get("torpedo_search_decisions"), "search decisions"),
        (figures.get("torpedo_balance_games"), "Torpedo balance games"), (figures.get("ast_takes_measured"), "random takes"),
        (figures.get("ast_strength_games"), "Astonishing! strength games"),
        (figures.get("flood_seconds"), "s for N (each flood)"), (figures.get("successions_measured"), "successions"),
        (figures.get("take_overs_measured"), "take-overs"),
        (next((figures[key] for key in figures if key.endswith("first_deals_measured")), None), "first deals a table"),
        (figures["cpus"], "CPUs"),
        (figures["protocol"], "the protocol of the round-trip tables"),
        (figures.get("against"), "is the commit --against named"),
    ]
    print("(" + "; ".join(f"{count} {what}" for count, what in counts if count is not None) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
