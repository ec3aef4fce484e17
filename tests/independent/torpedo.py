"""Steam Torpedo (SPEC §D4), from the SPEC alone.

The tiles and the starter submarines are read from the tables of §D4.2 in `protocol/SPEC.md`
itself, and their edition is computed from them as §D4.2 says: so this module plays exactly the
tiles the SPEC gives, and a SPEC whose tables are not the shipped set's shows as an edition that
is not the ruleset's (`Torpedo` refuses it).

`Torpedo(options)` offers `probe.Probe`'s interface to `replica.Replica`: `encode()`, `step()`,
the events `chance(seed)`, `simultaneous(pairs)`, `act(seat, action)`, `cards_done(values)`, and
`check(seat, action)` for a secret choice. Every action is checked in full: its wire form
(`malformed`) and every rule of §D4.3–§D4.5 (`illegal`). `legal_actions(seat)` lists every
well-formed action those rules allow (a custom build aside: there are millions), for comparing
the SPEC's rules with the product's.
"""

import re
from itertools import combinations
from pathlib import Path

from . import canon, deck
from .probe import RuleError

DECK_DOMAIN = "p2pgames/torpedo"  # §B6; Steam Torpedo deals no cards
SPEC = Path(__file__).resolve().parents[2] / "protocol" / "SPEC.md"
BUILDS = ("custom", "starter", "random", "draft")
PHASES = ("build", "deal", "draft-order", "draft", "placement", "swap", "first", "recovery", "action", "step",
          "aim", "defend", "drain", "scavenge", "counter", "over")
EMPTY_CARDS = {"deals": [], "next_deal": 0, "next_slot": 0, "revealed": [], "pending": [], "claims": [], "audited": []}
CONTROL = 7
SEATS = (0, 1)


# --- §D4.2: the tiles, read from the SPEC --------------------------------------------------------

def _section(text, heading):
    start = text.find("\n" + heading)
    if start < 0:
        raise LookupError(f"SPEC.md has no section {heading!r}: the tiles can't be read")
    end = text.find("\n#", start + 1)
    return text[start:end if end >= 0 else len(text)]


def _table(text, first_header):
    """The rows of the first Markdown table whose header's first cell is `first_header`."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0] == first_header:
            rows = []
            for following in lines[index + 2:]:
                if not following.startswith("|"):
                    break
                rows.append([c.strip() for c in following.strip().strip("|").split("|")])
            return rows
    raise LookupError(f"§D4.2 has no table headed {first_header!r}")


def _effect(written):
    """`button kind key=value …` (§D4.2) as the effect's data map."""
    words = written.split()
    effect = {"button": words[0], "kind": words[1]}
    for word in words[2:]:
        key, value = word.split("=", 1)
        effect[key] = int(value) if key == "value" else value
    return effect


def read_tiles(spec_text):
    """(tiles' data maps in table order, starters' data maps) from §D4.2's tables."""
    text = _section(spec_text, "### D4.2")
    tiles = []
    for name, short, faction, kind, structure, oxygen, effects in _table(text, "tile"):
        tile = {"name": name, "short": short, "faction": faction, "type": kind,
                "structure": int(structure), "oxygen": int(oxygen)}
        written = re.findall(r"`([^`]*)`", effects)
        if written:
            tile["effect"] = [_effect(w) for w in written]
        tiles.append(tile)
    starters = [{"faction": faction, "name": name, "inner": [n.strip() for n in inner.split(",")],
                 "outer": [n.strip() for n in outer.split(",")]}
                for name, faction, inner, outer in _table(text, "starter")]
    return tiles, starters


def edition_of(tiles, starters):
    """§D4.2: 12 hex digits of H(canon({"tile": …, "starter": …}))."""
    return deck.H(canon.encode({"tile": tiles, "starter": starters})).hex()[:12]


TILE_DATA, STARTER_DATA = read_tiles(SPEC.read_text(encoding="utf-8"))
EDITION = edition_of(TILE_DATA, STARTER_DATA)
TILES = {tile["name"]: tile for tile in TILE_DATA}
NAMES = [tile["name"] for tile in TILE_DATA]                      # file order
CONTROLS = [name for name in NAMES if TILES[name]["type"] == "control"]
OTHERS = [name for name in NAMES if TILES[name]["type"] != "control"]
AIMED = ("attack", "oxygen-attack", "crew-attack", "board")


def effects_of(name):
    return TILES[name].get("effect", [])


# --- §D4.1: the board -------------------------------------------------------------------------------

def row(p):
    return p // 5


