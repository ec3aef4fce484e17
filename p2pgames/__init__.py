"""p2pgames: steampunk tabletop games played between peers, with no server and no trusted dealer."""

__version__ = "0.1.0"
PROTOCOL_VERSION = 10
# The protocol of the ElGamal deck (issue 28), spoken where a session is asked for it while it
# is being built; PROTOCOL_VERSION becomes it once it is whole.
NEXT_PROTOCOL_VERSION = 11
# The last protocol of §C5's commutative locks: its transcripts verify, and once PROTOCOL_VERSION
# is 11 a session speaks it only where it is built for it (the tests of that deck).
LOCK_DECK_PROTOCOL = 10
