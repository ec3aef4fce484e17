"""What people see of a Steam Court table: action texts, log lines, panels and the help text.

Everything here reads the state and never changes it. Log lines use public information only;
action texts and panels may use the viewer's own knowledge of hidden cards.

Two rulebooks share these views (``steamcourt2015`` is the second): what a rulebook words its own
way is asked of ``state.book`` (the Masterstroke's name, ``Rulebook.masterstroke``; a character's
number, ``state.book[name].number``), and two questions are kept apart: two tables
(``len(state.tables) > 1``: the Party variant, or the 2015 rules' 8–10 players with gear tokens)
and the Party variant's scoring (``state.variant == "party"``: a standing, no points — the 2015
Party variation plays it at one table too).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from p2pgames.engine import NO_KNOWLEDGE, PANEL_WIDTH, CardsDone, ChoiceGroup, Event, Knowledge, Panel, Segment, wrap_segments

from p2pgames.games.steamcourt.actions import (
    Bestow,
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
    TradeKeeping,
    Unpass,
)
from p2pgames.games.steamcourt.cards import (
    a_face,
    CHARACTER_TITLE,
    FACE,
    FACE_ORDER,
    MASTERSTROKE_VALUE,
    TABLE_NAMES,
)
from p2pgames.games.steamcourt.duo import LADDER
from p2pgames.games.steamcourt.scoring import space_name
from p2pgames.words import joined

if TYPE_CHECKING:
    from p2pgames.games.steamcourt.rules import SteamCourt
    from p2pgames.games.steamcourt.state import SteamCourtState, Table

__all__ = [
    "describe_action",
    "group_choices",
    "narrate",
    "narrate_private",
    "panels",
    "HELP",
    "PARTY_HELP",
    "DUO_HELP",
    "duo_ladder_panel",
]

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

Reactions: when a power lets you answer out of turn (the General's stop, an
unpass, the Time Traveler's retrieve, the Pirate's steal, a coup), play waits
for you and "You are asked" says what happened and what each answer does:
type it (e.g. stop bob) or pass. The General, the Time Traveler and the
Pirate may answer "not this quarter": your own program then passes for you
each time until the next quarter, telling nobody (the others see passes).

The table lists the seats from the Queen: character, name, cards left,
passed / to act / out, and start + gear tokens = points (+Unpass, +Discard:
1-point tokens not used yet). 1 × 9 means one card of value 9.

Type (cards by face; seats by name):
  lay 7 7 7          three 7s             lay 5 5 +X3     two 5s, X: three 5s
  lay 3/9 as 9       a 3/9 as a 9         lay X           a Multiplier: one 1
  lay 9 7 as 7       (Alchemist) 9 as 7   lay 7 as pair   (Jester) 7 as two
  lay MS             a Masterstroke       pass            sit out the trick
  give 2 to carol    (Queen, General)     coup            three Masterstrokes
  give 11 12 to alice   (Tea Boy, Vagabond: your two highest numbered cards)
  trade | keep       (Tea Boy)            hoard | leave   (Vagabond)
  inspect bob        (Inspector)          stop bob        (General)
  retrieve           (Time Traveler)      steal 7         (Pirate)
  not this quarter   (General, Time Traveler, Pirate: pass all quarter)
  unpass             (token or Jester)    discard 2 5     (Discard-two token)
  unpass token | unpass jester   (when you could unpass either way)
  dive court 7 | dive discard 7   (Submariner)      plague   (Plague Doctor)
  put back 7 | keep  after drawing"""


# -- names -----------------------------------------------------------------------------------------


def _shown(state: "SteamCourtState", face: str) -> str:
    """``face`` (``FACE``'s) as ``state``'s rulebook shows it."""
    return state.book.masterstroke.face if face == "MS" else face


def card_shown(state: "SteamCourtState", name: str) -> str:
    """The face of card ``name`` as ``state``'s rulebook shows it."""
    return _shown(state, FACE[name])


def _face(state: "SteamCourtState", slot: int, knowledge: Knowledge) -> str:
    name = state.cards.revealed.get(slot) or knowledge.get(slot)
    return card_shown(state, name) if name is not None else f"#{slot}"


def _faces(faces: Sequence[str]) -> list[str]:
    """``faces`` in the order hands list them: an unseen card (``#slot``) last, and a face the
    cards' tables don't know — a rulebook's own name for the Masterstroke — as the Masterstroke."""
    return sorted(faces, key=lambda face: (FACE_ORDER.get(face, 99 if face.startswith("#") else FACE_ORDER["MS"]), face))


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
        return "lay " + state.book.masterstroke.face
    if kind is Pass:
        return "pass"
    if kind is Give:
        return f"give {_face(state, action.slot, knowledge)} to {names[action.to]}"
    if kind is Serve or kind is Bestow:
        faces = _faces([_face(state, slot, knowledge) for slot in action.slots])
        return f"give {' '.join(faces) or 'nothing'} to {names[action.to]}"
    if kind is Trade:
        return "trade" if action.trade else "keep"
    if kind is TradeKeeping:
        return "trade"
    if kind is Hoard:
        return "hoard" if action.hoard else "leave"
    if kind is Inspect:
        return f"inspect {names[action.seat]}"
    if kind is Coup:
        return "coup"
    if kind is Stop:
        return f"stop {names[action.player]}"
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


# About as many choices as two rows of an 80-column screen list: more are grouped by card.
LISTED_CHOICES = 10


