"""The spectator view (docs/view-schema.md) and the log's plain words.

The Monster's Combat Value and attack range as the dice are read, the die to re-roll next and
why, the Combat Pool's Gaar and Chaos tokens, the Silver and Gold caches, the Die of Hope, each
Hero's Health and Injuries, and in Fellowship the round x/20 with its Leader and card.
"""

from __future__ import annotations

from typing import Any

from arena_table.rules.kernel.table import to_jsonable

from . import monster_attack as ma, rolls
from .setup import unentered
from .state import EuState


def prompt(state: EuState) -> str:
    """What the table waits for, in plain words."""
    if state.result:
        return ""
    c = state.combat
    roll = rolls.open_roll(state)
    if roll is not None:
        who = state.hero(roll.hero).name
        return f"{who}'s Hero Roll ({roll.purpose}): roll the two Hero dice" if not roll.dice else (
            f"{who}: enter the Damage dealt (eu-damage)" if roll.purpose == "attack" else
            f"{who}: add to the roll or confirm it (eu-done)")
    if c is None or c.over:
        if state.config.mode != "fellowship":
            return "set up a Combat (eu-combat): the Monster card and the Hero"
        if state.round is None:
            return "reveal round 1's Fellowship card (eu-round)"
        after = "the next round's Fellowship card (eu-round)" if state.round.number < 20 else "the end (eu-end)"
        return f"a Combat (eu-combat), an exchange (eu-exchange) or {after}"
    a = c.attack
    if a is None:
        waiting = [i for i, e in enumerate(c.enemies) if not e.defeated and i not in c.attacked]
        if waiting:
            return f"{c.enemies[waiting[0]].name}'s Monster Attack (eu-monster-attack), or a First Strike / tile"
        return "the Heroes' attacks (eu-hero-roll, then eu-damage)"
    if a.step == "roll":
        need = []
        if not a.dice:
            need.append("the Monster die" if a.one_die else "the two Monster dice")
        if not a.combat:
            need.append("the Combat die")
        return "roll " + " and ".join(need)
    if a.step == "reveal":
        return f"reveal the top card of the {a.chaos.cache.title()} cache (Chaos Action {len(a.chaos.stacks) + 1})"
    if a.step == "reroll":
        which = " and ".join(f"die {i + 1} (it shows {a.dice[i]})" for i in a.reroll)
        return f"re-roll Monster {which}"
    return "the Hero's response: tiles, Gaar, then eu-done"


def _attack_view(state: EuState) -> dict[str, Any] | None:
    c = state.combat
    if c is None or c.attack is None:
        return None
    a = c.attack
    out: dict[str, Any] = {"enemy": c.enemies[a.enemy].name, "targets": [state.hero(t).name for t in a.targets],
                           "step": a.step, "dice": list(a.dice),
                           "combat_die": list(state.config.combat_die[a.combat - 1]) if a.combat else None,
                           "gaar_spent": a.gaar_spent, "lines": list(a.lines), "top": ma.top_range(state, a)}
    if a.dice:
        cv = ma.combat_value(state, a)
        found = ma.band(state, a, cv)
        out.update(cv=cv, sum=ma.explain(state, a), band=None if found is None else found[0] + 1,
                   bands=len(state.config.monsters[c.enemies[a.enemy].card]["attacks"]))
    if a.step == "reroll":
        out["reroll"] = {"dice": [i + 1 for i in a.reroll], "values": [a.dice[i] for i in a.reroll],
                         "why": a.reroll_why}
    if a.chaos is not None:
        out["chaos"] = {"cache": a.chaos.cache, "stack": list(a.chaos.stack),
                        "stacks": [[cache, list(cards)] for cache, cards, _ in a.chaos.stacks]}
    return out


def view(state: EuState, viewer: str = "spectator") -> dict[str, Any]:
    """The view of docs/view-schema.md; Euthia has no hidden information (the caches are counts)."""
    c = state.combat
    fighting = c is not None and not c.over
    order = []
    for hid in state.order:
        h = state.heroes[hid]
        order.append({"id": hid, "name": h.name, "side": h.player, "health": h.health - h.injuries,
                      "health_max": h.health, "out": bool(fighting and hid in c.dead),
                      "acting": bool(fighting and ((c.attack and hid in c.attack.targets) or
                                                   (c.roll and c.roll.hero == hid))),
                      "resources": {"injuries": h.injuries, "reputation": h.reputation, "gaar": h.gaar,
                                    **{k: v for k, v in h.purse.items() if v}}})
    rnd = state.round
    phase = (f"Round {rnd.number}/20 · " if rnd else "") + (
        f"Combat round {c.round}" if fighting else ("Playing with Fire" if state.config.mode == "fire" else "Fellowship"))
    extra: dict[str, Any] = {
        "mode": state.config.mode,
        "caches": {"silver": state.silver, "gold": state.gold,
                   "bottom": [list(b) for b in state.bottom]},
        "to_enter": unentered(state),
        "notices": list(state.notices),
    }
    if c is not None:
        extra["combat"] = {
            "over": c.over, "round": c.round, "power": c.power, "familiar": c.familiar,
            "gaar": c.gaar, "chaos": c.chaos, "hope": c.hope, "area": c.area,
            "enemies": [{"name": e.name, "card": e.card, "health": e.health - e.damage, "health_max": e.health,
                         "damage": e.damage, "healing": e.healing, "defeated": e.defeated,
                         "attacked": i in c.attacked} for i, e in enumerate(c.enemies)],
            "creatures": [{"kind": x.kind, "name": state.config.cards[x.cache][x.kind]["name"],
                           "health": x.health - x.damage, "slot": x.slot} for x in c.creatures],
            "attack": _attack_view(state),
        }
    roll = rolls.open_roll(state)
    if roll is not None:
        extra["hero_roll"] = {"hero": state.hero(roll.hero).name, "purpose": roll.purpose, "dice": list(roll.dice),
                              "mods": [[m, w] for m, w in roll.mods],
                              "value": rolls.value(roll) if roll.dice else None,
                              "band": rolls.band_of(roll.bands, rolls.value(roll)) if roll.dice and roll.bands else None}
    if rnd:
        extra["round"] = {"number": rnd.number, "of": 20, "leader": state.hero(rnd.leader).name,
                          "card": dict(rnd.card), "gave": [state.hero(h).name for h in rnd.gave],
                          "move_tokens": rnd.move_tokens}
    last = {k: v for k, v in state.last.items() if k != "roll"}
    out: dict[str, Any] = {"phase": phase, "order_title": "Heroes", "order": order,
                           "acting": next((o["id"] for o in order if o["acting"]), None),
                           "prompt": prompt(state), "extra": to_jsonable(extra)}
    if rnd:
        out.update(round=rnd.number, round_max=20)
    if last.get("title"):
        out["last_action"] = {"title": last["title"], "lines": list(last.get("lines", ())),
                              "result": last.get("result", "")}
    if state.stands:
        out["board"] = map_board(state)
    return out


