"""Monsters (Monsters, Monster Stat Blocks): Stamina-token piles, Defence = base + d4, the skullduggery die's action,
monster attacks = bonus + d4 against the Hero's Defense, and the monster versions of powers (p.24).

The Stamina Tokens are drawn at random and only the top one is visible, so the table enters
each top token as it is revealed (``th-stamina``). One attack removes the top token when its
damage (after the token's Resistance/Protection) reaches the token's threshold; damage does not
carry over (Monster Defense example). Heroes outrank monsters, so a tie goes to the Hero (Game Modes).
"""

from __future__ import annotations

import dataclasses

from arena_table.rules.kernel.errors import Refused
from arena_table.rules.kernel.geometry import hexes

from . import catalog
from .arena import area_safe, auto_damage, finish
from .combat import Side, resolve
from .fight import attack_side, attack_type, defense_side, skill_effects, text_active
from .events import Attack, MonsterAction, Stamina
from .mats import alive_hero, damage, equipped, mitigation, name, play_card, power, remove, remove_gems
from .state import Monster, Pending, StaminaToken, ThState, replace_hero, replace_monster, replace_player

def reveal(state: ThState, ev: Stamina) -> ThState:
    m = _alive(state, ev.monster)
    bad = [t for t in ev.resist + ev.protect if t not in catalog.DAMAGE_TYPES]
    if bad or ev.threshold < 1:
        raise Refused(f"a Stamina Token needs a threshold of at least 1 and damage types from "
                       f"{', '.join(catalog.DAMAGE_TYPES)} (got {bad or ev.threshold})")
    return replace_monster(state, dataclasses.replace(m, top=StaminaToken(ev.threshold, ev.resist, ev.protect)))


def _alive(state: ThState, mid: str) -> Monster:
    try:
        m = state.monster(mid)
    except KeyError:
        raise Refused(f"no monster {mid!r} in this game") from None
    if not m.alive:
        raise Refused(f"{name(state, mid)} is already defeated")
    return m


# --- heroes attack monsters --------------------------------------------------------------------

def hero_attacks_monsters(state: ThState, ev: Attack, card: str) -> ThState:
    """Start an attack on monsters: their Defence d4 comes from the next roll(s), one die each."""
    for mid in ev.target:
        m = _alive(state, mid)
        if m.top is None and not m.hidden:
            raise Refused(f"reveal {name(state, mid)}'s top Stamina Token first (th-stamina)")
    if card not in state.player(state.heroes[ev.hero].player).hand:
        raise Refused(f"{state.heroes[ev.hero].player} does not hold {name(state, card)}")
    data = {"target": list(ev.target), "power": card, "skill": ev.skill, "spell": ev.spell,
            "choice": dict(ev.choice), "faces": []}
    return dataclasses.replace(state, pending=Pending("defence-d4", ev.hero, data))