def group_choices(actions: Sequence[Any], texts: Sequence[str]) -> list[ChoiceGroup]:
    """How a long list of choices is shown (:meth:`~p2pgames.engine.Presentation.group_choices`).

    First, choices that differ only in what the player completes are one line
    (:func:`_completed_parts`): the counts one set of cards and a Multiplier can make
    (``lay 5 5 +X…``), one card given to any player (``give 7 to …``), the Discard-two token's pairs
    with the same lower card (``discard 2 …``) and the cards a dive into one pile can reveal
    (``dive court …``). When those are still more than :data:`LISTED_CHOICES` lines, lays are
    grouped by the first card named, one line each (``lay 5 …`` for ``lay 5``, ``lay 5 5``,
    ``lay 5 +X…`` and ``lay 5 5 +X…``, its parts), so a hand with a Multiplier lists a line per
    card, not one per set. Groups come in the order of their first member; members keep the order
    of the legal actions.
    """
    parts = _completed_parts(actions, texts)
    if len(parts) <= LISTED_CHOICES:
        return parts
    lines: dict[Any, list[ChoiceGroup]] = {}
    for part in parts:
        first = actions[part.members[0]]
        words = texts[part.members[0]].split(" ")
        if type(first) is Lay and first.slots:
            key: Any = ("lay", words[1])  # the first card named: what the player types after "lay"
        else:
            key = ("alone", part.members[0])
        lines.setdefault(key, []).append(part)
    groups = []
    for key, grouped in lines.items():
        if len(grouped) == 1:
            groups.append(grouped[0])
            continue
        members = tuple(member for part in grouped for member in part.members)
        groups.append(ChoiceGroup(f"lay {key[1]} …", members, tuple(grouped)))
    return groups


def _completed_parts(actions: Sequence[Any], texts: Sequence[str]) -> list[ChoiceGroup]:
    """The choices that differ only in what the player completes, together (see
    :func:`group_choices`); members in the order of the legal actions (the Multiplier's counts
    ascending), so that their longest common prefix (``lay 5 5 +X``, ``give 7 to ``) is what the
    player has left to complete."""
    keys: dict[Any, int] = {}
    groups: list[tuple[str, list[int]]] = []
    for index, (action, text) in enumerate(zip(actions, texts)):
        kind = type(action)
        if kind is Lay and action.multiplier is not None and action.slots:
            key: Any = ("lay", action.slots, action.value)
            words = text.split(" ")
            label = " ".join("+X…" if word.startswith("+X") else word for word in words)
        elif kind is Give or kind is Bestow:
            key = ("give", action.slot if kind is Give else action.slots)
            label = text.split(" to ", 1)[0] + " to …"
        elif kind is DiscardTwo:
            key = ("discard", text.split(" ")[1])
            label = " ".join(text.split(" ")[:2]) + " …"
        elif kind is Dive:
            key = ("dive", action.pile)
            label = f"dive {action.pile} …"
        else:
            key, label = index, text
        at = keys.get(key)
        if at is None:
            keys[key] = len(groups)
            groups.append((label, [index]))
        else:
            groups[at][1].append(index)
    return [
        ChoiceGroup(label if len(members) > 1 else texts[members[0]], tuple(members)) for label, members in groups
    ]


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


def narrate_private(
    before: "SteamCourtState", event: Event, after: "SteamCourtState", viewer: int, knowledge: Knowledge,
    names: Sequence[str],
) -> list[str]:
    """Lines for ``viewer``'s log alone: the cards given to it (a gift, the Tea Boy's two
    highest), taken from the Court Hand (a trade, a hoard) or seen by its Inspector, once its
    keys have shown them — the card operations that queued them end with a ``CardsDone``,
    whose ``before.notes`` say what queued them."""
    if not isinstance(event, CardsDone):
        return []
    shown = set(before.cards.disclosed_to(viewer))

    def faces(slots: Sequence[int]) -> str:
        return " ".join(_faces([_face(before, slot, knowledge) for slot in slots if slot in shown]))

    lines = []
    # The slots shown, not the hands' slots: a hand may have been re-masked since (its new slots
    # are no news to its owner, RULES.md I51).
    for note in before.notes:
        kind = note[0]
        if kind in ("give", "bestow", "serve"):
            giver, to = note[1], note[3 if kind == "serve" else 2]
            received = faces(sorted(shown))
            if to == viewer and received:
                lines.append(f"{_who(before, giver, names)} gives you {received}")
        elif kind in ("trade", "hoard") and note[1] == viewer:
            taken = faces(before.hands[viewer])
            if taken:
                lines.append(f"From the Court Hand you take {taken}")
        elif kind == "inspect" and note[1] == viewer:
            table = before.table_of(viewer)
            court, hand = faces(table.court), faces(sorted(shown - set(table.court)))
            lines.append(f"The Court Hand holds {court or 'nothing'}; {names[note[2]]} holds {hand or 'nothing'}")
    return lines


_POWER_NAMES = {"unpass": "Unpass", "discard": "Discard two numbered cards"}


