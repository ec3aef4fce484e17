"""What people see of a Steam Court table: action texts, log lines, panels and the help text.

Everything here reads the state and never changes it. Log lines use public information only;
action texts and panels may use the viewer's own knowledge of hidden cards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from p2pgames.engine import Event, Knowledge, Panel

from p2pgames.games.steamcourt.actions import (
    Coup,
    DiscardTwo,
    Dive,
    Give,
    Hoard,
    Inspect,
    KeepRest,
    Lay,
    Masterstroke,
    Pass,
    Plague,
    PutBack,
    Retrieve,
    Serve,
    Steal,
    Stop,
    Trade,
    Unpass,
)
from p2pgames.games.steamcourt.cards import (
    CHARACTER_NUMBER,
    CHARACTER_TITLE,
    FACE,
    FACE_ORDER,
    MASTERSTROKE_VALUE,
    TABLE_NAMES,
)

if TYPE_CHECKING:
    from p2pgames.games.steamcourt.rules import SteamCourt, SteamCourtState

__all__ = [
    "describe_action",
    "narrate",
    "panels",
    "result_summary",
    "party_result_summary",
    "HELP",
    "PARTY_HELP",
    "space_name",
]

WIDTH = 78  # panels must fit an 80-column terminal, borders included

HELP = """\
Steam Court: get rid of your cards before the others. Gear tokens go to
players in the order they go out (first out: the highest); after four
quarters the most points (start token + gear tokens) wins.

A quarter: privileges first (Queen, General: give a card away; Tea Boy: give
your two highest numbered cards to the Queen, then trade your hand for the
Court Hand or keep it). The Queen leads: any number of cards of one value.
Each player in turn lays as many cards of a higher value, or passes and sits
out the trick. When everyone has passed the highest lay wins and leads next.
Masterstroke (MS) beats everything and ends the trick. A Multiplier (X) makes
cards of one value count as many as you say; alone it is a single 1. 3/9 and
6/12 count as either value. Duke: match instead of beat. General: stop one
lay a quarter. Time Traveler: take back your last lay of a lost trick. Jester:
unpass once, and play one card as a pair once. The last player with cards
takes the 1-point token: its power (Unpass, Discard two) is yours for later.

