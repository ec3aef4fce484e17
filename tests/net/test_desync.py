"""Peers that compute different states stop at once, name the odd one out, and write a report."""

from p2pgames import canonical
from p2pgames.crypto import Identity, reproducible_bytes
from p2pgames.games import get_game
from p2pgames.games._probe import Probe
from p2pgames.net import play_table
from p2pgames.session import FaultCode, Session


class MiscountingProbe(Probe):
    """A subtly different build: the winner of a round scores two points instead of one."""

    def after_cards(self, state, values):
        phase = state.phase
        super().after_cards(state, values)
        if phase == "revealing":
            state.points[state.winner] += 1


def session(seat, ruleset, loader):
    random_bytes = reproducible_bytes(b"desync/" + bytes([seat]))
    return Session(
        Identity.generate(random_bytes(32)), f"p{seat}", loader,
        ruleset=ruleset if seat == 0 else None, bot=True, random_bytes=random_bytes,
    )


async def test_a_peer_that_computes_a_different_state_is_caught_at_once(tmp_path, autojump_clock):
    ruleset = get_game("probe").ruleset(3)
    odd = MiscountingProbe()
    sessions = [
        session(0, ruleset, get_game),
        session(1, ruleset, get_game),
        session(2, ruleset, lambda name: odd if name == "probe" else get_game(name)),
    ]
    table = await play_table("probe", 3, sessions=sessions, transcripts=tmp_path, seed=b"desync")
    assert table.result is None
    stopped_at = set()
    for seat, peer in enumerate(sessions):
        fault = peer.fault
        assert peer.stage == "halted" and fault.code == FaultCode.DESYNC, (seat, fault)
        assert fault.culprit == 2, (seat, fault)  # the one seat that disagrees with the other two
        stopped_at.add(fault.seq)
    assert len(stopped_at) == 1  # everyone stopped on the same entry
    reports = sorted((tmp_path / "reports").glob("desync-*.msgpack"))  # apart from the transcripts
    assert reports, "no desync report was written"
    report = canonical.decode(reports[0].read_bytes())
    assert report["seq"] == stopped_at.pop()
    hashes = {seat: state for seat, _entry, state in report["hashes"]}
    assert hashes[0] == hashes[1] != hashes[2]
