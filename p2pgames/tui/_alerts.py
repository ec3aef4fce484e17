"""Turn alerts: the terminal bell, and a desktop notification where the terminal shows one.

A desktop notification is an escape sequence the terminal turns into a notification of the
desktop's: OSC 9 (``ESC ] 9 ; text BEL``: iTerm2, WezTerm, kitty, Ghostty) or OSC 777
(``ESC ] 777 ; notify ; title ; text BEL``: terminals built on VTE such as GNOME Terminal, foot,
WezTerm, Ghostty). There is no way to ask a terminal which it understands, and one that doesn't
may print the text or, worse, read OSC 9 as something else (Windows Terminal and ConEmu take
``OSC 9 ; 4`` as a progress bar): so the sequence is sent only to terminals known by their
environment, and never through tmux or screen (which would swallow it, or need it wrapped).
"""

from __future__ import annotations

from typing import Mapping

__all__ = ["notification"]

# Terminals that say who they are in TERM_PROGRAM, and the sequence each shows best.
_BY_PROGRAM = {"iTerm.app": "osc9", "WezTerm": "osc777", "ghostty": "osc777"}
_MAX_TEXT = 200


def notification(environment: Mapping[str, str], title: str, text: str) -> str:
    """The escape sequence that raises a desktop notification saying ``text`` (under ``title``)
    in the terminal ``environment`` describes, or ``""`` where none is known to work."""
    kind = _kind(environment)
    title, text = _clean(title), _clean(text)
    if kind == "osc9":
        return f"\x1b]9;{title}: {text}\x07"
    if kind == "osc777":
        return f"\x1b]777;notify;{title};{text}\x07"
    return ""


def _kind(environment: Mapping[str, str]) -> str | None:
    term = environment.get("TERM", "")
    if environment.get("TMUX") or environment.get("STY") or term.startswith(("tmux", "screen")):
        return None
    program = _BY_PROGRAM.get(environment.get("TERM_PROGRAM", ""))
    if program is not None:
        return program
    if term == "xterm-kitty" or environment.get("KITTY_WINDOW_ID"):
        return "osc9"
    if term.startswith("foot") or environment.get("VTE_VERSION"):
        return "osc777"
    return None


def _clean(text: str) -> str:
    """``text`` with nothing that could end the sequence or start another (control characters,
    and ``;`` which separates OSC 777's fields), and not too long."""
    cleaned = "".join(" " if ord(char) < 32 or 0x7F <= ord(char) < 0xA0 or char == ";" else char for char in text)
    return cleaned[:_MAX_TEXT]