def column(p):
    return p % 5


ADJACENT = [[q for q in range(10) if q != p and abs(row(q) - row(p)) <= 1 and abs(column(q) - column(p)) <= 1]
            for p in range(10)]


def distance(p):
    return max(abs(row(p) - 1), abs(column(p) - 2))


CLOSER = [[q for q in ADJACENT[p] if distance(q) < distance(p)] for p in range(10)]
INNER, OUTER = list(range(5)), list(range(5, 10))


def location(seat, name):
    if name == "fore":
        return [3, 4, 8, 9]
    if name == "aft":
        return [0, 1, 5, 6]
    if name == "port":
        return INNER if seat == 0 else OUTER
    return OUTER if seat == 0 else INNER   # starboard


FACING = {"front": "aft", "behind": "fore", "port": "starboard", "starboard": "port"}


def is_int(value, low, high):
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def is_seat_or_nil(value):
    return value is None or is_int(value, 0, 1)


# Wire forms (§D4.7): each kind's fields, as checks on the field's value.
def _name(value):
    return isinstance(value, str) and 1 <= len(value) <= 40


def _names(value):
    return (isinstance(value, list) and 1 <= len(value) <= 32 and all(_name(n) for n in value)
            and value == sorted(value))


def _pos(value):
    return is_int(value, 0, 9)


def _by(value):
    return is_int(value, -4, 4)


def _crews(value):
    return (isinstance(value, list) and 1 <= len(value) <= 2 and all(_pos(c) for c in value)
            and (len(value) == 1 or value[0] < value[1]))


FORMS = {
    "build": (_names,), "pick": (_name,), "swap": (_pos, _pos), "keep": (), "breathe": (_pos,),
    "maneuver": (_by, _by, is_seat_or_nil), "move": (_pos, _pos), "captain": (_pos,),
    "trigger": (_pos, lambda v: is_int(v, 0, 1), _crews), "step": (_pos, _pos), "tile": (_pos,),
    "crew": (_pos,), "relocate": (_pos, _pos), "drive": (lambda v: is_int(v, 0, 1), _by, is_seat_or_nil),
    "absorb": (), "assign": (_pos,), "react": (_pos, lambda v: is_int(v, 0, 1)), "pass": (), "end": (),
}


def well_formed(action):
    if not (isinstance(action, list) and action and action[0] in FORMS):
        return False
    checks = FORMS[action[0]]
    if len(action) != 1 + len(checks) or not all(check(v) for check, v in zip(checks, action[1:])):
        return False
    if action[0] == "swap" and action[1] >= action[2]:
        return False
    return not (action[0] == "drive" and action[2] == 0)


# The kinds each phase takes (§D4.5's step table); `aim` by the effect's kind.
PHASE_KINDS = {
    "build": ("build",), "swap": ("swap", "keep"), "draft": ("pick",), "recovery": ("breathe",),
    "action": ("maneuver", "move", "captain", "trigger", "end"), "step": ("step",), "scavenge": ("tile",),
    "defend": ("absorb", "assign"), "drain": ("assign",), "counter": ("react", "pass"),
}
AIM_KINDS = {"crew-attack": "crew", "repel": "crew", "board": "tile", "repair": "tile", "refill": "tile",
             "move-crew": "relocate", "move-sub": "drive"}