def on_defence_roll(state: ThState, faces: tuple[int, ...]) -> ThState:
    """Resolve the waiting hero attack once every targeted monster has its d4 (Monster Defense)."""
    pend = state.pending
    got = list(pend.data["faces"]) + list(faces)
    targets = pend.data["target"]
    if len(got) < len(targets):
        return dataclasses.replace(state, pending=dataclasses.replace(pend, data={**pend.data, "faces": got}))
    hero, card = pend.actor, pend.data["power"]
    ev = Attack(hero=hero, target=tuple(targets), power=card, skill=pend.data["skill"], spell=pend.data["spell"],
                choice=pend.data["choice"])
    state = dataclasses.replace(state, pending=None)
    active = text_active(card, skill=ev.skill, spell=ev.spell)
    lines, results = [], []
    for mid, face in zip(targets, got):
        m = state.monster(mid)
        state, a_side, _ = attack_side(state, ev, card, mid, vs_monster=True)
        base = 3 if "defence-3" in m.guard else int(catalog.monsters()[m.kind]["defence"])
        if active and card == "equalize":  # Equalize turns the monster's die into a 1 (Monster Battles)
            face = 1
        d_side = Side(name(state, mid), base, (("d4", face),), rank=99)
        # Weapons Slaying (p.24): double the damage of the slaying weapon only, not of another of the same damage
        weapons = tuple((int(i.get("damage", 0)) * (2 if i.get("slaying") else 1), i.get("damage_type"))
                        for i in equipped(state, hero, "weapon"))
        factor = 2 if ("double-weapon" in skill_effects(ev.skill) or (active and card == "enervation")) else 1
        top = m.top or StaminaToken(threshold=99)
        protect = set(top.protect) | ({"physical"} if "physical-protection" in m.guard else set())
        res = resolve(a_side, d_side, weapons=weapons, damage_type=attack_type(state, ev, card), protect=protect,
                      resist=set(top.resist), weapon_factor=factor, extra=1 if m.fiery_purge else 0,
                      attacker_wins_ties=True)
        suffix = ""
        if res.hit:
            m = dataclasses.replace(m, fiery_purge=False)
            if active and card == "fiery-purge":
                m = dataclasses.replace(m, fiery_purge=True)
            if "agony-shield" in m.guard:  # Agony Shield: the attacker takes the damage too (Apollyon)
                state = damage(state, hero, res.damage)
            if m.hidden:
                suffix = ": the hidden Stamina Token is flipped face up"
                m = dataclasses.replace(m, hidden=False)
            elif res.damage >= m.top.threshold:
                suffix = f" ≥ {m.top.threshold}: Stamina Token removed"
                m = dataclasses.replace(m, tokens=m.tokens - 1, top=None, taken=m.taken + 1)
                p = state.player(state.heroes[hero].player)
                state = replace_player(state, dataclasses.replace(p, stamina_taken=p.stamina_taken + 1))
                results.append(f"{name(state, mid)} {m.tokens + 1} → {m.tokens} Stamina")
            else:
                suffix = f" < {m.top.threshold}: the Stamina Token stays"
                if active and card in ("blind", "lifeswap") and ev.choice.get("bottom"):
                    # Blind / Lifeswap against monsters: the active token goes under the pile (Monster Battles)
                    suffix += f", then goes under the pile ({power(card)['name']}): reveal the next one"
                    m = dataclasses.replace(m, top=None)
        state = replace_monster(state, m)
        if len(targets) > 1:
            lines.append(f"{name(state, mid)}: {res.text}{suffix}")
        else:
            lines.extend(res.lines[:-1] + (res.lines[-1] + suffix,))
    state = play_card(state, state.heroes[hero].player, card)
    with_what = catalog.skills()[ev.skill]["name"] if ev.skill else power(card)["name"]
    state = dataclasses.replace(state, last_action={
        "title": f"{name(state, hero)} attacks {', '.join(name(state, t) for t in targets)} with {with_what}",
        "lines": lines, "result": "; ".join(results)})
    return finish(state, hero, extra_turn="extra-turn" in skill_effects(ev.skill))


# --- the monsters' turn ---------------------------------------------------------------------------

def begin_monsters(state: ThState) -> ThState:
    """After every Hero has acted the monsters act, each rolling the skullduggery die (Monster Defense)."""
    return _next_monster(dataclasses.replace(state, acting=-1))


def _next_monster(state: ThState) -> ThState:
    for i in range(state.acting + 1, len(state.monsters)):
        m = state.monsters[i]
        if m.alive:
            tables = int(catalog.monsters()[m.kind].get("tables", 1))
            return dataclasses.replace(state, acting=i,
                                       pending=Pending("skull", m.id, {"tables": ["left", "right"][:tables]}))
    return dataclasses.replace(state, pending=None)  # every monster has acted: flow.py ends the turn


def actions_of(kind: str, table: str) -> list[dict]:
    rec = catalog.monsters()[kind]
    return rec["actions_right"] if table == "right" else rec["actions"]


def on_skull(state: ThState, face: int) -> ThState:
    """The skullduggery die picks the row of the monster's table (faces 1-6, Monster Stat Blocks)."""
    pend = state.pending
    m = state.monster(pend.actor)
    tables = list(pend.data["tables"])
    table = tables.pop(0) if tables else "left"
    action = actions_of(m.kind, table)[face - 1]
    m = dataclasses.replace(m, guard=())  # guards last until the monster acts again
    state = replace_monster(state, m)
    title = f"{name(state, m.id)}: {catalog.SKULL_FACES[face - 1]} → {action['name']}"
    if action["attacks"]:
        return dataclasses.replace(state, pending=Pending("monster-targets", m.id,
                                                          {"tables": tables, "table": table, "row": face - 1}),
                                   last_action={"title": title, "lines": [action["text"]], "result": ""})
    state, lines, again = _effects(state, m.id, action)
    state = dataclasses.replace(state, last_action={"title": title, "lines": lines, "result": ""})
    return _after_action(state, m.id, again + tables)


