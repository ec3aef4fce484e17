"""p2pgames: steampunk tabletop games played between peers, with no server and no trusted dealer."""

__version__ = "0.1.0"
PROTOCOL_VERSION = 10
