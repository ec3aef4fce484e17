"""The characters' privileges (rulebook, "Characters"; the 1-point tokens' powers, "Explanation of
Cards and Tokens"): what each character's card lets its player do, once the record says he may
(``published.py``; a rulebook's own: ``steamcourt2015/book.py``).

* Beginning of Quarter, in seat order from the Queen (:func:`next_privilege`): a gift (the Queen,
  the General), a service of the two highest numbered cards (the Tea Boy, then his trade; the
  Vagabond, then his hoard), the Inspector's look; a hand is re-masked first when the privilege
  would hide cards someone was shown (RULES.md, I51); then the Queen leads (``tricks.py``);
* in play: the General's stop of a lay, an unpass (the Jester's, or the 1-point token's), the
  Time Traveler's retrieve and the Pirate's steal after a lost trick (their windows open in
  ``tricks.py``), and on his own turn the Submariner's dive, the Plague Doctor's plague (a draw,
  some cards of which go back) and the Discard-two token.

For each: what a player may do now (:func:`options`, :func:`turn_powers`), the check of what he
does (:func:`check`; a service and a trade after a re-mask are claims, checked at the quarter's
audit: :func:`check_claim`), and what it does (:func:`apply`, :func:`use_turn_power`).
"""

from __future__ import annotations

from typing import Any

from p2pgames.engine import Claim, IllegalAction, Knowledge, RuleViolation
from p2pgames.games.steamcourt.actions import (
    Bestow,
    DiscardTwo,
    Dive,
    Give,
    Hoard,
    Inspect,
    KeepRest,
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
    one_slot_per_face,
    two_highest_numbered,
    two_slots_per_pair_of_faces,
    FACE,
    FACE_ORDER,
    KIND,
    NUMBER,
    NUMBERED,
)
from p2pgames.games.steamcourt.phases import Phase
from p2pgames.games.steamcourt.rulebook import Draw, Gift, Service
from p2pgames.games.steamcourt.scoring import end_quarter, go_out, quarter_over
from p2pgames.games.steamcourt.state import Hooks, SteamCourtState, Table
from p2pgames.games.steamcourt.tricks import advance, lay_options, lead, next_trick_end, require_in_hand, settle_lay

__all__ = [
    "apply",
    "check",
    "check_claim",
    "discard_revealed",
    "dive_revealed",
    "draw",
    "draw_of",
    "hidden_gifts",
    "next_privilege",
    "options",
    "plague",
    "privilege",
    "put_back",
    "turn_powers",
    "two_highest",
    "use_turn_power",
]

# Actions offered again and again are built once.
_PASS, _RETRIEVE, _PLAGUE, _KEEP = Pass(), Retrieve(), Plague(), KeepRest()


def privilege(state: SteamCourtState, table: Table, player: int) -> Any:
    """The Beginning of Quarter privilege of ``player``'s character (asked in its phase)."""
    return state.book[table.character_of(player)].privilege


def draw_of(state: SteamCourtState, table: Table, player: int, power: str) -> Draw:
    """What ``player``'s character's draw ``power`` (``dive``, ``plague``) is (asked as he uses it)."""
    draw = getattr(state.book[table.character_of(player)], power)
    assert draw is not None
    return draw


# -- what a player may do now ------------------------------------------------------------------