Type (cards by face; seats by name):
  lay 7 7 7          three 7s             lay 5 5 +X3     two 5s, X: three 5s
  lay 3/9 as 9       a 3/9 as a 9         lay X           a Multiplier: one 1
  lay 9 7 as 7       (Alchemist) 9 as 7   lay 7 as pair   (Jester) 7 as two
  lay MS             a Masterstroke       pass            sit out the trick
  give 2 to carol    (Queen, General)     give 11 12 to alice  (Tea Boy)
  trade | keep       (Tea Boy)            hoard | leave   (Vagabond)
  inspect bob        (Inspector)          coup            three Masterstrokes
  stop bob           (General)            retrieve        (Time Traveler)
  unpass             (token or Jester)    discard 2 5     (Discard-two token)
  steal 7            (Pirate)             plague          (Plague Doctor)
  dive court 7       (Submariner)         put back 7 | keep   after drawing"""


# -- names -----------------------------------------------------------------------------------------


def _face(state: "SteamCourtState", slot: int, knowledge: Knowledge) -> str:
    name = state.cards.revealed.get(slot) or knowledge.get(slot)
    return FACE[name] if name is not None else f"#{slot}"


def _faces(faces: Sequence[str]) -> list[str]:
    return sorted(faces, key=lambda face: (FACE_ORDER.get(face, 99), face))


def _title(state: "SteamCourtState", player: int) -> str:
    table = state.table_of(player)
    if player in table.seats:
        return CHARACTER_TITLE[table.character_of(player)]
    return "?"  # pragma: no cover


def _who(state: "SteamCourtState", player: int, names: Sequence[str]) -> str:
    return f"{names[player]} ({_title(state, player)})"


def _lay_text(faces: Sequence[str], value: int, quantity: int, multiplier: bool) -> str:
    """``7 7 7``, ``5 5 +X3``, ``3/9 as 9``, ``9 7 as 7``, ``7 as pair``, ``X``, ``MS``."""
    if value == MASTERSTROKE_VALUE:
        return "MS"
    ordered = _faces(faces)
    if multiplier and not ordered:
        return "X"
    text = " ".join(ordered)
    plain = all(face == str(value) for face in ordered)
    if multiplier:
        text += f" +X{quantity}"
    if not multiplier and len(ordered) == 1 and quantity == 2:
        return text + (" as pair" if plain else f" as pair of {value}")
    if not plain:
        text += f" as {value}"
    return text


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _ordinal(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


def space_name(space: int) -> str:
    """A Clock Climbing space: 12 outer circles, then the inner circles (round again after)."""
    hour = space % 12 + 1
    if space < 12:
        return f"outer {hour}"
    lap = space // 12
    return f"inner {hour}" + (f" (lap {lap})" if lap > 1 else "")


# -- action texts ----------------------------------------------------------------------------------


def describe_action(
    state: "SteamCourtState", player: int, action: Any, knowledge: Knowledge, names: Sequence[str]
) -> str:
    """The text ``player`` types for ``action``; see :data:`HELP`."""
    kind = type(action)
    if kind is Lay:
        faces = [_face(state, slot, knowledge) for slot in action.slots]
        return "lay " + _lay_text(faces, action.value, action.quantity, action.multiplier is not None)
    if kind is Masterstroke:
        return "lay MS"
    if kind is Pass:
        return "pass"
    if kind is Give:
        return f"give {_face(state, action.slot, knowledge)} to {names[action.to]}"
    if kind is Serve:
        faces = _faces([_face(state, slot, knowledge) for slot in action.slots])
        return f"give {' '.join(faces) or 'nothing'} to {names[action.to]}"
    if kind is Trade:
        return "trade" if action.trade else "keep"
    if kind is Hoard:
        return "hoard" if action.hoard else "leave"
    if kind is Inspect:
        return f"inspect {names[action.seat]}"
    if kind is Coup:
        return "coup"
    if kind is Stop:
        table = state.table_of(player)
        return f"stop {names[table.lays[-1][0]]}" if table.lays else "stop"
    if kind is Retrieve:
        return "retrieve"
    if kind is Steal:
        return f"steal {_face(state, action.slot, knowledge)}"
    if kind is Unpass:
        if len(state.unpass_sources(player)) > 1:
            return f"unpass {action.source}"
        return "unpass"
    if kind is DiscardTwo:
        return "discard " + " ".join(_faces([_face(state, s, knowledge) for s in action.slots]))
    if kind is Dive:
        return f"dive {action.pile} {_face(state, action.slot, knowledge)}"
    if kind is Plague:
        return "plague"
    if kind is PutBack:
        return f"put back {_face(state, action.slot, knowledge)}"
    if kind is KeepRest:
        return "keep"
    return repr(action)  # pragma: no cover - every action kind is handled above


# -- the log ---------------------------------------------------------------------------------------


def narrate(
    before: "SteamCourtState", event: Event, after: "SteamCourtState", names: Sequence[str]
) -> list[str]:
    """Log lines for ``event``, from public information only (what it did is in the notes)."""
    lines: list[str] = []
    party = len(after.tables) > 1
    for note in after.notes:
        if party:
            lines.extend(_narrate_party_note(before, after, note, names))
        else:
            lines.extend(_narrate_note(before, after, note, names))
    return lines


_POWER_NAMES = {"unpass": "Unpass", "discard": "Discard two numbered cards"}


def _narrate_note(
    before: "SteamCourtState", after: "SteamCourtState", note: tuple, names: Sequence[str]
) -> list[str]:
    revealed = after.cards.revealed
    kind = note[0]
    if kind == "seating":
        table = after.tables[0]
        seats = ", ".join(
            f"{position + 1} {names[player]} ({CHARACTER_TITLE[table.characters[position]]})"
            for position, player in enumerate(note[1])
        )
        return [f"start tokens: {seats}"]
    if kind == "quarter":
        _, quarter, size, court = note
        return [f"— quarter {quarter}: {size} cards each, {court} in the Court Hand —"]
    if kind == "coup-claim":
        return [f"{names[note[1]]} pulls a coup: revealing three Masterstrokes"]
    if kind == "coup":
        return [f"{names[note[1]]} seizes the Queen's seat; the cards are dealt again"]
    if kind == "give":
        return [f"{_who(after, note[1], names)} gives {names[note[2]]} a card"]
    if kind == "no-give":
        return [f"{_who(after, note[1], names)} gives no card"]
    if kind == "inspect":
        _, player, seat, court = note
        return [
            f"{_who(after, player, names)} looks at the Court Hand ({_count(court, 'card')}) "
            f"and at {names[seat]}'s hand"
        ]
    if kind == "no-inspect":
        return [f"{_who(after, note[1], names)} looks at nothing"]
    if kind == "serve":
        _, player, count, to = note
        cards = {0: "no card (no numbered card)", 1: "one numbered card (the only one)"}.get(
            count, "the two highest numbered cards"
        )
        return [f"{_who(after, player, names)} gives {names[to]} {cards}"]
    if kind == "trade":
        _, player, traded, got = note
        return [
            f"{_who(after, player, names)} trades {_count(traded, 'card')} for the Court Hand "
            f"({_count(got, 'card')})"
        ]
    if kind == "keep":
        return [f"{_who(after, note[1], names)} keeps the hand"]
    if kind == "hoard":
        return [f"{_who(after, note[1], names)} hoards the Court Hand ({_count(note[2], 'card')})"]
    if kind == "leave":
        return [f"{_who(after, note[1], names)} leaves the Court Hand"]
    if kind == "lay":
        _, player, slots, value, quantity, multiplier = note
        if value == MASTERSTROKE_VALUE:
            return [f"{names[player]} lays a Masterstroke"]
        faces = [FACE[revealed[slot]] for slot in slots]
        return [f"{names[player]} lays {_lay_text(faces, value, quantity, multiplier >= 0)}"]
    if kind == "pass":
        return [f"{names[note[1]]} passes"]
    if kind == "stop":
        _, general, player = note
        return [f"{_who(after, general, names)} stops {names[player]}: the cards go back"]
    if kind == "unpass":
        _, player, source = note
        how = "the Unpass token" if source == "token" else "the Jester's power"
        return [f"{names[player]} unpasses ({how})"]
    if kind == "trick":
        return [f"{names[note[1]]} wins the trick"]
    if kind == "retrieve":
        faces = " ".join(_faces([FACE[revealed[slot]] for slot in note[2]]))
        return [f"{_who(after, note[1], names)} retrieves {faces}"]
    if kind == "steal":
        return [f"{_who(after, note[1], names)} steals a {FACE[revealed[note[2]]]} from the machine"]
    if kind == "lead":
        _, leader, winner = note
        if leader != winner:
            return [f"{names[winner]} has no cards: {names[leader]} leads"]
        return []
    if kind == "out":
        _, player, token, place = note
        taken = f" and takes the {token} gear token" if token else ""
        return [f"{names[player]} is out of cards ({_ordinal(place)}){taken}"]
    if kind == "one-point":
        return [f"{names[note[1]]}'s 1-point token: {_POWER_NAMES[note[2]]} (once, later)"]
    if kind == "discard":
        faces = " and ".join(_faces([FACE[revealed[slot]] for slot in note[2]]))
        return [f"{names[note[1]]} discards {faces} (Discard-two token)"]
    if kind == "dive":
        _, player, pile, name, count = note
        where = "the Court Hand" if pile == "court" else "the discard pile"
        return [
            f"{_who(after, player, names)} reveals a {FACE[name]}, shuffles {where} "
            f"and draws {_count(count, 'card')}"
        ]
    if kind == "plague":
        return [
            f"{_who(after, note[1], names)} shuffles the discard pile and draws {_count(note[2], 'card')}"
        ]
    if kind == "put-back":
        where = "the Court Hand" if note[2] == "court" else "the discard pile"
        return [f"{names[note[1]]} puts a card back into {where}"]
    if kind == "climb":
        lines = []
        for player, tricks, bonus, start, space in note[1]:
            extra = f" + {bonus} for going out" if bonus else ""
            lines.append(
                f"  {names[player]}: {tricks} trick{'s' if tricks != 1 else ''}{extra}: "
                f"space {start} -> {space} ({space_name(space)})"
            )
        return ["the clock:"] + lines
    if kind == "quarter-end":
        _, quarter, seats = note
        totals = after.totals()
        label = "space" if after.scoring == "clock" else "points"
        scores = ", ".join(f"{names[p]} {totals[p]}" for p in seats)
        lines = [f"quarter {quarter} ends; {label}: {scores}"]
        if after.phase != "over":
            table = after.tables[0]
            order = ", ".join(
                f"{names[p]} {CHARACTER_TITLE[c]}" for p, c in zip(table.seats, table.characters)
            )
            lines.append(f"new seats: {order}")
        return lines
    return []


def result_summary(state: "SteamCourtState", winner: int, tied: int) -> str:
    """One line for :class:`GameOver`, naming nobody (the session puts the names in front)."""
    totals = state.totals()
    if state.scoring == "clock":
        return f"farthest on the clock: space {totals[winner]} ({space_name(totals[winner])})"
    if tied > 1:
        return f"{totals[winner]} points, tied; first out in the 4th quarter breaks the tie"
    return f"{totals[winner]} points after four quarters"


# -- panels ----------------------------------------------------------------------------------------

Segment = tuple[str, str]


def _wrap(segments: Sequence[Segment], indent: str = "", first: Sequence[Segment] = ()) -> list[tuple[Segment, ...]]:
    """Lines of at most :data:`WIDTH` characters: ``first``, then ``segments`` spaced out."""
    lines: list[tuple[Segment, ...]] = []
    line: list[Segment] = list(first)
    width = sum(len(text) for _, text in line)
    for segment in segments:
        if width + 1 + len(segment[1]) > WIDTH and width > len(indent):
            lines.append(tuple(line))
            line, width = [("", indent)], len(indent)
        if width and not line[-1][1].endswith(" "):
            line.append(("", " "))
            width += 1
        line.append(segment)
        width += len(segment[1])
    lines.append(tuple(line))
    return lines


def panels(
    game: "SteamCourt", state: "SteamCourtState", viewer: int | None, knowledge: Knowledge, names: Sequence[str]
) -> list[Panel]:
    """The quarter, the table, the machine, the viewer's hand and powers; each fits 80 columns."""
    if len(state.tables) > 1:
        return party_panels(state, viewer, knowledge, names)
    result = [_header_panel(state)]
    if state.quarter:
        result.append(_table_panel(state, viewer, names))
        result.append(_machine_panel(state, names))
    if viewer is not None and state.quarter:
        result.append(_hand_panel(state, viewer, knowledge))
        result.append(_powers_panel(state, viewer))
    return result