def _after_action(state: ThState, mid: str, tables: list[str]) -> ThState:
    """Roll again for the tables still to act (Godslayer's second table, Heroic Might), else next monster."""
    if tables:
        return dataclasses.replace(state, pending=Pending("skull", mid, {"tables": tables}))
    return _next_monster(dataclasses.replace(state, pending=None))


def _effects(state: ThState, mid: str, action: dict) -> tuple[ThState, list[str], list[str]]:
    """Apply a non-attacking action; returns (state, log lines, extra tables to roll)."""
    m = state.monster(mid)
    lines = [action["text"]]
    again: list[str] = []
    for eff in action.get("effects", ()):
        key, _, arg = eff.partition(":")
        if key == "cleanse":
            m = dataclasses.replace(m, fiery_purge=False)
        elif key == "restore-stamina":
            back = min(int(arg), m.taken) if mid.startswith("voax") else int(arg)
            if back:
                m = dataclasses.replace(m, tokens=m.tokens + back, top=None, taken=m.taken - min(back, m.taken))
                lines.append(f"{back} Stamina Token(s) back on top: reveal the top one (th-stamina)")
        elif key == "guard":
            m = dataclasses.replace(m, guard=m.guard + (arg,))
            if arg == "hidden-stamina":  # Demonic Haste: the pile is shuffled face down
                m = dataclasses.replace(m, top=None)
                lines.append("reveal the new top Stamina Token when Apollyon is attacked (th-stamina)")
        elif key == "pandemonium":
            for h, x in state.heroes.items():
                if x.alive:
                    state = damage(state, h, sum(int(i.get("damage", 0)) for i in equipped(state, h)
                                                 if i["kind"] == "weapon"))
        elif key == "numbness":
            for h, x in state.heroes.items():
                if x.alive and hexes.is_adjacent(x.cell, m.cell):
                    state = replace_hero(state, dataclasses.replace(x, flipped=True))
        elif key == "all-heroes":
            for part in arg.split(","):
                dtype, n = part.split(":") if part.count(":") else (part, "0")
                for h, x in state.heroes.items():
                    if x.alive and not area_safe(state, h):
                        state = auto_damage(state, h, int(n), dtype)
        elif key == "roll-again":
            again = ["left", "right"]
        elif key == "hide-stamina":
            m = dataclasses.replace(m, hidden=True)
        elif key == "by-hand":
            lines.append("resolve by hand at the table (th-adjust)")
    return replace_monster(state, m), lines, again


def monster_action(state: ThState, ev: MonsterAction) -> ThState:
    """Targets and defence Powers for the chosen action; each attack then waits for its d4."""
    pend = state.pending
    if not pend or pend.kind != "monster-targets" or pend.actor != ev.monster:
        raise Refused(f"{name(state, ev.monster)} is not choosing targets now")
    m = state.monster(ev.monster)
    action = actions_of(m.kind, pend.data["table"])[pend.data["row"]]
    strikes = []
    for k, atk in enumerate(action["attacks"]):
        if atk.get("area") == "all":  # every living hero, in Ranking order (p.16)
            targets = [t for t in state.ranking if state.heroes[t].alive and not area_safe(state, t)]
        elif atk.get("area") in ("spell", "line", "adjacent-all"):
            targets = list(ev.target)
        else:
            targets = [ev.target[min(k, len(ev.target) - 1)]] if ev.target else []
        for t in targets:
            alive_hero(state, t)
        strikes.append({"attack": k, "targets": targets})
    need = sum(len(s["targets"]) for s in strikes)
    if len(ev.defend) != need:
        raise Refused(f"{need} defence Power(s) needed, one per hero per attack, in order")
    scratch = state
    for s_, card in zip([t for s in strikes for t in s["targets"]], ev.defend):
        scratch = play_card(scratch, scratch.heroes[s_].player, card)  # each card must be in hand in turn
    i = 0
    for s in strikes:
        s["defend"] = list(ev.defend[i:i + len(s["targets"])])
        i += len(s["targets"])
    data = {**pend.data, "strikes": strikes, "done": 0, "hits": []}
    return dataclasses.replace(state, pending=Pending("monster-d4", ev.monster, data))


