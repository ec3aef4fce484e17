"""The wording of fault messages: they are read by people and kept in transcripts."""

import pytest

from p2pgames.words import with_article


def test_a_word_gets_the_article_it_is_spoken_with():
    assert [with_article(word) for word in ("act", "entry", "oversize", "pass", "replay")] == [
        "an act", "an entry", "an oversize", "a pass", "a replay",
    ]
    assert with_article("") == "a "  # nothing to go on: not "an "


@pytest.mark.parametrize(
    "word, said",
    [
        # every message and record kind a transcript or a fault names
        ("ack", "an ack"), ("accept", "an accept"), ("audit", "an audit"), ("open", "an open"),
        ("entry", "an entry"), ("unresponsive", "an unresponsive"), ("illegal", "an illegal"),
        ("chat", "a chat"), ("host-hello", "a host-hello"), ("submit", "a submit"), ("leave", "a leave"),
        ("fault-message", "a fault-message"), ("keys", "a keys"), ("stale", "a stale"),
        # a vowel said as a consonant, a silent h
        ("user", "a user"), ("unique", "a unique"), ("one-time", "a one-time"), ("European", "a European"),
        ("hour", "an hour"), ("honest", "an honest"), ("house", "a house"),
        # "uni" said "you" in some stems only
        ("unicode string", "a unicode string"), ("uniform", "a uniform"), ("union", "a union"),
        ("unilateral", "a unilateral"), ("unipolar", "a unipolar"), ("unison", "a unison"),
        ("unit", "a unit"), ("universe", "a universe"), ("Unix socket", "a Unix socket"),
        ("uninitialized value", "an uninitialized value"), ("unimportant", "an unimportant"),
        ("unintended", "an unintended"), ("unidentified", "an unidentified"), ("unused", "an unused"),
        # capitals and single letters are spelt out
        ("RSA key", "an RSA key"), ("RSAPrivateKey", "an RSAPrivateKey"), ("EC key", "an EC key"),
        ("PEM file", "a PEM file"), ("USB", "a USB"), ("x", "an x"), ("y", "a y"), ("X25519 key", "an X25519 key"),
        ("Ed25519 key", "an Ed25519 key"), ("Electricity card", "an Electricity card"), ("Steam card", "a Steam card"),
        ("Astonishing! action", "an Astonishing! action"), ("int", "an int"), ("str", "a str"),
        # numbers as they are said
        ("8-byte frame", "an 8-byte frame"), ("11-card deck", "an 11-card deck"), ("18-card deck", "an 18-card deck"),
        ("80-byte frame", "an 80-byte frame"), ("800-byte frame", "an 800-byte frame"),
        ("8000000-byte frame", "an 8000000-byte frame"), ("18000-byte frame", "an 18000-byte frame"),
        ("1048577-byte frame", "a 1048577-byte frame"), ("110-card deck", "a 110-card deck"), ("1-byte frame", "a 1-byte frame"),
        # quotes and brackets don't count
        ("'shuffle' pass", "a 'shuffle' pass"), ("'open' message", "an 'open' message"), ("(ack)", "an (ack)"),
    ],
)
def test_the_article_goes_by_how_the_word_is_said(word, said):
    assert with_article(word) == said
