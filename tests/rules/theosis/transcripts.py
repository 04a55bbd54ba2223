"""Deterministic table players that write whole Theosis games as event transcripts.

``python tests/rules/theosis/transcripts.py`` (re)writes the golden transcripts in
``golden/`` and ``examples/theosis-pvp-12.txt``. Each decision is an ordinary event in
notation, chosen by simple fixed policies (attack the weakest enemy with the strongest
card, defend with the best defence card); dice faces come from fixed sequences. The tests
never run this generator: they replay the files it wrote and compare the recorded digest.
"""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

from arena_table.rules import apply as table_apply, digest, find_game, new_table
from arena_table.rules.kernel.events import DiceRolled, Event, GameStarted
from arena_table.rules.games.theosis import catalog
from arena_table.rules.games.theosis.events import (Allocate, ArtifactRevealed, Attack, Bid, Bless, CastRitual, Draft,
                                              Equip, Gem, MonsterAction, Move, Next, Pass, Place, SetRanking,
                                              Stamina)
from arena_table.rules.games.theosis.mats import play_card, power_values, tokens_on
from arena_table.rules.games.theosis.preparation import next_placer
from arena_table.rules.games.theosis.ranking import allocation_order
from arena_table.rules.games.theosis.state import CENTRE

HERE = Path(__file__).parent
ROOT = HERE.parents[2]

ITEMS = {
    "iron-sword": {"name": "Iron sword", "kind": "weapon", "damage": 2, "hands": 1},
    "war-axe": {"name": "War axe", "kind": "weapon", "damage": 3, "hands": 2},
    "oak-staff": {"name": "Oak staff", "kind": "weapon", "damage": 1, "hands": 2, "damage_type": None},
    "chain-mail": {"name": "Chain mail", "kind": "armor", "metal": True, "protection": ["physical"]},
    "leather-armor": {"name": "Leather armor", "kind": "armor", "resistance": ["physical"]},
    "round-shield": {"name": "Round shield", "kind": "shield", "resistance": ["fire", "ice"]},
    "sun-blade": {"name": "Sun blade", "kind": "weapon", "artifact": True, "attack": 1, "damage": 3, "hands": 1,
                  "slaying": True},
    "aegis-plate": {"name": "Aegis plate", "kind": "armor", "artifact": True, "defense": 1, "metal": True,
                    "resistance": ["physical", "acid"]},
}
"""Item tokens entered by the table for these games (the book prints none but its examples')."""
ENTERED = {"alignments": {"norn": "warmonger", "lug": "guardian", "garav": "vengeful", "sauth": "vengeful",
                          "gurth": "guardian", "edhel": "merciful"},
           "speeds": {h: 4 for h in catalog.heroes()}, "items": ITEMS}
"""Values read off the components for these transcripts (ENTER markers in data/)."""
ENTRY = [(4, -4), (4, 0), (0, 4), (-4, 4), (-4, 0), (0, -4)]
"""One starting triad per player, walking round the Arena (axial coordinates)."""


class Writer:
    """Applies each chosen event to a live table state and keeps its notation."""

    def __init__(self, start: GameStarted):
        self.game = find_game("theosis")
        self.ts = table_apply(new_table(), start, 1)
        self.lines = [str(start)]
        self.faces = itertools.cycle([3, 1, 4, 2, 4, 1, 2, 3, 2, 4])
        self.d6 = itertools.cycle([2, 5, 3, 6, 1, 4])
        self.defence = itertools.cycle([1, 2, 1, 3, 2])
        self.monster_attack = itertools.cycle([2, 1, 3, 1, 2])
        self.thresholds = itertools.cycle([2, 3, 2, 2, 4])

    @property
    def s(self):
        return self.ts.state

    def push(self, ev: Event) -> None:
        self.ts = table_apply(self.ts, ev)
        self.lines.append(str(ev))

    def text(self) -> str:
        out = "\n".join(self.lines)
        o = self.game.outcome(self.s)
        outcome = json.dumps({"winners": list(o.winners), "reason": o.reason, "draw": o.draw}) if o else "null"
        return f"{out}\n# outcome: {outcome}\n# digest: {digest(self.ts)}\n"


def best(state, player: str, index: int, exclude=()) -> str:
    hand = [c for c in state.player(player).hand if c not in exclude]
    return max(hand, key=lambda c: (power_values(state, c)[index], c))