def _header_panel(state: "SteamCourtState") -> Panel:
    scoring = "Clock Climbing" if state.scoring == "clock" else "gear tokens"
    if not state.quarter:
        return Panel("Steam Court", ((("bold", "drawing start tokens"), ("", f" · {scoring}")),))
    table = state.tables[0]
    line: list[Segment] = [
        ("bold", f"quarter {state.quarter} of 4"),
        ("", f" · {scoring}"),
        ("", f" · Court Hand {len(table.court)} · discard pile {len(table.discard)}"),
    ]
    if state.scoring == "gears" and table.stacks and state.quarter <= len(table.stacks):
        stack = table.stacks[state.quarter - 1]
        line.append(("", f" · next token {stack[-1]}" if stack else " · no tokens left"))
    return Panel("Steam Court", (tuple(line),))


def _table_panel(state: "SteamCourtState", viewer: int | None, names: Sequence[str]) -> Panel:
    table = state.tables[0]
    totals = state.totals()
    lines = []
    acting = table.turn if table.phase == "turn" else table.actor
    for position, (player, character) in enumerate(zip(table.seats, table.characters)):
        count = len(state.hands[player])
        if player in table.out:
            status, style = f"out {_ordinal(table.out.index(player) + 1)}", "good"
        elif player in table.passed:
            status, style = "passed", "dim"
        elif player == acting and state.phase == "playing":
            status, style = "to act", "warn"
        else:
            status, style = "", ""
        if state.scoring == "clock":
            score = f"space {state.clock[player]} · tricks {state.tricks[player]}"
        else:
            gears = "+".join(str(g) for g in state.gears[player]) or "-"
            score = f"start {state.start[player]} + {gears} = {totals[player]}"
        line: list[Segment] = [
            ("dim", f"{position + 1} "),
            ("", f"{CHARACTER_TITLE[character]:<13} "),
            ("you" if player == viewer else "bold", f"{names[player][:14]:<14} "),
            ("", f"{count:>2} cards "),
            (style, f"{status:<7} "),
            ("dim", score),
        ]
        lines.append(tuple(line))
    return Panel("The table (clockwise from the Queen)", tuple(lines))


