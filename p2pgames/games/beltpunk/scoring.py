"""Scoring: the declarations and sets of the turn's step 4, then the rulebook's "Ending the round",
"Scoring" and "Ending the game".

From the Foreman, each player declares whether it will score a set this turn (a hand of fewer than
two cards says no by itself: :func:`pass_short_hands`); those who said yes choose one set each
(:func:`set_options`), revealed together (:func:`reveal_sets`) and checked to be sets
(:func:`score_sets`). A round ends with its scores (:func:`end_round`): each seat's sets are worth
their points (the table of sets is ``cards.py``), less one per card in its scrap pile. At the end
of a round, a total at the target ends the game (:func:`game_over`). ``rules.py`` calls these where
its flow says.
"""

from __future__ import annotations

from typing import Any, Sequence

from p2pgames.engine import Knowledge, RuleViolation
from p2pgames.games.beltpunk.actions import Score
from p2pgames.games.beltpunk.cards import classify, find_sets, points_of
from p2pgames.games.beltpunk.setup import round_deals
from p2pgames.games.beltpunk.state import BeltpunkState, Phase

__all__ = [
    "end_round",
    "game_over",
    "pass_short_hands",
    "result_summary",
    "reveal_sets",
    "score_sets",
    "set_options",
]


def pass_short_hands(state: BeltpunkState) -> None:
    """Declare "no" for each seat, from the next to declare on, that holds fewer than two cards,
    up to the first that must declare itself."""
    players = state.players
    # Someone with fewer than two cards can only say no, which everyone can see: skip them.
    while state.declaring < players:
        seat = (state.foreman + state.declaring) % players
        if len(state.hands[seat]) >= 2:
            return
        state.notes.append(("declare-auto", seat))
        state.declaring += 1


def set_options(state: BeltpunkState, player: int, knowledge: Knowledge) -> list[Score]:
    """The sets ``player``, who declared one, may choose among: those its hand holds."""
    hand = state.hands[player]
    values = {slot: state.value(slot, knowledge) for slot in hand}
    known = {slot: name for slot, name in values.items() if name is not None}
    options = [Score(slots) for slots in find_sets(known)]
    if not options:
        # Only after declaring a set one doesn't hold (or without the hand's values): any two
        # cards, so the step can go on; the revealed cards will show the false declaration.
        ordered = sorted(hand)
        options = [Score((a, b)) for i, a in enumerate(ordered) for b in ordered[i + 1 :]]
    return options


def reveal_sets(state: BeltpunkState, actions: tuple[tuple[int, Any], ...]) -> None:
    """The sets chosen by everyone who declared one, out of the hands and revealed together."""
    state.scoring = [(player, action.slots) for player, action in actions]
    for player, action in actions:
        hand = state.hands[player]
        for slot in action.slots:
            hand.remove(slot)
    state.cards.reveal(slot for _, action in actions for slot in action.slots)
    state.phase = Phase.SCORING


def score_sets(state: BeltpunkState) -> None:
    """Lay the revealed sets in front of their owners, once each is checked to be a set."""
    revealed = state.cards.revealed
    scored = state.scoring
    for player, slots in scored:
        if classify(revealed[slot] for slot in slots) is None:
            names = " ".join(revealed[slot] for slot in slots)
            raise RuleViolation(player, f"declared and revealed {names}, which is not a set")
    for player, slots in scored:
        state.sets[player].append(slots)
    state.notes.append(("scored", tuple(scored)))
    state.scorers = []
    state.scoring = []


def end_round(state: BeltpunkState, reason: str) -> None:
    """End the round (for ``reason``): hands into scrap piles, each seat's round score (its sets'
    points minus one per scrap card) added to its total, and every card of the round audited."""
    revealed = state.cards.revealed
    scores = []
    breakdown = []
    for seat in range(state.players):
        # Cards left in hand go face down into their owner's scrap pile.
        state.scrap[seat].extend(state.hands[seat])
        state.hands[seat] = []
        points = sum(
            points_of(classify(revealed[slot] for slot in slots), len(slots))
            for slots in state.sets[seat]
        )
        scrapped = len(state.scrap[seat])
        scores.append(points - scrapped)
        breakdown.append((points, scrapped))
    state.totals = [total + score for total, score in zip(state.totals, scores)]
    state.last_round = scores
    state.notes.append(("round-end", reason, tuple(breakdown)))
    # Every card of the round becomes public and is checked; the table stays as it is until
    # the next round is dealt (or for good, if the game is over).
    state.cards.audit(round_deals(state))
    state.phase = Phase.AUDITING


def game_over(state: BeltpunkState) -> bool:
    """Whether the game ends with the round just ended and audited: someone has reached the
    target; the most points win (:meth:`BeltpunkState.leaders`), even if another also reached it."""
    return max(state.totals) >= state.target


def result_summary(state: BeltpunkState, winners: Sequence[int]) -> str:
    """One line for :class:`GameOver`, naming nobody (the session puts the names in front)."""
    best = state.totals[winners[0]]
    rounds = f"{state.round} round{'s' if state.round != 1 else ''}"
    each = " each" if len(winners) > 1 else ""
    return f"{best} points{each} after {rounds}"