def _narrate_note(
    before: "SteamCourtState", after: "SteamCourtState", note: tuple, names: Sequence[str]
) -> list[str]:
    revealed = after.cards.revealed
    kind = note[0]
    if kind == "seating":
        table = after.tables[0]
        if not any(after.start):  # the 2015 Party variation: character tokens seat, no start tokens
            return [f"seats: {_seats_text(after, table, note[1], names)}"]
        seats = ", ".join(
            f"{after.start[player]} {names[player]} ({CHARACTER_TITLE[table.characters[position]]})"
            for position, player in enumerate(note[1])
        )
        return [f"start tokens: {seats}"]
    if kind == "quarter":
        _, quarter, size, court = note
        return [f"— quarter {quarter}: {size} cards each, {court} in the Court Hand —"]
    if kind == "coup-claim":
        return [f"{names[note[1]]} pulls a coup: revealing three {after.book.masterstroke.plural}"]
    if kind == "coup":
        return [f"{names[note[1]]} seizes the Queen's seat; the cards are dealt again"]
    if kind == "give":
        return [f"{_who(after, note[1], names)} gives {names[note[2]]} a card"]
    if kind == "bestow":
        return [f"{_who(after, note[1], names)} gives {names[note[2]]} {note[3]} cards"]
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
            return [f"{names[player]} lays a {after.book.masterstroke.name}"]
        faces = [card_shown(after, revealed[slot]) for slot in slots]
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
        faces = " ".join(_faces([card_shown(after, revealed[slot]) for slot in note[2]]))
        return [f"{_who(after, note[1], names)} retrieves {faces}"]
    if kind == "steal":
        return [f"{_who(after, note[1], names)} steals {a_face(FACE[revealed[note[2]]])} from the machine"]
    if kind == "lead":
        _, leader, winner = note
        if leader != winner:
            return [f"{names[winner]} has no cards: {names[leader]} leads"]
        return []
    if kind == "out":
        _, player, token, place, held = note
        # The 2015 Party variation's tokens are the characters' (seat markers), worded as at two tables.
        taken = "" if not token else f" and takes token {token}" if after.variant == "party" else f" and takes the {token} gear token"
        if held:
            # The quarter ends with him still holding cards: last place, not out of cards.
            return [f"{names[player]} is left holding {_count(held, 'card')}: last ({_ordinal(place)}){taken}"]
        return [f"{names[player]} is out of cards ({_ordinal(place)}){taken}"]
    if kind == "one-point":
        _, player, power, later = note
        if later:
            return [f"{names[player]}'s 1-point token: {_POWER_NAMES[power]} (once, later)"]
        return [f"{names[player]}'s 1-point token is worth 1 point (the game is over: its power goes unused)"]
    if kind == "held":
        return [f"{names[note[1]]} was left holding {' '.join(_shown(after, face) for face in note[2])}"]
    if kind == "discard":
        faces = " and ".join(_faces([FACE[revealed[slot]] for slot in note[2]]))
        return [f"{names[note[1]]} discards {faces} (Discard-two token)"]
    if kind == "dive":
        _, player, pile, name, count = note
        where = "the Court Hand" if pile == "court" else "the discard pile"
        return [
            f"{_who(after, player, names)} reveals {a_face(FACE[name])}, shuffles {where} "
            f"and draws {_count(count, 'card')}"
        ]
    if kind == "no-plague":  # the 2015 Plague Doctor declines his Beginning of Quarter draw
        return [f"{_who(after, note[1], names)} draws nothing from the Court Hand"]
    if kind == "plague":
        where = "the Court Hand" if note[3:] == ("court",) else "the discard pile"
        return [f"{_who(after, note[1], names)} shuffles {where} and draws {_count(note[2], 'card')}"]
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
        if after.variant == "party":  # a standing, no points: the going-out order is the news
            lines = [f"quarter {quarter} ends; out in order: {', '.join(names[p] for p in seats)}"]
        else:
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


# -- panels ----------------------------------------------------------------------------------------

WIDTH = PANEL_WIDTH  # every panel line fits it (see engine.PANEL_WIDTH)


def _width(line: Sequence[Segment]) -> int:
    return sum(len(text) for _, text in line)


def panels(
    game: "SteamCourt", state: "SteamCourtState", viewer: int | None, knowledge: Knowledge, names: Sequence[str]
) -> list[Panel]:
    """The quarter, the table, the machine, what the viewer is asked (a reaction or a privilege,
    spelled out), the viewer's hand and powers; every line fits :data:`WIDTH` columns.

    When the game is over: the final standings, then the 4th quarter's table as it ended (who went
    out when, the cards the last player was left holding, the last trick).
    """
    if len(state.tables) > 1:  # two tables: the Party variant, or the 2015 rules' 8–10 players
        return party_panels(game, state, viewer, knowledge, names)
    result = [_header_panel(state)]
    if state.phase == "over":
        result.append(_standings_panel(game, state, names))
    if state.quarter:
        result.append(_table_panel(state, viewer, names, knowledge=knowledge))
        result.append(_machine_panel(state, names))
    if state.phase == "over":
        return result  # the viewer's cards left, if any, are on the table
    if viewer is not None and state.quarter:
        choice = _choice_panel(game, state, viewer, knowledge, names)
        if choice is not None:
            result.append(choice)
        result.append(_hand_panel(state, viewer, knowledge))
        result.append(_powers_panel(state, viewer))
    return result


def _uses_discard_pile(state: "SteamCourtState", table: "Table") -> bool:
    """Whether a character at ``table`` may draw from the discard pile: its size is shown then."""
    book = state.book
    return any(
        draw is not None and "discard" in draw.piles
        for character in table.characters
        for draw in (book[character].dive, book[character].plague)
    )


def _header_panel(state: "SteamCourtState") -> Panel:
    scoring = "Clock Climbing" if state.scoring == "clock" else "Party variant" if state.variant == "party" else "gear tokens"
    if not state.quarter:
        return Panel("Steam Court", ((("bold", "drawing start tokens"), ("", f" · {scoring}")),))
    if state.phase == "over":
        return Panel("Steam Court", ((("bold", "game over"), ("", f" · 4 quarters played · {scoring}")),))
    table = state.tables[0]
    segments: list[Segment] = [("bold", f"quarter {state.quarter} of 4"), ("", f"· {scoring}")]
    if state.scoring == "gears" and table.stacks and state.quarter <= len(table.stacks):
        stack = table.stacks[state.quarter - 1]
        segments.append(("", f"· next token {stack[-1]}" if stack else "· no tokens left"))
    segments.append(("", f"· Court Hand {len(table.court)}"))
    if _uses_discard_pile(state, table):
        segments.append(("", f"· discard pile {len(table.discard)}"))
    return Panel("Steam Court", tuple(wrap_segments(segments)))


