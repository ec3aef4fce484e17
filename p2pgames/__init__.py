"""p2pgames: steampunk tabletop games played between peers, with no server and no trusted dealer."""

__version__ = "0.1.0"
# The protocol peers speak (§A4): since 11, cards are dealt with the ElGamal deck (§B6.3).
PROTOCOL_VERSION = 11
# The last protocol of §C5's commutative locks: its transcripts verify, a game saved at it
# resumes at it, and a session speaks it only where asked (the tests of that deck, the bench).
LOCK_DECK_PROTOCOL = 10