def map_board(state: EuState) -> dict[str, Any]:
    """The figures the table shows on the Map (``eu-stand``) on the Rotunda tile's hexes and the
    hexes they stand on (the other Map tiles are not held by the engine)."""
    from .sensed import figure_name, rotunda

    cells = list(rotunda().cells)
    figures = []
    for fid, cell in state.stands:
        if cell not in cells:
            cells.append(cell)
        side = state.heroes[fid].player if fid in state.heroes else state.heroes["eltrea"].player
        figures.append({"id": fid, "name": figure_name(state, fid), "side": side, "cell": list(cell)})
    return {"kind": "hex", "cells": [list(c) for c in cells], "figures": figures}


def describe(before: EuState, after: EuState | None, event: Any) -> str:
    """One log line: the event's effect in plain words (state is the one before the event)."""
    if after is None:
        return ""
    kind = getattr(event, "KIND", "")
    roll, was = rolls.open_roll(after), rolls.open_roll(before)
    if kind == "roll" and roll is not None and roll.dice and (was is None or not was.dice):
        v = rolls.value(roll)
        band = rolls.band_of(roll.bands, v) if roll.bands else 0
        return (f"{after.hero(roll.hero).name}'s Hero Roll: {' + '.join(map(str, roll.dice))}"
                + "".join(f" {m:+d} {why}" for m, why in roll.mods) + f" = {v}"
                + (f" (band {band} of {len(roll.bands)})" if roll.bands else ""))
    if kind in ("roll", "eu-reveal", "eu-tile", "eu-modify", "eu-reroll", "eu-done", "eu-monster-attack"):
        c, b = after.combat, before.combat
        if c is not None and c.attack is not None:
            seen = len(b.attack.lines) if b is not None and b.attack is not None else 0
            new = list(c.attack.lines[seen:])
            return "; ".join(new + [f"next: {prompt(after)}"])
        if after.last is not before.last and after.last.get("title"):
            return f"{after.last['title']}: {after.last.get('result', '')}".rstrip(": ")
        return ""
    if kind == "eu-combat":
        c = after.combat
        return (f"Combat: {', '.join(after.hero(h).name for h in c.heroes)} vs {', '.join(e.name for e in c.enemies)} "
                f"(Gaar {c.gaar}, Chaos {c.chaos}; caches {after.silver} Silver, {after.gold} Gold)")
    if kind == "eu-round":
        r = after.round
        return f"Round {r.number}/20: Leader {after.hero(r.leader).name}, Exchange value {r.card.get('exchange', 0)}"
    if kind == "eu-exchange":
        gifts = ", ".join(f"{v} to {after.hero(h).name}" for h, v in event.gifts.items())
        return f"{after.hero(event.giver).name} gives Items worth {gifts} (Exchange value {after.round.card.get('exchange', 0)})"
    if kind == "eu-hero-roll":
        return f"{after.hero(event.hero).name}'s Hero Roll ({event.purpose}" + (f", {event.weapon}" if event.weapon else "") + ")"
    if kind == "eu-move-token":
        return f"{after.hero(event.hero).name} takes a Move token (2 Move points)"
    if kind == "eu-end":
        return f"Game over: {'won' if event.won else 'lost'} ({after.result[1]})"
    if kind == "eu-quest":
        h = after.hero(event.hero)
        return f"{h.name} fulfils the {h.quests[-1].title()} Personal Quest"
    if kind in ("eu-death", "eu-odd", "eu-object", "eu-beast", "eu-injure", "eu-hope"):
        return after.notices[-1] if after.notices != before.notices else f"{event}"
    if kind == "eu-damage":
        return "; ".join([after.last.get("title", "")] + list(after.last.get("lines", ()))) + (
            f" — {after.notices[-1]}" if after.notices != before.notices else "")
    return ""