def _score_text(state: "SteamCourtState", player: int, totals: Sequence[int], room: int = WIDTH) -> str:
    """The seat's score as its row ends, in at most ``room`` columns where it can: ``start 2``
    before any gear token, then ``2+6+5 = 13``; points paid (the 2015 Character Auction's bid)
    are taken off in the sum, ``start 1-3 = -2``, ``1+1-3 = -1``; too wide, the sum drops its
    spaces (``10+10+10+10+10=50``), and then, with points paid, sums the tokens (``45-12=33``).
    On the clock, the space and tricks; in the Duo variant with unscored start tokens,
    ``gears 2+1 = 3``."""
    if state.scoring == "clock":
        tricks = state.tricks[player]
        return f"space {state.clock[player]} · {_count(tricks, 'trick')}"
    if state.variant == "party":
        # Party tokens are seat markers, not points (I22): the start token; the 2015 Party
        # variation has none, only the character token taken in going out this quarter.
        if state.start[player]:
            return f"start {state.start[player]}"
        taken = state.gears[player]
        return f"token {taken[-1]}" if state.quarter and len(taken) == state.quarter else ""
    tokens = ((state.start[player],) if state.scores_start() else ()) + tuple(state.gears[player])
    paid = state.points_paid(player)
    label = "gears " if not state.scores_start() else "" if state.gears[player] else "start "
    if not paid and not state.gears[player]:  # nothing to add up yet: the start token, or none
        return label + (str(tokens[0]) if tokens else "0")
    less = f"-{paid}" if paid else ""
    forms = [f"{label}{'+'.join(map(str, tokens))}{less} = {totals[player]}"]
    forms.append(forms[0].replace(" = ", "="))
    if paid:
        forms.append(f"{sum(tokens)}{less}={totals[player]}")
    return next((form for form in forms if len(form) <= room), forms[-1])


def _table_panel(
    state: "SteamCourtState",
    viewer: int | None,
    names: Sequence[str],
    index: int = 0,
    knowledge: Knowledge = NO_KNOWLEDGE,
) -> Panel:
    """One line per seat of table ``index``, from its top seat: its number (at one table the
    seat's, at two the character's in the rulebook), character, name, cards left,
    passed / to act / out (or *last*: the player still holding cards when the quarter ended),
    tokens (start + gear tokens = points, or the clock), and 1-point token powers not yet used;
    then, once the quarter is over at the table, the cards each player still holding some was
    left with (the last player; on the clock, everyone not out), as far as the viewer sees them:
    his own until the audit (which, between quarters, deals the next quarter in the same event),
    everyone's on the final table."""
    table = state.tables[index]
    totals = state.totals()
    number_width = 1 if len(state.tables) == 1 else 2
    lines = []
    if table.phase == "turn":
        acting: tuple[int, ...] = (table.turn,)
    elif table.phase == "coup":
        acting = tuple(table.asking)
    else:
        acting = (table.actor,)
    held: list[int] = []
    over = table.phase == "done"  # the quarter is over here (waiting, audited, or the game's end)
    for position, (player, character) in enumerate(zip(table.seats, table.characters)):
        count = len(state.hands[player])
        if over and count:
            held.append(player)
        if player in table.out and count:
            status, style = "last", "bad"
        elif player in table.out:
            status, style = f"out {_ordinal(table.out.index(player) + 1)}", "good"
        elif player in acting and state.phase == "playing" and table.phase != "done":
            status, style = "to act", "warn"
        elif player in table.passed and table.phase != "done":
            status, style = "passed", "dim"
        else:
            status, style = "", ""
        line: list[Segment] = [
            ("dim", f"{position + 1 if len(state.tables) == 1 else state.book[character].number:>{number_width}} "),
            ("", f"{CHARACTER_TITLE[character]:<13} "),
            ("you" if player == viewer else "bold", f"{names[player][:8]:<8} "),
            ("", f"{count:>2} card{' ' if count == 1 else 's'} "),
        ]
        status_column = f"{status:<7} "
        score = _score_text(state, player, totals, WIDTH - _width(line) - len(status_column))
        if score:
            line += [(style, status_column), ("dim", score)]
        elif status:  # nothing to score yet (the 2015 Party variation): no trailing blanks
            line.append((style, status))
        else:
            line[-1] = ("", line[-1][1].rstrip())
        tokens = [_POWER_NAMES[kind].split()[0] for kind, spent in state.powers[player] if not spent]
        if tokens and state.phase != "over":
            extra = ("", " +" + "+".join(tokens))
            if _width(line) + len(extra[1]) <= WIDTH:
                line.append(extra)
        lines.append(tuple(line))
    for player in held:
        faces = [_face(state, slot, knowledge) for slot in state.hands[player]]
        if not any(face.startswith("#") for face in faces):
            who = "you were" if player == viewer else f"{names[player]} was"
            lines.extend(wrap_segments([("", face) for face in _faces(faces)], "  ", [("dim", f"{who} left holding:")]))
    if len(state.tables) > 1:
        return Panel(TABLE_NAMES[index], tuple(lines))
    return Panel("The table", tuple(lines))


def _standings_panel(game: "SteamCourt", state: "SteamCourtState", names: Sequence[str]) -> Panel:
    """The game's result in a line or two: the winner and his score, then everyone else by place
    (higher score first; equal scores by the 4th quarter's going-out order, as ties are broken);
    a score with points paid (the 2015 Character Auction's bid) says so: ``6 points (tokens 10,
    bid -4)``."""
    result = game.step(state)
    scores = result.scores
    winners = result.winners
    order = state.going_out_order()
    if state.variant == "party":
        # The 2015 Party variation at one table: a standing, the 4th quarter's going-out order.
        segments = [("good", f"{names[order[0]][:12]} wins: first out in quarter 4 ·")]
        segments += [
            ("", f"{_ordinal(place + 1)} {names[player][:12]}" + (" ·" if place < len(order) - 1 else ""))
            for place, player in enumerate(order) if place
        ]
        return Panel("Final standings", tuple(wrap_segments(segments)))
    ranked = sorted(
        range(state.players),
        key=lambda p: (p not in winners, -scores[p], order.index(p) if p in order else len(order)),
    )
    unit = "space" if state.scoring == "clock" else "points" if state.variant != "duo" or state.duo_win != "queen" else ""
    segments: list[Segment] = []
    for place, player in enumerate(ranked):
        score = f"{unit} {scores[player]}" if unit == "space" else f"{scores[player]} {unit}" if unit else ""
        paid = state.points_paid(player)
        if paid and unit == "points":  # the 2015 Character Auction's bid, taken off the tokens
            score += f" (tokens {scores[player] + paid}, bid -{paid})"
        name = names[player][:12]
        if place == 0 and player in winners:
            text = f"{name} wins" + (f" with {score}" if score else ": Engineer to the Queen")
            segments.append(("good", text + ("" if len(ranked) == 1 else " ·")))
        else:
            text = f"{_ordinal(place + 1)} {name}" + (f" {score}" if score else "")
            segments.append(("", text + (" ·" if place < len(ranked) - 1 else "")))
    return Panel("Final standings", tuple(wrap_segments(segments)))


