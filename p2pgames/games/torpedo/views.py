"""What people see of a Steam Torpedo table: action texts, log lines, panels, tile cards and help.

Everything here reads the state and never changes it. Nothing is hidden once the submarines are
built, so every viewer sees the same table; the viewer's own submarine is drawn at the bottom,
nearest them, as on the real table.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from p2pgames.engine import PANEL_RULE, Act, ChanceOutcome, ChoiceGroup, Event, Panel, Segment

from p2pgames.games.torpedo.actions import (
    Absorb,
    Assign,
    Breathe,
    Build,
    CaptainMove,
    Drive,
    EndTurn,
    Keep,
    Maneuver,
    Move,
    Pass,
    Pick,
    React,
    Relocate,
    Step,
    Swap,
    TargetCrew,
    TargetTile,
    Trigger,
)
from p2pgames.games.torpedo.build import starter_of
from p2pgames.games.torpedo.effects import (
    counters as effect_counters,
    defender_seat,
    gears_left,
    hittable,
    loss_reasons,
    speed,
)
from p2pgames.games.torpedo.geometry import (
    CONTROL,
    LOCATIONS,
    position_name,
    range_of,
    relative_position,
)
from p2pgames.games.torpedo.state import (
    CAPTAIN_FREE,
    CAPTAIN_JUST,
    CREW_PER_SEAT,
    PLAYING,
    Phase,
    TorpedoState,
    crew_name,
    owner,
    seat_crew,
)
from p2pgames.games.torpedo.tiles import TILESET, Effect, Tile
from p2pgames.words import joined

__all__ = [
    "HELP",
    "card_lines",
    "describe_action",
    "effect_text",
    "group_choices",
    "narrate",
    "panels",
    "result_summary",
    "side_word",
    "tile_list",
    "warnings",
]


HELP = """\
Steam Torpedo: sink the enemy submarine. You lose when your control room is
destroyed, all five of your crew are eliminated, or your submarine holds no
oxygen.

Your turn: recovery (breathe: take 1 oxygen token from a compartment; your crew
become ready), then in any order: one maneuver (a sector per manned engine --
the control room is one -- split between the two submarines), crew moves
(a ready crew member to an adjacent compartment; exhausts it), triggers (a ready
crew member fires its compartment's duty or counter effect, moves one tile
toward the control room, exhausts), and the captain's one free move. No
triggers in either player's first turn. Counter effects may also be used in
the opponent's turn, after its maneuver or any of its effects.

Grid: columns A-E are sectors 1-5 (fore = D,E; aft = A,B); row 1 is next to
the sea, row 2 farthest from it; C2 is the control room. Each compartment shows
its short name and structure left (3/4), then its type (S standard, E engine,
A armoured, X experimental, C control room), its oxygen (o2) and its crew: C
the captain, 1-4 the sailors, in brackets when exhausted, !2 an enemy sailor
aboard. Tiles are typed by short name or position.

Type:
  maneuver +2 -1            you 2 sectors toward sector 5, the enemy 1 back
  maneuver +1 0 port        ...ending in the enemy's sector, the enemy to your
                            port (or starboard) side; maneuver 0 0 port swings
                            round to its other side (2 speed)
  move sailor 1 to Gatling  a ready crew member to an adjacent compartment
  captain to B1             the captain's free move (once a turn, no exhaust)
  trigger Gatling with sailor 1   (Broadside 2: its 2nd effect; two keys:
                            with sailor 1 and sailor 2 -- doubles the effect)
  step sailor 1 to Sights   where he moves toward the control room
  target Bulkhead | target sailor 2 | relocate sailor 1 to E2
  drive me +1 | drive enemy -2 port    a move-sub effect
  absorb | assign Bulkhead  (defending) the control room takes one token for
                            all, or a compartment of the location hit does
  react Gatling | pass      a counter in the opponent's turn ('no reactions this
                            turn' passes the rest of the turn's windows)
  breathe O2Tanks           recovery
  end                       end your turn
  tile Gatling              a tile's full text

