"""What people see of a Beltpunk table: action texts, log lines, panels and the help text.

Everything here reads the state and never changes it. Log lines use public information only;
action texts and panels may use the viewer's own knowledge of hidden cards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from p2pgames.engine import (
    Act,
    CardsDone,
    ChanceOutcome,
    Event,
    Knowledge,
    Panel,
    Segment,
    SimultaneousActs,
    normalize_typed,
    wrap_segments,
)

from p2pgames.games.beltpunk.actions import (
    Declare,
    Discard,
    Draw,
    Exchange,
    Give,
    Look,
    Pick,
    SUIT_ACTIONS,
    Place,
    Score,
    Skip,
    Take,
)
from p2pgames.games.beltpunk.cards import (
    HAND_SIZE,
    MACHINE_ORDER,
    RANK_OF,
    SUIT_NAMES,
    SUIT_OF,
    card_title,
    classify,
    points_of,
)
from p2pgames.words import joined, with_article

if TYPE_CHECKING:
    from p2pgames.games.beltpunk.state import BeltpunkState

__all__ = ["describe_action", "narrate", "narrate_private", "panels", "warnings", "HELP"]

WIDTH = 78  # panels must fit an 80-column terminal, borders included
SUIT_STYLES = ("suit-steam", "suit-gears", "suit-parts", "suit-electricity")

HELP = """\
Beltpunk Haberdasher: collect sets for your tophat; every card in your scrap
pile costs a point.

Each turn everyone draws (from the Foreman, clockwise), then secretly picks a
card to discard. Discards are revealed and resolved in Machine Order: Steam,
Gears, Parts, Electricity, lower number first. Your card goes into its conveyor
of The Machine; then you may use one action of its suit. After that, any
conveyor holding more cards than there are players overflows into YOUR scrap
pile. Then, from the Foreman, everyone declares whether they score a set; those
who do reveal one set at the same time. The round ends when a hand or the deck
is empty; cards left in hands go to their owners' scrap piles. Round score: set
points minus 1 per scrap card. At the end of a round, once someone has the
target (25 by default), the most points wins.

Actions by suit:  Steam: draw / exchange     Gears: take and place / exchange
                  Parts: look and draw / take and place
                  Electricity: draw / look and draw

Sets: Goggles (pair) 3, Broken Gears (3 of a kind) 5, Perfect Gears (4 of a
      kind) 10, Perfect Belt (3+ in a row, one suit) 5 +2 per card beyond 3,
      Cobbled Belt (3-4 in a row, all suits different) 1 per card.

