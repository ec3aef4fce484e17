"""What a Solo game of Steam Court shows: action texts, log lines, panels, and the variants' help.

Everything here reads the state and never changes it. In Solo every card the player holds is
public (RULES.md, I40), so texts and panels need no knowledge.
"""

from __future__ import annotations

from typing import Any, Sequence

from p2pgames.engine import Panel

from p2pgames.games.steamcourt.actions import Pass
from p2pgames.games.steamcourt.cards import CHARACTER_TITLE, FACE, MASTERSTROKE_VALUE
from p2pgames.games.steamcourt.solo import (
    HAND_SIZE,
    LADDER,
    Beat,
    DiscardLowest,
    GiveUp,
    Recall,
    SoloState,
    Strike,
    StopTrick,
    rank_of,
)
from p2pgames.engine import wrap_segments
from p2pgames.games.steamcourt.views import WIDTH, _count, _faces, _lay_text

__all__ = ["describe_action", "narrate", "panels", "HELP", "trick_text"]

HELP = """\
Solo (1 player): beat the Court Hand's three tricks as Engineer to the Tea
Boy, Jester, Time Traveler, Duke, General and Queen before it runs out. Each
round: your privilege, draw to 12, the Court Hand turns up cards until three
tricks lie on the table (equal numbers stack; X and MS add one to the
left-most trick; 3/9 and 6/12 count low). Beat a trick with as many cards
of a higher value; advance when all three are beaten.
  lay 7 7 on 2       beat trick 2          lay 5 +X3 on 1  a 5 and X as three
  lay 7 as set on 3  (Jester) one card     lay MS on 1     beats any trick
  stop 2             (General) one trick   retrieve 7      (Time Traveler)
  give up 11 12      (Tea Boy)             discard 3 3     (General, Queen)
  pass               end the round (beaten tricks go; the rest stay)"""


def trick_text(state: SoloState, trick: list) -> str:
    """``2 × 7 (7 7)`` or ``3 × 5 (5 5 X)``: what a trick counts as, and its cards."""
    revealed = state.cards.revealed
    faces = _faces([FACE[revealed[slot]] for slot in trick[0]])
    return f"{trick[2]} × {trick[1]} ({' '.join(faces)})"


def _faces_of(state: SoloState, slots: Sequence[int]) -> str:
    return " ".join(_faces([FACE[state.cards.revealed[slot]] for slot in slots]))


def _beat_text(state: SoloState, slots: Sequence[int], value: int, quantity: int, multiplier: bool) -> str:
    if value == MASTERSTROKE_VALUE:
        return "MS"
    faces = [FACE[state.cards.revealed[slot]] for slot in slots]
    if not multiplier and len(faces) == 1 and quantity > 1:
        face = faces[0]
        return f"{face} as set" if face == str(value) else f"{face} as set of {value}"
    return _lay_text(faces, value, quantity, multiplier)


# -- action texts ----------------------------------------------------------------------------------


def describe_action(state: SoloState, action: Any) -> str:
    kind = type(action)
    if kind is Beat:
        text = _beat_text(state, action.slots, action.value, action.quantity, action.multiplier is not None)
        return f"lay {text} on {action.trick + 1}"
    if kind is Strike:
        return f"lay MS on {action.trick + 1}"
    if kind is StopTrick:
        return f"stop {action.trick + 1}"
    if kind is Recall:
        return f"retrieve {FACE[state.cards.revealed[action.slot]]}"
    if kind is GiveUp:
        return f"give up {_faces_of(state, action.slots) or 'nothing'}"
    if kind is DiscardLowest:
        return f"discard {_faces_of(state, action.slots)}"
    if kind is Pass:
        return "pass"
    return repr(action)  # pragma: no cover


# -- the log ---------------------------------------------------------------------------------------