Building your submarine (build=custom) starts with a choice: a starter
submarine, which the rulebook recommends for a first game, or your own. The
pool lists each tile's type, structure/oxygen (S4/2) and effects (atk attack,
gas oxygen attack, kill a crew member; cl close, far distant range; ↺ counter,
¹ single-use, ² two keys).
  starter panzer            the Panzer la Rochelle starter's ten tiles (or
                            starter talion): then done, or change them first
  custom                    build your own from the pool
  add Gatling               a tile into your build (remove Gatling: out again)
  clear | done              start again | finish: 10 tiles, one a control room
  swap Gatling Chain        after placement: switch two compartments
  keep                      ...or keep your submarine as placed
  pick Gatling              (build=draft) take a tile from the pool"""


# -- names -----------------------------------------------------------------------------------------


def tile_word(state: "TorpedoState", seat: int, position: int) -> str:
    """How a compartment is typed and named in actions: its short name."""
    return state.kit[seat][position].short


def side_word(player: int, upper: int) -> str:
    """``port`` or ``starboard``: the side of ``player`` the enemy is on when both share a sector
    and ``upper`` is up."""
    return "port" if upper != player else "starboard"


def _signed(number: int) -> str:
    return f"{number:+d}" if number else "0"


def _crews(crews: Iterable[int]) -> str:
    return " and ".join(crew_name(crew) for crew in crews)


def _effect_suffix(tile: Tile, effect: int) -> str:
    return f" {effect + 1}" if len(tile.effects) > 1 else ""


# -- action texts ----------------------------------------------------------------------------------


def describe_action(state: "TorpedoState", player: int, action: Any) -> str:
    """The text ``player`` types for ``action`` (see :data:`HELP` and ``typed.py``)."""
    kind = type(action)
    if kind is EndTurn:
        return "end"
    if kind is Pass:
        return "pass"
    if kind is Absorb:
        return "absorb"
    if kind is Keep:
        return "keep"
    if kind is Trigger:
        tile = state.kit[player][action.position]
        return f"trigger {tile.short}{_effect_suffix(tile, action.effect)} with {_crews(action.crews)}"
    if kind is React:
        tile = state.kit[player][action.position]
        return f"react {tile.short}{_effect_suffix(tile, action.effect)}"
    if kind is Move:
        sub = state.crew[action.crew][0]
        return f"move {crew_name(action.crew)} to {tile_word(state, sub, action.to)}"
    if kind is CaptainMove:
        sub = state.crew[player * CREW_PER_SEAT][0]
        return f"captain to {tile_word(state, sub, action.to)}"
    if kind is Step:
        return f"step {crew_name(action.crew)} to {tile_word(state, player, action.to)}"
    if kind is Maneuver:
        text = f"maneuver {_signed(action.own)} {_signed(action.enemy)}"
        return text if action.upper is None else f"{text} {side_word(player, action.upper)}"
    if kind is Drive:
        who = "me" if action.seat == player else "enemy"
        text = f"drive {who} {_signed(action.by)}"
        return text if action.upper is None else f"{text} {side_word(player, action.upper)}"
    if kind is TargetTile:
        return f"target {tile_word(state, _target_sub(state, player), action.position)}"
    if kind is TargetCrew:
        return f"target {crew_name(action.crew)}"
    if kind is Relocate:
        return f"relocate {crew_name(action.crew)} to {tile_word(state, player, action.to)}"
    if kind is Assign:
        return f"assign {tile_word(state, player, action.position)}"
    if kind is Breathe:
        return f"breathe {tile_word(state, player, action.position)}"
    if kind is Swap:
        tiles = state.kit[player]
        return f"swap {tiles[action.a].short} {tiles[action.b].short}"
    if kind is Pick:
        return f"pick {TILESET.tiles[action.name].short}"
    if kind is Build:
        faction = starter_of(action.tiles)
        if faction is not None and len(action.tiles) == 10:
            return f"build starter {faction}"
        return "build " + " ".join(_short(name) for name in action.tiles)
    return repr(action)  # pragma: no cover - every action kind is handled above


def _short(name: str) -> str:
    tile = TILESET.tiles.get(name)
    return tile.short if tile is not None else name


def _target_sub(state: "TorpedoState", player: int) -> int:
    """Whose compartment a ``TargetTile`` of ``player`` names now: the enemy's when boarding or
    taking oxygen, else the player's own (repair, refill)."""
    if state.phase == Phase.SCAVENGE:
        return 1 - player
    seat, position, number = state.source[0], state.source[1], state.source[2]
    kind = state.kit[seat][position].effects[number].kind
    return 1 - player if kind == "board" else player


# -- grouping long lists of choices ---------------------------------------------------------------

GROUP_ABOVE = 8  # a list of more choices than this is grouped (two rows of an 80-column screen)
# Where a choice's second-level group ends: before this word ("move sailor 1 …", "trigger Gatling …").
_PART_ENDS = {"move": "to", "trigger": "with", "relocate": "to", "captain": None}


def group_choices(texts: Sequence[str]) -> list[ChoiceGroup]:
    """A long list of choices (more than :data:`GROUP_ABOVE`) one line per verb — ``maneuver …``,
    ``move …``, ``captain to …``, ``trigger …``, ``end`` — each line's parts one per crew member,
    tile or own speed (``move sailor 1 …``, ``trigger Gatling …``, ``maneuver +1 …``). A list of one
    verb (``swap``) is grouped by its parts when that makes it shorter; shorter lists stay as they are."""
    singles = [ChoiceGroup(text, (index,)) for index, text in enumerate(texts)]
    if len(texts) <= GROUP_ABOVE:
        return singles
    verbs = _by(range(len(texts)), lambda index: _verb(texts[index]))
    if len(verbs) == 1:
        parts = _parts(texts, list(range(len(texts))))
        return parts if len(parts) < len(texts) else singles
    groups = []
    for verb, members in verbs.items():
        if len(members) == 1:
            groups.append(ChoiceGroup(texts[members[0]], tuple(members)))
            continue
        parts = _parts(texts, members)
        groups.append(ChoiceGroup(f"{verb} …", tuple(members), tuple(parts) if 1 < len(parts) < len(members) else ()))
    return groups


def _by(indexes: Iterable[int], key: Any) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for index in indexes:
        found.setdefault(key(index), []).append(index)
    return found


def _verb(text: str) -> str:
    words = text.split()
    return "captain to" if words[:2] == ["captain", "to"] else words[0]


def _part(text: str) -> str:
    """``text``'s second-level group: its words up to the one that ends it (``move sailor 1``),
    or its first two (``maneuver +1``, ``swap Chain``)."""
    words = text.split()
    end = _PART_ENDS.get(words[0], "")
    if end and end in words[1:]:
        return " ".join(words[: words.index(end, 1)])
    return " ".join(words[:2])


def _parts(texts: Sequence[str], members: Sequence[int]) -> list[ChoiceGroup]:
    parts = []
    for stem, indexes in _by(members, lambda index: _part(texts[index])).items():
        label = texts[indexes[0]] if len(indexes) == 1 else f"{stem} …"
        parts.append(ChoiceGroup(label, tuple(indexes)))
    return parts


