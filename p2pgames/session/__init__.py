"""The sans-I/O protocol: lobby, signed log, sequencing, agreement, deals, audits, transcripts.

Bytes in, events and bytes out; no sockets, no clock. ``p2pgames.net`` drives a :class:`Session`
over TCP; tests drive it over in-memory pipes; :func:`verify_transcript` replays a saved game.

Each name is imported from its module on first use (PEP 562), so a command loads only the parts it
needs: ``p2pgames verify`` replays a transcript without the live session's roles and events.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# name -> the module (in this package) that defines it.
_HOMES: dict[str, str] = {
    **dict.fromkeys(
        (
            "AdjournAsked", "AdjournDeclined", "Adjourned", "AgainAgreed", "AgainAsked", "AgainDeclined", "Agreed", "AwayTooLong", "SeatAway", "SeatBack", "ChatReceived", "Decision", "DecisionNeeded",
            "DesyncReport", "GameEnded", "GameStarted", "Halted", "LobbyChanged", "Logged", "Notice",
            "OpenSeatAsked", "Rejected", "SeatOpened", "HostChanged", "SessionEvent", "TakeOverAgreed", "WATCHER_SEAT",
        ),
        "_events",
    ),
    **dict.fromkeys(("Fault", "FaultCode", "LocalError", "NotAMove", "ProtocolFault"), "_faults"),
    **dict.fromkeys(("Envelope", "MalformedMessage", "make_envelope", "open_envelope", "clean_text"), "_messages"),
    **dict.fromkeys(("HOST_SEAT", "Replica", "SeatInfo"), "_replica"),
    **dict.fromkeys(("Replay", "ReplayStep", "replay_transcript"), "_replay"),
    **dict.fromkeys(("SavedSeat", "SavedSeatError"), "_saved"),
    "SeatSecrets": "_secrets",
    **dict.fromkeys(("Watcher",), "_watcher"),
    **dict.fromkeys(("GameSummary", "summarize_transcript"), "_summary"),
    **dict.fromkeys(("HOST_CONNECTION", "History", "ResumeError", "Session"), "_session"),
    **dict.fromkeys(
        (
            "CutShort", "TranscriptError", "VerificationReport", "desync_report_text", "encode_record",
            "iter_records", "records_before_cut", "verify_transcript",
        ),
        "_transcript",
    ),
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # the next use is a plain lookup
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))


if TYPE_CHECKING:  # what type checkers and readers see: the names, from their modules
    from p2pgames.session._events import (
        WATCHER_SEAT,
        AdjournAsked,
        AdjournDeclined,
        Adjourned,
        AgainAgreed,
        AgainAsked,
        AgainDeclined,
        Agreed,
        AwayTooLong,
        ChatReceived,
        Decision,
        DecisionNeeded,
        DesyncReport,
        GameEnded,
        GameStarted,
        Halted,
        LobbyChanged,
        Logged,
        Notice,
        OpenSeatAsked,
        Rejected,
        SeatAway,
        SeatBack,
        SeatOpened,
        HostChanged,
        SessionEvent,
        TakeOverAgreed,
    )
    from p2pgames.session._faults import Fault, FaultCode, LocalError, NotAMove, ProtocolFault
    from p2pgames.session._messages import Envelope, MalformedMessage, clean_text, make_envelope, open_envelope
    from p2pgames.session._replica import HOST_SEAT, Replica, SeatInfo
    from p2pgames.session._replay import Replay, ReplayStep, replay_transcript
    from p2pgames.session._watcher import Watcher
    from p2pgames.session._saved import SavedSeat, SavedSeatError
    from p2pgames.session._secrets import SeatSecrets
    from p2pgames.session._session import HOST_CONNECTION, History, ResumeError, Session
    from p2pgames.session._summary import GameSummary, summarize_transcript
    from p2pgames.session._transcript import (
        CutShort,
        TranscriptError,
        VerificationReport,
        desync_report_text,
        encode_record,
        iter_records,
        records_before_cut,
        verify_transcript,
    )
