"""The rules-engine contract shared by every game. Pure: no I/O, no clock, no ambient randomness.

Public names are re-exported here; the modules behind them are private. How a game is shown
(:class:`Presentation` and the panels, groups, standing answers and composers it makes) is
imported on first use (PEP 562): replaying a transcript or running a session loads the rules'
contract alone.
"""

import importlib
from typing import TYPE_CHECKING, Any

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
    Concealment,
    Game,
    GameState,
    Knowledge,
    MAX_MOVE_TIME,
    RESERVED_WORDS,
    Ruleset,
    RulesetOption,
    normalize_typed,
)
from p2pgames.engine._random import DeterministicRandom
from p2pgames.engine._steps import (
    Act,
    CardOperations,
    CardsDone,
    Chance,
    ChanceOutcome,
    ChoicesSealed,
    Event,
    GameOver,
    ReactionWindow,
    Sealed,
    Simultaneous,
    SimultaneousActs,
    Step,
    Turn,
    Unseal,
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
    "ChoiceGroup",
    "Composer",
    "Concealment",
    "Chance",
    "ChanceOutcome",
    "ChoicesSealed",
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
    "Presentation",
    "PANEL_RULE",
    "PANEL_TITLE_WIDTH",
    "PANEL_WIDTH",
    "Segment",
    "wrap_segments",
    "ReactionWindow",
    "Reshuffle",
    "Reveal",
    "RuleViolation",
    "MAX_MOVE_TIME",
    "Ruleset",
    "RESERVED_WORDS",
    "RulesetError",
    "RulesetOption",
    "Sealed",
    "Simultaneous",
    "SimultaneousActs",
    "StandingAnswer",
    "Step",
    "Turn",
    "Unseal",
    "decode_operation",
    "normalize_typed",
]


# The presentation's names, loaded from their module on first use.
_PRESENTATION_NAMES = frozenset({
    "PANEL_RULE", "PANEL_TITLE_WIDTH", "PANEL_WIDTH", "ChoiceGroup", "Composer", "Panel", "Presentation", "Segment",
    "StandingAnswer", "wrap_segments",
})


def __getattr__(name: str) -> Any:
    if name not in _PRESENTATION_NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}._presentation"), name)
    globals()[name] = value  # the next use is a plain lookup
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | _PRESENTATION_NAMES)


if TYPE_CHECKING:  # what type checkers and readers see
    from p2pgames.engine._presentation import (
        PANEL_RULE,
        PANEL_TITLE_WIDTH,
        PANEL_WIDTH,
        ChoiceGroup,
        Composer,
        Panel,
        Presentation,
        Segment,
        StandingAnswer,
        wrap_segments,
    )