# -- tile cards ------------------------------------------------------------------------------------

_RANGES = {"close": "at close range", "distant": "at distant range", "any": "at any range"}
_ARCS = {
    "front": "enemy in front",
    "behind": "enemy behind",
    "port": "enemy on your port side",
    "starboard": "enemy on your starboard side",
    "any": "enemy anywhere",
}
_TYPES = {
    "standard": "standard",
    "engine": "engine (+1 speed when manned)",
    "armored": "armoured (+1 armour in its locations when manned)",
    "experimental": "experimental",
    "control": "control room (combat and engine; can't be targeted)",
}


def effect_text(effect: Effect) -> str:
    """One effect as a sentence: ``Duty (single-use): attack 2 at distant range, enemy behind;
    hits its fore.``"""
    alert = {"none": "", "single": " (single-use)", "two-keys": " (two keys: two crew double it)"}[effect.alert]
    head = f"{effect.button.capitalize()}{alert}: "
    kind = effect.kind
    who = "sailor" if effect.crew == "sailor" else "captain or sailor"
    body = {
        "attack": f"attack {effect.value}",
        "oxygen-attack": f"remove {effect.value} oxygen",
        "crew-attack": f"eliminate an enemy {who} in the location hit",
        "board": "the crew member boards a compartment of the location hit, blocking its effects,",
        "repel": f"eliminate an enemy {who} aboard your submarine",
        "repair": f"remove {effect.value} damage from one of your compartments",
        "refill": f"put back up to {effect.value} oxygen the enemy took, on one compartment's empty gears",
        "move-crew": "move one of your crew members to any compartment",
        "move-sub": f"move either submarine up to {effect.value} sector{'s' if effect.value > 1 else ''}",
        "armor-bonus": f"+{effect.value} armour ({'every location' if effect.location == 'all' else effect.location})",
        "speed-bonus": f"+{effect.value} speed",
        "attack-bonus": f"+{effect.value} to your attack totals",
    }[kind]
    if effect.aimed:
        hits = "the location facing you" if effect.hits == "facing" else f"its {effect.hits}"
        body += f" {_RANGES[effect.range]}, {_ARCS[effect.position]}; hits {hits}"
    return head + body + "."


def card_lines(tile: Tile) -> list[str]:
    """A tile's full card text, as ``tile NAME`` shows it and ``RULES.md`` lists it."""
    oxygen = "no oxygen" if tile.oxygen == 0 else f"{tile.oxygen} oxygen"
    lines = [
        f"{tile.name} ({tile.short}): {tile.faction.capitalize()}, {_TYPES[tile.type]}; "
        f"{tile.structure} structure, {oxygen}."
    ]
    lines.extend(f"  {effect_text(effect)}" for effect in tile.effects)
    if not tile.effects:
        lines.append("  No effect.")
    if tile.flavor:
        lines.append(f"  “{tile.flavor}”")
    return lines


_SHORT_TYPES = {
    "standard": "standard",
    "engine": "engine",
    "armored": "armoured",
    "experimental": "experimental",
    "control": "control room (can't be targeted)",
}


def tile_answer(tile: Tile) -> list[str]:
    """A tile's text as ``tile NAME`` answers it in the log: :func:`card_lines` without the
    indent, the flavour and the type's reminder, so that it reads whole in the log's few rows."""
    oxygen = "no oxygen" if tile.oxygen == 0 else f"{tile.oxygen} oxygen"
    head = f"{tile.name} ({tile.short}): {tile.faction.capitalize()}, {_SHORT_TYPES[tile.type]}; {tile.structure} structure, {oxygen}."
    return [head] + ([effect_text(effect) for effect in tile.effects] or ["No effect."])


def tile_list() -> list[str]:
    """Every tile's card, then the starter layouts: the tile section of ``RULES.md``."""
    lines: list[str] = []
    for tile in TILESET.tiles.values():
        lines.extend(f"    {line}" for line in card_lines(tile))
        lines.append("")
    for starter in TILESET.starters.values():
        lines.append(f"Starter submarine {starter.name} (`build=starter` seat "
                     f"{list(TILESET.starters).index(starter.faction)}):")
        lines.append("")
        for row, label in ((0, "row 1 (inner)"), (1, "row 2 (outer)")):
            shorts = [TILESET.tiles[name].short for name in starter.layout[row * 5 : row * 5 + 5]]
            lines.append(f"    {label:<14}" + " ".join(f"{short:<10}" for short in shorts).rstrip())
        lines.append("")
    return lines


# -- warnings --------------------------------------------------------------------------------------


def warnings(state: "TorpedoState", player: int) -> list[str]:
    """What ``player`` should know before any decision of theirs in play that the grids don't
    spell out, one sentence each (short enough for a row beside the "⚠ " of an 80-column screen
    but when several locations are named):

    * A location of theirs with no compartment left (every one destroyed): every hit there lands
      on the control room, one token a hit (step 7) — and how many more it takes to sink them.
    * Defending, before placing any damage, against more than the location hit can hold: placing
      it floods every compartment left there and the rest lands on the control room all the
      same, where absorbing puts only that one token (step 6).
    """
    if player not in (0, 1) or state.phase not in PLAYING:
        return []
    lines = []
    gone = [location for location in LOCATIONS if not hittable(state, player, location)]
    if gone:
        left = gears_left(state, player, CONTROL)
        sink = f"{left} more sink{'s' if left == 1 else ''} you"
        lines.append(f"{joined(gone).capitalize()} destroyed: hits there land on your control room; {sink}.")
    if state.phase == Phase.DEFEND and player == defender_seat(state) and not state.assigned:
        room = sum(gears_left(state, player, p) for p in hittable(state, player, state.hit))
        if room < state.amount:
            lines.append(f"Your {state.hit} holds {room} of the {state.amount}: the rest lands on your control room anyway.")
    return lines