def _machine_panel(state: "SteamCourtState", names: Sequence[str]) -> Panel:
    table = state.tables[0]
    revealed = state.cards.revealed
    if not table.lays:
        return Panel("The machine", ((("dim", "empty"),),))
    lines = []
    last = len(table.lays) - 1
    for index, (player, slots, value, quantity, multiplier) in enumerate(table.lays):
        faces = [FACE[revealed[slot]] if slot in revealed else "??" for slot in slots]
        if value == MASTERSTROKE_VALUE:
            text = "MS (Masterstroke)"
        else:
            text = f"{_lay_text(faces, value, quantity, multiplier >= 0):<24} {quantity} × {value}"
        style = "bold" if index == last else "dim"
        lines.append((("", f"{names[player][:14]:<14} "), (style, text)))
    return Panel("The machine", tuple(lines))


def _hand_panel(state: "SteamCourtState", viewer: int, knowledge: Knowledge) -> Panel:
    faces = [_face(state, slot, knowledge) for slot in state.hands[viewer]]
    if not faces:
        return Panel("Your hand", ((("dim", "no cards"),),))
    segments = [("bold" if face in ("MS", "X", "3/9", "6/12") else "", face) for face in _faces(faces)]
    return Panel(f"Your hand ({len(faces)})", tuple(_wrap(segments)))


