"""Completing the input line: your legal moves first, then the commands.

A candidate matches when it starts with what is typed (ignoring case and repeated spaces) or, failing
that, when the typed characters appear in it in order (``dg13`` finds ``discard G13``). The whole
line is replaced, so a completed move is exactly the text the game expects.

Choices the game groups (:class:`~p2pgames.engine.ChoiceGroup`: a group's parts, or the group
itself) are offered as one candidate, their common start shown by the group's label
(``lay 5 5 +X…``), until what is typed reaches it; then each of them is offered.
"""

from __future__ import annotations

import os
from typing import Callable, Iterable

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from p2pgames.session import Decision
from p2pgames.tui._commands import COMMAND_WORDS, normalize

__all__ = ["ChoiceCompleter"]


def _in_order(typed: str, candidate: str) -> bool:
    """Whether the characters of ``typed`` (spaces ignored) appear in ``candidate`` in order."""
    position = 0
    for char in typed.replace(" ", ""):
        position = candidate.find(char, position) + 1
        if position == 0:
            return False
    return True


class ChoiceCompleter(Completer):
    """Completes with the choices of ``get_decision()`` (the current decision, or ``None``),
    each shown with the number of its line in the numbered list."""

    def __init__(self, get_decision: Callable[[], Decision | None]) -> None:
        self.get_decision = get_decision

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        before = document.text_before_cursor
        typed = normalize(before)
        if normalize(before[:4]) == "say" and before[3:4] == " ":
            return  # chat text is free text
        if not typed and not complete_event.completion_requested:
            return  # an empty line lists everything only when asked (Tab)
        if typed.isdigit():
            return  # a number picks from the numbered list
        candidates = self._choices(typed) + [(word, word, "command") for word in COMMAND_WORDS]
        prefix = [candidate for candidate in candidates if normalize(candidate[0]).startswith(typed)]
        shown = {text for text, _, _ in prefix}
        fuzzy = [
            candidate
            for candidate in candidates
            if candidate[0] not in shown and _in_order(typed, normalize(candidate[0]))
        ]
        for text, display, meta in prefix + fuzzy:
            yield Completion(text, start_position=-len(before), display=display, display_meta=meta)

    def _choices(self, typed: str) -> list[tuple[str, str, str]]:
        """(text to put on the line, what the menu shows, its meta) for the decision's choices."""
        decision = self.get_decision()
        if decision is None:
            return []
        found = []
        for number, group in enumerate(decision.menu, 1):
            for unit in group.parts or (group,):
                texts = [decision.texts[index] for index in unit.members]
                stem = os.path.commonprefix(texts).rstrip()
                if len(texts) > 1 and normalize(stem).startswith(typed) and len(normalize(stem)) > len(typed):
                    found.append((stem, unit.label, f"choice {number}"))  # the rest is the player's to type
                else:
                    found += [(text, text, f"choice {number}") for text in texts]
        if decision.standing is not None:
            label = decision.standing.label
            found.append((label, label, f"choice {len(decision.menu) + 1}"))
        return found