# The machine shows this many rows: the newest lays, older ones summed up in the first row.
MACHINE_ROWS = 2


def _machine_panel(state: "SteamCourtState", names: Sequence[str], index: int = 0) -> Panel:
    """The current trick at table ``index``: who laid what, oldest first, the lay to beat in bold."""
    table = state.tables[index]
    revealed = state.cards.revealed
    title = "The machine" if len(state.tables) == 1 else MACHINE_TITLES[index]
    if not table.lays:
        if table.phase == "turn" and table.turn >= 0:
            return Panel(title, ((("dim", f"empty: {names[table.turn]} leads"),),))
        return Panel(title, ((("dim", "empty"),),))
    lays = []
    for player, slots, value, quantity, multiplier in table.lays:
        faces = [card_shown(state, revealed[slot]) if slot in revealed else "??" for slot in slots]
        if value == MASTERSTROKE_VALUE:
            words = state.book.masterstroke
            shown = words.face if words.face == words.name else f"{words.face} ({words.name})"
            lays.append((player, shown, "beats all"))
        else:
            lays.append((player, _lay_text(faces, value, quantity, multiplier >= 0), f"{quantity} × {value}"))
    lines = []
    if len(lays) > MACHINE_ROWS:
        earlier = lays[: len(lays) - MACHINE_ROWS + 1]
        lays = lays[len(earlier):]
        text = "before: " + ", ".join(f"{names[p]} {t}" for p, t, _ in earlier)
        if len(text) > WIDTH:
            text = text[: WIDTH - 1] + "…"
        lines.append((("dim", text),))
    last = len(lays) - 1
    for index, (player, text, size) in enumerate(lays):
        style = "bold" if index == last else "dim"
        lines.append((("", f"{names[player][:14]:<14} "), (style, f"{text:<24} {size}")))
    return Panel(title, tuple(lines))


_SPECIAL_MEANING = {
    "MS": "MS beats all",
    "X": "X multiplies",
    "3/9": "3/9: 3 or 9",
    "6/12": "6/12: 6 or 12",
}


def _special_meanings(state: "SteamCourtState") -> dict[str, str]:
    """What each special card's face means, under the faces ``state``'s rulebook shows."""
    face = state.book.masterstroke.face
    if face == "MS":
        return _SPECIAL_MEANING
    return {face: f"{face} beats all", **{key: text for key, text in _SPECIAL_MEANING.items() if key != "MS"}}


def _hand_panel(state: "SteamCourtState", viewer: int, knowledge: Knowledge) -> Panel:
    """Your cards by value, special cards in bold, and what the special ones you hold do."""
    faces = [_face(state, slot, knowledge) for slot in state.hands[viewer]]
    if not faces:
        return Panel("Your hand", ((("dim", "no cards"),),))
    special = _special_meanings(state)
    segments = [("bold" if face in special else "", face) for face in _faces(faces)]
    # What the special cards held do, as far as it fits beside the cards (help explains them all).
    width = _width(segments) + len(segments) - 1 + 2
    meanings: list[str] = []
    for face, meaning in special.items():
        if face in faces and width + len(" · ".join(meanings + [meaning])) + 2 <= WIDTH:
            meanings.append(meaning)
    if meanings and width < WIDTH:
        segments.append(("dim", f" ({' · '.join(meanings)})"))
    lines = wrap_segments(segments)
    return Panel(f"Your hand ({len(faces)})", tuple(lines))




def _powers_panel(state: "SteamCourtState", viewer: int) -> Panel:
    """Your character's power (said when used this quarter) and your unused 1-point tokens' powers."""
    table = state.table_of(viewer)
    character = state.book[table.character_of(viewer)]
    power, text = character.power_text  # each fits WIDTH after "Character: "
    used = state.used[viewer]
    if character.unpasses and character.pairs:
        left = [name for name in ("unpass", "pair") if name not in used]
        note = "" if len(left) == 2 else f" ({left[0]} left)" if left else " (both used)"
    elif power and power in used:
        text, note = f"{power} used this quarter", ""
    else:
        note = ""
    lines = wrap_segments([("", word) for word in (text + note).split(" ")], "  ", [("bold", f"{character.title}:")])
    for kind, spent in state.powers[viewer]:
        if not spent:  # a used token's power is gone for good
            how = "on your turn" if kind == "discard" else "after you pass"
            lines.append((("bold", "1-point token: "), ("", f"{_POWER_NAMES[kind]} ({how})")))
    return Panel("Your powers", tuple(lines))


# -- what the viewer is asked, spelled out -------------------------------------------------------------


def _choice_panel(
    game: "SteamCourt", state: "SteamCourtState", viewer: int, knowledge: Knowledge, names: Sequence[str]
) -> Panel | None:
    """When the viewer is asked to react (stop, unpass, coup, retrieve, steal) or to use a
    privilege: what happened, the question, what to type, and what each answer does."""
    if state.phase != "playing" or state.cards.pending:
        return None
    table = state.table_of(viewer)
    phase = table.phase
    if phase == "coup":
        if viewer not in table.asking:
            return None
    elif phase in ("turn", "revealing", "diving", "discarding", "done") or table.actor != viewer:
        return None
    choices = [
        describe_action(state, viewer, action, knowledge, names)
        for action in game.legal_actions(state, viewer, knowledge)
    ]
    if not choices:
        return None
    text = _choice_text(state, table, viewer, knowledge, names, choices)
    if text is None:
        return None
    question, answers = text
    lines = wrap_segments([("bold", word) for word in question.split(" ")])
    for typed, meaning in answers:
        lines += wrap_segments([("", word) for word in meaning.split(" ")], "  ", [("bold", f"{typed}:")])
    return Panel("You are asked", tuple(lines))


def _face_order(face: str) -> tuple[int, str]:
    return (int(face), face) if face.isdigit() else (99, face)