_POWER_TEXT = {
    "queen": ("", "give one card at the start of the quarter; lead first"),
    "general": ("stop", "once a quarter: stop a lay (not a lead)"),
    "duke": ("", "match the lay instead of beating it"),
    "timetraveler": ("retrieve", "once a quarter: take back your last lay of a lost trick"),
    "jester": ("", "once each: unpass; play one card as a pair"),
    "teaboy": ("", "give your two highest numbered cards to the Queen; may trade hands"),
    "submariner": ("dive", "once a quarter, on your turn: dive into a pile"),
    "inspector": ("", "at the start of the quarter: look at the Court Hand and a hand"),
    "alchemist": ("", "lower any numbered card by two when you lay it"),
    "pirate": ("steal", "once a quarter: steal a numbered card from a finished trick"),
    "plaguedoctor": ("plague", "once a quarter, on your turn: draw four from the discards"),
    "vagabond": ("", "give your two highest numbered cards; may hoard the Court Hand"),
}


def _powers_panel(state: "SteamCourtState", viewer: int) -> Panel:
    table = state.table_of(viewer)
    character = table.character_of(viewer)
    power, text = _POWER_TEXT[character]
    used = state.used[viewer]
    if character == "jester":
        left = [name for name in ("unpass", "pair") if name not in used]
        note = f" (left: {', '.join(left)})" if left else " (both used)"
    elif power:
        note = " (used)" if power in used else ""
    else:
        note = ""
    lines = [(("bold", f"{CHARACTER_TITLE[character]}: "), ("", text + note))]
    for kind, spent in state.powers[viewer]:
        lines.append(
            (("bold", "1-point token: "), ("dim" if spent else "", _POWER_NAMES[kind] + (" (used)" if spent else "")))
        )
    return Panel("Your powers", tuple(lines))


