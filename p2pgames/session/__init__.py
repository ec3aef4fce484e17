"""The sans-I/O protocol: lobby, signed log, sequencing, agreement, deals, audits, transcripts.

Bytes in, events and bytes out; no sockets, no clock. ``p2pgames.net`` drives a :class:`Session`
over TCP; tests drive it over in-memory pipes; :func:`verify_transcript` replays a saved game.
"""

from p2pgames.session._events import (
    Agreed,
    AwayTooLong,
    SeatAway,
    SeatBack,
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
    Rejected,
    SessionEvent,
)
from p2pgames.session._faults import Fault, FaultCode, LocalError, NotAMove, ProtocolFault
from p2pgames.session._messages import Envelope, MalformedMessage, make_envelope, open_envelope
from p2pgames.session._replica import HOST_SEAT, Replica, SeatInfo
from p2pgames.session._saved import SavedSeat, SavedSeatError
from p2pgames.session._secrets import SeatSecrets
from p2pgames.session._session import HOST_CONNECTION, ResumeError, Session, clean_text
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

__all__ = [
    "Agreed",
    "AwayTooLong",
    "CutShort",
    "ResumeError",
    "SavedSeat",
    "SavedSeatError",
    "SeatAway",
    "SeatBack",
    "ChatReceived",
    "Decision",
    "DecisionNeeded",
    "DesyncReport",
    "Envelope",
    "Fault",
    "FaultCode",
    "GameEnded",
    "GameStarted",
    "HOST_CONNECTION",
    "HOST_SEAT",
    "Halted",
    "LobbyChanged",
    "LocalError",
    "NotAMove",
    "Logged",
    "MalformedMessage",
    "Notice",
    "ProtocolFault",
    "Rejected",
    "Replica",
    "SeatInfo",
    "SeatSecrets",
    "Session",
    "SessionEvent",
    "TranscriptError",
    "VerificationReport",
    "clean_text",
    "encode_record",
    "iter_records",
    "records_before_cut",
    "make_envelope",
    "open_envelope",
    "verify_transcript",
    "desync_report_text",
]
