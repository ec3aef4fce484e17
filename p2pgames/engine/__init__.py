"""The rules-engine contract shared by every game. Pure: no I/O, no clock, no ambient randomness.

Public names are re-exported here; the modules behind them are private.
"""

from p2pgames.engine._actions import SLOT_LIMIT, ActionCodec, check_bool, check_seat, check_slot, check_slots
from p2pgames.engine._cards import (
    Audit,
    CardOperation,
    CardState,
    Claim,
    DealRecord,
    Disclose,
    NewDeal,
    Reshuffle,
    Reveal,
    decode_operation,
)
from p2pgames.engine._errors import (
    EngineError,
    EventMismatch,
    IllegalAction,
    MalformedAction,
    RuleViolation,
    RulesetError,
)
from p2pgames.engine._game import (
    NO_KNOWLEDGE,
    Game,
    GameState,
    Knowledge,
    Panel,
    Ruleset,
    RulesetOption,
)
from p2pgames.engine._random import DeterministicRandom
from p2pgames.engine._steps import (
    Act,
    CardOperations,
    CardsDone,
    Chance,
    ChanceOutcome,
    Event,
    GameOver,
    ReactionWindow,
    Simultaneous,
    SimultaneousActs,
    Step,
    Turn,
)
from p2pgames.engine._table import LocalTable

__all__ = [
    "Act",
    "ActionCodec",
    "SLOT_LIMIT",
    "check_bool",
    "check_seat",
    "check_slot",
    "check_slots",
    "Audit",
    "CardOperation",
    "CardOperations",
    "CardState",
    "CardsDone",
    "Chance",
    "ChanceOutcome",
    "Claim",
    "DealRecord",
    "DeterministicRandom",
    "Disclose",
    "EngineError",
    "Event",
    "EventMismatch",
    "Game",
    "GameOver",
    "GameState",
    "IllegalAction",
    "Knowledge",
    "LocalTable",
    "MalformedAction",
    "NO_KNOWLEDGE",
    "NewDeal",
    "Panel",
    "ReactionWindow",
    "Reshuffle",
    "Reveal",
    "RuleViolation",
    "Ruleset",
    "RulesetError",
    "RulesetOption",
    "Simultaneous",
    "SimultaneousActs",
    "Step",
    "Turn",
    "decode_operation",
]
