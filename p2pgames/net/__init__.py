"""The network: trio TCP listeners and dialers, length-prefixed frames, the node that drives a
session over streams, join codes, the players (bots) that run as real peers, and a seat played by
a bot with no terminal (``run_headless``).

The only package (with ``tui``) that imports trio.
"""

from p2pgames.net._framing import DEFAULT_MAX_FRAME, FrameError, FrameReader, frame
from p2pgames.net._discovery import (
    INTERFACE_VARIABLE, SERVICE_TYPE, Announcement, announce, chosen_interfaces, discover, find_tables, one_per_key,
    watch,
)
from p2pgames.net._joincode import JoinCode
from p2pgames.net._launch import (
    OtherHost, SetupError, TableCodes, UnprovenRefusal, host_table, join_address, join_table, join_table_at_one_of,
    join_the_next_game, lan_address, table_codes,
)
from p2pgames.net._headless import play_headless, run_headless
from p2pgames.net._node import BOT_CLAIMED, BOT_LAUNCHED_HERE, NetSettings, Node, kept_seat_note, open_host_listeners
from p2pgames.net._portmap import MappingError, PortMapper, PortMapping, default_port_mappers
from p2pgames.net._players import LOOPBACK, SeatResult, TableResult, drive_bot, peak_memory_bytes, play_table, play_table_now
from p2pgames.net._watch import watch_headless, watch_table

__all__ = [
    "Announcement",
    "BOT_CLAIMED",
    "BOT_LAUNCHED_HERE",
    "DEFAULT_MAX_FRAME",
    "INTERFACE_VARIABLE",
    "SERVICE_TYPE",
    "LOOPBACK",
    "SeatResult",
    "OtherHost",
    "SetupError",
    "TableCodes",
    "UnprovenRefusal",
    "announce",
    "chosen_interfaces",
    "discover",
    "find_tables",
    "one_per_key",
    "watch",
    "watch_headless",
    "watch_table",
    "TableResult",
    "drive_bot",
    "peak_memory_bytes",
    "play_table",
    "play_table_now",
    "FrameError",
    "FrameReader",
    "JoinCode",
    "MappingError",
    "PortMapper",
    "PortMapping",
    "default_port_mappers",
    "NetSettings",
    "Node",
    "frame",
    "host_table",
    "join_table",
    "join_table_at_one_of",
    "join_the_next_game",
    "lan_address",
    "join_address",
    "kept_seat_note",
    "open_host_listeners",
    "table_codes",
    "play_headless",
    "run_headless",
]