Type (cards by name, e.g. S7 = Steam 7; seats by name):
  discard S7                choose your discard
  draw                      draw the top card of the deck
  look machine | look bob   look at a scrap pile (The Machine or a player's)...
  draw G4 | draw bob#2      ...then draw a card of it
  take G4 from machine      take a card (bob#2: 2nd card of bob's pile)...
  place S7                  ...then place a card from your hand into that pile
  exchange S7 with bob      offer S7; bob chooses the card to give back
  give E3                   (asked in an exchange) the card you give
  skip                      use no action
  declare yes | declare no  announce whether you score a set this turn
  score S4 S5 S6            the set you score"""


# -- names -----------------------------------------------------------------------------------------


# What The Machine is typed as, whoever plays: a player so called has their pile typed with 's.
MACHINE_WORDS = ("machine", "the machine")


def pile_word(pile: int | None, names: Sequence[str]) -> str:
    """How a pile is typed: ``machine``, or the owner's name — ``machine's`` (``the machine's``)
    for a player called machine (the machine): typed moves ignore case and spacing, so
    ``The  Machine`` is so called too."""
    if pile is None:
        return "machine"
    typed = normalize_typed(names[pile])
    return f"{typed}'s" if typed in MACHINE_WORDS else names[pile]


def pile_title(pile: int | None, names: Sequence[str], viewer: int | None = None) -> str:
    """A pile as sentences name it: ``The Machine``, ``bob's scrap pile`` (``your scrap pile`` to
    its owner, ``viewer``)."""
    if pile is None:
        return "The Machine"
    return "your scrap pile" if pile == viewer else f"{names[pile]}'s scrap pile"


def _position(state: "BeltpunkState", slot: int, names: Sequence[str]) -> str:
    """``bob#2``: the second card (from the bottom) of bob's scrap pile."""
    for seat, pile in enumerate(state.scrap):
        if slot in pile:
            return f"{names[seat]}#{pile.index(slot) + 1}"
    return f"#{slot}"


def _in_machine_order(names: Sequence[str]) -> list[str]:
    return sorted(names, key=MACHINE_ORDER.__getitem__)


def _as_a_set(names: Sequence[str]) -> list[str]:
    """A set's cards as people lay them out: by rank, then suit (``S1 E2 G3``, ``S7 G7``)."""
    return sorted(names, key=lambda name: (RANK_OF[name], SUIT_OF[name]))


# -- action texts ----------------------------------------------------------------------------------


def describe_action(
    state: "BeltpunkState", player: int, action: Any, knowledge: Knowledge, names: Sequence[str]
) -> str:
    """The text ``player`` types for ``action``; see :data:`HELP`."""
    kind = type(action)
    if kind is Skip:
        return "skip"
    if kind is Draw:
        return "draw"
    if kind is Declare:
        return "declare yes" if action.score else "declare no"
    if kind is Look:
        return f"look {pile_word(action.pile, names)}"
    if kind is Score:
        cards = [state.value(slot, knowledge) for slot in action.slots]
        if None in cards:
            return "score " + " ".join(f"#{slot}" for slot in action.slots)
        return "score " + " ".join(_as_a_set(cards))
    if kind is Take or kind is Pick:
        verb = "take" if kind is Take else "draw"
        name = state.value(action.slot, knowledge)
        if name is None:
            return f"{verb} {_position(state, action.slot, names)}"
        if kind is Pick:
            return f"draw {name}"
        found = state.pile_of(action.slot)
        return f"take {name} from {pile_word(found[0] if found else None, names)}"
    name = state.value(action.slot, knowledge) or f"#{action.slot}"
    if kind is Discard:
        return f"discard {name}"
    if kind is Place:
        return f"place {name}"
    if kind is Give:
        return f"give {name}"
    if kind is Exchange:
        return f"exchange {name} with {names[action.with_seat]}"
    return repr(action)  # pragma: no cover - every action kind is handled above


# -- warnings --------------------------------------------------------------------------------------


def warnings(state: "BeltpunkState", player: int, knowledge: Knowledge) -> list[str]:
    """What ``player`` should know before the choice it has now, one sentence a line (at most
    :data:`WIDTH` characters); empty when there is nothing to warn about or nothing to decide.
    The player's hand is taken as they know it (``knowledge``).

    * A conveyor over capacity overflows into the scrap pile of the player resolving a card, once
      their action is done (RULES.md, I11): said to that player while choosing the action, the
      card to draw or the card to place, with what prevents it — drawing one of its cards out of
      The Machine, or taking one and placing a card of a suit whose conveyor has room (only when
      the hand holds one: placing into a full conveyor only moves the overflow).
    * A full conveyor overflows when one more card goes in: said while discarding (to a player
      holding that suit) and while placing a card into The Machine (naming the cards that would,
      and how many cards go then).
    * When this is certainly the round's last turn, every card left in hand becomes scrap: said
      while discarding, declaring and choosing a set.
    """
    if state.cards.pending:
        return []
    phase = state.phase
    capacity = state.players
    counts = [len(conveyor) for conveyor in state.conveyors]
    lines: list[str] = []
    if phase == "discard":
        if player not in range(state.players):
            return []
        held = {SUIT_OF[name] for name in _known(state, state.hands[player], knowledge)}
        for suit in range(4):
            if counts[suit] == capacity and suit in held:
                name = SUIT_NAMES[suit]
                # Not "all 4": the discarder may place more of the suit into it before it goes.
                lines.append(
                    f"{name} is full: {with_article(name)} discard may overflow into your scrap "
                    "pile."
                )
        if not state.deck:
            lines.append(_LAST_TURN)
    elif phase in ("action", "pick", "place"):
        if player != state.actor:
            return []
        hand = _known(state, state.hands[player], knowledge)
        placing = phase == "place" and state.pile is None
        for suit in range(4):
            if counts[suit] > capacity:
                lines.extend(_overflow_warning(state, phase, suit, counts, hand))
        if placing:
            for suit in range(4):
                cards = [name for name in hand if SUIT_OF[name] == suit]
                if cards and counts[suit] >= capacity:
                    lines.append(_placing_overflows(suit, cards, counts[suit], capacity))
    elif phase == "declare" or phase == "score":
        deciding = state.declarer == player if phase == "declare" else player in state.scorers
        if deciding and (not state.deck or not all(state.hands)):
            lines.append(_LAST_TURN)
    return lines


_LAST_TURN = "This is the round's last turn: each card left in your hand will cost 1 point."


def _known(state: "BeltpunkState", slots: Sequence[int], knowledge: Knowledge) -> list[str]:
    names = (state.value(slot, knowledge) for slot in slots)
    return sorted((name for name in names if name is not None), key=MACHINE_ORDER.__getitem__)


def _overflow_warning(
    state: "BeltpunkState", phase: str, suit: int, counts: Sequence[int], hand: Sequence[str]
) -> list[str]:
    """What happens to an over-full conveyor at the end of the actor's resolution, and what can
    still prevent it (drawing one of its cards out of The Machine, or taking one and placing a
    card of a suit whose conveyor has room)."""
    capacity = state.players
    count = counts[suit]
    name = f"{SUIT_NAMES[suit]} is {count}/{capacity}"
    if phase == "action":
        allowed = SUIT_ACTIONS[state.discarded_suit()]
        others = {SUIT_OF[card] for card in hand} - {suit} if Take in allowed else set()
        ways = []
        if Look in allowed:
            ways.append("look machine and draw one")
        if others:
            roomy = sorted(other for other in others if counts[other] < capacity)
            if roomy:
                if len(roomy) == len(others):
                    ways.append("take one and place another suit")
                else:
                    named = " or ".join(SUIT_NAMES[other] for other in roomy)
                    ways.append(f"take one and place {with_article(named)} card")
        if not ways:
            # Taking one and placing a card of another, full, suit only moves the overflow there:
            # as many cards, not all of these.
            every = "" if others else "all "
            return [f"{name}: whatever you choose, {every}{count} cards go to your scrap pile."]
        first = f"{name}: all {count} cards go to your scrap pile unless you remove one."
        prevent = f"Prevent it: {', or '.join(ways)}."
        if len(prevent) <= WIDTH:
            return [first, prevent]
        return [first, f"Prevent it: {ways[0]}.", f"Or {ways[1]}."]
    if phase == "pick":
        if state.pile is None:
            return [f"{name}: draw one of its cards, or all {count} go to your scrap pile."]
        return [f"{name}: after your draw, all {count} cards go to your scrap pile."]
    if state.pile is None and any(SUIT_OF[card] == suit for card in hand):
        # How many depends on the card placed: the next line says which add one.
        return [f"{name}: after you place, all its cards go to your scrap pile."]
    return [f"{name}: after you place, all {count} cards go to your scrap pile."]


def _placing_overflows(suit: int, cards: Sequence[str], count: int, capacity: int) -> str:
    """What placing one of ``cards`` (of ``suit``, in hand) into its conveyor of ``count`` cards
    does: overflow it, or add one to an overflow already due."""
    name = SUIT_NAMES[suit]
    does = f"overflows {name}" if count == capacity else f"adds one to {name}"
    if len(cards) > 3:
        does = "overflows it" if count == capacity else "adds one to it"
        return f"Placing any {name} card {does}: all {count + 1} go to your scrap pile."
    return f"Placing {joined(cards, conjunction='or')} {does}: all {count + 1} go to your scrap pile."


# -- the log ---------------------------------------------------------------------------------------


def narrate_private(
    before: "BeltpunkState", event: Event, after: "BeltpunkState", viewer: int, knowledge: Knowledge,
    names: Sequence[str],
) -> list[str]:
    """Lines for ``viewer``'s log alone: the card an exchange brought it from the other player,
    once its keys have shown it (the exchange's card operations end with a ``CardsDone``)."""
    if not isinstance(event, CardsDone):
        return []
    lines = []
    for note in before.notes:
        if note[0] == "exchanged" and viewer in note[1:]:
            other = note[2] if viewer == note[1] else note[1]
            for slot in before.cards.disclosed_to(viewer):
                if slot in knowledge:
                    name = knowledge[slot]
                    lines.append(f"the exchange brings you {name} ({card_title(name)}) from {names[other]}")
    return lines


def narrate(
    before: "BeltpunkState", event: Event, after: "BeltpunkState", names: Sequence[str]
) -> list[str]:
    """Log lines for ``event``, from public information only."""
    lines: list[str] = []
    if isinstance(event, Act):
        lines.extend(_narrate_act(before, event.player, event.action, names))
    elif isinstance(event, SimultaneousActs):
        seats = [names[seat] for seat, _ in event.actions]
        if before.phase == "discard":
            lines.append("everyone has chosen a card to discard")
        else:
            lines.append(
                f"{joined(seats)} {'has' if len(seats) == 1 else 'have'} chosen a set to score"
            )
    elif isinstance(event, (ChanceOutcome, CardsDone)):
        pass  # what they did is in the notes
    for note in after.notes:
        lines.extend(_narrate_note(before, after, note, names))
    return lines


def _narrate_act(
    state: "BeltpunkState", player: int, action: Any, names: Sequence[str]
) -> list[str]:
    who = names[player]
    kind = type(action)
    revealed = state.cards.revealed
    if kind is Declare:
        return [f"{who} declares: {'yes, a set' if action.score else 'no set'} this turn"]
    if kind is Skip:
        return [f"{who} takes no action"]
    if kind is Draw:
        return [f"{who} draws a card from the deck"]
    if kind is Look:
        return [f"{who} looks at {pile_title(action.pile, names)}"]
    if kind is Pick or kind is Take:
        found = state.pile_of(action.slot)
        pile = found[0] if found else None
        name = revealed.get(action.slot)
        card = (
            f"{name} ({card_title(name)})"
            if name
            else f"card {_position(state, action.slot, names)}"
        )
        verb = "draws" if kind is Pick else "takes"
        return [f"{who} {verb} {card} from {pile_title(pile, names)}"]
    if kind is Place:
        if state.pile is None:
            return [f"{who} places a card into The Machine"]  # its card shows as it lands
        return [f"{who} places a card face down into {pile_title(state.pile, names)}"]
    if kind is Exchange:
        return [f"{who} offers {names[action.with_seat]} a card in exchange"]
    if kind is Give:
        return [f"{who} chooses a card to give back"]
    return []  # pragma: no cover


def _narrate_note(
    before: "BeltpunkState", after: "BeltpunkState", note: tuple, names: Sequence[str]
) -> list[str]:
    revealed = after.cards.revealed
    kind = note[0]
    if kind == "first-foreman":
        return [f"{names[note[1]]} is the first Foreman (chosen at random)"]
    if kind == "round":
        return [f"— round {note[1]}: {HAND_SIZE[after.players]} cards dealt to each player —"]
    if kind == "opening":
        cards = ", ".join(f"{revealed[slot]} ({card_title(revealed[slot])})" for slot in note[1])
        return [f"The Machine starts with {cards}"]
    if kind == "turn":
        _, number, foreman, drawers = note
        line = f"turn {number}: {names[foreman]} holds the Foreman"
        if drawers:
            verb = "draws" if len(drawers) == 1 else "draw"
            line += f"; {joined([names[seat] for seat in drawers])} {verb}"
        missed = [names[(foreman + k) % after.players] for k in range(len(drawers), after.players)]
        if missed:
            verb = "draws" if len(missed) == 1 else "draw"
            line += f"; the deck is empty, {joined(missed)} {verb} nothing"
        return [line]
    if kind == "order":
        order = ", ".join(f"{names[seat]} {revealed[slot]}" for seat, slot in note[1])
        return [f"discards revealed, in Machine Order: {order}"]
    if kind == "discard":
        _, seat, slot = note
        name = revealed[slot]
        return [f"{names[seat]} discards {name} ({card_title(name)}) into The Machine"]
    if kind == "no-action":
        return [f"{names[note[1]]} has no action available"]
    if kind == "placed":
        _, seat, slot = note
        name = revealed[slot]
        return [f"{names[seat]}'s card is {name}: into the {SUIT_NAMES[SUIT_OF[name]]} conveyor"]
    if kind == "overflow":
        _, suit, seat, count = note
        return [
            f"the {SUIT_NAMES[suit]} conveyor overflows: "
            f"{count} cards into {names[seat]}'s scrap pile"
        ]
    if kind == "exchanged":
        return [f"{names[note[1]]} and {names[note[2]]} exchange the two cards"]
    if kind == "declare-auto":
        return [f"{names[note[1]]} has fewer than two cards: no set this turn"]
    if kind == "scored":
        lines = []
        for seat, slots in note[1]:
            cards = _as_a_set([revealed[slot] for slot in slots])
            set_kind = classify(cards)
            lines.append(
                f"{names[seat]} scores {set_kind.value}: {' '.join(cards)} "
                f"({points_of(set_kind, len(cards))} points)"
            )
        return lines
    if kind == "round-end":
        _, reason, breakdown = note
        lines = [f"round {after.round} ends: {reason}"]
        for seat, (points, scrapped) in enumerate(breakdown):
            lines.append(
                f"  {names[seat]}: sets {points} − scrap {scrapped} = {points - scrapped:+d}, "
                f"total {after.totals[seat]}"
            )
        return lines
    if kind == "game-over":
        # The session announces the result with every score; the round's lines gave the totals.
        return []
    return []


# -- panels ----------------------------------------------------------------------------------------



def _card_segment(name: str | None) -> Segment:
    if name is None:
        return ("dim", "??")
    return (SUIT_STYLES[SUIT_OF[name]], name)


def panels(
    state: "BeltpunkState", viewer: int | None, knowledge: Knowledge, names: Sequence[str]
) -> list[Panel]:
    """The Machine, the players, the viewer's hand and the round, each fitting 80 columns.

    Once the game is over: who won, the final standings (each player's last round and total),
    and the last round's table as it ended, every card of it public after the audit.
    """
    if state.phase == "over":
        result = [_table_panel(state, names), _standings_panel(state, viewer, names)]
        result.append(_machine_panel(state))
        piles = _piles_panel(state, knowledge, names)
        if piles is not None:
            result.append(piles)
        return result
    result = [
        _table_panel(state, names),
        _machine_panel(state),
        _players_panel(state, viewer, knowledge, names),
    ]
    if viewer is not None:
        result.append(_hand_panel(state, viewer, knowledge))
    piles = _piles_panel(state, knowledge, names)
    if piles is not None:
        result.append(piles)  # last: the first a small screen cuts
    if state.last_round:
        result.append(_last_round_panel(state, names))
    return result


def _table_panel(state: "BeltpunkState", names: Sequence[str]) -> Panel:
    line: list[Segment] = [("bold", f"round {state.round}"), ("", f" · turn {state.turn}")]
    line.append(("", f" · deck {len(state.deck)}"))
    if state.phase == "over":
        line.append(("bold", " · game over"))
        winners = state.leaders()
        who = joined([names[seat] for seat in winners])
        verb = "wins" if len(winners) == 1 else "share the win"
        points = f"{state.totals[winners[0]]} points" + (" each" if len(winners) > 1 else "")
        return Panel(
            "Beltpunk Haberdasher", (tuple(line), (("good", f"{who} {verb} with {points}"),))
        )
    line.append(("", f" · game ends at {state.target} points"))
    lines = [tuple(line)]
    if state.foreman >= 0:
        lines.append((("", "Foreman: "), ("bold", names[state.foreman])))
    return Panel("Beltpunk Haberdasher", tuple(lines))


def _machine_panel(state: "BeltpunkState") -> Panel:
    capacity = state.players
    revealed = state.cards.revealed
    lines = []
    for suit, conveyor in enumerate(state.conveyors):
        line: list[Segment] = [(SUIT_STYLES[suit], f"{SUIT_NAMES[suit]:<12}")]
        cards = [_card_segment(revealed.get(slot)) for slot in conveyor]
        for segment in cards:
            line.extend((segment, ("", " ")))
        line.append(("dim", "· " * max(0, capacity - len(conveyor))))
        count = len(conveyor)
        style = "bad" if count > capacity else "warn" if count == capacity else "dim"
        line.append((style, f"{count}/{capacity}" + (" full" if count == capacity else "")))
        lines.append(tuple(line))
    return Panel("The Machine", tuple(lines))


def _players_panel(
    state: "BeltpunkState", viewer: int | None, knowledge: Knowledge, names: Sequence[str]
) -> Panel:
    """One line per player, so the standings always fit; details are in :func:`_piles_panel`."""
    lines: list[tuple[Segment, ...]] = []
    for seat in range(state.players):
        head: list[Segment] = [
            ("you" if seat == viewer else "bold", names[seat][:20]),
            ("", f"  hand {len(state.hands[seat])} · scrap {len(state.scrap[seat])}"),
            ("", f" · sets {_set_points(state, seat)} · total {state.totals[seat]}"),
        ]
        if seat == state.foreman:
            head.append(("warn", " · Foreman"))
        lines.append(tuple(head))
    return Panel("Players", tuple(lines))


def _piles_panel(
    state: "BeltpunkState", knowledge: Knowledge, names: Sequence[str]
) -> Panel | None:
    """Each player's scored sets and the scrap cards known to the viewer (None if there are none)."""
    revealed = state.cards.revealed
    lines: list[tuple[Segment, ...]] = []
    for seat in range(state.players):
        label = [("bold", f"{names[seat][:12]}:")]
        if state.sets[seat]:
            sets: list[Segment] = []
            for slots in state.sets[seat]:
                cards = _as_a_set([revealed[slot] for slot in slots])
                sets.append(("good", "[" + " ".join(cards) + "]"))
            lines.extend(wrap_segments(sets, "    ", label + [("dim", " sets ")], WIDTH))
            label = [("", " " * len(label[0][1]))]
        if state.scrap[seat]:
            cards = [_card_segment(state.value(slot, knowledge)) for slot in state.scrap[seat]]
            lines.extend(wrap_segments(cards, "    ", label + [("dim", " scrap ")], WIDTH))
    if not lines:
        return None
    return Panel("Sets and scrap", tuple(lines))


def _hand_panel(state: "BeltpunkState", viewer: int, knowledge: Knowledge) -> Panel:
    names = [state.value(slot, knowledge) for slot in state.hands[viewer]]
    known = _in_machine_order([name for name in names if name is not None])
    cards = [_card_segment(name) for name in known] + [_card_segment(None)] * names.count(None)
    if not cards:
        return Panel("Your hand", ((("dim", "no cards"),),))
    return Panel("Your hand", tuple(wrap_segments(cards, width=WIDTH)))


def _set_points(state: "BeltpunkState", seat: int) -> int:
    revealed = state.cards.revealed
    return sum(
        points_of(classify(revealed[slot] for slot in slots), len(slots))
        for slots in state.sets[seat]
    )


def _standings_panel(
    state: "BeltpunkState", viewer: int | None, names: Sequence[str]
) -> Panel:
    """The end of the game: most points first, each player's last round (its set points and scrap
    cards, both still on the table, and the score the round banked) and total."""
    winners = state.leaders()
    # Narrow enough to sit beside the panel titles on an 80-column screen.
    width = max(len(name[:16]) for name in names[: state.players])
    lines = []
    for seat in sorted(range(state.players), key=lambda seat: (-state.totals[seat], seat)):
        sets, scrap = _set_points(state, seat), len(state.scrap[seat])
        line: list[Segment] = [
            ("you" if seat == viewer else "bold", f"{names[seat][:16]:<{width}}"),
            ("", f" sets {sets:>2} − scrap {scrap:>2} = {state.last_round[seat]:+3d}"),
            ("bold", f" · total {state.totals[seat]:>3}"),
        ]
        if seat in winners:
            line.append(("good", " · wins"))
        lines.append(tuple(line))
    return Panel("Final standings", tuple(lines))


def _last_round_panel(state: "BeltpunkState", names: Sequence[str]) -> Panel:
    last = len(state.last_round) - 1
    parts = [
        f"{names[seat][:16]} {score:+d}" + ("" if seat == last else ",")
        for seat, score in enumerate(state.last_round)
    ]
    return Panel("Last round", tuple(wrap_segments([("", part) for part in parts], width=WIDTH)))