def options(state: SteamCourtState, table: Table, player: int, knowledge: Knowledge) -> list[Any]:
    """What ``player``, the one :attr:`Table.actor` waits for, may do in a window (a stop, an
    unpass, a retrieve, a steal, putting drawn cards back) or with his Beginning of Quarter
    privilege."""
    phase = table.phase
    if phase == Phase.STOP:
        return [Stop(table.lays[-1][0]), _PASS]
    if phase == Phase.UNPASS:
        if not lay_options(state, table, player, knowledge):
            return [_PASS]
        return [Unpass(source) for source in state.unpass_sources(player)] + [_PASS]
    if phase == Phase.RETRIEVE:
        return [_RETRIEVE, _PASS]
    if phase == Phase.STEAL:
        revealed = state.cards.revealed
        slots = [slot for lay in table.lays for slot in lay[1] if KIND[revealed[slot]] == NUMBERED]
        return [Steal(slot) for slot in one_slot_per_face(slots, revealed)] + [_PASS]
    if phase == Phase.RETURN:
        return [PutBack(slot) for slot in one_slot_per_face(table.drawn, _Known(state, knowledge))] + [_KEEP]
    if phase == Phase.GIVE:
        gift = privilege(state, table, player)
        others = gift.receivers(table, player)
        known = _Known(state, knowledge)
        if gift.cards == 2:
            pairs = two_slots_per_pair_of_faces(state.hands[player], known)
            return [Bestow(pair, to) for to in others for pair in pairs] + [_PASS]
        cards = one_slot_per_face(state.hands[player], known)
        return [Give(slot, to) for to in others for slot in cards] + [_PASS]
    if phase == Phase.SERVE:
        served = two_highest(state, player, knowledge)
        return [Serve(served, to) for to in privilege(state, table, player).receivers(table, player)]
    if phase == Phase.TRADE:
        # Trading for an empty Court Hand (hoarded by a Vagabond) could leave him no cards.
        if not table.court:
            return [Trade(False)]
        gifts = hidden_gifts(state, table, player)
        if gifts is None:
            return [Trade(True), Trade(False)]
        # His hand was re-masked: he names the cards given to him, by what he knows of them.
        known = _Known(state, knowledge)
        names = {known.get(slot) for slot in gifts} - {None}
        keep = tuple(sorted(slot for slot in state.hands[player] if known.get(slot) in names))
        return [TradeKeeping(keep), Trade(False)]
    if phase == Phase.HOARD:
        return [Hoard(True), Hoard(False)]
    if phase == Phase.INSPECT:
        return [Inspect(p) for p in table.seats if p != player] + [_PASS]
    return []


def turn_powers(state: SteamCourtState, table: Table, player: int, knowledge: Knowledge) -> list[Any]:
    """The powers ``player`` may use on his turn, after his lays and pass (``tricks.turn_options``):
    a dive, the plague, the Discard-two token."""
    options: list[Any] = []
    character = state.book[table.character_of(player)]
    if character.dive is not None and state.can_use(player, "dive"):
        numbered = [
            slot for slot in state.hands[player]
            if KIND.get(state.value(slot, knowledge) or "", -1) == NUMBERED
        ]
        cards = one_slot_per_face(numbered, _Known(state, knowledge))
        for pile in character.dive.piles:
            if _pile(table, pile):
                options.extend(Dive(pile, slot) for slot in cards)
    if character.plague is not None and state.can_use(player, "plague") and _pile(table, character.plague.piles[0]):
        options.append(_PLAGUE)
    if state.can_discard_two(player):
        options.extend(_discard_options(state, player, knowledge))
    return options


def _discard_options(state: SteamCourtState, player: int, knowledge: Knowledge) -> list[DiscardTwo]:
    by_face: dict[int, list[int]] = {}
    for slot in sorted(state.hands[player]):
        name = state.value(slot, knowledge)
        if name is not None and KIND[name] == NUMBERED:
            by_face.setdefault(NUMBER[name], []).append(slot)
    numbers = sorted(by_face)
    options = []
    for i, a in enumerate(numbers):
        if len(by_face[a]) >= 2:
            options.append(DiscardTwo(tuple(by_face[a][:2])))
        for b in numbers[i + 1:]:
            options.append(DiscardTwo(tuple(sorted((by_face[a][0], by_face[b][0])))))
    return options


def two_highest(state: SteamCourtState, player: int, knowledge: Knowledge) -> tuple[int, ...]:
    """The slots a Tea Boy's or Vagabond's gift takes: his two highest numbered cards (I5)."""
    hand = state.hands[player]
    known = _Known(state, knowledge)
    served = two_highest_numbered(hand, known)
    if len(served) < 2 and any(known.get(slot) is None for slot in hand):
        # Without knowing the hand (a spectator's question), any two cards will do.
        return tuple(sorted(hand)[:2])
    return served


def hidden_gifts(state: SteamCourtState, table: Table, player: int) -> tuple[int, ...] | None:
    """The old slots of the cards given to ``player`` that a re-mask of his hand hid among
    its new slots (``None``: his hand wasn't re-masked since, or holds no such card)."""
    hand = state.hands[player]
    if not hand:
        return None
    record = state.cards.deal_of(hand[0])
    if record.cards is not None or record.deal not in table.deals[1:]:
        return None
    gifts = tuple(slot for slot in record.source_slots or () if slot in table.received)
    return gifts or None


