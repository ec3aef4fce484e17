"""What people see of Astonishing!: the log's lines, the table's panels, the help.

Everything here reads the public state, plus the viewer's own knowledge for its own panels: a
player sees its hand and installed cards, everyone sees face-up cards, hand sizes and how many
cards each position holds. Nothing here changes a state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from p2pgames.engine import (
    NO_KNOWLEDGE, PANEL_WIDTH, CardsDone, ChoiceGroup, Event, Knowledge, MalformedAction, NewDeal, Panel, Segment,
    wrap_segments,
)
from p2pgames.words import joined

from p2pgames.games.astonishing import typed
from p2pgames.games.astonishing.actions import Answer, Build, BuyResources, Describe, Offer, ReplacePart, SwayCrowd
from p2pgames.games.astonishing.cards import (
    ACE_WORTH,
    FAIR_QUEENS,
    INVENTORS,
    POSITIONS,
    QUEENS,
    SUITS,
    SUIT_SYMBOLS,
    card_text,
    descriptors,
    inventor_title,
    is_joker,
    suit_of,
    suit_title,
    worth,
)

if TYPE_CHECKING:
    from p2pgames.games.astonishing.rules import AstonishingState

__all__ = [
    "HELP",
    "group_choices",
    "narrate",
    "narrate_private",
    "explain",
    "INFO_COMMANDS",
    "panels",
    "card_of",
    "description_of",
    "inventor_sheets",
]

WIDTH = PANEL_WIDTH  # every panel line fits it (see engine.PANEL_WIDTH)


POSITION_NAMES = ("form", "workings", "wonder")
EXHIBITION_PHASES = frozenset({
    "choose-exhibit", "describe", "vote", "dice", "unseal", "revealing", "jacks", "reroll", "exhibit-queen",
    "replacing", "exhibit-king", "auditing", "over",
})

HELP = """Astonishing! — build a contraption, then astonish the fair.