def narrate(after: SoloState, names: Sequence[str]) -> list[str]:
    lines: list[str] = []
    revealed = after.cards.revealed
    you = names[0] if names else "you"
    for note in after.notes:
        kind = note[0]
        if kind == "deal":
            lines.append(f"— Solo: {note[1]} cards to {you}, {note[2]} to the Court Hand, {note[3]} in the draw pile —")
        elif kind == "round":
            lines.append(f"— round {note[1]}: Engineer to the {CHARACTER_TITLE[note[2]]} —")
        elif kind == "give-up":
            faces = _faces_of(after, note[1]) or "nothing"
            lines.append(f"{you} (Tea Boy) puts {faces} under the Court Hand")
        elif kind == "discard":
            lines.append(f"{you} ({CHARACTER_TITLE[after.character]}) discards {_faces_of(after, note[1])}")
        elif kind == "no-privilege":
            lines.append(f"{you} ({CHARACTER_TITLE[after.character]}) discards nothing")
        elif kind == "reshuffle":
            lines.append(f"the draw pile is empty: the discard pile ({_count(note[1], 'card')}) is shuffled into a new one")
        elif kind == "draw":
            lines.append(f"{you} draws {_count(note[1], 'card')}")
        elif kind == "court":
            _, slot, index, how = note
            face = FACE[revealed[slot]]
            if how == "new":
                lines.append(f"the Court Hand turns up {face}: trick {index + 1}")
            elif how == "stack":
                lines.append(f"the Court Hand turns up {face}: stacked on trick {index + 1}")
            elif how == "multiplier":
                lines.append(f"the Court Hand turns up {face}: a Multiplier on trick 1")
            else:
                lines.append(f"the Court Hand turns up {face}: a Multiplier for the first trick")
        elif kind == "tricks":
            tricks = ", ".join(f"{i + 1}: {trick_text(after, t)}" for i, t in enumerate(after.tricks))
            lines.append(f"tricks on the table — {tricks}; Court Hand {len(after.court)}")
        elif kind == "beat":
            _, index, slots, value, quantity, multiplier = note
            text = _beat_text(after, slots, value, quantity, multiplier >= 0)
            lines.append(f"{you} beats trick {index + 1} with {text}")
        elif kind == "stop":
            lines.append(f"{you} (General) stops trick {note[1] + 1}: {_faces_of(after, note[2])} go back under the Court Hand")
        elif kind == "recall":
            lines.append(f"{you} (Time Traveler) retrieves {FACE[revealed[note[1]]]} from the discard pile")
        elif kind == "pass":
            lines.append(f"{you} passes")
        elif kind == "last-round":
            lines.append("every trick beaten")  # the game is won: they stay on the table
        elif kind == "round-over":
            _, beaten, discarded, everything = note
            if everything:
                lines.append(f"every trick beaten: {_count(discarded, 'trick')} to the discard pile")
            elif beaten:
                lines.append(f"{_count(beaten, 'trick')} beaten and discarded; the others stay")
            else:
                lines.append(f"no trick beaten: all {_count(discarded, 'trick')} are discarded")
        elif kind == "advance":
            lines.append(f"{you} advances: Engineer to the {CHARACTER_TITLE[note[1]]}")
        elif kind == "court-out":
            lines.append(f"the Court Hand has run out with {_count(note[1], 'trick')} on the table")
        elif kind == "won":
            lines.append(f"{you} beat the Court Hand as Engineer to the Queen with {_count(note[1], 'card')} left: {rank_of(note[1])}")
        elif kind == "lost":
            lines.append(f"{you} lost as Engineer to the {CHARACTER_TITLE[after.character]}")
    return lines


# -- panels ----------------------------------------------------------------------------------------


def panels(state: SoloState, names: Sequence[str]) -> list[Panel]:
    """The round, the ladder, the three tricks, the hand and the powers.

    The same five panels in every round, titles of at most 16 characters and lines of at most
    :data:`~.views.WIDTH` (61) columns, so that the terminal UI lays them out the same way every
    round at 80×24: titles in a column on the left, each panel's lines beside its title.
    """
    return [_header(state), _ladder(state), _tricks(state), _hand(state), _powers(state)]