def _choice_text(
    state: "SteamCourtState",
    table: Any,
    viewer: int,
    knowledge: Knowledge,
    names: Sequence[str],
    choices: Sequence[str],
) -> tuple[str, list[tuple[str, str]]] | None:
    """(the question, [(what to type, what it does)]) for the viewer's current decision;
    ``choices`` are the texts of the viewer's legal actions."""
    revealed = state.cards.revealed
    phase = table.phase
    listed = " / ".join(choices)

    def lay_of(lay: Sequence[Any]) -> str:
        player, slots, value, quantity, multiplier = lay
        if value == MASTERSTROKE_VALUE:
            return f"a {state.book.masterstroke.name}"
        faces = [card_shown(state, revealed[slot]) if slot in revealed else "??" for slot in slots]
        return _lay_text(faces, value, quantity, multiplier >= 0)

    if phase == "stop" and table.lays:
        lay = table.lays[-1]
        who = names[lay[0]]
        return (
            f"{who} laid {lay_of(lay)} — stop it? ({listed})",
            [(f"stop {who}", f"the cards go back to {who}, who plays again later")],
        )
    if phase == "unpass":
        last = f"You passed; {names[table.lays[-1][0]]} laid {lay_of(table.lays[-1])}" if table.lays else "You passed"
        if not any(choice.startswith("unpass") for choice in choices):
            return (f"{last}; nothing of yours beats it: pass", [])
        sources = state.unpass_sources(viewer)
        how = "" if len(sources) != 1 else " (the Unpass token)" if sources[0] == "token" else " (Jester)"
        return (f"{last}. Unpass{how} and play now? ({listed})", [])
    if phase == "coup":
        if "coup" not in choices:
            return None  # only those dealt all three Masterstrokes have anything to decide
        return (
            f"You hold three {state.book.masterstroke.plural}. Pull a coup? (coup / pass)",
            [("coup", "reveal them, become the Queen; the cards are dealt again")],
        )
    if phase == "retrieve":
        mine = [lay for lay in table.lays if lay[0] == viewer]
        question = f"You lost this trick. Take back your {lay_of(mine[-1]) if mine else 'last lay'}?"
        if len(question) + len(" (retrieve / pass)") > WIDTH:
            question = "You lost this trick. Take back your last lay?"
        return (f"{question} (retrieve / pass)", [])
    if phase == "steal":
        faces = sorted({choice.split()[1] for choice in choices if choice.startswith("steal ")}, key=_face_order)
        question = f"Trick over: steal {joined(faces, conjunction='or')} from the machine? (steal N / pass)"
        if len(question) > WIDTH:  # one row: the list of choices below names every card
            question = "Trick over: steal a card from the machine? (steal N / pass)"
        return (question, [("steal N", "once a quarter; the trick's winner stays")])
    if phase == "return":
        drawn = " ".join(_faces([_face(state, slot, knowledge) for slot in table.drawn]))
        where = "Court Hand" if table.pile == "court" else "discard pile"
        left = table.returns
        # The 2015 tables' ``owed``: drawn cards that must go back (keep at most half, or two).
        owed = getattr(table, "owed", 0)
        if owed:
            return (
                f"Put back {owed} more of the cards you drew: put back N",
                [("drawn", f"{drawn or 'nothing'}; back to the {where}")],
            )
        return (
            f"Put back up to {left} of the cards you drew? (put back N / keep)",
            [("drawn", f"{drawn or 'nothing'}; back to the {where}")],
        )
    if phase == "plague":  # the 2015 Plague Doctor's Beginning of Quarter draw
        return (
            f"Draw four from the Court Hand ({_count(len(table.court), 'card')}) and keep two? (plague / pass)",
            [("plague", "at random; then put back all but two")],
        )
    if phase == "give":
        privilege = state.book[table.character_of(viewer)].privilege
        receivers = privilege.receivers(table, viewer)
        # A gift that can go to one player only (the 2015 rules', the Queen's at two players) names him.
        to = names[receivers[0]] if len(receivers) == 1 else "NAME"
        if privilege.cards == 2:
            if to != "NAME":
                return (f"Give two cards to {to}? (give N M to {to} / pass)", [(f"give N M to {to}", f"only {to} sees them")])
            return ("Give two cards away? (give N M to NAME / pass)", [("give N M to NAME", "only NAME sees them")])
        if to != "NAME":
            return (f"Give one card to {to}? (give N to {to} / pass)", [(f"give N to {to}", f"only {to} sees the card")])
        return ("Give one card away? (give N to NAME / pass)", [("give N to NAME", "only NAME sees the card")])
    if phase == "serve":
        receivers = state.book[table.character_of(viewer)].privilege.receivers(table, viewer)
        to = f"the {state.book[table.character_of(receivers[0])].title}" if len(receivers) == 1 else "another player"
        return (f"Give your two highest numbered cards to {to}: {listed}", [])
    if phase == "trade":
        court = len(table.court)
        if "trade" not in choices:
            return ("The Court Hand is empty: keep your hand", [])
        return (
            f"Trade for the unseen Court Hand ({_count(court, 'card')})? (trade / keep)",
            [("trade", "your hand for it, keeping the cards given to you")],
        )
    if phase == "hoard":
        return (
            f"Hoard the Court Hand ({_count(len(table.court), 'card')})? (hoard / leave)",
            [("hoard", "take all its cards into your hand")],
        )
    if phase == "inspect":
        return (
            "See the Court Hand and one hand? (inspect NAME / pass)",
            [("inspect NAME", "you see both; nobody else does")],
        )
    return None


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
    "coup-claim", "coup", "give", "bestow", "no-give", "inspect", "no-inspect", "serve", "trade", "keep",
    "hoard", "leave", "lay", "pass", "stop", "unpass", "trick", "retrieve", "steal", "lead",
    "discard", "dive", "plague", "put-back",
})
_SHORT_TABLE = ("Royal", "Renegades")


def _table_index(state: "SteamCourtState", player: int) -> int:
    for index, table in enumerate(state.tables):
        if player in table.seats:
            return index
    return 0  # pragma: no cover