class Torpedo:
    """The state map of §D4.7 and the changes of §D4.3–§D4.6, event by event."""

    def __init__(self, options: dict):
        build, edition = options.get("build", "custom"), options.get("tiles", EDITION)
        if build not in BUILDS:
            raise ValueError(f"Steam Torpedo has no build {build!r}")
        if edition != EDITION:
            raise ValueError(f"the SPEC's tiles are edition {EDITION}, not {edition!r}")
        self.build = build
        self.cards = None  # §D4: no cards (the Replica audits nothing)
        self.turn, self.active, self.first, self.drafter, self.picks = 0, -1, -1, -1, 0
        self.turns_taken, self.sectors, self.taken = [0, 0], [3, 3], [0, 0]
        self.upper = 1
        self.tiles = [[], []]
        self.damage = [[0] * 10, [0] * 10]
        self.oxygen = [[0] * 10, [0] * 10]
        self.crew = [[i // 5, CONTROL, True, True] for i in range(10)]
        self.maneuvered = self.assigned = False
        self.captain = 0
        self.used, self.reacted, self.pool, self.crews, self.losers = [], [], [], [], []
        self.source = None
        self.stepping = self.amount = 0
        self.hit = ""
        self.after = [-1, -1]
        if build == "custom":
            self.phase = "build"
        elif build == "starter":
            for seat, starter in zip(SEATS, STARTER_DATA):
                self.tiles[seat] = list(starter["inner"]) + list(starter["outer"])
            self._man()
            self.phase = "first"
        elif build == "random":
            self.phase = "deal"
        else:
            self.pool = list(NAMES)
            self.phase = "draft-order"

    def encode(self):
        return {"build": self.build, "phase": self.phase, "turn": self.turn, "active": self.active,
                "first": self.first, "turns_taken": list(self.turns_taken), "tiles": [list(t) for t in self.tiles],
                "damage": [list(d) for d in self.damage], "oxygen": [list(o) for o in self.oxygen],
                "crew": [list(c) for c in self.crew], "sectors": list(self.sectors), "upper": self.upper,
                "maneuvered": self.maneuvered, "captain": self.captain,
                "used": [list(u) for u in self.used], "reacted": list(self.reacted), "pool": list(self.pool),
                "drafter": self.drafter, "picks": self.picks,
                "source": None if self.source is None else list(self.source), "crews": list(self.crews),
                "stepping": self.stepping, "amount": self.amount, "hit": self.hit, "assigned": self.assigned,
                "after": list(self.after), "losers": list(self.losers), "taken": list(self.taken),
                "cards": dict(EMPTY_CARDS)}

    # --- §D4.5: who acts ------------------------------------------------------------------------

    def picker(self):
        return self.drafter if self.picks % 4 in (0, 3) else 1 - self.drafter

    def step(self):
        phase = self.phase
        if phase in ("build", "swap"):
            return ("simultaneous", [0, 1])
        if phase in ("deal", "draft-order", "placement", "first"):
            return ("chance",)
        if phase == "draft":
            return ("turn", [self.picker()])
        if phase in ("recovery", "action"):
            return ("turn", [self.active])
        if phase in ("step", "aim", "scavenge"):
            return ("turn", [self.source[0]])
        if phase in ("defend", "drain"):
            return ("turn", [1 - self.source[0]])
        if phase == "counter":
            return ("reaction", [1 - self.active])
        if phase == "over":
            if len(self.losers) == 2:
                return ("over", {"scores": [1, 1], "winners": [0, 1], "summary": "a draw"})
            loser = self.losers[0]
            scores = [0 if seat == loser else 1 for seat in SEATS]
            return ("over", {"scores": scores, "winners": [1 - loser], "summary": f"seat {loser} lost"})
        raise AssertionError(f"no step in phase {phase}")

    def actors(self):
        """The seats that may act now (a Simultaneous step's included)."""
        step = self.step()
        return step[1] if step[0] in ("simultaneous", "turn", "reaction") else []

    # --- §D4.4: what the state implies ----------------------------------------------------------

    def tile(self, seat, p):
        return TILES[self.tiles[seat][p]]

    def destroyed(self, seat, p):
        return self.damage[seat][p] >= self.tile(seat, p)["structure"]

    def crew_in(self, seat, p):
        return [i for i in range(5 * seat, 5 * seat + 5)
                if self.crew[i][3] and self.crew[i][0] == seat and self.crew[i][1] == p]

    def manned(self, seat, p):
        return bool(self.crew_in(seat, p))

    def blocked(self, seat, p):
        enemy = 1 - seat
        return any(self.crew[i][3] and self.crew[i][0] == seat and self.crew[i][1] == p
                   for i in range(5 * enemy, 5 * enemy + 5))

    def working(self, seat):
        return [p for p in range(10) if self.manned(seat, p) and not self.destroyed(seat, p)]

    def bonus(self, seat, kind, where=None):
        total = 0
        for p in self.working(seat):
            if self.blocked(seat, p):
                continue
            for effect in effects_of(self.tiles[seat][p]):
                if effect["kind"] == kind and (where is None or effect["location"] in (where, "all")):
                    total += effect["value"]
        return total

    def speed(self, seat):
        engines = sum(1 for p in self.working(seat) if self.tile(seat, p)["type"] in ("engine", "control"))
        return engines + self.bonus(seat, "speed-bonus")

    def armour(self, seat, where):
        plates = sum(1 for p in self.working(seat)
                     if self.tile(seat, p)["type"] == "armored" and p in location(seat, where))
        return plates + self.bonus(seat, "armor-bonus", where)

    def hittable(self, seat, where):
        return [p for p in location(seat, where) if p != CONTROL and not self.destroyed(seat, p)]

    def oxygen_room(self, seat, p):
        tile = self.tile(seat, p)
        return max(0, min(tile["oxygen"], tile["structure"] - self.damage[seat][p]) - self.oxygen[seat][p])

    def steps(self, seat, p):
        return [q for q in CLOSER[p] if not self.destroyed(seat, q)]

    def can_step(self, seat, p):
        return p == CONTROL or bool(self.steps(seat, p))

    def seen(self, seat):
        """Where the enemy is seen from `seat` (§D4.1)."""
        own, enemy = self.sectors[seat], self.sectors[1 - seat]
        if enemy > own:
            return "front"
        if enemy < own:
            return "behind"
        return "port" if self.upper != seat else "starboard"

    def range(self):
        return "close" if abs(self.sectors[0] - self.sectors[1]) <= 1 else "distant"

    def hits(self, seat, effect):
        return FACING[self.seen(seat)] if effect["hits"] == "facing" else effect["hits"]

    def reaches(self, seat, effect):
        return (effect["range"] in ("any", self.range())) and (effect["position"] in ("any", self.seen(seat)))

    def targets(self, seat, effect, doubled=False):
        """§D4.4's targets as the wire actions that name them; `[None]` for an attack's one
        target (the location hit), `[]` for none."""
        kind, enemy = effect["kind"], 1 - seat
        if kind in AIMED and not self.reaches(seat, effect):
            return []
        if kind in ("attack", "oxygen-attack"):
            return [None]
        if kind in ("crew-attack", "repel"):
            sub = enemy if kind == "crew-attack" else seat
            inside = location(enemy, self.hits(seat, effect)) if kind == "crew-attack" else range(10)
            return [["crew", i] for i in range(5 * enemy, 5 * enemy + 5)
                    if self.crew[i][3] and self.crew[i][0] == sub and self.crew[i][1] in inside
                    and not (effect["crew"] == "sailor" and i % 5 == 0)]
        if kind == "board":
            return [["tile", p] for p in location(enemy, self.hits(seat, effect))
                    if p != CONTROL and not self.destroyed(enemy, p)]
        if kind == "repair":
            return [["tile", p] for p in range(10)
                    if p != CONTROL and 0 < self.damage[seat][p] < self.tile(seat, p)["structure"]]
        if kind == "refill":
            if self.taken[seat] == 0:
                return []
            return [["tile", p] for p in range(10) if p != CONTROL and self.oxygen_room(seat, p) > 0]
        if kind == "move-crew":
            return [["relocate", i, q] for i in range(5 * seat, 5 * seat + 5)
                    if self.crew[i][3] and self.crew[i][0] == seat
                    for q in range(10) if q != self.crew[i][1] and not self.destroyed(seat, q)]
        if kind == "move-sub":
            reach = effect["value"] * (2 if doubled else 1)
            drives = []
            for m in (seat, enemy):
                for by in range(-min(reach, 4), min(reach, 4) + 1):
                    if by == 0 or not 1 <= self.sectors[m] + by <= 5:
                        continue
                    if self.sectors[m] + by == self.sectors[1 - m]:
                        drives += [["drive", m, by, seat], ["drive", m, by, enemy]]
                    else:
                        drives.append(["drive", m, by, None])
            return drives
        return []  # standby effects are never triggered

    def has_target(self, seat, effect):
        return bool(self.targets(seat, effect))

    def lost(self, seat):
        return (self.destroyed(seat, CONTROL) or not any(self.crew[i][3] for i in range(5 * seat, 5 * seat + 5))
                or sum(self.oxygen[seat]) == 0)

    def first_turn(self):
        return self.active >= 0 and self.turns_taken[self.active] <= 1

    def reactions(self):
        """The other seat's reactions (p, k) now (§D4.5, counter windows)."""
        r = 1 - self.active
        if self.first_turn():
            return []
        found = []
        for p in range(10):
            if p in self.reacted or self.destroyed(r, p) or not self.manned(r, p) or self.blocked(r, p):
                continue
            for k, effect in enumerate(effects_of(self.tiles[r][p])):
                if effect["button"] == "counter" and [r, p, k] not in self.used and self.has_target(r, effect):
                    found.append((p, k))
        return found

    # --- legality -------------------------------------------------------------------------------

    def illegal(self, seat, action):
        """Why the well-formed `action` by `seat` is not allowed now (§D4.3–§D4.5), or None."""
        if seat not in self.actors():
            return "it is not this seat's move"
        kind = action[0]
        wanted = PHASE_KINDS.get(self.phase, ())
        if self.phase == "aim":
            wanted = (AIM_KINDS[self.effect()["kind"]],)
        if kind not in wanted:
            return f"{kind} is not a move of phase {self.phase}"
        if self.phase == "action" and self.captain == 2 and not self._activates_captain(seat, action):
            return "the captain's activation must follow his free move"
        return getattr(self, "_illegal_" + kind, lambda s, a: None)(seat, action)

    def _illegal_build(self, seat, action):
        names = action[1]
        if len(names) != 10 or len(set(names)) != 10 or any(n not in TILES for n in names):
            return "a build is 10 distinct tiles"
        if sum(1 for n in names if TILES[n]["type"] == "control") != 1:
            return "a build has exactly one control room"
        return None

    def _illegal_swap(self, seat, action):
        return "the control room stays at 7" if CONTROL in action[1:] else None

    def _illegal_pick(self, seat, action):
        name = action[1]
        if name not in self.pool:
            return "not in the pool"
        mine = self.tiles[seat]
        holds = any(TILES[n]["type"] == "control" for n in mine)
        if TILES[name]["type"] == "control":
            needs = 0 if any(TILES[n]["type"] == "control" for n in self.tiles[1 - seat]) else 1
            left = sum(1 for n in self.pool if TILES[n]["type"] == "control") - 1
            return None if not holds and left >= needs else "no control room for this picker"
        return None if holds or len(mine) < 9 else "the last pick must be a control room"

    def _illegal_breathe(self, seat, action):
        return None if self.oxygen[seat][action[1]] > 0 else "no oxygen there"

    def _illegal_maneuver(self, seat, action):
        _, own, enemy, upper = action
        if self.maneuvered:
            return "maneuvered already"
        mine, theirs = self.sectors[seat] + own, self.sectors[1 - seat] + enemy
        if not (1 <= mine <= 5 and 1 <= theirs <= 5):
            return "out of the battle area"
        if (upper is not None) != (mine == theirs):
            return "upper is a seat exactly when both end in one sector"
        if own == 0 and enemy == 0:
            if self.sectors[0] != self.sectors[1] or upper == self.upper:
                return "swinging round needs one sector and the other side"
            cost = 2
        else:
            cost = abs(own) + abs(enemy)
        return None if cost <= self.speed(seat) else "too fast"

    def _movable(self, seat, i, to):
        sub, at, _ready, alive = self.crew[i]
        return i // 5 == seat and alive and to in ADJACENT[at] and not self.destroyed(sub, to)

    def _illegal_move(self, seat, action):
        _, i, to = action
        return None if self._movable(seat, i, to) and self.crew[i][2] else "that crew member can't move there"

    def _activates_captain(self, seat, action):
        return (action[0] == "move" and action[1] == 5 * seat) or (action[0] == "trigger" and 5 * seat in action[3])

    def _illegal_captain(self, seat, action):
        if self.captain not in (0, 1):
            return "no free move for the captain now"
        return None if self._movable(seat, 5 * seat, action[1]) else "the captain can't move there"

    def _illegal_trigger(self, seat, action):
        _, p, k, crews = action
        if self.first_turn():
            return "a first turn"
        if self.destroyed(seat, p) or self.blocked(seat, p):
            return "destroyed or blocked"
        effects = effects_of(self.tiles[seat][p])
        if k >= len(effects) or effects[k]["button"] == "standby":
            return "no such effect to trigger"
        effect = effects[k]
        for i in crews:
            sub, at, ready, alive = self.crew[i]
            if not (i // 5 == seat and alive and ready and sub == seat and at == p):
                return "a crew member listed can't trigger"
        if len(crews) == 2 and effect.get("alert") != "two-keys":
            return "two crew only for two keys"
        if [seat, p, k] in self.used:
            return "single-use, used"
        if not self.can_step(seat, p):
            return "can't step toward the control room"
        return None if self.has_target(seat, effect) else "no target"

    def _illegal_step(self, seat, action):
        _, c, q = action
        return None if c == self.crews[self.stepping] and q in self.steps(seat, self.source[1]) else "not that step"

    def _aimed_at(self, action):
        source = self.source
        return action in self.targets(source[0], self.effect(), source[3])

    def _illegal_tile(self, seat, action):
        if self.phase == "scavenge":
            return None if action[1] in self.fallback() else "no oxygen to take there"
        return None if self._aimed_at(action) else "not a target"

    def _illegal_crew(self, seat, action):
        return None if self._aimed_at(action) else "not a target"

    _illegal_relocate = _illegal_crew
    _illegal_drive = _illegal_crew

    def _illegal_absorb(self, seat, action):
        return "damage has been assigned" if self.assigned else None

    def _illegal_assign(self, seat, action):
        d = 1 - self.source[0]
        allowed = self.hittable(d, self.hit) if self.phase == "defend" else self.drainable()
        return None if action[1] in allowed else "not there"

    def _illegal_react(self, seat, action):
        return None if (action[1], action[2]) in self.reactions() else "no such reaction"

    def legal_actions(self, seat):
        """Every well-formed action `seat` may take now (not for a custom build)."""
        if seat not in self.actors() or self.phase == "build":
            return []
        kinds = PHASE_KINDS.get(self.phase, ()) if self.phase != "aim" else (AIM_KINDS[self.effect()["kind"]],)
        candidates = []
        for kind in kinds:
            if kind == "pick":
                candidates += [["pick", n] for n in NAMES]
            elif kind == "swap":
                candidates += [["swap", a, b] for a, b in combinations(range(10), 2)]
            elif kind in ("breathe", "captain", "tile", "crew", "assign"):
                candidates += [[kind, v] for v in range(10)]
            elif kind in ("move", "step", "relocate"):
                candidates += [[kind, a, b] for a in range(10) for b in range(10)]
            elif kind == "maneuver":
                candidates += [["maneuver", a, b, u] for a in range(-4, 5) for b in range(-4, 5) for u in (0, 1, None)]
            elif kind == "drive":
                candidates += [["drive", m, b, u] for m in SEATS for b in range(-4, 5) if b for u in (0, 1, None)]
            elif kind == "trigger":
                crews = [[i] for i in range(10)] + [list(pair) for pair in combinations(range(10), 2)]
                candidates += [["trigger", p, k, c] for p in range(10) for k in (0, 1) for c in crews]
            elif kind == "react":
                candidates += [["react", p, k] for p in range(10) for k in (0, 1)]
            else:
                candidates.append([kind])
        return [a for a in candidates if self.illegal(seat, a) is None]

    def check(self, seat, action):
        """Raises RuleError unless `action` is well formed and `seat` may take it now."""
        if not well_formed(action):
            raise RuleError("malformed", f"not a Steam Torpedo action: {action!r}", seat)
        reason = self.illegal(seat, action)
        if reason is not None:
            raise RuleError("illegal", f"seat {seat}: {action!r}: {reason}", seat)

    # --- events: setup (§D4.3) -------------------------------------------------------------------

    def _man(self):
        for seat in SEATS:
            self.oxygen[seat] = [TILES[name]["oxygen"] for name in self.tiles[seat]]

    def chance(self, seed):
        r = deck.Stream(seed)
        if self.phase == "deal":
            for seat in SEATS:
                control = CONTROLS[r.below(3)]
                others = r.shuffle(OTHERS)  # a shuffled copy
                self.tiles[seat] = sorted([control] + others[:9])
            self.phase = "placement"
        elif self.phase == "draft-order":
            self.drafter = r.below(2)
            self.phase = "draft"
        elif self.phase == "placement":
            for seat in SEATS:
                order = r.shuffle(self.tiles[seat])
                i = next(j for j, name in enumerate(order) if TILES[name]["type"] == "control")
                order[i], order[CONTROL] = order[CONTROL], order[i]
                self.tiles[seat] = order
            self.phase = "swap"
        elif self.phase == "first":
            self.first = r.below(2)
            self._start_turn(self.first)
        else:
            raise AssertionError(f"no chance step in phase {self.phase}")

    def simultaneous(self, pairs):
        for seat, action in pairs:
            self.check(seat, action)
        if self.phase == "build":
            for seat, action in pairs:
                self.tiles[seat] = list(action[1])
            self.phase = "placement"
            return
        for seat, action in pairs:
            if action[0] == "swap":
                a, b = action[1], action[2]
                self.tiles[seat][a], self.tiles[seat][b] = self.tiles[seat][b], self.tiles[seat][a]
        self._man()
        self.phase = "first"

    def cards_done(self, values):
        raise AssertionError("Steam Torpedo has no card operations")

    # --- events: play (§D4.5) ---------------------------------------------------------------------

    def act(self, seat, action):
        self.check(seat, action)
        if self.phase == "action":
            # The captain's free move status (§D4.5: 0 free, 1 just activated, 2 owes his
            # activation, 3 moved, 4 missed).
            if action[0] == "captain":
                self.captain = 2 if self.captain == 0 else 3
            elif self._activates_captain(seat, action):
                self.captain = 3 if self.captain == 2 else 1
            elif self.captain == 1:
                self.captain = 4
        getattr(self, "_" + action[0])(seat, action)

    def _pick(self, seat, action):
        self.pool.remove(action[1])
        self.tiles[seat].append(action[1])
        self.picks += 1
        if self.picks == 20:
            self.tiles = [sorted(t) for t in self.tiles]
            self.phase = "placement"

    def _start_turn(self, seat):
        self.turn += 1
        self.active = seat
        self.turns_taken[seat] += 1
        self.maneuvered = False
        self.captain = 0
        self.used, self.reacted = [], []
        self.phase = "recovery"
        holding = [p for p in range(10) if self.oxygen[seat][p] > 0]
        if len(holding) == 1:
            self._breath(seat, holding[0])

    def _breath(self, seat, p):
        self.oxygen[seat][p] -= 1
        if self._end_checked():
            return
        for i in range(5 * seat, 5 * seat + 5):
            if self.crew[i][3]:
                self.crew[i][2] = True
        self.phase = "action"

    def _breathe(self, seat, action):
        self._breath(seat, action[1])

    def _maneuver(self, seat, action):
        _, own, enemy, upper = action
        self.sectors[seat] += own
        self.sectors[1 - seat] += enemy
        if upper is not None:
            self.upper = upper
        self.maneuvered = True
        self._window([-1, -1])

    def _move(self, seat, action):
        _, i, to = action
        self.crew[i][1] = to
        self.crew[i][2] = False

    def _captain(self, seat, action):
        self.crew[5 * seat][1] = action[1]

    def _trigger(self, seat, action):
        _, p, k, crews = action
        if effects_of(self.tiles[seat][p])[k].get("alert") == "single":
            self.used = sorted(self.used + [[seat, p, k]])
        self.source = [seat, p, k, len(crews) == 2, False]
        self.crews = list(crews)
        self.stepping = 0
        self._stepping()

    def _end(self, seat, action):
        self._start_turn(1 - seat)

    def _step(self, seat, action):
        self._moved(action[1], action[2])
        self._stepping()

    def _moved(self, c, q):
        self.crew[c][1] = q
        self.crew[c][2] = False
        self.stepping += 1

    def _stepping(self):
        seat, p = self.source[0], self.source[1]
        while self.stepping < len(self.crews):
            c = self.crews[self.stepping]
            if p == CONTROL:
                self._moved(c, CONTROL)
                continue
            steps = self.steps(seat, p)
            if len(steps) != 1:
                self.phase = "step"
                return
            self._moved(c, steps[0])
        self._resolve()

    def effect(self):
        seat, p, k = self.source[:3]
        return effects_of(self.tiles[seat][p])[k]

    def _resolve(self):
        seat, _p, _k, doubled, _reaction = self.source
        effect, d = self.effect(), 1 - self.source[0]
        if effect["kind"] in ("attack", "oxygen-attack"):
            self.hit = self.hits(seat, effect)
            total = effect["value"] + self.bonus(seat, "attack-bonus")
            self.amount = max(0, total - self.armour(d, self.hit)) * (2 if doubled else 1)
            self.assigned = False
            if self.amount == 0:
                self._done()
            elif effect["kind"] == "attack":
                self._defence()
            else:
                self._drain_on()
            return
        self.phase = "aim"
        targets = self.targets(seat, effect, doubled)
        if len(targets) == 1:
            self._apply_target(targets[0])

    def _crew(self, seat, action):
        self._apply_target(action)

    def _relocate(self, seat, action):
        self._apply_target(action)

    def _drive(self, seat, action):
        self._apply_target(action)

    def _tile(self, seat, action):
        if self.phase == "scavenge":
            self._fallback_token(action[1])
        else:
            self._apply_target(action)

    def _apply_target(self, target):
        seat, _p, _k, doubled, _reaction = self.source
        effect, x = self.effect(), 2 if self.source[3] else 1
        kind = effect["kind"]
        if kind in ("crew-attack", "repel"):
            self.crew[target[1]] = [-1, -1, False, False]
            if self._end_checked():
                return
        elif kind == "board":
            self.crew[self.crews[0]][0] = 1 - seat
            self.crew[self.crews[0]][1] = target[1]
        elif kind == "repair":
            q = target[1]
            self.damage[seat][q] -= min(effect["value"] * x, self.damage[seat][q])
        elif kind == "refill":
            q = target[1]
            added = min(effect["value"] * x, self.oxygen_room(seat, q), self.taken[seat])
            self.oxygen[seat][q] += added
            self.taken[seat] -= added
        elif kind == "move-crew":
            self.crew[target[1]][1] = target[2]
        elif kind == "move-sub":
            _, m, by, upper = target
            self.sectors[m] += by
            if upper is not None:
                self.upper = upper
        self._done()

    # --- the defence, the drain --------------------------------------------------------------------

    def _defence(self):
        d = 1 - self.source[0]
        hittable = self.hittable(d, self.hit)
        if not hittable:
            self._absorbed()
        elif self.assigned and len(hittable) == 1:
            self._assigned(hittable[0])
        else:
            self.phase = "defend"

    def _absorb(self, seat, action):
        self._absorbed()

    def _assign(self, seat, action):
        if self.phase == "defend":
            self._assigned(action[1])
        else:
            self._drained(action[1])

    def _absorbed(self):
        self.amount = 0
        self._damage(1 - self.source[0], CONTROL, 1)
        if not self._end_checked():
            self._done()

    def _assigned(self, q):
        d = 1 - self.source[0]
        n = min(self.amount, self.tile(d, q)["structure"] - self.damage[d][q])
        self._damage(d, q, n)
        self.amount -= n
        self.assigned = True
        if self._end_checked():
            return
        if self.amount > 0:
            self._defence()
        else:
            self._done()

    def _damage(self, d, q, n):
        self.damage[d][q] += n
        left = self.tile(d, q)["structure"] - self.damage[d][q]
        if self.oxygen[d][q] > left:
            self.taken[d] += self.oxygen[d][q] - left
            self.oxygen[d][q] = left
        if left == 0:
            for i in range(10):
                if self.crew[i][3] and self.crew[i][0] == d and self.crew[i][1] == q:
                    self.crew[i] = [-1, -1, False, False]

    def drainable(self):
        d = 1 - self.source[0]
        return [q for q in location(d, self.hit) if q != CONTROL and self.oxygen[d][q] > 0]

    def fallback(self):
        d = 1 - self.source[0]
        return [q for q in range(10) if q != CONTROL and self.oxygen[d][q] > 0]

    def _ask(self, options, phase, answer):
        """Several options: `phase` asks for one; exactly one: it is taken at once (§D4.5). False
        when there is none."""
        if len(options) > 1:
            self.phase = phase
        elif options:
            answer(options[0])
        return bool(options)

    def _drain_on(self):
        if self.amount == 0:
            self._done()
        elif not self._ask(self.drainable(), "drain", self._drained):
            self.amount = 0  # the fallback (I19)
            if not self._ask(self.fallback(), "scavenge", self._fallback_token):
                self._done()

    def _drained(self, q):
        d = 1 - self.source[0]
        n = min(self.amount, self.oxygen[d][q])
        self.oxygen[d][q] -= n
        self.taken[d] += n
        self.amount -= n
        if not self._end_checked():
            self._drain_on()

    def _fallback_token(self, q):
        d = 1 - self.source[0]
        self.oxygen[d][q] -= 1
        self.taken[d] += 1
        if not self._end_checked():
            self._done()

    # --- an effect done, counter windows, the end ---------------------------------------------------

    def _done(self):
        seat, p, k, _doubled, reaction = self.source
        self.source, self.crews = None, []
        self.stepping = self.amount = 0
        self.hit, self.assigned = "", False
        if reaction:
            for i in self.crew_in(seat, p):
                self.crew[i][1] = CONTROL
                self.crew[i][2] = False
            if self.reactions():
                self.phase = "counter"
            else:
                self._close()
            return
        self._window([p, k])

    def _window(self, after):
        self.after = after
        self.reacted = []
        self.phase = "counter" if self.reactions() else "action"

    def _close(self):
        self.reacted = []
        self.after = [-1, -1]
        self.phase = "action"

    def _react(self, seat, action):
        _, p, k = action
        if effects_of(self.tiles[seat][p])[k].get("alert") == "single":
            self.used = sorted(self.used + [[seat, p, k]])
        self.reacted = sorted(self.reacted + [p])
        self.source = [seat, p, k, False, True]
        self.crews = []
        self._resolve()

    def _pass(self, seat, action):
        self._close()

    def _end_checked(self):
        """§D4.6: True (and the game over) when a seat has lost."""
        losers = [seat for seat in SEATS if self.lost(seat)]
        if not losers:
            return False
        self.losers = losers
        self.source = None
        self.phase = "over"
        return True