# -- checking it -------------------------------------------------------------------------------


def check(state: SteamCourtState, table: Table, player: int, action: Any) -> None:
    """Raise :class:`IllegalAction` unless ``action`` — a power of ``player``'s turn, an answer in a
    window, or his Beginning of Quarter privilege — is allowed by the public state (the rules'
    ``check_kind`` has allowed its kind now). What hidden cards are is checked when they are
    revealed (a dive's card, a discard) or at the quarter's audit (:func:`check_claim`)."""
    kind = type(action)
    phase = table.phase
    hand = state.hands[player]
    if phase == Phase.TURN:
        if kind is DiscardTwo:
            if not state.can_discard_two(player):
                raise IllegalAction(player, "you have no Discard-two token to use")
            for slot in action.slots:
                require_in_hand(player, slot, hand)
                _require_public_numbered(state, player, slot)
        elif kind is Dive:
            dive = state.book[table.character_of(player)].dive
            if dive is None:
                raise IllegalAction(player, "only the Submariner dives")
            if not state.can_use(player, "dive"):
                raise IllegalAction(player, "the Submariner dives once a quarter")
            if action.pile not in dive.piles:
                raise IllegalAction(player, f"the Submariner doesn't dive into the {_pile_title(action.pile)}")
            if not _pile(table, action.pile):
                raise IllegalAction(player, f"the {_pile_title(action.pile)} is empty")
            require_in_hand(player, action.slot, hand)
            _require_public_numbered(state, player, action.slot)
        elif kind is Plague:
            plague = state.book[table.character_of(player)].plague
            if plague is None:
                raise IllegalAction(player, "only the Plague Doctor walks among the dead")
            if not state.can_use(player, "plague"):
                raise IllegalAction(player, "the Plague Doctor draws once a quarter")
            if not _pile(table, plague.piles[0]):
                raise IllegalAction(player, f"the {_pile_title(plague.piles[0])} is empty")
    elif phase == Phase.STOP:
        if kind is Stop and action.player != table.lays[-1][0]:
            raise IllegalAction(player, f"the lay to stop is seat {table.lays[-1][0]}'s, not seat {action.player}'s")
    elif phase == Phase.UNPASS:
        if kind is Unpass and action.source not in state.unpass_sources(player):
            raise IllegalAction(player, f"you can't unpass with the {action.source} now")
    elif phase == Phase.STEAL:
        if kind is Steal:
            name = state.cards.revealed.get(action.slot)
            if not any(action.slot in lay[1] for lay in table.lays) or name is None:
                raise IllegalAction(player, "that card is not in the machine")
            if KIND[name] != NUMBERED:
                raise IllegalAction(player, "the Pirate steals numbered cards only")
    elif phase == Phase.RETURN:
        if kind is PutBack and (action.slot not in table.drawn or action.slot not in hand):
            raise IllegalAction(player, "you can only put back a card you just drew")
    elif phase == Phase.GIVE:
        if kind is Give or kind is Bestow:
            gift = privilege(state, table, player)
            given = (action.slot,) if kind is Give else action.slots
            if len(given) != gift.cards:
                raise IllegalAction(player, f"give {'one card' if gift.cards == 1 else f'{gift.cards} cards'}")
            for slot in given:
                require_in_hand(player, slot, hand)
            if action.to not in gift.receivers(table, player):
                at_table = action.to != player and action.to in table.seats
                raise IllegalAction(
                    player, gift.refusal if at_table and gift.refusal else "give the card to another player at the table"
                )
    elif phase == Phase.SERVE:
        for slot in action.slots:
            require_in_hand(player, slot, hand)
            _require_public_numbered(state, player, slot)
        service = privilege(state, table, player)
        if action.to not in service.receivers(table, player):
            raise IllegalAction(player, service.refusal)
    elif phase == Phase.TRADE:
        trade = kind is TradeKeeping or action.trade
        if trade and not table.court:
            raise IllegalAction(player, "the Court Hand is empty: there is nothing to trade for")
        hidden = trade and hidden_gifts(state, table, player) is not None
        if kind is TradeKeeping:
            if not hidden:
                raise IllegalAction(player, "the cards given to you are known: trade without naming them")
            for slot in action.slots:
                require_in_hand(player, slot, hand)
        elif hidden:
            raise IllegalAction(player, "your hand was re-masked: name the cards given to you that you keep")
    elif phase == Phase.INSPECT:
        if kind is Inspect and (action.seat == player or action.seat not in table.seats):
            raise IllegalAction(player, "inspect another player at the table")