def on_monster_roll(state: ThState, faces: tuple[int, ...]) -> ThState:
    """Resolve the monster's next attack(s) with the d4 faces read (Monster Defense)."""
    pend = state.pending
    m = state.monster(pend.actor)
    action = actions_of(m.kind, pend.data["table"])[pend.data["row"]]
    data = dict(pend.data)
    lines = list((state.last_action or {}).get("lines", [])) if data["done"] else []
    results = []
    for face in faces:
        if data["done"] >= len(data["strikes"]):
            break
        strike = data["strikes"][data["done"]]
        atk = action["attacks"][strike["attack"]]
        for t, card in zip(strike["targets"], strike["defend"]):
            if not state.heroes[t].alive:
                state = play_card(state, state.heroes[t].player, card)  # laid face down already
                continue
            bonus = int(atk["bonus"]) + (atk.get("follow_up_bonus", 0) if t in data["hits"] else 0)
            d_active = text_active(card)
            a_side = Side(name(state, m.id), bonus, (("d4", 1 if d_active and card == "equalize" else face),), rank=99)
            d_side = defense_side(state, t, card, "", "", False, vs_monster=True)
            prot, res = mitigation(state, t)
            if d_active:
                prot |= set(power(card).get("defense_protection", ()))
            before = state.heroes[t].health
            r = resolve(a_side, d_side, weapons=((int(atk["damage"]), None),), damage_type=atk["type"],
                        protect=prot, resist=res, despair=d_active and card == "despair",
                        attacker_wins_ties=False, weapon_label="damage")
            text = f"{name(state, t)}: {r.text}"
            if r.hit:
                data["hits"] = data["hits"] + [t]
                state = damage(state, t, r.damage if atk["damage"] else 0)
                for eff in atk.get("on_hit", ()):
                    state, note = _on_hit(state, m.id, t, eff)
                    text += f" → {note}" if note else ""
                spike = r.damage // 2 if (d_active and card == "pain-spike" and atk["damage"]) else 0
                mon = state.monster(m.id)
                if spike and mon.top and spike >= mon.top.threshold:  # Pain Spike may remove a token
                    state = replace_monster(state, dataclasses.replace(mon, tokens=mon.tokens - 1, top=None,
                                                                       taken=mon.taken + 1))
                    text += f" → Pain Spike returns {spike} ≥ {mon.top.threshold}: Stamina Token removed"
            state = play_card(state, state.heroes[t].player, card)
            results.append(f"{name(state, t)} {before} → {state.heroes[t].health}")
            lines.append(text)
        data["done"] += 1
    if "slay-if-both-hit" in action.get("effects", ()) and len(data["hits"]) == 2 and len(set(data["hits"])) == 1:
        state = remove(state, data["hits"][0])
        lines.append(f"both claws hit: {name(state, data['hits'][0])} is slain")
    last = dict(state.last_action or {})
    state = dataclasses.replace(state, last_action={**last, "lines": lines,
                                                    "result": "; ".join(filter(None, [last.get("result", "")] + results))})
    if data["done"] < len(data["strikes"]):
        return dataclasses.replace(state, pending=dataclasses.replace(pend, data=data))
    return _after_action(state, m.id, list(data["tables"]))


def _on_hit(state: ThState, mid: str, hero: str, eff: str) -> tuple[ThState, str]:
    key, _, arg = eff.partition(":")
    h = state.heroes[hero]
    if not h.alive:
        return state, ""
    if key == "paralyze":
        return replace_hero(state, dataclasses.replace(h, flipped=True)), "Paralyzed (Ranking token flipped)"
    if key in ("slay", "slay-forever"):
        return remove(state, hero, forever=key == "slay-forever"), "slain"
    if key == "gain-stamina":
        m = state.monster(mid)
        return replace_monster(state, dataclasses.replace(m, tokens=m.tokens + int(arg), top=None)), \
            "gains a Stamina Tile"
    if key == "destroy-weapon":
        items = tuple(i for i in h.items if catalog.items().get(i, state.config.items.get(i, {})).get("kind") != "weapon")
        return replace_hero(state, dataclasses.replace(h, items=items)), "Weapon destroyed"
    if key == "destroy-armor":
        items = tuple(i for i in h.items if catalog.items().get(i, state.config.items.get(i, {})).get("kind")
                      not in ("armor", "shield"))
        return replace_hero(state, dataclasses.replace(h, items=items)), "Armor and Shield destroyed"
    if key == "burn-mana":
        return remove_gems(state, hero, 99), "all Mana burnt"
    return state, f"{key}: resolve by hand (th-adjust)"