def _seats_text(
    state: "SteamCourtState", table: Any, seats: Sequence[int], names: Sequence[str], start: bool = False
) -> str:
    """``2 bob (General), …``: each player of ``seats`` with the number of the character he sits as
    (the rulebook's), or with ``start`` his start token (the Party variant's are those numbers)."""
    return ", ".join(
        f"{state.start[player] if start else state.book[character].number} {names[player]} ({CHARACTER_TITLE[character]})"
        for player, character in zip(seats, table.characters)
    )


def _narrate_party_note(
    before: "SteamCourtState", after: "SteamCourtState", note: tuple, names: Sequence[str]
) -> list[str]:
    kind = note[0]
    if kind == "party-seating":
        # The 2015 Party variation seats by character tokens and has no start tokens.
        start = any(after.start)
        label = "start tokens" if start else "seats"
        return [
            f"{label}, {TABLE_NAMES[index]}: {_seats_text(after, after.tables[index], seats, names, start)}"
            for index, seats in enumerate(note[1])
        ]
    if kind == "table-quarter":
        _, index, quarter, size, court = note
        return [f"— quarter {quarter}, {TABLE_NAMES[index]}: {size} cards each, {court} in the Court Hand —"]
    if kind == "out":
        _, player, token, place, held = note
        tag = _SHORT_TABLE[_table_index(after, player)]
        # The Party variant's tokens are seat markers; the 2015 rules' two tables take gear tokens.
        taken = f"token {token}" if after.variant == "party" else f"the {token} gear token"
        if held:
            return [f"{tag}: {names[player]} is left holding {_count(held, 'card')}: last ({_ordinal(place)}), takes {taken}"]
        return [f"{tag}: {names[player]} is out of cards ({_ordinal(place)}) and takes {taken}"]
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
        if after.variant != "party":  # gear tokens: the points, the court's new order
            totals = after.totals()
            lines.append("points: " + ", ".join(f"{names[p]} {totals[p]}" for p in (*royal, *renegades)))
        if after.phase == "over":
            if after.variant == "party":
                lines.append(f"{names[royal[0]]} went out first at the Royal table")
        else:
            for index, seats in enumerate((royal, renegades)):
                lines.append(f"new seats, {TABLE_NAMES[index]}: {_seats_text(after, after.tables[index], seats, names)}")
        return lines
    if kind == "held":  # after the audit, which may reseat him at the other table: the note says where
        _, player, faces, index = note
        return [f"{_SHORT_TABLE[index]}: {names[player]} was left holding {' '.join(faces)}"]
    lines = _narrate_note(before, after, note, names)
    if kind in _PLAYER_NOTES and lines:
        tag = _SHORT_TABLE[_table_index(after, note[1])]
        lines = [f"{tag}: {line}" for line in lines]
    return lines


def party_panels(
    game: "SteamCourt", state: "SteamCourtState", viewer: int | None, knowledge: Knowledge, names: Sequence[str]
) -> list[Panel]:
    """Two tables (the Party variant; the 2015 rules' 8–10 players, with gear tokens or its Party
    variation): the viewer's table in full (seats, the machine), the other table at a glance
    (cards left, who acts; with gear tokens, points), what the viewer is asked, hand and powers.
    Someone watching (no seat) sees both tables in full. When the game is over: the final
    standing (the Party variant: the court as the 4th quarter reseated it; gear tokens: the
    points) and how each table's 4th quarter ended. Every line fits :data:`WIDTH`."""
    result = [_party_header_panel(state, viewer)]
    if not state.quarter:
        return result
    if state.phase == "over":
        if state.variant == "party":
            standings = _party_standings_panel(state, names)
        else:
            standings = _standings_panel(game, state, names)
        return result + [standings, _party_last_quarter_panel(state, names)]
    mine = state.tables.index(state.table_of(viewer)) if viewer is not None else None
    for index in range(len(state.tables)):
        if mine is None or index == mine:
            result.append(_table_panel(state, viewer, names, index, knowledge))
            result.append(_machine_panel(state, names, index))
        else:
            result.append(_party_glance_panel(state, index, names))
    if viewer is not None:
        choice = _choice_panel(game, state, viewer, knowledge, names)
        if choice is not None:
            result.append(choice)
        result.append(_hand_panel(state, viewer, knowledge))
        result.append(_powers_panel(state, viewer))
    return result


MACHINE_TITLES = ("Royal machine", "Renegade machine")


def _party_standings_panel(state: "SteamCourtState", names: Sequence[str]) -> Panel:
    """The final court, seat by seat from the Queen's down the Royal table, then the Renegade
    table's (the scores: RULES.md, I25); its Queen, the Royal table's first out, wins."""
    lines: list[tuple[Segment, ...]] = []
    for index, table in enumerate(state.tables):
        segments: list[Segment] = []
        for position, (player, character) in enumerate(zip(table.seats, table.characters)):
            last = position == len(table.seats) - 1
            text = f"{CHARACTER_TITLE[character]} {names[player][:12]}" + ("" if last else " ·")
            segments.append(("good" if index == 0 and position == 0 else "", text))
        lines.extend(wrap_segments(segments, "  ", [("bold", f"{_SHORT_TABLE[index]}:")]))
    winner = state.tables[0].seats[0]
    lines.insert(0, (("good", f"{names[winner][:12]} wins: first out at the Royal table in quarter 4"),))
    return Panel("Final standings", tuple(lines))


def _party_last_quarter_panel(state: "SteamCourtState", names: Sequence[str]) -> Panel:
    """Each table's 4th quarter: its going-out order, and what the last player was left holding."""
    lines: list[tuple[Segment, ...]] = []
    revealed = state.cards.revealed
    for index, table in enumerate(state.tables):
        segments: list[Segment] = []
        for place, player in enumerate(table.out):
            hand = state.hands[player]
            if hand:
                faces = [card_shown(state, revealed[slot]) if slot in revealed else "?" for slot in hand]
                text = f"{names[player][:12]} last, left holding {' '.join(_faces(faces))}"
            else:
                text = f"{names[player][:12]} {_ordinal(place + 1)}"
            segments.append(("", text + ("" if place == len(table.out) - 1 else " ·")))
        lines.extend(wrap_segments(segments, "  ", [("bold", f"{_SHORT_TABLE[index]}:")]))
    return Panel("Quarter 4", tuple(lines))