# -- log lines -------------------------------------------------------------------------------------


def narrate(before: "TorpedoState", event: Event, after: "TorpedoState", names: Sequence[str]) -> list[str]:
    """What ``event`` did, in the order it happened (public: everything is)."""
    lines = []
    for note in after.notes:
        line = _note_line(note, before, after, names)
        if line:
            lines.append(line)
    if not lines and isinstance(event, (Act, ChanceOutcome)):
        lines.append("…")
    return lines


def _tile(state: "TorpedoState", seat: int, position: int) -> str:
    return f"{state.kit[seat][position].short} ({position_name(position)})"


def _member(crew: int, names: Sequence[str]) -> str:
    return f"{names[owner(crew)]}'s {crew_name(crew)}"


def _note_line(note: tuple, before: "TorpedoState", after: "TorpedoState", names: Sequence[str]) -> str:
    kind = note[0]
    state = after
    if kind == "built":
        _, seat, faction = note
        if faction:
            return f"{names[seat]} built the {TILESET.starters[faction].name} starter submarine."
        return f"{names[seat]} built: {' '.join(tile.short for tile in state.kit[seat])}."
    if kind == "dealt":
        return "Each player was dealt a random submarine."
    if kind == "draft-first":
        return f"{names[note[1]]} drafts first."
    if kind == "picked":
        return f"{names[note[1]]} picked {note[2]}."
    if kind == "placed":
        return "The compartments were placed at random, each control room moved to C2."
    if kind == "swapped":
        _, seat, a, b = note
        tiles = state.kit[seat]
        return f"{names[seat]} swapped {tiles[b].short} and {tiles[a].short} ({position_name(a)} ↔ {position_name(b)})."
    if kind == "kept":
        return f"{names[note[1]]} kept the submarine as placed."
    if kind == "first":
        return f"{names[note[1]]} plays first."
    if kind == "turn":
        _, number, seat = note
        return f"— Turn {number}: {names[seat]} —"
    if kind == "breathe":
        _, seat, position, auto = note
        return f"{names[seat]} breathed from {_tile(state, seat, position)} ({state.total_oxygen(seat)} oxygen left)."
    if kind == "maneuver":
        _, seat, own, enemy, upper, sectors = note
        moves = [(sub, by) for sub, by in ((seat, own), (1 - seat, enemy)) if by]
        if not moves:
            other = names[1 - seat]
            return f"{names[seat]} maneuvered round {other}'s submarine in sector {sectors[seat]}{_side(upper, sectors, names)}."
        return f"{names[seat]} maneuvered {_moves(seat, moves, sectors, upper, names)}."
    if kind == "move":
        _, crew, sub, to = note
        return f"{_member(crew, names)} moved to {_tile(state, sub, to)}."
    if kind == "captain":
        _, crew, sub, to = note
        return f"{names[owner(crew)]}'s captain made his free move to {_tile(state, sub, to)}."
    if kind == "trigger":
        _, seat, position, effect, crews = note
        tile = state.kit[seat][position]
        keys = " (two keys)" if len(crews) == 2 else ""
        return f"{names[seat]} triggered {tile.name}{_effect_suffix(tile, effect)}{keys} with {_crews(crews)}."
    if kind == "react":
        _, seat, position, effect = note
        tile = state.kit[seat][position]
        return f"{names[seat]} reacted with {tile.name}{_effect_suffix(tile, effect)}."
    if kind == "step":
        _, crew, sub, to, auto = note
        return f"{_member(crew, names)} moved toward the control room, to {_tile(state, sub, to)}."
    if kind == "attack":
        _, seat, what, hit, total, plates, amount = note
        noun = "damage" if what == "attack" else "oxygen"
        # Two keys double what gets through the armour (I9): the amount says whether they did.
        sum_ = f"{total} − armour {plates}"
        if amount != max(0, total - plates):
            sum_ = f"({sum_}) × 2 (two keys)"
        return f"{'Attack' if what == 'attack' else 'Oxygen attack'} on {names[1 - seat]}'s {hit}: {sum_} = {amount} {noun}."
    if kind == "absorb":
        _, seat, amount, auto = note
        how = "The control room absorbs" if auto else f"{names[seat]} absorbs"
        return f"{how} the {amount} damage: one token on {names[seat]}'s control room."
    if kind == "damage":
        _, seat, position, placed, flooded, auto = note
        end = ": destroyed" if flooded else ""
        return f"{placed} damage on {names[seat]}'s {_tile(state, seat, position)}{end}."
    if kind == "destroyed":
        _, seat, position = note
        if position == CONTROL:
            return f"{names[seat]}'s control room is destroyed."
        return ""
    if kind == "flooded":
        return f"{_member(note[1], names)} went down with the compartment."
    if kind == "eliminated":
        return f"{_member(note[1], names)} was eliminated."
    if kind == "drain":
        _, seat, position, taken, auto = note
        return f"{names[seat]} lost {taken} oxygen from {_tile(state, seat, position)}."
    if kind == "scavenge":
        _, seat, position, auto = note
        return f"{names[1 - seat]} took 1 oxygen from {names[seat]}'s {_tile(state, seat, position)}."
    if kind == "board":
        _, crew, sub, position, auto = note
        return f"{_member(crew, names)} boarded {names[sub]}'s {_tile(state, sub, position)}."
    if kind == "repair":
        _, seat, position, removed, auto = note
        return f"{names[seat]} repaired {removed} damage on {_tile(state, seat, position)}."
    if kind == "refill":
        _, seat, position, added, auto = note
        return f"{names[seat]} put {added} oxygen back in {_tile(state, seat, position)}."
    if kind == "relocate":
        _, crew, sub, to, auto = note
        return f"{_member(crew, names)} was moved to {_tile(state, sub, to)}."
    if kind == "drive":
        _, seat, moved, by, upper, sectors, auto = note
        return f"{names[seat]} moved {_moves(seat, [(moved, by)], sectors, upper, names)}."
    if kind == "returned":
        _, seat, moved = note
        if not moved:
            return ""
        return f"{names[seat]}'s {_crews(moved)} returned to the control room, exhausted."
    if kind == "pass":
        return f"{names[note[1]]} does not react."
    if kind == "end":
        return f"{names[note[1]]} ended the turn."
    if kind == "over":
        return result_summary(state, names)
    return ""


