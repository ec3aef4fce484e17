"""Completing the input line: your legal moves first, then the commands.

A candidate matches when it starts with what is typed (ignoring case and repeated spaces) or, failing
that, when the typed characters appear in it in order (``dg13`` finds ``discard G13``). The whole
line is replaced, so a completed move is exactly the text the game expects.
"""

from __future__ import annotations

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
        decision = self.get_decision()
        candidates = []
        if decision is not None:
            for number, group in enumerate(decision.menu, 1):
                candidates += [(decision.texts[index], f"choice {number}") for index in group.members]
        candidates += [(word, "command") for word in COMMAND_WORDS]
        prefix = [(text, meta) for text, meta in candidates if normalize(text).startswith(typed)]
        shown = {text for text, _ in prefix}
        fuzzy = [
            (text, meta)
            for text, meta in candidates
            if text not in shown and _in_order(typed, normalize(text))
        ]
        for text, meta in prefix + fuzzy:
            yield Completion(text, start_position=-len(before), display_meta=meta)
