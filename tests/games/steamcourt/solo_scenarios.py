"""A Solo table with a stacked deck and moves typed as the player types them.

The deck comes out as a test names it: ``hand`` (the 12 cards dealt to you), ``court`` (the Court
Hand from the top) and ``draw`` (the draw pile from the top), each by face. A hand is filled up to
12 with the lowest unnamed numbered cards (``fill="high"``: the highest), the Court Hand to 22
with the highest, and the draw pile takes the rest, its named cards first.
"""

from __future__ import annotations

from typing import Sequence

from p2pgames.engine import LocalTable, NewDeal
from p2pgames.games.steamcourt import GAME
from p2pgames.games.steamcourt.cards import DECK, FACE, FACE_ORDER, KIND, NUMBER, NUMBERED
from p2pgames.games.steamcourt.presentation import SteamCourtSoloPresentation
from p2pgames.games.steamcourt.solo import COURT_SIZE, HAND_SIZE, LADDER

from steamcourt_scenarios import take


def solo_deck(hand: Sequence[str], court: Sequence[str], draw: Sequence[str], fill: str = "low") -> list[str]:
    unused = list(DECK)
    mine = [take(unused, face) for face in hand]
    theirs = [take(unused, face) for face in court]
    pile = [take(unused, face) for face in draw]
    numbered = sorted((name for name in unused if KIND[name] == NUMBERED), key=lambda n: NUMBER[n])
    while len(mine) < HAND_SIZE:
        name = numbered.pop(0 if fill == "low" else -1)
        unused.remove(name)
        mine.append(name)
    while len(theirs) < COURT_SIZE:
        name = numbered.pop()
        unused.remove(name)
        theirs.append(name)
    order = mine + theirs + pile + unused
    assert sorted(order) == sorted(DECK)
    return order


class Solo(LocalTable):
    """A one-seat table whose deal comes out as stacked; ``lines`` collects the log (as ``shown``,
    the Solo presentation of its rules, tells it)."""

    def __init__(
        self, hand=(), court=(), draw=(), *, seed: bytes = b"solo", game=GAME, at: str | None = None, fill: str = "low"
    ) -> None:
        self.order = solo_deck(hand, court, draw, fill)
        self.start_at = None if at is None else LADDER.index(at)
        self.lines: list[str] = []
        self.notes: list[tuple] = []
        ruleset = game.ruleset(1)
        self.shown = SteamCourtSoloPresentation(game.for_ruleset(ruleset))
        super().__init__(game, ruleset, seed)

    def feed(self, event) -> None:
        before = self.state
        super().feed(event)
        self.notes.extend(self.state.notes)
        self.lines.extend(self.shown.narrate(before, event, self.state, ["you"]))

    def settle(self):
        # ``at``: start the game as that character (a test shortcut, before the first round).
        if self.start_at is not None and self.state.round == 0:
            self.state.rung = self.start_at
        return super().settle()

    def _stacked_order(self, operation: NewDeal):
        return self.order if operation.deal == 0 else None

    # -- questions -----------------------------------------------------------------------------

    @property
    def character(self) -> str:
        return LADDER[self.state.rung]

    def hand(self) -> list[str]:
        return sorted((FACE[self.truth[s]] for s in self.state.hand), key=FACE_ORDER.__getitem__)

    def faces(self, slots) -> list[str]:
        return sorted((FACE[self.truth[s]] for s in slots), key=FACE_ORDER.__getitem__)

    def tricks(self) -> list[tuple[int, int, list[str]]]:
        """Each trick on the table as (quantity, value, its cards' faces)."""
        return [(t[2], t[1], self.faces(t[0])) for t in self.state.tricks]

    def slot(self, face: str) -> int:
        """A slot of your hand holding a card of ``face``."""
        return next(slot for slot in sorted(self.state.hand) if FACE[self.truth[slot]] == face)

    def court(self) -> list[str]:
        return [FACE[self.truth[s]] for s in self.state.court]

    # -- moves as text -------------------------------------------------------------------------

    def legal(self) -> list:
        return self.game.legal_actions(self.state, 0, self.view(0))

    def texts(self) -> list[str]:
        return [self.shown.describe_action(self.state, 0, a, self.view(0), ["you"]) for a in self.legal()]

    def do(self, text: str) -> None:
        texts = self.texts()
        assert text in texts, f"can't {text!r}; legal: {texts}"
        self.act(0, self.legal()[texts.index(text)])