def _moves(seat: int, moves: Sequence[tuple[int, int]], sectors: Sequence[int], upper: int | None, names: Sequence[str]) -> str:
    """What ``seat``'s maneuver or move-sub effect did, after its verb: each submarine moved
    (``(sub, by)``) by how much and to which sector, where the other stays, and who is on whose
    port side when they now share a sector: ``root's submarine +1 to sector 2; bot-1's stays in
    sector 1``."""
    parts = []
    for number, (sub, by) in enumerate(moves):
        whose = "their own" if sub == seat else f"{names[sub]}'s"
        parts.append(f"{whose}{' submarine' if number == 0 else ''} {_signed(by)} to sector {sectors[sub]}")
    subs = {sub for sub, _ in moves}
    stays = "".join(f"; {names[sub]}'s stays in sector {sectors[sub]}" for sub in (0, 1) if sub not in subs)
    return " and ".join(parts) + stays + _side(upper, sectors, names)


def _side(upper: int | None, sectors: Sequence[int], names: Sequence[str]) -> str:
    """``; bruno is on ludovic's port side`` when both submarines share a sector (``upper`` is up:
    facing sector 5, up is to port), else nothing."""
    if upper is None or sectors[0] != sectors[1]:
        return ""
    return f"; {names[upper]} is on {names[1 - upper]}'s port side"


def result_summary(state: "TorpedoState", names: Sequence[str]) -> str:
    """One line for the log and the screen: who won and why (or the draw)."""
    losers = state.losers
    reasons = {seat: " and ".join(loss_reasons(state, seat)) for seat in losers}
    if len(losers) == 2:
        return f"A draw: both lost at once ({names[0]}: {reasons[0]}; {names[1]}: {reasons[1]})."
    loser = losers[0]
    return f"{names[1 - loser]} wins: {names[loser]} has {reasons[loser]}, after {state.turn} turns."


# -- panels ----------------------------------------------------------------------------------------

Line = tuple[Segment, ...]

# A terminal of 80 columns puts each panel's title in a gutter as wide as the longest title (here
# 5: "enemy") followed by " │ ", leaving WIDTH columns for the lines: titled so, the table spends
# no row on headings, and both grids, the sea and the turn fit beside the choices and the log.
GUTTER = 5
WIDTH = 80 - GUTTER - len(PANEL_RULE)
CELL = 13  # one tile on the grid: a 9-character short name, a space, structure "2/4"
SPAN = CELL + 1  # a cell and the "│" after it
GRID = 2 + 5 * SPAN - 1  # the row label and five cells
TYPE_LETTERS = {"standard": "S", "engine": "E", "armored": "A", "experimental": "X", "control": "C"}
COLUMNS = "ABCDE"

# The key to the grid (shown before the first turn, and in the help).
KEY = (
    "columns A–E: sectors 1–5 (A, B aft; D, E fore) · row 1 faces the sea",
    "type: S standard, E engine, A armoured, X experimental, C control room",
    "3/4 structure left · o2 oxygen · crew: C captain, 1–4 sailors,",
    "(in brackets) exhausted, !2 an enemy sailor aboard",
)


def panels(state: "TorpedoState", viewer: int | None, names: Sequence[str]) -> list[Panel]:
    """What the screen shows (the viewer's own submarine at the bottom, nearest them, as on the
    real table; a spectator sees player 1 above).

    During the game, four panels with titles of at most :data:`GUTTER` characters and lines of
    at most :data:`WIDTH` columns, 14 rows in all (what an 80×24 screen has beside the choices
    and the log): ``enemy``, the enemy's grid, its outer row farthest from you; ``sea``, the
    sectors and a line per submarine in its sector (the upper one first: when both share a
    sector, the one on the other's port side) with its oxygen, crew and speed; ``you``, your
    grid; ``turn``, whose turn and what the game waits for, what is left to do, where the enemy
    is, and what the other player may react with. Before the first turn a ``key`` to the grid
    takes the sea's place. The build and the draft show one panel of the pool (80 columns).
    """
    me = viewer if viewer in (0, 1) else 0
    if state.phase in (Phase.BUILD, Phase.DEAL, Phase.DRAFT_ORDER, Phase.DRAFT):
        return [_build_panel(state, viewer, names)]
    top, bottom = 1 - me, me
    if viewer in (0, 1):
        titles = ("enemy", "you")
    else:
        titles = (names[top][:GUTTER], names[bottom][:GUTTER])
    result = [Panel(titles[0], tuple(_grid_lines(state, top, top=True)))]
    if state.phase in (Phase.PLACEMENT, Phase.SWAP, Phase.FIRST):
        result.append(Panel(titles[1], tuple(_grid_lines(state, bottom, top=False))))
        result.append(Panel("key", tuple((("dim", line),) for line in KEY)))
        return result
    result.append(Panel("sea", tuple(_sea_lines(state, me, viewer, names))))
    result.append(Panel(titles[1], tuple(_grid_lines(state, bottom, top=False))))
    result.append(_turn_panel(state, viewer, names))
    return result


