"""Transcripts written by earlier versions of p2pgames (tests/games/steamcourt/data/).

Since start tokens carry the character cards' numbers (RULES.md, I2), a Steam Court game's state
has a ``start_tokens`` key and new hashes: edition 2 of its rules (SPEC §D1). A transcript from
before (edition 1) cannot be replayed by this version; ``verify`` must say so — never take the host
for a peer that claimed wrong states. A Solo game, whose state has no tokens, stayed edition 1 and
replayed until retired deals left the card state (edition 4 of every variant, Solo's too): its
transcripts from before are now refused the same way.
"""

from pathlib import Path

import pytest

from p2pgames.engine import RulesetError
from p2pgames.games import get_game
from p2pgames.session import TranscriptError, verify_transcript

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("name", [
    # The header and the start of the 3-player vector as it was before start tokens.
    "court-3p-before-start-tokens.p2pt",
    # A whole Solo game: its states changed when retired deals left the card state (edition 4).
    "solo-before-start-tokens.p2pt",
])
def test_a_transcript_of_edition_1_is_refused_as_another_versions_blaming_nobody(name):
    data = (DATA / name).read_bytes()
    with pytest.raises(TranscriptError, match="earlier version of p2pgames, which plays edition 1"):
        verify_transcript(data, get_game)
    # The independent implementation, from SPEC §D1/§D3 alone, refuses it the same way.
    from tests.independent import transcript

    report = transcript.verify(data)
    assert not report.ok and report.code == "other-edition", report.problem


def test_a_ruleset_without_start_tokens_is_refused_and_solo_of_edition_1_too():
    game = get_game("steamcourt")
    old = {"game": "steamcourt", "players": 3,
           "options": {"scoring": "gears", "variant": "court", "duo_win": "points", "removed": "jester"}}
    with pytest.raises(RulesetError, match="earlier version"):
        game.decode_ruleset(old)
    solo = dict(old, players=1, options=dict(old["options"], variant="solo"))
    with pytest.raises(RulesetError, match="earlier version of p2pgames, which plays edition 1"):
        game.decode_ruleset(solo)
    assert game.decode_ruleset(dict(solo, edition=4))["variant"] == "solo"
    assert game.decode_ruleset(game.ruleset(3).encode())["start_tokens"] == "character"