def check_claim(state: SteamCourtState, claim: Claim) -> None:
    if claim.kind == "trade":
        _check_trade_claim(state, claim)
        return
    if claim.kind != "serve":
        raise RuleViolation(claim.player, f"unknown claim {claim.kind!r}")  # pragma: no cover
    revealed = state.cards.revealed
    count, character = claim.detail
    given = [revealed[slot] for slot in claim.slots[:count]]
    rest = [revealed[slot] for slot in claim.slots[count:]]
    who = state.book[character].title
    faces = " and ".join(sorted((FACE[name] for name in given), key=FACE_ORDER.__getitem__))
    faces = faces or "nothing"
    for name in given:
        if KIND[name] != NUMBERED:
            raise RuleViolation(
                claim.player, f"gave {faces}: the {who} gives numbered cards, not {FACE[name]}"
            )
    kept = sorted((NUMBER[name] for name in rest if KIND[name] == NUMBERED), reverse=True)
    # While he keeps a numbered card he must have given two, none lower than the highest kept.
    if kept and (len(given) < 2 or kept[0] > min(NUMBER[name] for name in given)):
        raise RuleViolation(
            claim.player,
            f"gave {faces} while holding {a_face(str(kept[0]))}: the {who} must give his two highest numbered cards",
        )


def _check_trade_claim(state: SteamCourtState, claim: Claim) -> None:
    # The cards kept are exactly those given to him that were still in his hand.
    revealed = state.cards.revealed
    kept, rest = claim.detail
    names = [revealed[slot] for slot in claim.slots]
    keep, hand, gifts = set(names[:kept]), set(names[:kept + rest]), set(names[kept + rest:])
    if keep != hand & gifts:
        faces = " ".join(sorted((FACE[name] for name in keep), key=FACE_ORDER.__getitem__)) or "nothing"
        raise RuleViolation(
            claim.player, f"kept {faces} in a trade: the Tea Boy keeps the cards given to him, and only those"
        )


# -- doing it ----------------------------------------------------------------------------------


def apply(game: Hooks, state: SteamCourtState, table: Table, player: int, action: Any) -> None:
    """``player`` answers a window (a stop, an unpass, a retrieve or a steal, putting drawn cards
    back) or uses his Beginning of Quarter privilege with ``action``."""
    kind = type(action)
    phase = table.phase
    if phase == Phase.STOP:
        if kind is Stop:
            _stop(state, table, player)
        else:
            settle_lay(game, state, table)
    elif phase == Phase.UNPASS:
        if kind is Unpass:
            _unpass(state, table, player, action.source)
        else:
            table.heard[player] = table.moves
            advance(state, table, player)
    elif phase == Phase.RETRIEVE or phase == Phase.STEAL:
        if kind is Retrieve:
            _retrieve(state, table, player)
        elif kind is Steal:
            _steal(state, table, player, action.slot)
        table.asking.pop(0)
        next_trick_end(state, table)
    elif phase == Phase.RETURN:
        if kind is PutBack:
            game._put_back(state, table, player, action.slot)
        else:
            table.drawn = []
            table.returns = 0
            _after_draw(state, table)
    elif phase == Phase.GIVE:
        if kind is Give:
            _give(state, table, player, [action.slot], action.to)
            state.notes.append(("give", player, action.to))
        elif kind is Bestow:
            _give(state, table, player, list(action.slots), action.to)
            state.notes.append(("bestow", player, action.to, len(action.slots)))
        else:
            state.notes.append(("no-give", player))
        next_privilege(state, table, table.privilege + 1)
    elif phase == Phase.INSPECT:
        if kind is Inspect:
            state.cards.disclose(table.court, player)
            state.cards.disclose(state.hands[action.seat], player)
            table.seen.extend([slot, player] for slot in table.court + state.hands[action.seat])
            state.notes.append(("inspect", player, action.seat, len(table.court)))
        else:
            state.notes.append(("no-inspect", player))
        next_privilege(state, table, table.privilege + 1)
    elif phase == Phase.SERVE:
        _serve(state, table, player, action)
    elif phase == Phase.TRADE:
        if kind is TradeKeeping:
            _trade_keeping(state, table, player, action.slots)
        elif action.trade:
            _trade(state, table, player)
        else:
            state.notes.append(("keep", player))
        next_privilege(state, table, table.privilege + 1)
    elif phase == Phase.HOARD:
        if action.hoard:
            hoard = table.court
            state.hands[player].extend(hoard)
            state.cards.disclose(hoard, player)
            table.court = []
            state.notes.append(("hoard", player, len(hoard)))
        else:
            state.notes.append(("leave", player))
        next_privilege(state, table, table.privilege + 1)