def _grid_lines(state: "TorpedoState", seat: int, top: bool) -> list[Line]:
    """A submarine as two rows of two lines, its outer row (2) farthest from the sea."""
    lines: list[Line] = []
    for row in (1, 0) if top else (0, 1):
        first: list[Segment] = [("dim", f"{row + 1} ")]
        second: list[Segment] = [("", "  ")]
        for column in range(5):
            position = row * 5 + column
            if column:
                first.append(("dim", "│"))
                second.append(("dim", "│"))
            a, b = _cell(state, seat, position)
            first.extend(a)
            second.extend(b)
        lines.append(tuple(first))
        lines.append(tuple(second))
    return lines


def _sea_lines(state: "TorpedoState", me: int, viewer: int | None, names: Sequence[str]) -> list[Line]:
    """The sectors, each under its column of the grids, then one line per submarine — the
    enemy's, then yours, as the grids are drawn (a spectator's: the upper one first when they
    share a sector, else the one drawn on top) — its marker in its sector's column and beside it
    its sector, oxygen, crew and speed: right of the marker, else left of it, else split around
    it (in the middle sectors neither side has room for all)."""
    ruler = " ".join(f"{COLUMNS[column]} · sector {column + 1}".center(CELL) for column in range(5))
    lines: list[Line] = [(("dim", ("  " + ruler).rstrip()),)]
    sectors = state.sectors
    if viewer in (0, 1):
        order = (1 - viewer, viewer)
    else:
        up = state.upper if sectors[0] == sectors[1] else 1 - me
        order = (up, 1 - up)
    for seat in order:
        mark = "you ►" if seat == viewer else f"{names[seat][:CELL - 2]} ►"
        style = "you" if seat == viewer else "bold"
        stats = [
            f"sector {sectors[seat]}",
            f"oxygen {state.total_oxygen(seat)}",
            f"crew {state.alive(seat)}",
            f"speed {speed(state, seat)}",
        ]
        centred = f"{mark:^{CELL}}"
        start = 2 + (sectors[seat] - 1) * SPAN + len(centred) - len(centred.lstrip())
        end = start + len(mark)
        for split in (0, len(stats), *range(1, len(stats))):
            left, right = " · ".join(stats[:split]), " · ".join(stats[split:])
            if (not left or len(left) + 2 <= start) and (not right or end + 2 + len(right) <= WIDTH):
                break
        segments: list[Segment] = [("", " " * (start - len(left) - 2 if left else start))]
        segments += [("dim", left + "  ")] if left else []
        segments += [(style, mark)] + ([("dim", "  " + right)] if right else [])
        lines.append(tuple(segments))
    return lines


def _cell(state: "TorpedoState", seat: int, position: int) -> tuple[list[Segment], list[Segment]]:
    if not state.kit[seat]:
        return [("dim", " " * CELL)], [("dim", " " * CELL)]
    tile = state.kit[seat][position]
    left = gears_left(state, seat, position)
    if left <= 0:
        return [("bad", f"{tile.short:<9} 0/{tile.structure}")], [("bad", f"{'destroyed':<{CELL}}")]
    style = "bold" if position == CONTROL else ""
    health = "warn" if left < tile.structure else ""
    first = [(style, f"{tile.short:<9} "), (health, f"{left}/{tile.structure}")]
    # Before the submarines are manned, the oxygen each compartment will hold: its gears.
    placing = state.phase in (Phase.PLACEMENT, Phase.SWAP)
    oxygen = tile.oxygen if placing else state.oxygen[seat][position]
    text = f"{TYPE_LETTERS[tile.type]} o{oxygen} "
    room = CELL - len(text)
    marks = _crew_marks(state, seat, position)
    if sum(len(mark) for _, mark in marks) > room:
        marks = _crew_count(state, seat, position)
    used = sum(len(mark) for _, mark in marks)
    return first, [("dim", text), *marks, ("", " " * (room - used))]


def _crew_marks(state: "TorpedoState", seat: int, position: int) -> list[Segment]:
    """The crew in a compartment: own crew ``C``, ``1``–``4`` (in brackets when exhausted), then
    boarders with ``!``."""
    marks = []
    ready, tired = [], []
    for index in seat_crew(seat):
        sub, at, is_ready, alive = state.crew[index]
        if alive and sub == seat and at == position:
            (ready if is_ready else tired).append(_token(index))
    if ready:
        marks.append(("good", "".join(ready)))
    if tired:
        marks.append(("dim", "(" + "".join(tired) + ")"))
    for index in seat_crew(1 - seat):
        sub, at, is_ready, alive = state.crew[index]
        if alive and sub == seat and at == position:
            marks.append(("bad", "!" + _token(index)))
    return marks


