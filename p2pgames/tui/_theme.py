"""Colours, or their absence: the screen's style classes and how a game's style names map to them.

Games name styles, not colours (see :class:`p2pgames.engine.Panel`): ``dim``, ``bold``, ``good``,
``bad``, ``warn``, ``you`` and ``suit-<name>``. :class:`Theme` turns those names into prompt_toolkit
style strings. The monochrome theme (``--no-color``, ``NO_COLOR``) uses only bold, underline and
reverse video, so a table stays readable on any terminal.
"""

from __future__ import annotations

import os
import re
import zlib

from prompt_toolkit.styles import Style

__all__ = ["Theme", "color_wanted"]

GAME_STYLES = frozenset({"dim", "bold", "good", "bad", "warn", "you"})

# Suits of the games we ship; any other suit gets a steady colour picked from PALETTE by its name.
SUIT_COLOURS = {
    "steam": "#5fd7d7",
    "gears": "#d7af5f",
    "parts": "#87d75f",
    "electricity": "#af87ff",
}
PALETTE = ("#5fd7d7", "#d7af5f", "#87d75f", "#af87ff", "#ff875f", "#5f87ff", "#d75f87", "#d7d75f")

BRASS = "#d7af5f"
SKY = "#5fd7ff"

COLOUR_RULES = {
    "title": f"bg:#3a2a1a {BRASS} bold",
    "title.seat": "bg:#3a2a1a #d0d0d0 nobold",
    "status": "bg:#262626 #d0d0d0",
    "status.you": f"bg:#262626 {SKY} bold",
    "status.over": "bg:#262626 #87d75f bold",
    "status.bad": "bg:#262626 #ff5f5f bold",
    "panel-title": f"{BRASS} bold",
    "rule": "#585858",
    "rule.label": "#8a8a8a",
    "more": "#8a8a8a italic",
    "log.say": BRASS,
    "log.info": "#8a8a8a",
    "log.chat-name": "bold",
    "log.chat-name.you": f"{SKY} bold",
    "log.notice": "#ffaf00",
    "log.problem": "#ffaf00",
    "log.ask": "#ffaf00 bold",  # the players have a choice to make (end a game a seat is away from)
    "log.fault": "bg:#5f0000 #ffffff bold",
    "log.end": "#87d75f bold",
    "log.you": SKY,
    "help.heading": f"{BRASS} bold",
    "help.key": "bold",
    "move": f"{SKY} bold",
    "move.secret": "#8a8a8a italic",
    "move.warn": "#ffaf00",
    "choice.number": "#8a8a8a",
    "banner.over": "#87d75f bold",
    "banner.fault": "bg:#5f0000 #ffffff bold",
    "banner.ask": "#ffaf00 bold",
    "banner.info": "#8a8a8a",
    "prompt": f"{BRASS} bold",
    "hint": "#6c6c6c",
    "g-dim": "#8a8a8a",
    "g-bold": "bold",
    "g-good": "#87d75f",
    "g-bad": "#ff5f5f",
    "g-warn": "#ffaf00",
    "g-you": f"{SKY} bold",
    "completion-menu.completion": "bg:#3a3a3a #d0d0d0",
    "completion-menu.completion.current": f"bg:{BRASS} #000000",
    "completion-menu.meta.completion": "bg:#303030 #8a8a8a",
    "completion-menu.meta.completion.current": "bg:#af875f #000000",
    **{f"suit-{suit}": colour for suit, colour in SUIT_COLOURS.items()},
}

MONOCHROME_RULES = {
    "title": "reverse bold",
    "title.seat": "reverse nobold",
    "status": "",
    "status.you": "bold",
    "status.over": "bold",
    "status.bad": "bold",
    "panel-title": "bold",
    "rule": "",
    "rule.label": "",
    "more": "italic",
    "log.chat-name": "bold",
    "log.chat-name.you": "bold underline",
    "log.ask": "bold",
    "log.fault": "reverse bold",
    "log.end": "bold",
    "help.heading": "bold",
    "help.key": "bold",
    "move": "bold",
    "move.secret": "italic",
    "move.warn": "underline",
    "banner.over": "bold",
    "banner.fault": "reverse bold",
    "banner.ask": "bold",
    "prompt": "bold",
    "g-bold": "bold",
    "g-good": "bold",
    "g-bad": "bold underline",
    "g-warn": "underline",
    "g-you": "bold underline",
    # prompt_toolkit's default menu is told apart by colour alone.
    "completion-menu.completion": "",
    "completion-menu.completion.current": "reverse",
    "completion-menu.meta.completion": "",
    "completion-menu.meta.completion.current": "reverse",
}


def color_wanted(color: bool) -> bool:
    """``color`` unless the ``NO_COLOR`` environment variable is set (https://no-color.org)."""
    return color and not os.environ.get("NO_COLOR")


class Theme:
    """The style of the whole screen, in colour or monochrome."""

    def __init__(self, color: bool) -> None:
        self.color = color
        self.style = Style.from_dict(COLOUR_RULES if color else MONOCHROME_RULES)

    def game_style(self, name: str) -> str:
        """The style string for a game's style ``name`` (names it doesn't know are plain)."""
        if name in GAME_STYLES:
            return f"class:g-{name}"
        if name.startswith("suit-"):
            suit = re.sub(r"[^a-z0-9_-]", "", name[5:].lower())
            if suit in SUIT_COLOURS or not self.color:
                return f"class:suit-{suit}" if suit else ""
            return "fg:" + PALETTE[zlib.crc32(suit.encode()) % len(PALETTE)]
        return ""

    def game_line(self, segments) -> list[tuple[str, str]]:
        """A game's ``(style name, text)`` segments as a styled line, newlines flattened."""
        return [(self.game_style(style), text.replace("\n", " ")) for style, text in segments]