def _header(state: SoloState) -> Panel:
    segments = [
        ("bold", f"round {state.round}" if state.round else "dealing"),
        ("", f"· Court Hand {len(state.court)}"),
        ("", f"· draw pile {len(state.draw)}"),
        ("", f"· discard pile {len(state.discard)}"),
    ]
    if state.won == 1:
        segments.append(("good", f"· won: {rank_of(len(state.court))}"))
    elif state.won == 0:
        segments.append(("bad", "· lost"))
    elif state.character == "queen":
        segments.append(("dim", f"· a win now: {rank_of(len(state.court))}"))
    return Panel("Solo", tuple(wrap_segments(segments, "  ")))


def _ladder(state: SoloState) -> Panel:
    """The six characters, the one you are Engineer to in brackets, those beaten ticked; an arrow
    starts each step, so a line that wraps begins with one."""
    segments: list[tuple[str, str]] = []
    for rung, character in enumerate(LADDER):
        title = CHARACTER_TITLE[character]
        if rung < state.rung or state.won == 1:
            style, text = "good", f"{title} ✓"
        elif rung == state.rung:
            style, text = "bold", f"[{title}]"
        else:
            style, text = "dim", title
        segments.append((style, f"→ {text}" if rung else text))
    return Panel("The ladder", tuple(wrap_segments(segments, "  ")))


def _tricks(state: SoloState) -> Panel:
    if not state.tricks:
        return Panel("The tricks", ((("dim", "none on the table"),),))
    lines = []
    for index, trick in enumerate(state.tricks):
        line: list[tuple[str, str]] = [("bold", f"{index + 1} "), ("", f"{trick_text(state, trick):<28} ")]
        lay = trick[3]
        if lay:
            line.append(("good", "beaten by " + _beat_text(state, lay[0], lay[1], lay[2], lay[3] >= 0)))
        else:
            line.append(("warn", f"to beat: {trick[2]} × above {trick[1]}"))
        lines.append(tuple(line))
    return Panel("The tricks", tuple(lines))


def _hand(state: SoloState) -> Panel:
    faces = [FACE[state.cards.revealed[slot]] for slot in state.hand if slot in state.cards.revealed]
    if not faces:
        return Panel("Your hand", ((("dim", "no cards"),),))
    segments = [("bold" if face in ("MS", "X", "3/9", "6/12") else "", face) for face in _faces(faces)]
    reminder = f"(you draw up to {HAND_SIZE})"
    if sum(len(text) + 1 for _, text in segments) + len(reminder) <= WIDTH:
        segments.append(("dim", reminder))
    return Panel(f"Your hand ({len(faces)})", tuple(wrap_segments(segments, "  ")))


_SOLO_POWERS = {  # each fits WIDTH after "Character: " and " (used)" or " (done)"
    "teaboy": ("", "round 1: give up your two top numbered cards"),
    "jester": ("pair", "once a round: play a single card as a set"),
    "timetraveler": ("retrieve", "once a round: retrieve a discarded card"),
    "duke": ("", "match a trick's number instead of beating it"),
    "general": ("stop", "swap your lowest card; stop one trick a round"),
    "queen": ("", "each round: discard your lowest card or set and draw"),
}


def _powers(state: SoloState) -> Panel:
    power, text = _SOLO_POWERS[state.character]
    note = " (used)" if power and power in state.used else ""
    if state.character == "teaboy" and (state.round > 1 or state.phase != "privilege"):
        note = " (done)"
    words = [("", word) for word in (text + note).split(" ")]
    return Panel("Your privilege", tuple(wrap_segments(words, "  ", [("bold", f"{CHARACTER_TITLE[state.character]}:")])))
