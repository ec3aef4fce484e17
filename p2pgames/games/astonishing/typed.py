"""Astonishing! moves as people type them, and back.

:func:`describe` prints an action the way its player types it; :func:`parse` reads a typed line
back. Case, spacing, commas and the small words (``at``, ``to``, ``from``, ``the``, ``and`` …)
don't matter; cards are typed ``7d``, ``10h``, ``as``, ``joker`` (or with suit symbols, as shown:
``7♦``), a face-down card in an answer ``down:7d``, and the cards of one list in any order:

==========================================  =====================================================
typed                                       action
==========================================  =====================================================
``Marisol Chang (hearts)``, ``inventor       :class:`ChooseInventor` (the name, a unique
hearts``, ``marisol``                       start of it or of its last words, or the suit)
``choose king`` (or ``king``)               :class:`ChooseAction`
``offer 3d 7c``, ``no trade``               :class:`Offer`, :class:`NoTrade`
``answer 5d down:joker``                    :class:`Answer`
``stand``, ``decline``                      :class:`Stand`, :class:`Decline`
``accept bob``, ``ask again``, ``withdraw``  :class:`Accept`, :class:`Reopen`, :class:`Withdraw`
``draw two``, ``take from bob``             :class:`DrawTwo`, :class:`TakeFrom`
``take from the discard pile``              :class:`TakeFromDiscard`
``buy discarding 3d``, ``… nothing``        :class:`BuyResources`
``give back 7c``                            :class:`GiveBack`
``build 2d 9c at 1 replacing 3s``           :class:`Build`
``only jokers``                             :class:`OnlyJokers`
``discard 7c``, ``keep the rest``           :class:`DiscardCard`, :class:`KeepRest`
``draw a card``, ``draw nothing``           :class:`Refill`
``end invention``, ``keep inventing``       :class:`EndInvention`
``queen``, ``king`` (or ``choose queen``)   :class:`ExhibitCard` (face down until after the dice)
``describe 3 9 - pitch Behold!``            :class:`Describe` (``-`` an empty position)
``vote bob``                                :class:`Vote`
``reroll die 2``, ``keep my jacks``         :class:`Reroll`, :class:`KeepDice`
``intimidate position 2``                   :class:`Intimidate`
``replace 4d with 9c``                      :class:`ReplacePart`
``turn die 2 to 5``                         :class:`SwayCrowd`
``sabotage 5s``                             :class:`Sabotage`
``promote bob``                             :class:`Promote`
==========================================  =====================================================

A card its player can't see is printed and typed ``#slot``. Text that is no move raises
:class:`MalformedAction`; a move the rules don't allow now raises :class:`IllegalAction` saying
why (a card not in your hand, a descriptor no installed card gives, …).
"""

from __future__ import annotations

import functools
from typing import Any, Sequence

from p2pgames.engine import IllegalAction, Knowledge, MalformedAction

from p2pgames.games.astonishing.actions import (
    Accept,
    Answer,
    BuyResources,
    Build,
    OnlyJokers,
    ChooseAction,
    ChooseInventor,
    Decline,
    Describe,
    DiscardCard,
    DrawTwo,
    EndInvention,
    ExhibitCard,
    GiveBack,
    Intimidate,
    KeepDice,
    KeepParts,
    KeepRest,
    NoTrade,
    Offer,
    Promote,
    Refill,
    Reopen,
    ReplacePart,
    Reroll,
    Sabotage,
    Stand,
    SwayCrowd,
    TakeFrom,
    TakeFromDiscard,
    Vote,
    Withdraw,
)
from p2pgames.games.astonishing.cards import INVENTORS, SUITS, card_text, is_joker, parse_card
from p2pgames.games.astonishing.hands import joker_refusal
from p2pgames.games.astonishing.invention import ROOM_REFUSAL
from p2pgames.games.astonishing.rules import Astonishing, AstonishingState, inventor_refusal
from p2pgames.words import joined

__all__ = ["describe", "parse", "inventor_choice", "inventor_named"]

_FILLER = frozenset({"a", "an", "and", "the", "at", "to", "from", "with", "of", "for", "my", "in"})
_VERBS = frozenset({
    "inventor", "choose", "jack", "queen", "king", "offer", "no", "answer", "stand", "decline", "accept",
    "ask", "withdraw", "draw", "take", "buy", "give", "build", "only", "discard", "keep", "end",
    "describe", "vote", "reroll", "intimidate", "replace", "turn", "sabotage", "promote",
})
_HAND_VERBS = frozenset({"offer", "answer", "buy", "give", "build", "discard", "replace"})


def _card(state: "AstonishingState", slot: int, knowledge: Knowledge) -> str:
    name = state.value(slot, knowledge)
    return f"#{slot}" if name is None else card_text(name)


def _cards(state: "AstonishingState", slots: Sequence[int], knowledge: Knowledge) -> str:
    return " ".join(_card(state, slot, knowledge) for slot in slots)