def use_turn_power(game: Hooks, state: SteamCourtState, table: Table, player: int, action: Any) -> None:
    """``player`` uses a power of his turn: the Discard-two token, a dive, the plague."""
    kind = type(action)
    if kind is DiscardTwo:
        _discard_two(game, state, table, player, action.slots)
    elif kind is Dive:
        _dive(state, table, player, action)
    elif kind is Plague:
        plague(game, state, table, player)


# -- Beginning of Quarter privileges -----------------------------------------------------------


def next_privilege(state: SteamCourtState, table: Table, position: int) -> None:
    """Beginning of Quarter privileges, in seat order from ``position``; then the first lead."""
    characters = table.characters
    for position in range(position, len(characters)):
        privilege = state.book[characters[position]].privilege
        if privilege is not None:
            table.privilege = position
            table.actor = table.seats[position]
            table.phase = privilege.phase
            if isinstance(privilege, (Gift, Service)):
                _remask_before(state, table, table.actor, privilege)
            return
    table.privilege = -1
    table.actor = -1
    # The Queen's Engineer begins the quarter by leading the first trick.
    lead(state, table, table.seats[0])


def _give(state: SteamCourtState, table: Table, giver: int, slots: list[int], to: int) -> None:
    hand = state.hands[giver]
    for slot in slots:
        hand.remove(slot)
    state.hands[to].extend(slots)
    state.cards.disclose(slots, to)
    table.received.extend(slots)
    table.seen.extend([slot, giver] for slot in slots)


def _serve(state: SteamCourtState, table: Table, player: int, action: Serve) -> None:
    # "Two highest numbered cards" depends on hidden values: a claim, checked at the audit.
    hand = state.hands[player]
    given = tuple(action.slots)
    rest = tuple(slot for slot in hand if slot not in given)
    character = table.character_of(player)
    state.cards.claim(Claim(player, "serve", given + rest, [len(given), character]))
    _give(state, table, player, list(given), action.to)
    state.notes.append(("serve", player, len(given), action.to))
    then = privilege(state, table, player).then
    if then is None:
        next_privilege(state, table, table.privilege + 1)
    else:
        table.phase = then


def _trade(state: SteamCourtState, table: Table, player: int) -> None:
    # He keeps the cards given to him; the rest of his hand becomes the Court Hand.
    hand = state.hands[player]
    kept = [slot for slot in hand if slot in table.received]
    traded = [slot for slot in hand if slot not in table.received]
    court = table.court
    state.hands[player] = kept + court
    state.cards.disclose(court, player)
    table.court = traded
    table.seen.extend([slot, player] for slot in traded)
    state.notes.append(("trade", player, len(traded), len(court)))


def _trade_keeping(state: SteamCourtState, table: Table, player: int, keep: tuple[int, ...]) -> None:
    # His re-masked hand hides which cards were given to him: he names them, a claim checked
    # at the audit against the gifts' old slots (RULES.md, I51).
    hand = state.hands[player]
    rest = tuple(slot for slot in hand if slot not in keep)
    gifts = hidden_gifts(state, table, player) or ()
    state.cards.claim(Claim(player, "trade", keep + rest + gifts, [len(keep), len(rest)]))
    court = table.court
    state.hands[player] = list(keep) + court
    state.cards.disclose(court, player)
    table.court = list(rest)
    table.seen.extend([slot, player] for slot in rest)
    state.notes.append(("trade", player, len(rest), len(court)))