# -- the Party variant: two tables at once ---------------------------------------------------------

PARTY_HELP = """\
Party variant (7-12 players): a Royal table and a Renegade table play at the
same time, each with its own deck. Only the start tokens are used: going out
takes the top token of your table's stack (lowest number first), and the
tokens set next quarter's seats. The Royal table's last two out go down to
the Renegade table's top seats; the Renegade table's first two out go up to
the Royal table's lowest seats. After the 4th quarter the Royal table's
first player out wins."""

# Log lines of these notes are about the player in ``note[1]``: prefixed with his table's name.
_PLAYER_NOTES = frozenset({
    "coup-claim", "coup", "give", "no-give", "inspect", "no-inspect", "serve", "trade", "keep",
    "hoard", "leave", "lay", "pass", "stop", "unpass", "trick", "retrieve", "steal", "lead",
    "discard", "dive", "plague", "put-back",
})
_SHORT_TABLE = ("Royal", "Renegades")


def _table_index(state: "SteamCourtState", player: int) -> int:
    for index, table in enumerate(state.tables):
        if player in table.seats:
            return index
    return 0  # pragma: no cover


def _seats_text(table: Any, seats: Sequence[int], names: Sequence[str]) -> str:
    return ", ".join(
        f"{CHARACTER_NUMBER[character]} {names[player]} ({CHARACTER_TITLE[character]})"
        for player, character in zip(seats, table.characters)
    )


def _narrate_party_note(
    before: "SteamCourtState", after: "SteamCourtState", note: tuple, names: Sequence[str]
) -> list[str]:
    kind = note[0]
    if kind == "party-seating":
        return [
            f"start tokens, {TABLE_NAMES[index]}: {_seats_text(after.tables[index], seats, names)}"
            for index, seats in enumerate(note[1])
        ]
    if kind == "table-quarter":
        _, index, quarter, size, court = note
        return [f"— quarter {quarter}, {TABLE_NAMES[index]}: {size} cards each, {court} in the Court Hand —"]
    if kind == "out":
        _, player, token, place = note
        tag = _SHORT_TABLE[_table_index(after, player)]
        return [f"{tag}: {names[player]} is out of cards ({_ordinal(place)}) and takes token {token}"]
    if kind == "coup":
        index = _table_index(after, note[1])
        top = CHARACTER_TITLE[after.tables[index].characters[0]]
        return [
            f"{_SHORT_TABLE[index]}: {names[note[1]]} seizes the {top}'s seat; "
            f"the {TABLE_NAMES[index]}'s cards are dealt again"
        ]
    if kind == "party-quarter-end":
        _, quarter, royal, renegades, promoted, demoted = note
        lines = [
            f"quarter {quarter} ends; promoted to the Royal table: "
            + " and ".join(names[p] for p in promoted)
            + "; banished to the Renegade table: "
            + " and ".join(names[p] for p in demoted)
        ]
        if after.phase == "over":
            lines.append(f"{names[royal[0]]} went out first at the Royal table")
        else:
            for index, seats in enumerate((royal, renegades)):
                lines.append(f"new seats, {TABLE_NAMES[index]}: {_seats_text(after.tables[index], seats, names)}")
        return lines
    lines = _narrate_note(before, after, note, names)
    if kind in _PLAYER_NOTES and lines:
        tag = _SHORT_TABLE[_table_index(after, note[1])]
        lines = [f"{tag}: {line}" for line in lines]
    return lines


def party_result_summary(state: "SteamCourtState", winner: int) -> str:
    """One line for the Party variant's :class:`GameOver` (the session puts the winner's name in front)."""
    return "first out at the Royal table in the 4th quarter: Engineer to Her Royal Majesty the Queen"