First each player chooses an Inventor, in turn: by name (Marisol Chang, or just marisol)
or by suit (hearts). sheet shows an Inventor sheet: the Queens, the King and the
descriptor lists in full (sheet alone: yours; sheet hearts: Marisol Chang's).

Invention turns: everyone chooses an action card in secret (not the one played last
turn, except on the first and final turns): jack, queen or king.
  Jacks trade, in turn: the initiator lays 1–2 cards face up (offer 3d 7c); the others
    answer with 1–2 cards, each face up or face down (answer 5d down:joker), or decline;
    the initiator accepts one (accept bob), revises, asks again or withdraws.
  Queens: each Inventor's own effect (see your workshop panel).
  Kings build, all at once: 1–2 cards face down into a position, at most 2 a position,
    discarding installed ones only to make room (build 9c 2d at 1; build 5h at 2
    replacing 3s).
  End of turn: more than six cards? Discard down to six (never a Joker); with the
    free_discard option every player may discard (discard 7c, keep the rest).
The turn after the deck runs out is the final one, with all three action cards.

Exhibition: choose Queen or King face down (queen, king), describe your contraption
(describe 3 9 - pitch Behold!: the descriptors your cards offer are in your log as the
descriptions begin), vote for a competitor (vote bob), then three dice: a
position works if its cards total at least the dice. Then the Queens and Kings are
revealed; Jacks re-roll dice, then Queens, then Kings act.
Score: 2 a working position, 1 a Jack kept, plus your King's Acclaim.

Cards: 7d, 10h, as (ace of spades), joker. Your own suit's Ace is worth 11 to you.
Type a choice, its number, or Tab to complete; say TEXT talks to the table."""


def king_help(suit: int) -> str:
    """What the King of ``suit`` does at the fair (short enough for a panel line after
    ``"King: "``)."""
    return f"1 Acclaim per {SUIT_SYMBOLS[suit]} in a competitor's working positions"


def card_of(state: "AstonishingState", slot: int, knowledge: Knowledge) -> str:
    """A card as its viewer can see it: its face, or ``▒`` face down."""
    name = state.value(slot, knowledge)
    return "▒" if name is None else card_text(name)


def _cards(count: int) -> str:
    return "a card" if count == 1 else f"{count} cards"


def description_of(state: "AstonishingState", seat: int, names: Sequence[str]) -> str:
    """The sentence the exhibition shows for ``seat``'s contraption, once described."""
    numbers = state.descriptions[seat]
    if not numbers or state.inventor[seat] < 0:
        return f"{names[seat]} has not described a contraption yet"
    lists = descriptors()[state.inventor[seat]]
    text = f"{INVENTORS[state.inventor[seat]]} presents {lists.compose(numbers)}."
    if state.pitches[seat]:
        text += f" “{state.pitches[seat]}”"
    return text


# -- information commands ------------------------------------------------------------------------

INFO_COMMANDS = (
    ("sheet [INVENTOR]", "an Inventor sheet: its Queens, its King and its descriptor lists in full (yours, unnamed)"),
)


def explain(state: "AstonishingState", viewer: int | None, text: str, names: Sequence[str]) -> list[str] | None:
    """The answer to ``sheet`` (the viewer's Inventor sheet) or ``sheet NAME`` (another's, by
    name or suit), as lines for the log; ``None`` for any other text."""
    words = text.split()
    if not words or words[0].casefold() != "sheet":
        return None
    rest = " ".join(words[1:])
    if not rest:
        if viewer is None or state.inventor[viewer] < 0:
            return ["Name the Inventor whose sheet to show: sheet hearts, sheet Albert Smithering."]
        suit = state.inventor[viewer]
    else:
        try:
            suit = typed.inventor_named(rest)
        except MalformedAction as error:
            return [f"{error}."]
        if suit is None:
            return [f"No Inventor is called {rest!r}: {joined(INVENTORS, conjunction='or')}."]
    lists = descriptors()[suit]
    lines = [
        f"{INVENTORS[suit]}'s sheet ({suit_title(suit)}):",
        f"Queen — {QUEENS[suit]}. At the fair: Queen — {FAIR_QUEENS[suit]}; King — {king_help(suit)}.",
    ]
    for position, name in enumerate(POSITION_NAMES):
        entries = [f"{number} {lists.entry(position, number)}" for number in range(1, 11)]
        entries.append(f"11 (your Ace) {lists.entry(position, ACE_WORTH)}")
        lines.append(f"{name.capitalize()}: " + "; ".join(entries) + ".")
    return lines


# -- the log -------------------------------------------------------------------------------------


def narrate(before: "AstonishingState", event: Event, after: "AstonishingState", names: Sequence[str]) -> list[str]:
    """Log lines for ``event``, from public information only."""
    lines: list[str] = []
    if isinstance(event, CardsDone):
        lines.extend(_narrate_reveals(before, after, names))
    for note in after.notes:
        lines.extend(_narrate_note(before, after, note, names))
    return lines


def narrate_private(
    before: "AstonishingState", event: Event, after: "AstonishingState", viewer: int, knowledge: Knowledge,
    names: Sequence[str],
) -> list[str]:
    """Lines for ``viewer``'s log alone: the card a Queen took from its hand at random, and the
    hidden cards it received — bought face down, taken at random, given back, drawn — once it
    can see them (the card operations that show them to it end with a :class:`CardsDone`)."""
    lines = []
    for note in after.notes:
        if note[0] == "taken" and note[2] == viewer and note[3] in knowledge:
            lines.append(f"{names[note[1]]} takes your {_a_card(knowledge[note[3]])}.")
        elif note[0] == "sealed" and after.inventor[viewer] >= 0:
            lines.extend(_descriptor_choices(after, viewer, knowledge))
    if isinstance(event, CardsDone):
        lines.extend(_narrate_received(before, viewer, knowledge, names))
    return lines


def _narrate_received(
    before: "AstonishingState", viewer: int, knowledge: Knowledge, names: Sequence[str]
) -> list[str]:
    """The cards the card operations ``before`` waited for showed ``viewer``, said by how they
    came to it (``before.notes``: what queued them)."""
    if any(isinstance(operation, NewDeal) for operation in before.cards.pending):
        return []  # the deal: the workshop panel shows the hand
    received = [slot for slot in before.cards.disclosed_to(viewer) if slot in knowledge]
    lines = []

    def take(slots: Sequence[int]) -> list[str]:
        mine = [slot for slot in slots if slot in received]
        for slot in mine:
            received.remove(slot)
        return [_a_card(knowledge[slot]) for slot in mine]

    for note in before.notes:
        if note[0] == "trade" and note[1] == viewer:
            cards = take([slot for slot, up in note[4] if not up])
            if cards:
                are = "is" if len(cards) == 1 else "are"
                lines.append(f"The face-down {_cards_word(len(cards))} from {names[note[2]]} {are} {joined(cards)}.")
        elif note[0] == "taken" and note[1] == viewer and note[2] >= 0:
            cards = take([note[3]])
            if cards:
                lines.append(f"The card you take from {names[note[2]]}'s hand is {cards[0]}.")
        elif note[0] == "give-back" and note[2] == viewer:
            cards = take([note[3]])
            if cards:
                lines.append(f"{names[note[1]]} gives you {cards[0]}.")
    if received:  # the rest came from the top of the deck
        lines.append(f"You draw {joined([card_text(knowledge[slot]) for slot in received])}.")
    return lines


def _descriptor_choices(state: "AstonishingState", viewer: int, knowledge: Knowledge) -> list[str]:
    """The descriptors ``viewer``'s installed cards offer, in full, as the descriptions begin
    (the workshop panel has room for their first words only)."""
    suit = state.inventor[viewer]
    lists = descriptors()[suit]
    lines = []
    for position in range(POSITIONS):
        numbers = state.descriptor_numbers(viewer, position, knowledge)
        if numbers:
            entries = " · ".join(f"{number} {lists.entry(position, number)}" for number in numbers)
            lines.append(f"Your descriptors for position {position + 1} ({POSITION_NAMES[position]}): {entries}")
    return lines


def _a_card(name: str) -> str:
    return "a Joker" if is_joker(name) else card_text(name)


def _cards_word(count: int) -> str:
    return "card" if count == 1 else "cards"


def _narrate_reveals(before: "AstonishingState", after: "AstonishingState", names: Sequence[str]) -> list[str]:
    """Cards that just became public, said where they lie: an offer, an answer, the discard pile."""
    new = {slot: name for slot, name in after.cards.revealed.items() if slot not in before.cards.revealed}
    if not new or after.phase in ("auditing", "over"):
        return [] if not new else ["The audit: every card of the deal is public; every claim checked."]
    lines = []
    if any(slot in after.offer for slot in new):
        lines.append(f"{names[after.trader]} offers {joined([card_text(after.cards.revealed[s]) for s in after.offer])}.")
    for seat in after.in_turn():
        answer = after.answer_of(seat)
        if any(slot in new for slot, _ in answer):  # all its face-up cards, those seen before too
            shown = [card_text(after.cards.revealed[slot]) for slot, up in answer if up]
            lines.append(f"{names[seat]} shows {joined(shown)} face up.")
    discarded = [slot for slot in after.discard if slot in new]
    if discarded:
        lines.append(f"To the discard pile: {joined([card_text(new[slot]) for slot in discarded])}.")
    installed = [slot for positions in after.installed for slots in positions for slot in slots if slot in new]
    if installed and after.phase not in ("revealing",):
        for seat in after.in_turn():
            cards = [
                f"{POSITION_NAMES[position]}: {' '.join(card_text(after.cards.revealed[s]) for s in slots) or '—'}"
                for position, slots in enumerate(after.installed[seat])
            ]
            if any(slot in new for slots in after.installed[seat] for slot in slots):
                lines.append(f"{names[seat]}'s contraption — {'; '.join(cards)}.")
    return lines


def _narrate_note(before: "AstonishingState", after: "AstonishingState", note: tuple, names: Sequence[str]) -> list[str]:
    kind = note[0]
    revealed = after.cards.revealed
    if kind == "first":
        return [f"{names[note[1]]} goes first (drawn at random: the rulebook's youngest player) and play goes up the seats."]
    if kind == "inventor":
        return [f"{names[note[1]]} plays {inventor_title(note[2])}."]
    if kind == "chosen":
        cards = note[1]
        return [
            "Action cards revealed: "
            + "; ".join(f"{names[seat]} {card.capitalize()}" for seat, card in enumerate(cards))
            + ("." if not after.final else " (the final turn).")
        ]
    if kind == "offer":
        _, seat, slots, revised = note
        said = f"{names[seat]} {'revises the offer' if revised else 'opens a trade'}"
        if all(slot in revealed for slot in slots):  # cards seen before: no reveal names them
            return [f"{said}: {joined([card_text(revealed[slot]) for slot in slots])}."]
        return [f"{said}."]
    if kind == "no-trade":
        return [f"{names[note[1]]} initiates no trade."]
    if kind == "answer":
        _, seat, slots, face_up = note
        down = sum(not up for up in face_up)
        shown = [slot for slot, up in zip(slots, face_up) if up]
        if shown and all(slot in revealed for slot in shown):  # seen before: no reveal names them
            named = [f"{joined([card_text(revealed[slot]) for slot in shown])} face up"]
            return [f"{names[seat]} answers with {joined(named + ([_cards(down) + ' face down'] if down else []))}."]
        if not down:
            how = "face up"
        elif down == len(slots):
            how = "face down"
        else:
            how = "one face up, one face down"
        return [f"{names[seat]} answers with {_cards(len(slots))}, {how}."]
    if kind == "stand":
        return [f"{names[note[1]]} stands by the answer."]
    if kind == "decline":
        return [f"{names[note[1]]} declines."]
    if kind == "reopen":
        return [f"{names[note[1]]} asks for better answers."]
    if kind == "withdraw":
        return [f"{names[note[1]]} withdraws the offer: no trade."]
    if kind == "trade":
        _, trader, partner, offer, answer = note
        gave = joined([card_text(revealed[slot]) for slot in offer])
        got = [card_text(revealed[slot]) if slot in revealed else "a face-down card" for slot, _ in answer]
        return [f"{names[trader]} trades {gave} to {names[partner]} for {joined(got)}."]
    if kind == "draw":
        return [f"{names[note[1]]} draws {_cards(note[2])} from the deck." if note[2] else f"{names[note[1]]} draws nothing: the deck is empty."]
    if kind == "take-from":
        drawn = f"draws {_cards(note[3])} and " if note[3] else ""
        return [f"{names[note[1]]} {drawn}takes a card at random from {names[note[2]]}'s hand."]
    if kind == "take-discard":
        drawn = f"draws {_cards(note[2])} and " if note[2] else ""
        return [f"{names[note[1]]} {drawn}takes a card at random from the top of the discard pile."]
    if kind == "taken":
        _, taker, source, slot = note
        if source == -2:
            return [f"{names[taker]} takes {card_text(revealed[slot])} from the discard pile."]
        return []  # said when the Queen was played; which card it was is the two players' secret
    if kind == "buy":
        _, seat, slots, drawn = note
        return [f"{names[seat]} discards {_cards(len(slots)) if slots else 'nothing'} and draws {_cards(drawn) if drawn else 'nothing'}."]
    if kind == "give-back":
        return [f"{names[note[1]]} gives a card back to {names[note[2]]}."]
    if kind == "deck-out":
        return ["The deck is empty: the deadline is nigh. This turn is completed, then one final turn."] if not after.final else ["The deck is empty."]
    if kind == "queen-skipped":
        return [f"{names[note[1]]}'s Queen can do nothing now."]
    if kind == "build":
        _, seat, position, count, scrap = note
        replaced = f", discarding {_cards(len(scrap))}" if scrap else ""
        return [f"{names[seat]} installs {_cards(count)} in position {position + 1}{replaced}."]
    if kind == "only-jokers":
        what = "to build with" if note[2] == "King" else "to replace a part with"
        return [f"{names[note[1]]} holds only Jokers: nothing {what} (checked at the end)."]
    if kind == "discard":
        return [f"{names[note[1]]} discards {card_text(revealed[note[2]])}." if note[2] in revealed else f"{names[note[1]]} discards a card."]
    if kind == "refill":
        return [f"{names[note[1]]} {'draws a card' if note[2] else 'draws nothing'} (an empty hand)."]
    if kind == "vote-end":
        agreed = all(note[1])
        return ["Everyone agrees: the next turn is the final one." if agreed else "Not everyone agrees to end the Invention phase yet."]
    if kind == "exhibition":
        return ["The Invention phase is over: to London, for the World's Design & Invention Fair!"]
    if kind == "sealed":
        return ["Everyone has chosen an exhibition action, face down until after the dice."]
    if kind == "describe":
        return [description_of(after, note[1], names)]
    if kind == "votes":
        return ["Votes: " + "; ".join(f"{names[seat]} → {names[vote]}" for seat, vote in enumerate(note[1])) + "."]
    if kind == "exhibit":
        return ["Exhibition actions revealed: " + "; ".join(f"{names[s]} {c.capitalize()}" for s, c in enumerate(note[1])) + "."]
    if kind == "dice":
        dice = note[1]
        return [f"The crowd: {' + '.join(map(str, dice))} = {sum(dice)}."]
    if kind == "revealed":
        return [
            f"{names[seat]}: " + "; ".join(f"{n}: {part}" for n, part in enumerate(_position_results(after, seat), 1))
            for seat in after.in_turn()
        ]
    if kind == "rerolled":
        _, seat, die, old, new = note
        return [f"{names[seat]} spends a Jack: die {die + 1} rolls again, {old} → {new}; the crowd: {after.demonstration}."]
    if kind == "intimidate":
        return [f"{names[note[1]]} intimidates: position {note[2] + 1} counts 2 more."]
    if kind == "replace":
        _, seat, owner, position, old, new = note
        return [
            f"{names[seat]} replaces {card_text(revealed[old])} in {names[owner]}'s position {position + 1}"
            f" with {card_text(revealed[new]) if new in revealed else 'a card'}."
        ]
    if kind == "keep-parts":
        return [f"{names[note[1]]} replaces no part."]
    if kind == "sway":
        _, seat, die, old, new = note
        return [f"{names[seat]} sways the crowd: die {die + 1} turns {old} → {new}; the crowd: {after.demonstration}."]
    if kind == "sabotage":
        owner = after.owner_of_installed(note[2])
        whose = f" in {names[owner[0]]}'s position {owner[1] + 1}" if owner else ""
        return [f"{names[note[1]]} sabotages {card_text(revealed[note[2]])}{whose}: it no longer counts."]
    if kind == "promote":
        _, seat, competitor, earned = note
        return [f"{names[seat]}'s King: {earned} Acclaim from {names[competitor]}'s invention."]
    return []


# -- panels --------------------------------------------------------------------------------------

def panels(state: "AstonishingState", viewer: int | None, knowledge: Knowledge, names: Sequence[str]) -> list[Panel]:
    """The table, the inventors (while they are chosen: every Inventor sheet), the trade on the
    table, the fair at the exhibition, and the viewer's workshop — lines of at most
    :data:`WIDTH`, few enough for an 80×24 terminal (the descriptions are in the log)."""
    if state.phase == "inventors":
        return [_table_panel(state), _sheets_panel(state, names)]
    result = [_table_panel(state), _players_panel(state, viewer, names)]
    if state.trader >= 0 and state.phase in ("respond", "decide", "offer"):
        result.append(_trade_panel(state, viewer, knowledge, names))
    if state.phase in EXHIBITION_PHASES:
        result.append(_fair_panel(state, names))
    if viewer is not None and state.inventor[viewer] >= 0:
        result.append(_workshop_panel(state, viewer, knowledge))
    return result


def _table_panel(state: "AstonishingState") -> Panel:
    line: list[Segment] = []
    if state.phase == "inventors":
        line.append(("bold", "The Inventors are chosen, in turn"))
    elif state.phase in EXHIBITION_PHASES:
        line.append(("bold", "Exhibition"))
    else:
        line.append(("bold", f"Turn {state.turn}" + (" (final)" if state.final else "")))
    if state.phase != "inventors":
        line.append(("", f" · deck {len(state.deck)}"))
        top = [card_text(state.cards.revealed[slot]) for slot in state.discard[-3:] if slot in state.cards.revealed]
        line.append(("", f" · discards {len(state.discard)}" + (f" (top {' '.join(reversed(top))})" if top else "")))
    return Panel("Astonishing!", (tuple(line),))


def _sheets_panel(state: "AstonishingState", names: Sequence[str]) -> Panel:
    """Every Inventor sheet while they are chosen: the Inventor, who took it, and its Queens."""
    lines = []
    for suit in range(len(SUITS)):
        head: list[Segment] = [(f"suit-{SUITS[suit]}", f"{SUIT_SYMBOLS[suit]} "), ("bold", INVENTORS[suit])]
        if suit in state.inventor:
            head.append(("dim", f" · {names[state.inventor.index(suit)][:14]}'s"))
        lines.append(tuple(head))
        lines.append((("dim", "  Queen: "), ("", QUEENS[suit].does)))
        lines.append((("dim", "  Fair Queen: "), ("", FAIR_QUEENS[suit].does)))
    return Panel("Inventor sheets", tuple(lines))


def _players_panel(state: "AstonishingState", viewer: int | None, names: Sequence[str]) -> Panel:
    lines = []
    for seat in range(state.players):
        style = "you" if seat == viewer else "bold"
        suit = state.inventor[seat]
        who: list[Segment] = [(style, f"{names[seat][:12]:<12}")]
        who.append((f"suit-{SUITS[suit]}" if suit >= 0 else "dim", f" {SUIT_SYMBOLS[suit] if suit >= 0 else '?'} "))
        who.append(("", f"hand {len(state.hands[seat]):>2}"))
        if not state.positions_public:  # then the fair shows them, and the Acclaim is what counts
            counts = " ".join(str(len(slots)) for slots in state.installed[seat])
            who.append(("", f" · installed {counts}"))
        if state.action[seat] and state.phase not in ("choose",):
            who.append(("", f" · {state.action[seat]}"))
        elif state.exhibit[seat]:  # opened after the dice: until then nobody's is shown
            who.append(("", f" · {state.exhibit[seat]}"))
        elif state.last_action[seat]:
            who.append(("dim", f" · last {state.last_action[seat]}"))
        if state.positions_public:
            who.append(("", f" · jacks {state.jacks[seat]} · Acclaim {state.score(seat)}"))
        if seat == state.first:
            who.append(("dim", " · first"))
        lines.append(tuple(who))
    return Panel("Inventors", tuple(lines))


def _trade_panel(state: "AstonishingState", viewer: int | None, knowledge: Knowledge, names: Sequence[str]) -> Panel:
    """The offer, then every answer (face-down cards as ``▒``, or as the viewer's own cards
    marked ``(down)``), on as many lines as they need."""
    offer = " ".join(card_of(state, slot, knowledge) for slot in state.offer) or "(laying an offer)"
    answers: list[str] = []
    for seat in state.in_turn():
        if seat == state.trader:
            continue
        answer = state.answer_of(seat)
        if answer:
            text = " ".join(
                card_of(state, slot, knowledge) + ("" if up else ("(down)" if seat == viewer else ""))
                for slot, up in answer
            )
        else:
            text = "…" if seat in state.owing else "declines"
        answers.append(f"{names[seat][:12]} {text}")
    lines: list[tuple[Segment, ...]] = [(("bold", f"{names[state.trader][:12]} offers "), ("", offer))]
    lines += [(("", row),) for row in _rows(answers, "answers: ", " · ")]
    return Panel("Trade", tuple(lines))


def _fair_panel(state: "AstonishingState", names: Sequence[str]) -> Panel:
    """Who has described (the descriptions are in the log), the dice, then each contraption's
    positions: cards, reliability, working (✓) or not (✗)."""
    described = [names[seat][:8] + (" ✓" if state.descriptions[seat] else " …") for seat in state.in_turn()]
    lines = [(("", row),) for row in _rows(described, "described: ", ", ")]
    if state.dice:
        lines = [(("bold", f"Dice {' '.join(map(str, state.dice))} = {state.demonstration}"),)]
        if state.positions_public:
            lines += [
                (("", f"{names[seat][:8]:<8} "), ("", " · ".join(_position_results(state, seat))))
                for seat in state.in_turn()
            ]
    return Panel("The Fair", tuple(lines))


def _workshop_panel(state: "AstonishingState", viewer: int, knowledge: Knowledge) -> Panel:
    """The viewer's hand and roster, what its Queen does now (and its King, at the exhibition),
    then each position: cards, reliability and the descriptors they offer — until the fair
    shows the positions, with everyone's."""
    suit = state.inventor[viewer]
    hand: list[Segment] = []
    for slot in sorted(state.hands[viewer], key=lambda s: _sort_key(state, s, knowledge, suit)):
        name = state.value(slot, knowledge)
        text = card_of(state, slot, knowledge)
        if name is not None and not is_joker(name) and worth(name, suit) == ACE_WORTH:
            text += "(11)"
        hand.append((_card_style(name), text))
    roster = []
    for card in ("jack", "queen", "king"):
        mark = "·last" if state.last_action[viewer] == card and not state.final else ""
        roster.append(card[0].upper() + mark)
    lines = wrap_segments([*hand, ("dim", f" roster {' '.join(roster)}")], "      ", [("bold", "Hand:")])
    exhibition = state.phase in EXHIBITION_PHASES
    queen = FAIR_QUEENS[suit] if exhibition else QUEENS[suit]
    optional = exhibition and SUITS[suit] == "diamonds" and state.optional_replacement
    lines.append((("dim", "Queen: "), ("", queen.does + (", or none" if optional else ""))))
    if exhibition:
        lines.append((("dim", "King: "), ("", king_help(suit))))
    if not state.positions_public:
        lists = descriptors()[suit]
        for position, slots in enumerate(state.installed[viewer]):
            cards = " ".join(card_of(state, slot, knowledge) for slot in slots) or "—"
            total = state.reliability(viewer, position, knowledge)
            numbers = state.descriptor_numbers(viewer, position, knowledge)
            label = f"{position + 1} {POSITION_NAMES[position]:<8} "
            reliability = f"= {total if total is not None else '?'}"
            line: list[Segment] = [
                ("bold", label), ("", f"{cards:<7} "), ("good" if (total or 0) >= 12 else "", reliability),
            ]
            room = WIDTH - len(label) - 8 - len(reliability) - len(" · ")
            if numbers:
                line += [("dim", " · "), ("dim", _fitted([(n, lists.entry(position, n)) for n in numbers], room))]
            lines.append(tuple(line))
    return Panel(f"Your workshop — {INVENTORS[suit]} {SUIT_SYMBOLS[suit]}", tuple(lines))


def _position_results(state: "AstonishingState", seat: int) -> list[str]:
    """``seat``'s three positions, public now, each as ``9♣ 3♥ = 12 ✓`` (its cards, reliability,
    working or not) or ``empty ✗``; a replacement part still being turned up is ``▒ = ?``."""
    parts = []
    for position in range(POSITIONS):
        slots = state.installed[seat][position]
        mark = "✓" if state.works(seat, position) else "✗"
        if not slots:
            parts.append(f"empty {mark}")
            continue
        cards = " ".join(card_of(state, slot, NO_KNOWLEDGE) for slot in slots)
        total = state.reliability(seat, position)
        parts.append(f"{cards} = {'?' if total is None else total} {mark}")
    return parts


def _rows(items: Sequence[str], first: str, separator: str) -> list[str]:
    """``first`` and ``items`` joined by ``separator``, in rows of at most :data:`WIDTH` (later
    rows indented as far as ``first``)."""
    rows: list[str] = []
    row = first
    for index, item in enumerate(items):
        piece = item if index == 0 else separator + item
        if index and len(row) + len(piece) > WIDTH:
            rows.append(row + separator.rstrip())
            row, piece = " " * len(first), item
        row += piece
    rows.append(row)
    return rows


def _fitted(entries: Sequence[tuple[int, str]], room: int) -> str:
    """Descriptors ``(number, text)`` as ``3 a walking fortress / 9 …`` in at most ``room``
    characters: each in turn gets the room the later ones' numbers leave it; a text too long
    for it keeps its first whole words and ends in ``…`` (never cut inside a word), or — too
    long for even a few of them — its number stands alone (the log and ``sheet`` have it all)."""
    joint = " / "
    parts: list[str] = []
    used = 0
    for index, (number, text) in enumerate(entries):
        later = sum(len(joint) + len(str(n)) for n, _ in entries[index + 1:])
        part = _clipped(number, text, room - used - later - (len(joint) if parts else 0))
        parts.append(part)
        used += len(part) + (len(joint) if len(parts) > 1 else 0)
    return joint.join(parts)


def _clipped(number: int, text: str, room: int) -> str:
    """``number text`` in ``room`` characters: whole, or its first words and ``…`` (at least
    :data:`MIN_WORDS` of them), or else the number alone."""
    whole = f"{number} {text}"
    if len(whole) <= room:
        return whole
    kept = str(number)
    words = 0
    for word in text.split(" "):
        if len(kept) + 1 + len(word) + 1 > room:
            break
        kept, words = f"{kept} {word}", words + 1
    return kept.rstrip(",;") + "…" if words >= MIN_WORDS else str(number)


MIN_WORDS = 3  # fewer words than this of a descriptor say too little: its number stands alone


def _sort_key(state: "AstonishingState", slot: int, knowledge: Knowledge, suit: int) -> tuple:
    name = state.value(slot, knowledge)
    if name is None:
        return (2, 0, slot)
    if is_joker(name):
        return (1, 0, slot)
    return (0, suit_of(name), worth(name, suit))


def _card_style(name: str | None) -> str:
    if name is None or is_joker(name):
        return "dim"
    return f"suit-{SUITS[suit_of(name)]}"


# -- grouping long lists of choices ---------------------------------------------------------------

GROUP_ABOVE = 8  # a list of more choices than this is grouped (two rows of an 80-column screen)


def group_choices(actions: Sequence[object], texts: Sequence[str]) -> list[ChoiceGroup]:
    """A long list of choices one line per kind of move — ``build … at 1``, ``answer …``,
    ``offer …`` — each line's parts one per set of cards (``build 9♣ 2♦ at 1 …``: with or
    without replacing installed cards; ``answer 5♦ 7♣ …``: face up or down). Shorter lists stay
    as they are."""
    singles = [ChoiceGroup(text, (index,)) for index, text in enumerate(texts)]
    if len(texts) <= GROUP_ABOVE:
        return singles
    lines: dict[str, list[int]] = {}
    for index, (action, text) in enumerate(zip(actions, texts)):
        lines.setdefault(_line_of(action, text), []).append(index)
    groups = []
    for label, members in lines.items():
        if len(members) == 1:
            groups.append(ChoiceGroup(texts[members[0]], (members[0],)))
            continue
        by_part: dict[str, list[int]] = {}
        for index in members:
            by_part.setdefault(_part_of(actions[index], texts[index]), []).append(index)
        parts = tuple(
            ChoiceGroup(texts[indexes[0]] if len(indexes) == 1 else f"{stem} …", tuple(indexes))
            for stem, indexes in by_part.items()
        )
        groups.append(ChoiceGroup(label, tuple(members), parts if 1 < len(parts) < len(members) else ()))
    return groups


def _line_of(action: object, text: str) -> str:
    """The numbered line ``action`` is listed under: its position's builds, its die's turns, or
    every move of its kind (``answer …``)."""
    if isinstance(action, Build):
        return f"build … at {action.position + 1}"
    if isinstance(action, SwayCrowd):
        return f"turn die {action.die + 1} …"
    if isinstance(action, (Answer, Offer, BuyResources, ReplacePart, Describe)):
        return f"{text.split()[0]} …"
    return text


def _part_of(action: object, text: str) -> str:
    """Its part within that line: a build's cards (with or without replacing), an answer's cards
    (face up or down), or the first card of an offer, a purchase or a replacement."""
    if isinstance(action, Build):
        return text.split(" replacing ")[0]
    if isinstance(action, Answer):
        return " ".join(word.removeprefix("down:") for word in text.split())
    if isinstance(action, (Offer, BuyResources, ReplacePart)):
        return " ".join(text.split()[:2])
    return text


def inventor_sheets() -> list[str]:
    """Each Inventor's three descriptor lists, numbered 1–10 and 11 (the own-suit Ace's
    revolutionized entry), as ``descriptors.toml`` holds them: the Inventor sheets section of
    ``RULES.md``, indented as a block laid out by hand."""
    lines: list[str] = []
    for suit, sheet in enumerate(descriptors()):
        lines.append(f"    {inventor_title(suit)}")
        for position, name in enumerate(POSITION_NAMES):
            lines.append(f"      {name}")
            for number in (*range(1, 11), ACE_WORTH):
                lines.append(f"      {number:>4}  {sheet.entry(position, number)}")
        lines.append("")
    return lines[:-1]
