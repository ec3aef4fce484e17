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
from typing import Callable, Iterable, Sequence

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from p2pgames.session import Decision
from p2pgames.engine import ChoiceGroup
from p2pgames.tui._commands import COMMAND_WORDS, choice_texts, menu_lines, normalize

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
    """Completes with the choices of ``get_decision()`` (the current decision, or ``None``), a
    choice that is a line of the numbered list ``get_lines()`` shown with that line's number."""

    def __init__(
        self,
        get_decision: Callable[[], Decision | None],
        get_lines: Callable[[], Sequence[ChoiceGroup]] | None = None,
    ) -> None:
        self.get_decision = get_decision
        self.get_lines = get_lines

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
        lines = list(self.get_lines()) if self.get_lines is not None else menu_lines(decision)
        # What typing a number picks: the lines of the list shown now that are one choice each.
        numbered = {line.members[0]: number for number, line in enumerate(lines, 1) if len(line.members) == 1}
        texts = choice_texts(decision)

        def meta(index: int) -> str:
            return f"choice {numbered[index]}" if index in numbered else ""

        found = []
        for group in decision.menu:
            for unit in group.parts or (group,):
                members = [texts[index] for index in unit.members]
                stem = os.path.commonprefix(members).rstrip()
                if len(members) > 1 and normalize(stem).startswith(typed) and len(normalize(stem)) > len(typed):
                    found.append((stem, unit.label, ""))  # the rest is the player's to type
                else:
                    found += [(texts[index], texts[index], meta(index)) for index in unit.members]
        if decision.standing is not None:
            index = len(decision.texts)
            found.append((texts[index], texts[index], meta(index)))
        return found