def _party_header_panel(state: "SteamCourtState", viewer: int | None) -> Panel:
    """One line for a player (the quarter, his table's Court Hand, discard pile and next token;
    with gear tokens, the other table's next token too); the goal is shown while start tokens are
    drawn, and in help."""
    party = state.variant == "party"
    scoring = "Party variant" if party else "gear tokens"
    if not state.quarter:
        return Panel("Steam Court", (
            (("bold", "drawing start tokens"), ("", f" · {scoring}: two tables")),
            (("dim", _PARTY_GOAL if party else _GEARS_GOAL),),
        ))
    if state.phase == "over":
        return Panel("Steam Court", ((("bold", "game over"), ("", f" · 4 quarters played · {scoring}")),))
    lines = []
    for index, table in enumerate(state.tables):
        if viewer is not None and table is not state.table_of(viewer):
            continue
        info: list[Segment] = [("bold", f"quarter {state.quarter} of 4")]
        if not party:
            info.append(("", "· gear tokens"))
        if viewer is None:
            info.append(("", f"· {TABLE_NAMES[index]}"))
        info.append(("", f"· Court Hand {len(table.court)}"))
        if _uses_discard_pile(state, table):
            info.append(("", f"· discard {len(table.discard)}"))
        if viewer is not None and not party:
            # Gear tokens are points: both tables' stacks matter to a player, on a line of their own.
            lines.extend(wrap_segments(info, "  "))
            other = 1 - index
            lines.append((
                ("", f"{TABLE_NAMES[index]}: {_next_token_text(state, table)}"),
                ("dim", f" · {TABLE_NAMES[other]}: {_next_token_text(state, state.tables[other])}"),
            ))
            continue
        if table.phase == "done":
            info.append(("good", "· quarter over"))
        elif table.stacks and state.quarter <= len(table.stacks):
            stack = table.stacks[state.quarter - 1]
            info.append(("", f"· next token {stack[-1]}" if stack else "· no tokens left"))
        lines.extend(wrap_segments(info, "  "))  # a spectator's line names the table: it may wrap
    return Panel("Steam Court", tuple(lines))


def _next_token_text(state: "SteamCourtState", table: "Table") -> str:
    """``next token 5``, ``no tokens left`` or ``quarter over``: ``table``'s stack this quarter."""
    if table.phase == "done":
        return "quarter over"
    stack = table.stacks[state.quarter - 1]
    return f"next token {stack[-1]}" if stack else "no tokens left"


_PARTY_GOAL = "the Royal table's first out in quarter 4 wins"
_GEARS_GOAL = "the most points (start token + four gear tokens) wins"


def _party_glance_panel(state: "SteamCourtState", index: int, names: Sequence[str]) -> Panel:
    """Another table at a glance: each seat's name and cards left (with gear tokens: and points),
    ▸ marking the one to act (its lays show in the log)."""
    table = state.tables[index]
    if table.phase == "done":
        other = TABLE_NAMES[1 - index]
        return Panel(TABLE_NAMES[index], ((("good", f"quarter over: waiting for the {other}"),),))
    acting = -1 if state.phase != "playing" else table.turn if table.phase == "turn" else table.actor
    seats: list[Segment] = []
    totals = state.totals() if state.variant != "party" else None
    for player in table.seats:
        count = len(state.hands[player])
        style = "warn" if player == acting else "dim" if player in table.out or player in table.passed else ""
        if seats:
            seats.append(("dim", "·"))
        points = "" if totals is None else f" ({totals[player]} pts)"
        seats.append((style, f"{'▸' if player == acting else ''}{names[player][:8]} {count}{points}"))
    return Panel(TABLE_NAMES[index], tuple(wrap_segments(seats)))


# -- the Duo variant: the ladder -------------------------------------------------------------------

DUO_HELP = """\
Duo (2 players, no 1s or 2s): you start as the Tea Boy and the Plague Doctor;
the first player out each quarter takes the next character on the ladder
(Plague Doctor, Alchemist, Duke, General), the other the lower of the next
quarter's two. Win by gear points (the gear tokens; the start tokens 11 and 6
only seat you; start_tokens=seat scores tokens 1 and 2 as well), or
(duo_win=queen) by going out first in the 4th quarter: Engineer to the Queen."""


def duo_ladder_panel(state: "SteamCourtState", names: Sequence[str]) -> Panel:
    """This quarter's two rungs of the Duo ladder, the next one (once the game is over: who climbed
    to it), and the win condition: two lines (the whole ladder is in help)."""
    quarter = max(1, min(state.quarter, 4))
    table = state.tables[0]
    holders = dict(zip(table.characters, table.seats)) if state.quarter else {}
    rungs: list[tuple[str, str]] = [("dim", "Q4:" if state.phase == "over" else "now:")]
    held = [character for character in LADDER if character in holders]
    for character in held:
        comma = "," if character != held[-1] else ""
        rungs.append(("bold", f"{CHARACTER_TITLE[character]} ({names[holders[character]][:12]}){comma}"))
    nxt = CHARACTER_TITLE[LADDER[quarter + 1]]
    if state.phase == "over":
        first = state.going_out_order()[0]
        rungs.append(("", f"· {names[first][:12]} out first: up to the {nxt}"))
    else:
        rungs.append(("", f"· first out climbs to the {nxt}"))
    goal = (
        "goal: Engineer to the Queen (go out first in the 4th quarter)"
        if state.duo_win == "queen"
        else "goal: the most points (start token + gear tokens)"
        if state.scores_start()
        else "goal: the most gear tokens (start tokens only seat)"
    )
    lines = [*wrap_segments(rungs), (("dim", goal),)]
    return Panel("The Duo ladder", tuple(lines))