def _remask_before(state: SteamCourtState, table: Table, player: int, privilege: Any) -> None:
    """Re-mask ``player``'s hand before a privilege that hides some of its cards (a gift, a
    service and any trade after it) if a card of it is known to a seat the move hides it from:
    public (laid and taken back), or seen by another (a gift's giver, the Inspector). A service
    to one player hides nothing from him; a trade after it hides the cards not given to him
    from everyone. Afterwards nobody else can tell the hand's cards apart (RULES.md, I51)."""
    hand = state.hands[player]
    revealed = state.cards.revealed
    exempt = {player}
    if isinstance(privilege, Service):
        receivers = privilege.receivers(table, player)
        if len(receivers) == 1:
            exempt.add(receivers[0])
    seen = {slot for slot, seat in table.seen if seat not in exempt}
    if isinstance(privilege, Service) and privilege.then == Phase.TRADE:
        seen.update(slot for slot, seat in table.seen if seat != player and slot not in table.received)
    if any(slot in seen or slot in revealed for slot in hand):
        table.deals.append(state.cards.remask_hand(state.hands[player], player))


# -- windows: the General's stop, an unpass, the lost trick's retrieve or steal ----------------


def _stop(state: SteamCourtState, table: Table, general: int) -> None:
    player, slots, _, _, multiplier = table.lays.pop()
    back = slots + ([multiplier] if multiplier >= 0 else [])
    state.hands[player].extend(back)
    state.used[general].append("stop")
    state.notes.append(("stop", general, player))
    # He doesn't pass: he lays again when play has gone round the table to him.
    advance(state, table, player)


def _unpass(state: SteamCourtState, table: Table, player: int, source: str) -> None:
    if source == "jester":
        state.used[player].append("unpass")
    else:
        for power in state.powers[player]:
            if power[0] == "unpass" and not power[1]:
                power[1] = True
                break
    table.passed.remove(player)
    table.turn = player
    table.phase = Phase.TURN
    state.notes.append(("unpass", player, source))


def _retrieve(state: SteamCourtState, table: Table, player: int) -> None:
    """Take back ``player``'s last lay in the trick (all his lays if his character retrieves
    them all), Multipliers included."""
    every = state.book[table.character_of(player)].retrieves_all
    back: list[int] = []
    for index in range(len(table.lays) - 1, -1, -1):
        lay = table.lays[index]
        if lay[0] == player:
            del table.lays[index]
            back[:0] = lay[1] + ([lay[4]] if lay[4] >= 0 else [])
            if not every:
                break
    state.hands[player].extend(back)
    state.used[player].append("retrieve")
    state.notes.append(("retrieve", player, tuple(back)))


def _steal(state: SteamCourtState, table: Table, player: int, slot: int) -> None:
    for lay in table.lays:
        if slot in lay[1]:
            lay[1].remove(slot)
    state.hands[player].append(slot)
    state.used[player].append("steal")
    state.notes.append(("steal", player, slot))


# -- powers of a turn: the Discard-two token, a dive, the plague -------------------------------


def _discard_two(game: Hooks, state: SteamCourtState, table: Table, player: int, slots: tuple[int, ...]) -> None:
    for power in state.powers[player]:
        if power[0] == "discard" and not power[1]:
            power[1] = True
            break
    hand = state.hands[player]
    for slot in slots:
        hand.remove(slot)
    table.discard.extend(slots)
    table.actor = player
    table.focus = list(slots)
    table.phase = Phase.DISCARDING
    state.cards.reveal(slots)
    # Cards that were public already need no operation: go on at once.
    if not state.cards.pending:
        discard_revealed(game, state, table)


def discard_revealed(game: Hooks, state: SteamCourtState, table: Table) -> None:
    player = table.actor
    revealed = state.cards.revealed
    faces = [FACE[revealed[slot]] for slot in table.focus]
    for slot in table.focus:
        if KIND[revealed[slot]] != NUMBERED:
            raise RuleViolation(
                player, f"discarded {' and '.join(faces)}: the token discards numbered cards only"
            )
    state.notes.append(("discard", player, tuple(table.focus)))
    table.focus = []
    if state.hands[player]:
        table.phase = Phase.TURN
        return
    go_out(state, table, player)
    if quarter_over(state, table):
        end_quarter(game, state, table)
    else:
        advance(state, table, player)


