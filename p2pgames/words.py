"""Words for messages people read. Pure: every layer may use it (no imports from the project).

:func:`joined` lists words as a sentence does;
:func:`with_article` puts "a" or "an" before a word by how it is said, not by its first letter;
:func:`duration` writes a time as a clock shows it; :func:`parse_duration` reads one a person typed.
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

__all__ = ["with_article", "joined", "duration", "parse_duration", "sentence_start"]


# Words whose first letter misleads: a vowel said as "you" or "won", a silent "h". "uni" is said
# "you" only in these stems (a union, a unit, a universe); elsewhere it is "un" + a word said "in"
# or "im": an uninitialized value, an unimportant one.
_SAID_WITH_A = (
    "unic", "unif", "unil", "unio", "unip", "uniq", "unis", "unit", "univ", "unix",
    "usa", "use", "usu", "ura", "ure", "uro", "uti", "eu", "ewe",
)
_SAID_WITH_AN = ("hour", "honest", "honor", "honour", "heir")
# Letters whose names begin with a vowel sound: an F, an RSA key, an x.
_LETTERS_WITH_AN = "aefhilmnorsx"


def with_article(word: str) -> str:
    """``word`` with its indefinite article, for messages: "an entry", "a pass".

    The article goes by how the word is said: "a use", "an hour", "an RSA key" (a word in capitals
    is spelt out, and so is a single letter), "an 8-byte frame", "an 18-card deck", "a 1048577-byte
    frame". Leading quotes or brackets are skipped: "a 'shuffle' pass". An empty word gets "a ".
    """
    return ("an " if _starts_with_vowel_sound(word) else "a ") + word


def _starts_with_vowel_sound(word: str) -> bool:
    start = word.lstrip("'\"‘“([{<")
    if not start:
        return False
    if start[0].isdigit():
        digits = re.match(r"[0-9][0-9,]*", start).group().replace(",", "")  # type: ignore[union-attr]
        # Said in groups of three from the left: 8, 11, 18, 80–89, 800–899 thousand … say "an".
        lead = digits[: len(digits) % 3 or 3]
        return lead.startswith("8") or lead in ("11", "18")
    if re.match(r"[A-Z]{2,}(?![a-z])|[A-Za-z](?![A-Za-z])", start):
        return start[0].lower() in _LETTERS_WITH_AN  # spelt out: an x, an RSA key, a PEM file
    letters = re.match(r"[A-Za-z]*", start).group()  # type: ignore[union-attr]
    if not letters:
        return False
    lower = letters.lower()
    if lower in ("one", "once") or lower.startswith(_SAID_WITH_A):
        return False
    if lower.startswith(_SAID_WITH_AN):
        return True
    return lower[0] in "aeiou"


def joined(words: Iterable[str], none: str = "", *, conjunction: str = "and") -> str:
    """Words as a sentence lists them: ``a``, ``a and b``, ``a, b and c`` (or with another
    ``conjunction``: ``a, b or c``); ``none`` for no word."""
    words = list(words)
    if not words:
        return none
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {conjunction} " + words[-1]


def spelled_duration(seconds: int) -> str:
    """A time in words, in its largest whole unit: ``2 minutes``, ``90 seconds``, ``1 hour``."""
    for unit, size in (("hour", 3600), ("minute", 60)):
        if seconds % size == 0 and seconds:
            count = seconds // size
            return f"{count} {unit}{'s' if count != 1 else ''}"
    return f"{seconds} second{'s' if seconds != 1 else ''}"


def duration(seconds: float) -> str:
    """A time as a clock shows it: ``0:42``, ``3:00``, and past an hour ``1:02:03``."""
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


_DURATION_UNITS = re.compile(r"(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?")
_CLOCK = re.compile(r"(?:(\d+):)?(\d+):([0-5]\d)")


def parse_duration(text: str) -> int:
    """Whole seconds from a time as a person types it: ``180`` (seconds), ``90s``, ``3m``,
    ``1m30s``, ``1h``, or as :func:`duration` shows it (``3:00``, ``1:02:03``). Raises
    :class:`ValueError` saying which forms it takes."""
    typed = "".join(text.split()).lower()
    if typed.isdigit():
        return int(typed)
    clock = _CLOCK.fullmatch(typed)
    if clock:
        hours, minutes, seconds = (int(part or 0) for part in clock.groups())
        return hours * 3600 + minutes * 60 + seconds
    units = _DURATION_UNITS.fullmatch(typed)
    if typed and units:
        hours, minutes, seconds = (int(part or 0) for part in units.groups())
        return hours * 3600 + minutes * 60 + seconds
    raise ValueError(f"{text!r} is not a time: write it as 180, 90s, 3m, 1m30s, 1h or 3:00")


def sentence_start(text: str, names: Sequence[str] = ()) -> str:
    """``text`` with its first letter capitalised to open a sentence (``Your move: …``, ``Waiting
    for bob …``), unless it opens with one of ``names`` — a player's name is shown as the player
    typed it (``root to move: …``, ``root, bob: …``)."""
    for name in names:
        if name and text.startswith(name) and text[len(name):len(name) + 1] in ("", " ", ",", ":"):
            return text
    return text[:1].upper() + text[1:]