def describe(state: "AstonishingState", player: int, action: Any, knowledge: Knowledge, names: Sequence[str]) -> str:
    """``action`` as its player types it (unique among the actions legal at once)."""
    kind = type(action)
    if kind is ChooseInventor:
        return inventor_choice(action.suit)
    if kind is ChooseAction:
        return f"choose {action.card}"
    if kind is Offer:
        return f"offer {_cards(state, action.slots, knowledge)}"
    if kind is NoTrade:
        return "no trade"
    if kind is Answer:
        cards = [
            ("" if up else "down:") + _card(state, slot, knowledge) for slot, up in zip(action.slots, action.face_up)
        ]
        return "answer " + " ".join(cards)
    if kind is Stand:
        return "stand"
    if kind is Decline:
        return "decline"
    if kind is Accept:
        return f"accept {names[action.seat]}"
    if kind is Reopen:
        return "ask again"
    if kind is Withdraw:
        return "withdraw"
    if kind is DrawTwo:
        return "draw two"
    if kind is TakeFrom:
        return f"take from {names[action.rival]}"
    if kind is TakeFromDiscard:
        return "take from the discard pile"
    if kind is BuyResources:
        return f"buy discarding {_cards(state, action.slots, knowledge) or 'nothing'}"
    if kind is GiveBack:
        return f"give back {_card(state, action.slot, knowledge)}"
    if kind is Build:
        text = f"build {_cards(state, action.slots, knowledge)} at {action.position + 1}"
        return text + (f" replacing {_cards(state, action.scrap, knowledge)}" if action.scrap else "")
    if kind is OnlyJokers:
        return "only jokers"
    if kind is DiscardCard:
        return f"discard {_card(state, action.slot, knowledge)}"
    if kind is KeepRest:
        return "keep the rest"
    if kind is Refill:
        return "draw a card" if action.draw else "draw nothing"
    if kind is EndInvention:
        return "end invention" if action.agree else "keep inventing"
    if kind is Describe:
        numbers = " ".join(str(number) if number else "-" for number in action.numbers)
        return f"describe {numbers}" + (f" pitch {action.pitch}" if action.pitch else "")
    if kind is ExhibitCard:
        return action.card
    if kind is Vote:
        return f"vote {names[action.seat]}"
    if kind is Reroll:
        return f"reroll die {action.die + 1}"
    if kind is KeepDice:
        return "keep my jacks"
    if kind is Intimidate:
        return f"intimidate position {action.position + 1}"
    if kind is ReplacePart:
        return f"replace {_card(state, action.installed, knowledge)} with {_card(state, action.replacement, knowledge)}"
    if kind is KeepParts:
        return "replace nothing"
    if kind is SwayCrowd:
        return f"turn die {action.die + 1} to {action.value}"
    if kind is Sabotage:
        return f"sabotage {_card(state, action.slot, knowledge)}"
    if kind is Promote:
        return f"promote {names[action.competitor]}"
    raise MalformedAction(f"not an Astonishing! action: {action!r}")


def inventor_choice(suit: int) -> str:
    """How the Inventor of ``suit`` is offered and typed when the Inventors are chosen."""
    return f"{INVENTORS[suit]} ({SUITS[suit]})"


def inventor_named(text: str) -> int | None:
    """The suit of the Inventor ``text`` names — its suit (``hearts``, ``heart``), its name or a
    start of it, or of its last words (``marisol``, ``smithering``), as offered (``Marisol Chang
    (hearts)``), case and brackets aside, ``inventor`` or ``choose`` before it or not — or
    ``None`` when it names none. Raises :class:`MalformedAction` when it could be several."""
    words = text.casefold().replace("(", " ").replace(")", " ").split()
    if words[:1] in (["inventor"], ["choose"]):
        words = words[1:]
    typed = " ".join(words)
    if not typed:
        return None
    found = []
    for suit, name in enumerate(INVENTORS):
        parts = name.casefold().split()
        if typed in (SUITS[suit], SUITS[suit][:-1], f"{name.casefold()} {SUITS[suit]}") or any(
            " ".join(parts[start:]).startswith(typed) for start in range(len(parts))
        ):
            found.append(suit)
    if len(found) > 1:
        raise MalformedAction(
            f"{text.strip()!r} could be {joined([INVENTORS[suit] for suit in found], conjunction='or')}: type more of the name"
        )
    return found[0] if found else None


def _inventor_problem(state: "AstonishingState", player: int, suit: int, names: Sequence[str], legal: Sequence[Any]) -> str:
    """Why ``player`` can't choose the Inventor of ``suit`` now, in the rules' words, and which
    Inventors are left to choose."""
    reason = inventor_refusal(state, player, suit, names) or "that Inventor can't be chosen now"
    left = [inventor_choice(action.suit) for action in legal if isinstance(action, ChooseInventor)]
    return f"{reason}: choose {joined(left, conjunction='or')}" if left else reason


# Pure functions of a word and of a line, called for every legal action's description whenever
# a line is parsed: each answer is kept (the words and lines of a game are few).
@functools.lru_cache(maxsize=4096)
def _card_token(word: str) -> str | None:
    """A typed word as a canonical card (``7d``, ``joker``, ``#12``), or ``None``."""
    if word.startswith("#") and word[1:].isdigit():
        return word
    try:
        name = parse_card(word)
    except ValueError:
        return None
    return "joker" if is_joker(name) else name.lower()