def party_panels(
    state: "SteamCourtState", viewer: int | None, knowledge: Knowledge, names: Sequence[str]
) -> list[Panel]:
    """Both tables (seats, cards, passes, tokens), each table's machine, the viewer's hand and powers."""
    result = [_party_header_panel(state)]
    if state.quarter:
        for index in range(len(state.tables)):
            result.append(_party_table_panel(state, index, viewer, names))
            result.append(_party_machine_panel(state, index, names))
    if viewer is not None and state.quarter:
        result.append(_hand_panel(state, viewer, knowledge))
        result.append(_powers_panel(state, viewer))
    return result


def _party_header_panel(state: "SteamCourtState") -> Panel:
    if not state.quarter:
        return Panel("Steam Court", ((("bold", "drawing start tokens"), ("", " · Party variant: two tables")),))
    line = (("bold", f"quarter {state.quarter} of 4"), ("", " · Party variant: two tables at once"))
    return Panel("Steam Court", (line, _PARTY_GOAL))


# A seat's number and character, and its status, as panel segments (built once).
_SEAT_LABEL = {
    character: ("", f"{CHARACTER_NUMBER[character]:>2} {CHARACTER_TITLE[character]:<13} ")
    for character in CHARACTER_TITLE
}
_OUT_STATUS = tuple(f"{'out ' + _ordinal(place):<7} " for place in range(1, 13))
_PASSED_STATUS = ("dim", f"{'passed':<7} ")
_ACTING_STATUS = ("warn", f"{'to act':<7} ")
_NO_STATUS = ("", " " * 8)
# The machine panel of a table shows the trick's last lays.
_MACHINE_LAYS = 3
_PARTY_GOAL = (("dim", "the Royal table's first player out in quarter 4 wins"),)


def _party_table_panel(state: "SteamCourtState", index: int, viewer: int | None, names: Sequence[str]) -> Panel:
    table = state.tables[index]
    done = table.phase == "done"
    info: list[Segment] = [("", f"Court Hand {len(table.court)} · discard pile {len(table.discard)}")]
    if done:
        info.append(("good", " · quarter over"))
    elif table.stacks and state.quarter <= len(table.stacks):
        stack = table.stacks[state.quarter - 1]
        info.append(("", f" · next token {stack[-1]}" if stack else " · no tokens left"))
    lines = [tuple(info)]
    acting = -1 if done or state.phase != "playing" else table.turn if table.phase == "turn" else table.actor
    out, passed, hands, gears, start = table.out, table.passed, state.hands, state.gears, state.start
    for player, character in zip(table.seats, table.characters):
        if player in out:
            status = ("good", _OUT_STATUS[out.index(player)])
        elif player in passed:
            status = _PASSED_STATUS
        elif player == acting:
            status = _ACTING_STATUS
        else:
            status = _NO_STATUS
        lines.append((
            _SEAT_LABEL[character],
            ("you" if player == viewer else "bold", f"{names[player][:14]:<14} "),
            ("", f"{len(hands[player]):>2} cards "),
            status,
            ("dim", f"start {start[player]} · tokens {','.join(map(str, gears[player])) or '-'}"),
        ))
    return Panel(f"{TABLE_NAMES[index]} (clockwise from the top seat)", tuple(lines))


def _party_machine_panel(state: "SteamCourtState", index: int, names: Sequence[str]) -> Panel:
    table = state.tables[index]
    revealed = state.cards.revealed
    title = f"{TABLE_NAMES[index]}: the machine"
    if not table.lays:
        return Panel(title, ((("dim", "empty"),),))
    lines = []
    last = len(table.lays) - 1
    first = max(0, len(table.lays) - _MACHINE_LAYS)
    if first:
        lines.append((("dim", f"({_count(first, 'earlier lay')})"),))
    for position in range(first, last + 1):
        player, slots, value, quantity, multiplier = table.lays[position]
        faces = [FACE[revealed[slot]] if slot in revealed else "??" for slot in slots]
        if value == MASTERSTROKE_VALUE:
            text = "MS (Masterstroke)"
        else:
            text = f"{_lay_text(faces, value, quantity, multiplier >= 0):<24} {quantity} × {value}"
        lines.append((("", f"{names[player][:14]:<14} "), ("bold" if position == last else "dim", text)))
    return Panel(title, tuple(lines))