def prepare(w: Writer) -> None:
    """Six Hierapolis turns: golden quests first, then the other locations in turn."""
    spots = itertools.cycle(["mercenary-camp", "tavern", "cathedral", "market", "thieves-guild", "mage-tower",
                             "warmonger", "merciful"])
    rituals = itertools.cycle(["banner-of-victory", "purification", "fortifications", "consecration"])
    arts = itertools.cycle(["sun-blade", "aegis-plate", "artifact-sword"])
    market = itertools.cycle(["iron-sword", "leather-armor", "round-shield", "chain-mail", "war-axe"])
    while w.s.phase == "preparation":
        s = w.s
        if s.pending:
            w.push(DiceRolled(die="d6" if s.pending.kind == "thieves-d6" else "d4",
                              faces=(next(w.d6) if s.pending.kind == "thieves-d6" else next(w.faces),)))
            continue
        pid = next_placer(s)
        if pid is None:
            if not s.artifact and s.prep_turn % 2 == 1:
                w.push(ArtifactRevealed(artifact=next(arts)))
                for i, p in enumerate(s.players):
                    amount = min(w.s.player(p.id).gold, (i * 2 + s.prep_turn) % 5)
                    hero = next(h for h in p.heroes if w.s.heroes[h].alive)
                    if amount and not _fits(w.s, hero, w.s.artifact):
                        amount = 0
                    w.push(Bid(player=p.id, amount=amount, hero=hero))
                continue
            w.push(Next())
            continue
        p = s.player(pid)
        hero = next(h for h in p.heroes if s.heroes[h].alive and not s.heroes[h].placed)
        enemy = min((h for h, x in s.heroes.items() if x.alive and s.team_of(h) != p.team),
                    key=lambda h: (-s.heroes[h].health, h), default="")
        first = not any(s.heroes[h].placed for h in p.heroes)
        if first:
            quests = [q for q in catalog.ALIGNMENTS if not (s.monsters and q == "deceitful")]
            k = [x.id for x in s.players].index(pid) + s.prep_turn
            quest = next(q for q in quests[k % len(quests):] + quests[:k % len(quests)] if q not in s.golden)
            ev = Place(hero=hero, location=quest, golden=True,
                       target=enemy if quest == "warmonger" else (
                           max((x for x in s.players if x.id != pid), key=lambda x: x.gold).id
                           if quest == "deceitful" else ""),
                       mana=(hero, hero) if quest == "merciful" else ())
        else:
            loc = next(spots)
            if s.monsters and loc == "thieves-guild":
                loc = "tavern"
            kw = {}
            if loc == "cathedral":
                kw = {"mana": tuple(h for h in p.heroes if s.heroes[h].alive)[:2], "heal": hero}
            elif loc == "market":
                item = next(market)
                if _fits(s, hero, item):
                    kw = {"item": item}
            elif loc == "thieves-guild":
                kw = {"target": enemy}
            elif loc == "mage-tower":
                if p.rituals:
                    loc = "tavern"
                else:
                    kw = {"ritual": next(rituals), "ritual_turn": 2 + len(w.lines) % 6}
            elif loc == "warmonger" or loc == "merciful":
                kw = {}
            ev = Place(hero=hero, location=loc, **kw)
        w.push(ev)


def _fits(state, hero, item) -> bool:
    from arena_table.rules.games.theosis.mats import equip
    from arena_table.rules.kernel.errors import Refused
    try:
        equip(state, hero, item)
        return True
    except Refused:
        return False


def fast_prepare(w: Writer) -> None:
    """Fast Action Preparation: each player drafts one card of each value pair, one gem a hero."""
    taken: set[str] = set()
    for p in w.s.players:
        for values in catalog.VALUE_ORDER:
            card = next(c for c, rec in catalog.powers().items() if c not in taken and not rec.get("expansion")
                        and rec["values"] and tuple(rec["values"]) == values)
            taken.add(card)
            w.push(Draft(player=p.id, power=card))
        for h in p.heroes:
            w.push(Gem(hero=h))
    for h, item in zip(w.s.heroes, itertools.cycle(["iron-sword", "sun-blade", "chain-mail", "war-axe"])):
        if _fits(w.s, h, item):
            w.push(Equip(hero=h, item=item))
    w.push(Next())