@functools.lru_cache(maxsize=4096)
def _canonical(text: str) -> tuple[str, ...]:
    """What matters in a typed line: its words without case, commas or small words, cards in a
    canonical spelling and each run of cards in sorted order (a list of cards in any order)."""
    words: list[str] = []
    run: list[str] = []
    for word in text.replace(",", " ").casefold().split():
        down = word.startswith("down:") and len(word) > 5
        card = _card_token(word[5:] if down else word)
        if card is not None:
            run.append(("down:" if down else "") + card)
            continue
        words.extend(sorted(run))
        run = []
        if word not in _FILLER:
            words.append(word)
    words.extend(sorted(run))
    return tuple(words)


def parse(
    game: "Astonishing", state: "AstonishingState", player: int, text: str, knowledge: Knowledge, names: Sequence[str]
) -> Any:
    """The action ``text`` names for ``player`` now (see the module docstring)."""
    typed = " ".join(text.split())
    if not typed:
        raise MalformedAction("type a move")
    pitch = ""
    words = typed.split(" ")
    if words[0].casefold() == "describe":
        lowered = [word.casefold() for word in words]
        if "pitch" in lowered:
            at = lowered.index("pitch")
            typed, pitch = " ".join(words[:at]), " ".join(words[at + 1:])
    wanted = _canonical(typed)
    legal = game.legal_actions(state, player, knowledge)
    for action in legal:
        said = describe(state, player, action, knowledge, names)
        # "king" chooses an action card; "choose king" an exhibition action too.
        if isinstance(action, ChooseAction):
            alias = (action.card,)
        elif isinstance(action, ExhibitCard):
            alias = ("choose", action.card)
        else:
            alias = None
        if _canonical(said) == wanted or wanted == alias:
            if isinstance(action, Describe) and pitch:
                return Describe(action.numbers, pitch)  # MalformedAction if the pitch is not one line
            return action
    verb = wanted[0] if wanted else ""
    suit = inventor_named(typed) if state.phase == "inventors" or verb == "inventor" else None
    if suit is not None and ChooseInventor(suit) in legal:
        return ChooseInventor(suit)
    if suit is None and verb not in _VERBS and not any(verb == name.casefold().split(" ")[0] for name in names):
        raise MalformedAction(f"{text.strip()!r} is not a move of Astonishing! (type help for the moves)")
    if not legal:
        raise IllegalAction(player, "you have nothing to decide now")
    if suit is not None:
        raise IllegalAction(player, _inventor_problem(state, player, suit, names, legal))
    # A build's cards after "replacing" are installed ones, not the hand's.
    from_hand = wanted[:wanted.index("replacing")] if verb == "build" and "replacing" in wanted else wanted
    if verb in _HAND_VERBS:
        mine = {_card_token(card_text(name)) for slot in state.hands[player] if (name := state.value(slot, knowledge))}
        for word in from_hand[1:]:
            card = word.removeprefix("down:")
            if _card_token(card) is not None and not card.startswith("#") and card not in mine and verb != "replace":
                raise IllegalAction(player, f"{card.upper()} is not in your hand")
    if "joker" in (word.removeprefix("down:") for word in wanted[1:]):
        # Never on the list, so the list alone wouldn't say why: in the rules' words.
        if verb == "build" and any(isinstance(action, Build) for action in legal):
            raise IllegalAction(player, joker_refusal("installed"))
        if verb == "discard" and any(isinstance(action, DiscardCard) for action in legal):
            raise IllegalAction(player, joker_refusal("discarded"))
    if from_hand is not wanted and any(
        isinstance(action, Build) and not action.scrap
        and _canonical(describe(state, player, action, knowledge, names)) == from_hand
        for action in legal
    ):
        raise IllegalAction(player, ROOM_REFUSAL)
    if verb == "describe" and any(isinstance(action, Describe) for action in legal):
        raise IllegalAction(player, _describe_problem(game, state, player, knowledge))
    choices = [describe(state, player, action, knowledge, names) for action in legal[:4]]
    more = " …" if len(legal) > 4 else ""
    raise IllegalAction(player, f"that is not one of your moves now; you may: {', '.join(choices)}{more}")


def _describe_problem(game: "Astonishing", state: "AstonishingState", player: int, knowledge: Knowledge) -> str:
    """Why a description can't be typed as it was: each position's descriptors."""
    parts = []
    for position, slots in enumerate(state.installed[player]):
        if not slots:
            parts.append(f"position {position + 1} is empty (-)")
            continue
        numbers = sorted({
            n for action in game.legal_actions(state, player, knowledge)
            if isinstance(action, Describe) and (n := action.numbers[position])
        })
        parts.append(f"position {position + 1} takes {' or '.join(map(str, numbers))}")
    return "describe each position by one of its cards' numbers: " + "; ".join(parts)
