"""The wording of fault messages: they are read by people and kept in transcripts."""

from p2pgames.session._faults import with_article


def test_a_word_gets_the_article_it_is_spoken_with():
    assert [with_article(word) for word in ("act", "entry", "oversize", "pass", "replay")] == [
        "an act", "an entry", "an oversize", "a pass", "a replay",
    ]
    assert with_article("") == "a "  # nothing to go on: not "an "