def _crew_count(state: "TorpedoState", seat: int, position: int) -> list[Segment]:
    """The crew in a crowded compartment, counted: ``5 crew!1`` (five of the owner's, one
    boarder)."""
    own = aboard = 0
    for index, (sub, at, _, alive) in enumerate(state.crew):
        if alive and sub == seat and at == position:
            if owner(index) == seat:
                own += 1
            else:
                aboard += 1
    return [("good", f"{own} crew")] + ([("bad", f"!{aboard}")] if aboard else [])


def _token(crew: int) -> str:
    k = crew % CREW_PER_SEAT
    return "C" if k == 0 else str(k)


def _turn_panel(state: "TorpedoState", viewer: int | None, names: Sequence[str]) -> Panel:
    """Whose turn and what the game waits for; where the enemy is; what the other player may
    react with now — exactly what a counter window would offer — and which of its counters have
    no target now (or that nobody may trigger yet); and in the action phase whether the maneuver
    and the captain's move are left, on the first of these lines with room for them."""
    if state.phase == Phase.OVER:
        return Panel("turn", tuple(_flow([("good", f"Game over: {result_summary(state, names)}")])))
    active = state.active
    doing = _doing(state, viewer, names)
    if state.phase in (Phase.RECOVERY, Phase.ACTION, Phase.COUNTER):
        whose = "your" if active == viewer else f"{_name(names, active)}'s"
        doing = f"{whose} turn, {doing}"
    # Where the enemy is and what may react share their lines: the table keeps to 14 rows.
    relation: list[Segment] = [("", _relation(state, viewer, names))]
    groups: list[list[Segment]] = [[("bold", f"turn {state.turn}: {doing}")], relation]
    if state.first_turns:
        relation.append(("warn", "first turn: no triggers"))
    else:
        ready, idle = _counters(state)
        who = "you" if 1 - active == viewer else _name(names, 1 - active)
        relation += [("warn", f"{who} may react with {', '.join(ready)}")] if ready else []
        relation += [("dim", f"{', '.join(idle)}: no target now")] if idle else []
    if state.phase == Phase.ACTION:
        left = [word for word, done in (("maneuver", state.maneuvered), ("captain's move", state.captain not in (CAPTAIN_FREE, CAPTAIN_JUST))) if not done]
        flag = ("dim", f"left: {', '.join(left)}" if left else "maneuvered, captain moved")
        room = next((group for group in groups if _length(group) + 3 + len(flag[1]) <= WIDTH), None)
        if room is None:
            groups.append([flag])
        else:
            room.append(flag)
    return Panel("turn", tuple(line for group in groups for line in _flow(group)))


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat][:12]


def _length(segments: Sequence[Segment]) -> int:
    return sum(len(text) for _, text in segments) + 3 * (len(segments) - 1)


def _relation(state: "TorpedoState", viewer: int | None, names: Sequence[str]) -> str:
    sectors = state.sectors
    rng = range_of(sectors)
    if viewer in (0, 1):
        where = {"front": "in front of you", "behind": "behind you", "port": "on your port side",
                 "starboard": "on your starboard side"}[relative_position(viewer, sectors, state.upper)]
        return f"{_name(names, 1 - viewer)} is {where}, at {rng} range"
    said = {"front": "in front of", "behind": "behind", "port": "on the port side of",
            "starboard": "on the starboard side of"}[relative_position(0, sectors, state.upper)]
    return f"{_name(names, 1)} is {said} {_name(names, 0)}, at {rng} range"


def _flow(items: Sequence[Segment], width: int = WIDTH) -> list[Line]:
    """``items`` joined by " · " into lines of at most ``width`` columns, each item whole on one
    line when it fits one (a longer one is wrapped at spaces)."""
    lines: list[list[Segment]] = []
    used = width + 1
    for style, text in items:
        for piece in _pieces(text, width):
            if lines and used + 3 + len(piece) <= width:
                lines[-1].extend([("dim", " · "), (style, piece)])
                used += 3 + len(piece)
            else:
                lines.append([(style, piece)])
                used = len(piece)
    return [tuple(line) for line in lines]


def _pieces(text: str, width: int) -> list[str]:
    """``text`` in pieces of at most ``width`` columns, broken at spaces where it is longer."""
    pieces: list[str] = []
    for word in text.split(" "):
        if pieces and len(pieces[-1]) + 1 + len(word) <= width:
            pieces[-1] += " " + word
        else:
            pieces.extend(word[i : i + width] for i in range(0, max(len(word), 1), width))
    return pieces


def _doing(state: "TorpedoState", viewer: int | None, names: Sequence[str]) -> str:
    """What the game waits for, in a few words (the step's prompt says it to the one deciding);
    while an effect resolves, whose it is."""
    phase = state.phase
    if phase == Phase.RECOVERY:
        return "recovery"
    if phase == Phase.ACTION:
        return "action phase"
    if phase == Phase.COUNTER:
        reactor = 1 - state.active
        return "you may react" if reactor == viewer else f"{_name(names, reactor)} may react"
    if state.source is not None:
        seat, position, number = state.source[0], state.source[1], state.source[2]
        tile = state.kit[seat][position]
        what = f"{'your' if seat == viewer else _name(names, seat) + chr(39) + 's'} {tile.short}"
        if phase in (Phase.DEFEND, Phase.DRAIN):
            defender = 1 - seat
            whose = "your" if defender == viewer else _name(names, defender) + "'s"
            noun = "damage" if phase == Phase.DEFEND else "oxygen"
            return f"{what} hits {whose} {state.hit}: {state.amount} {noun} to place"
        return f"resolving {what}"
    return phase