def _dive(state: SteamCourtState, table: Table, player: int, action: Dive) -> None:
    state.used[player].append("dive")
    table.actor = player
    table.focus = [action.slot]
    table.pile = action.pile
    state.cards.reveal((action.slot,))
    pile = table.court if action.pile == "court" else table.discard
    fresh = list(state.cards.reshuffle(pile))
    table.deals.append(state.cards.next_deal - 1)
    if action.pile == "court":
        table.court = fresh
    else:
        table.discard = fresh
    table.phase = Phase.DIVING


def dive_revealed(game: Hooks, state: SteamCourtState, table: Table) -> None:
    player = table.actor
    name = state.cards.revealed[table.focus[0]]
    if KIND[name] != NUMBERED:
        raise RuleViolation(player, f"revealed {FACE[name]} for a dive: it must be a numbered card")
    table.focus = []
    game._draw(state, table, player, NUMBER[name], draw_of(state, table, player, "dive"))
    state.notes.append(("dive", player, table.pile, name, len(table.drawn)))


def plague(game: Hooks, state: SteamCourtState, table: Table, player: int, plague: Draw | None = None) -> None:
    """Shuffle the plague's pile and draw from it (``plague``: the draw, unless it is the
    player's character's turn power)."""
    plague = plague or draw_of(state, table, player, "plague")
    pile = plague.piles[0]
    state.used[player].append("plague")
    table.actor = player
    table.pile = pile
    fresh = list(state.cards.reshuffle(_pile(table, pile)))
    table.deals.append(state.cards.next_deal - 1)
    if pile == "court":
        table.court = fresh
    else:
        table.discard = fresh
    game._draw(state, table, player, plague.count or 0, plague)
    state.notes.append(("plague", player, len(table.drawn)) + (("court",) if pile == "court" else ()))


def draw(state: SteamCourtState, table: Table, player: int, count: int, draw: Draw) -> None:
    """Draw ``count`` cards blind from the top of the dive's pile (all if fewer), of which
    ``draw`` says how many must be kept."""
    assert draw.most_kept is None or hasattr(table, "owed"), "a most-kept rule needs a table that records what is owed"
    pile = table.court if table.pile == "court" else table.discard
    drawn = pile[:count]
    del pile[:count]
    state.hands[player].extend(drawn)
    state.cards.disclose(drawn, player)
    table.drawn = drawn[:]
    least = draw.least_kept(len(drawn))
    table.returns = len(drawn) - least
    if table.returns:
        table.phase = Phase.RETURN
    else:
        table.drawn = []
        _after_draw(state, table)


def put_back(state: SteamCourtState, table: Table, player: int, slot: int) -> None:
    state.hands[player].remove(slot)
    table.drawn.remove(slot)
    (table.court if table.pile == "court" else table.discard).append(slot)
    table.returns -= 1
    state.notes.append(("put-back", player, table.pile))
    if not table.returns or not table.drawn:
        table.drawn = []
        table.returns = 0
        _after_draw(state, table)


def _after_draw(state: SteamCourtState, table: Table) -> None:
    """Go on once a draw's cards are kept: the next privilege if it was one (the quarter not
    begun), else the drawer's turn goes on."""
    if table.privilege >= 0:
        next_privilege(state, table, table.privilege + 1)
    else:
        table.phase = Phase.TURN


# -- helpers -----------------------------------------------------------------------------------


class _Known:
    """Card names by slot for a player: public values, then the player's knowledge."""

    __slots__ = ("revealed", "knowledge")

    def __init__(self, state: SteamCourtState, knowledge: Knowledge) -> None:
        self.revealed = state.cards.revealed
        self.knowledge = knowledge

    def get(self, slot: int) -> str | None:
        return self.revealed.get(slot) or self.knowledge.get(slot)


def _require_public_numbered(state: SteamCourtState, player: int, slot: int) -> None:
    name = state.cards.revealed.get(slot)
    if name is not None and KIND[name] != NUMBERED:
        raise IllegalAction(player, f"{FACE[name]} is not a numbered card")


def _pile_title(pile: str) -> str:
    return "Court Hand" if pile == "court" else "discard pile"


def _pile(table: Table, pile: str) -> list[int]:
    """The table's Court Hand (``"court"``) or discard pile."""
    return table.court if pile == "court" else table.discard