def rank(w: Writer) -> None:
    if w.s.monsters:
        w.push(SetRanking(order=tuple(sorted(w.s.heroes, key=lambda h: (w.s.heroes[h].health * -1, h)))))
        return
    for pid in allocation_order(w.s):
        p = w.s.player(pid)
        alive = [h for h in p.heroes if w.s.heroes[h].alive]
        gold = {h: 0 for h in alive}
        for i in range(p.gold):
            gold[alive[i % len(alive)]] += 1
        w.push(Allocate(player=pid, gold=gold))


def enter(w: Writer, cells: dict | None = None) -> None:
    """Heroes enter on their player's triad, lowest Ranking first (errata p.14); monsters at the centre.

    ``cells`` places each hero on a hex of its own (the triads' geometry is left to the table)."""
    ids = [p.id for p in w.s.players]
    for h in reversed(w.s.ranking):
        if not w.s.heroes[h].alive:
            continue
        if cells:
            w.push(Move(hero=h, cell=cells[h]))
            continue
        p = w.s.heroes[h].player
        q, r = ENTRY[ids.index(p) % 6]
        k = w.s.player(p).heroes.index(h)
        w.push(Move(hero=h, cell=(q - (k if q > 0 else -k) // 2, r + k % 2 * (1 if r <= 0 else -1))))


def fight(w: Writer, *, centre_at_end: bool = True, limit: int = 2000) -> None:
    steps = 0
    while w.s.phase in ("combat", "monsters") and steps < limit:
        steps += 1
        s = w.s
        p = s.pending
        if p and p.kind == "ritual":
            pid = p.data["due"][0]
            pl = s.player(pid)
            ritual = next(r for r, t in pl.rituals if t == s.turn and r not in pl.cast)
            cells = {"banner-of-victory": ((2, -1), (2, -2), (3, -2)), "fortifications": ((-2, 1), (-2, 2), (-3, 2)),
                     "guardian-angel": ((1, 1), (1, 2), (2, 1)), "wall-of-fire": ((-1, -1), (-1, -2), (0, -2))}
            w.push(CastRitual(player=pid, cells=cells.get(ritual, ()) if catalog.rituals()[ritual].get("token") else (),
                              mana=tuple(h for h in pl.heroes if s.heroes[h].alive)[:2]
                              if ritual == "mana-surge" else ()))
            continue
        if p and p.kind in ("defence-d4", "monster-d4"):
            seq = w.defence if p.kind == "defence-d4" else w.monster_attack
            w.push(DiceRolled(die="d4", faces=(next(seq),)))
            continue
        if p and p.kind == "skull":
            w.push(DiceRolled(die="skull", faces=(next(w.d6),)))
            continue
        if p and p.kind == "monster-targets":
            w.push(_monster_targets(s))
            continue
        hid = s.acting_hero()
        h = s.heroes[hid]
        me = s.player(h.player)
        if centre_at_end and s.turn >= 7 and h.cell and h.cell != CENTRE and s.moved == 0:
            cell = _towards_centre(s, hid)
            if cell != h.cell:
                w.push(Move(hero=hid, cell=cell))
                continue
        card = best(s, me.id, 0)
        foes = [m.id for m in s.monsters if m.alive] if (s.monsters and not s.competitive) else \
            sorted((x for x, y in s.heroes.items() if y.alive and s.team_of(x) != me.team and not y.stealth),
                   key=lambda x: (s.heroes[x].health, s.rank_of(x)))
        blessing = next((c for c in me.hand if catalog.powers()[c]["type"] == "blessing"), None)
        allies = [x for x, y in s.heroes.items() if x != hid and y.alive and s.team_of(x) == me.team]
        ally = hid if s.config.self_bless else (allies[-1] if allies else "")  # never itself (FAQ) by default
        if blessing and ally and s.turn % 3 == 0 and blessing not in s.conditions:
            w.push(Bless(hero=hid, power=blessing, target=ally))
            continue
        if not foes or "pacify" in tokens_on(s, hid):
            w.push(Pass(hero=hid, power=card))
            continue
        target = foes[0]
        if target in s.heroes:
            near = [f for f in foes if _in_reach(s, hid, f)]  # attack range, p.14
            if not near and s.moved == 0:
                cell = _towards(s, hid, s.heroes[target].cell)
                if cell != h.cell:
                    w.push(Move(hero=hid, cell=cell))
                    continue
            if not near:
                w.push(Pass(hero=hid, power=card))
                continue
            target = near[0]
            defend = best(s, s.heroes[target].player, 1)
            w.push(Attack(hero=hid, target=(target,), power=card, defend=(defend,)))
        else:
            if s.monster(target).top is None:
                w.push(Stamina(monster=target, threshold=next(w.thresholds),
                               resist=("physical",) if s.turn % 4 == 0 else ()))
            w.push(Attack(hero=hid, target=(target,), power=card))


def _towards_centre(s, hid: str) -> tuple[int, int]:
    """Walk up to the hero's speed, one free hex at a time, each step closer to the centre."""
    return _towards(s, hid, CENTRE)


def _towards(s, hid: str, goal: tuple[int, int], stop: int = 0) -> tuple[int, int]:
    """Walk up to the hero's speed, one free hex at a time, each step closer to ``goal``."""
    from arena_table.rules.games.theosis.arena import occupied
    from arena_table.rules.games.theosis.mats import speed_of
    from arena_table.rules.kernel.geometry.hexes import distance as hex_distance, neighbours
    cell, taken = s.heroes[hid].cell, occupied(s)
    for _ in range(speed_of(s, hid) or 0):
        steps = neighbours(cell)
        closer = [c for c in steps if c not in taken and hex_distance(c, goal) < hex_distance(cell, goal)]
        if not closer:
            break
        cell = min(closer, key=lambda c: (hex_distance(c, goal), c))
    return cell


def _in_reach(s, hid: str, target: str) -> bool:
    """The target stands within the attacker's range (p.14 Movement and Range)."""
    from arena_table.rules.kernel.geometry.hexes import distance as hex_distance
    from arena_table.rules.games.theosis.reach import hero_reach
    a, b = s.heroes[hid].cell, s.heroes[target].cell
    return a is None or b is None or hex_distance(a, b) <= hero_reach(s, hid)


def _monster_targets(s) -> MonsterAction:
    from arena_table.rules.games.theosis.monsters import actions_of
    m = s.monster(s.pending.actor)
    action = actions_of(m.kind, s.pending.data["table"])[s.pending.data["row"]]
    alive = sorted((h for h, x in s.heroes.items() if x.alive), key=lambda h: (s.heroes[h].health, h))
    targets: list[str] = []
    strikes: list[str] = []
    for k, atk in enumerate(action["attacks"]):
        if atk.get("area") == "all":
            hit = [h for h in s.ranking if s.heroes[h].alive and not (s.turn == 1 and s.heroes[h].on_start)]
        else:
            hit = [alive[min(k, len(alive) - 1)]]
            targets.append(hit[0])
        strikes += hit
    scratch, defend = s, []
    for h in strikes:
        card = best(scratch, scratch.heroes[h].player, 1)
        scratch = play_card(scratch, scratch.heroes[h].player, card)
        defend.append(card)
    return MonsterAction(monster=m.id, target=tuple(targets), defend=tuple(defend))


def game(options: dict, *, fast: bool = False, centre_at_end: bool = True, cells: dict | None = None) -> Writer:
    w = Writer(GameStarted(game="theosis", options={**ENTERED, **options, **({"fast": True} if fast else {})}))
    fast_prepare(w) if fast else prepare(w)
    rank(w)
    enter(w, cells)
    fight(w, centre_at_end=centre_at_end)
    return w


GAMES = {
    "pvp-3p": dict(options={"players": ["Ann", "Bo", "Cy"], "heroes": {
        "Ann": ["rochon", "rac", "norn"], "Bo": ["aer", "lug", "edhel"], "Cy": ["raug", "garav", "sauth"]}}),
    "blitz-2p": dict(options={"mode": "blitz", "players": ["Ann", "Bo"], "heroes": {
        "Ann": ["rochon", "norn"], "Bo": ["rac", "aer"]}}, fast=True),
    "team-2x2": dict(options={"mode": "team", "players": ["Ann", "Bo", "Cy", "Di"],
                              "teams": {"Ann": "Sun", "Cy": "Sun", "Bo": "Moon", "Di": "Moon"},
                              "heroes": {"Ann": ["rochon", "aer", "edhel"], "Bo": ["rac", "raug", "gurth"],
                                         "Cy": ["norn", "lug", "garav"], "Di": ["curunir", "nimloth", "sauth"]}},
                     fast=True,  # each player's three heroes side by side, every attack within five hexes (p.14)
                     cells={"rochon": (2, 0), "aer": (1, 1), "edhel": (1, 2), "rac": (0, 2), "raug": (-1, 2),
                            "gurth": (-2, 2), "norn": (0, -3), "lug": (-1, -2), "garav": (-2, -1),
                            "curunir": (3, -3), "nimloth": (3, -2), "sauth": (2, -1)}),
    "solo": dict(options={"mode": "solo", "players": ["Ann"], "heroes": {"Ann": ["rochon", "norn", "edhel"]},
                          "monsters": ["kotronas"], "stamina": 3}, fast=True),
    "coop-2p": dict(options={"mode": "coop", "players": ["Ann", "Bo"], "heroes": {
        "Ann": ["rochon", "norn"], "Bo": ["aer", "lug"]}, "monsters": ["voax"], "stamina": 3}),
    "light-2p": dict(options={"mode": "light", "players": ["Ann", "Bo"], "heroes": {
        "Ann": ["rochon", "norn"], "Bo": ["aer", "lug"]}, "monsters": ["keratosauros"], "stamina": 4}, fast=True),
    "heavy-2p": dict(options={"mode": "heavy", "players": ["Ann", "Bo"], "heroes": {
        "Ann": ["rochon", "norn"], "Bo": ["aer", "lug"]}, "monsters": ["mikitas"], "stamina": 3}, fast=True),
}
GAMES["coop-2p-book"] = dict(options={"mode": "coop", "players": ["Ann", "Bo"], "heroes": {
    "Ann": ["edhel", "garav"], "Bo": ["sauth", "gurth"]}, "monsters": ["voax"]}, fast=True)
GAMES["coop-3p"] = dict(options={"mode": "coop", "players": ["Ann", "Bo", "Cy"], "monsters": ["quietus"],
                                 "stamina": 3, "heroes": {"Ann": ["rochon", "norn"], "Bo": ["rac", "aer"],
                                                          "Cy": ["edhel", "lug"]}}, fast=True)
GAMES["coop-boss-12"] = dict(options={"mode": "coop", "players": ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"], "boss": True,
                                     "monsters": ["godslayer"], "heroes": {
    "Ann": ["rochon", "norn"], "Bo": ["rac", "aer"], "Cy": ["raug", "lug"], "Di": ["garav", "edhel"],
    "Ed": ["sauth", "curunir"], "Flo": ["gurth", "nimloth"]}}, fast=True)
PVP12 = dict(options={"players": ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"], "heroes": {
    "Ann": ["rochon", "norn"], "Bo": ["rac", "aer"], "Cy": ["raug", "lug"], "Di": ["garav", "edhel"],
    "Ed": ["sauth", "curunir"], "Flo": ["gurth", "nimloth"]}},
             cells={"rochon": (1, -3), "norn": (1, -2), "rac": (0, 3), "aer": (1, 2), "raug": (-1, -1),
                    "lug": (0, -2), "garav": (2, 0), "edhel": (2, 1), "sauth": (-2, 0), "curunir": (-3, 1),
                    "gurth": (0, 2), "nimloth": (-1, 3)})
"""Twelve heroes on the hexes two or three steps from the centre, each player's pair side by side and
off the Ritual tokens' hexes, so that every attack of the first six turns is within five hexes (p.14)."""
SELF_BLESSING = ("pvp-3p", "blitz-2p", "team-2x2", "light-2p", "heavy-2p", "coop-2p-book")
"""Stories recorded when the engine let a hero bless itself: they keep that reading (option ``self_bless``)."""
for _key in SELF_BLESSING:
    GAMES[_key]["options"]["self_bless"] = True
PVP12["options"]["self_bless"] = True


def main() -> int:
    for key, spec in GAMES.items():
        w = game(**spec)
        (HERE / "golden" / f"{key}.txt").write_text(w.text(), encoding="utf-8")
        print(key, len(w.lines), "events,", w.s.phase, w.game.outcome(w.s))
    w = game(**PVP12)
    (ROOT / "examples" / "theosis-pvp-12.txt").write_text(w.text(), encoding="utf-8")
    print("pvp-12", len(w.lines), "events,", w.s.phase, w.game.outcome(w.s))
    return 0


if __name__ == "__main__":
    sys.exit(main())
