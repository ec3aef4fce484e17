"""Completing the input line: your legal moves first, then the commands.

A candidate matches when it starts with what is typed (ignoring case and repeated spaces) or, failing
that, when the typed characters appear in it in order (``dg13`` finds ``discard G13``). The whole
line is replaced, so a completed move is exactly the text the game expects.
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

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
    """Completes with ``get_choices()`` (the texts of the current decision; empty when none)."""

    def __init__(self, get_choices: Callable[[], Sequence[str]]) -> None:
        self.get_choices = get_choices

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        before = document.text_before_cursor
        typed = normalize(before)
        if normalize(before[:4]) == "say" and before[3:4] == " ":
            return  # chat text is free text
        if not typed and not complete_event.completion_requested:
            return  # an empty line lists everything only when asked (Tab)
        if typed.isdigit():
            return  # a number picks from the numbered list
        choices = list(self.get_choices())
        numbered = {choice: number for number, choice in enumerate(choices, 1)}
        candidates = [(choice, f"choice {numbered[choice]}") for choice in choices]
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