def _counters(state: "TorpedoState") -> tuple[list[str], list[str]]:
    """The short names of the compartments with which the player whose turn it is not may react
    now (what a counter window offers: :func:`effects.reactions`), and of those whose counters
    could react but for a target (:func:`effects.counters`)."""
    kit = state.kit[1 - state.active]
    counters = effect_counters(state)
    ready = list(dict.fromkeys(kit[position].short for position, _, no_target in counters if no_target is None))
    idle = list(dict.fromkeys(kit[position].short for position, _, _ in counters))
    return ready, [short for short in idle if short not in ready]


# -- the pool of tiles -----------------------------------------------------------------------------

POOL_WIDTH = 80  # the build's panels take the screen's whole width (their title is a heading)
POOL_COLUMNS = 3
CODE = 11  # an entry's effect code: "↺atk1 cl¹"
ENTRY = 9 + 1 + 4 + 1 + CODE  # "BowCannon S4/2 atk2 cl"
POOL_KEY = "S4/2: type, structure/oxygen · ↺ counter · ¹ single-use · ² two keys"
TYPE_KEY = "S standard, E engine, A armoured, X experimental, C control room"

_CODES = {
    "attack": "atk{v}",
    "oxygen-attack": "gas{v}",
    "crew-attack": "kill",
    "board": "board",
    "repel": "repel",
    "repair": "repair{v}",
    "refill": "refill{v}",
    "move-crew": "relocate",
    "move-sub": "drive{v}",
    "armor-bonus": "+{v} armour",
    "speed-bonus": "+{v} speed",
    "attack-bonus": "+{v} attack",
}
_SHORT_BONUS = {"armor-bonus": "+{v}arm", "speed-bonus": "+{v}spd", "attack-bonus": "+{v}atk"}
_RANGE_CODES = {"close": "cl", "distant": "far", "any": ""}


def effect_code(effect: Effect, short: bool = False) -> str:
    """An effect in a few characters for the pool: ``atk2 far¹`` (attack 2 at distant range,
    single-use), ``↺atk1 cl`` (a counter), ``repair2²`` (two keys); ``short`` leaves out the
    range and shortens bonuses. ``tile NAME`` has the whole text."""
    template = (_SHORT_BONUS if short else _CODES).get(effect.kind, _CODES[effect.kind])
    code = template.format(v=effect.value)
    if effect.aimed and not short and _RANGE_CODES[effect.range]:
        code += " " + _RANGE_CODES[effect.range]
    if effect.button == "counter":
        code = "↺" + code
    return code + {"none": "", "single": "¹", "two-keys": "²"}[effect.alert]


def tile_code(tile: Tile) -> str:
    """A tile's effects in at most :data:`CODE` characters (``2×atk1 cl``: two alike effects)."""
    codes = [effect_code(effect) for effect in tile.effects]
    if not codes:
        return "—"
    if len(codes) == 2 and codes[0] == codes[1]:
        return f"2×{codes[0]}"
    joined = ", ".join(codes)
    if len(joined) > CODE:
        joined = ",".join(effect_code(effect, short=True) for effect in tile.effects)
    return joined[:CODE]


def pool_entry(tile: Tile) -> list[Segment]:
    """A tile of the pool in :data:`ENTRY` characters: short name, type letter, structure/oxygen
    and its effects' codes (``BowCannon S4/2 atk2 cl``)."""
    stats = f"{TYPE_LETTERS[tile.type]}{tile.structure}/{tile.oxygen}"
    return [("bold" if tile.is_control else "", f"{tile.short:<9} "), ("dim", f"{stats:<4} "), ("", f"{tile_code(tile):<{CODE}}")]


def pool_lines(tiles: Sequence[Tile]) -> list[Line]:
    """``tiles`` in :data:`POOL_COLUMNS` columns read downwards, lines of at most
    :data:`POOL_WIDTH` columns."""
    rows = -(-len(tiles) // POOL_COLUMNS)
    lines: list[Line] = []
    for row in range(rows):
        segments: list[Segment] = []
        for column in range(POOL_COLUMNS):
            index = column * rows + row
            if index < len(tiles):
                if segments:
                    segments.append(("", " "))
                segments.extend(pool_entry(tiles[index]))
        lines.append(tuple(segments[:-1]) + ((segments[-1][0], segments[-1][1].rstrip()),))
    return lines


def _build_panel(state: "TorpedoState", viewer: int | None, names: Sequence[str]) -> Panel:
    """The build (for those not building now: the builder's own screen is the composer's) or
    the draft: what each drafter picked, then the pool."""
    lines: list[Line] = []
    pool = [TILESET.tiles[name] for name in TILESET.names]
    if state.phase == Phase.BUILD:
        lines.append((("", "Both build a submarine in secret; the builds are opened together."),))
    elif state.phase == Phase.DRAFT:
        for seat in (0, 1):
            if not state.tiles[seat]:
                continue
            shorts = " ".join(TILESET.tiles[name].short for name in state.tiles[seat])
            label = f"{'you' if seat == viewer else names[seat][:16]} ({len(state.tiles[seat])}): "
            for number, row in enumerate(_pieces(shorts, POOL_WIDTH - len(label))):
                lines.append((("bold", label if number == 0 else " " * len(label)), ("", row)))
        if not lines:
            lines.append((("", "Nothing picked yet: pick in turn, one tile at a time."),))
        pool = [TILESET.tiles[name] for name in state.pool]
    elif state.phase == Phase.DEAL:
        lines.append((("", "Each player is dealt 10 random compartments."),))
    lines.extend(pool_lines(pool))
    return Panel(f"pool · {POOL_KEY}", tuple(lines))
