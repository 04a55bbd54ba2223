"""The spectator/control view (``docs/view-schema.md``) and the plain-words log lines.

``order`` lists this round's activations: the Demigods in the order of their
dice, then the heroes (those that went, the one acting, then the predicted rest;
an unsettled tie is shown in seat order and flagged ``tie``), then minion turns
(Advanced Tactics) and finally the characters out of the game. Each entry
carries wounds/health, AP, divine power and morale as ``resources``,
buffs/debuffs with turns left and item cooldowns as ``conditions``, and a
``read_mismatch`` when the camera read a divine die showing another value.
"""

from __future__ import annotations

from typing import Any

from arena_table.rules.kernel.errors import Refused

from . import buffs, damage, data, rounds
from .actions import spec
from .setup import base_mode, begin_error, chieftain_sides
from .state import Character, DemigodsState, demigod_card, demigod_of, item_card, side_name
from .victory import required_points

PHASES = {"demigod": "Demigod Phase", "hero": "Hero Phase", "minion": "Minions", "prep": "Preparation Phase"}


def _entry(state: DemigodsState, ch: Character, acting: str | None, nxt: str | None, tie: bool = False) -> dict:
    res: dict[str, Any] = {"AP": ch.ap, "wounds": ch.wounds}
    if ch.power:
        res[ch.power] = ch.divine
    if ch.kind == "hero":
        res["morale"] = buffs.morale(state, ch)
        res["initiative"] = buffs.initiative(state, ch)
        if ch.rerolls:
            res["rerolls"] = ch.rerolls
    conds = [{"name": c.name, "icon": c.icon, "kind": c.kind, "turns_left": buffs.turns_left(c),
              "text": c.text or f"{c.stat} {c.amount:+d}".strip()} for c in ch.conditions]
    conds += [{"name": item_card(state, i)["name"], "icon": "clock", "kind": "cooldown", "turns_left": n,
               "text": f"cooldown: {n} token{'s' * (n > 1)}"} for i, n in ch.cooldowns]
    entry = {"id": ch.id, "name": ch.name, "side": side_name(state, ch.player), "player": ch.player,
             "kind": ch.kind, "acting": ch.id == acting, "next": ch.id == nxt, "out": not ch.alive,
             "health": max(0, ch.health_left), "health_max": ch.health, "resources": res, "conditions": conds}
    if not ch.alive:
        entry["out_reason"] = ch.out
    if tie:
        entry["tie"] = True
    if ch.id in state.reads and state.reads[ch.id] != ch.divine:
        entry["read_mismatch"] = {"read": state.reads[ch.id], "engine": ch.divine}
    return entry


def order_ids(state: DemigodsState) -> list[tuple[str, bool]]:
    """``(id, settled)`` for every activation of this round, in order."""
    ranked, _ = rounds.demigod_ranking(state)
    players = ranked or tuple(state.players)
    out = [(dg.id, bool(ranked)) for p in players if (dg := demigod_of(state, p)) and dg.alive]
    done = [a for a in state.activated if not a.startswith("minions:")
            and state.chars.get(a) and state.chars[a].kind == "hero"]
    out += [(h, True) for h in done]
    if state.acting and state.acting in state.chars and state.chars[state.acting].kind == "hero":
        out.append((state.acting, True))
    out += rounds.predicted_heroes(state)
    if state.mode == "advanced-tactics":
        out += [(rounds.minion_turn_id(p), bool(ranked)) for p in players]
    return out


def view(state: DemigodsState, viewer: str = "spectator") -> dict[str, Any]:
    """The view of ``docs/view-schema.md`` (no hidden information in this game)."""
    if state.stage == "select":
        return _select_view(state)
    ids = order_ids(state)
    acting = state.acting
    pos = next((i for i, (cid, _) in enumerate(ids) if cid == acting), None)
    if pos is None:
        pos = next((i - 1 for i, (cid, _) in enumerate(ids) if cid not in state.activated), len(ids) - 1)
    nxt = ids[pos + 1][0] if pos is not None and pos + 1 < len(ids) else None
    if state.stage != "play":  # the game is over: nobody is next
        nxt = None
    order = []
    for cid, settled in ids:
        if cid.startswith("minions:"):
            player = cid.split(":", 1)[1]
            order.append({"id": cid, "name": f"{player}'s minions", "side": side_name(state, player), "kind": "minions",
                          "acting": cid == acting, "next": cid == nxt, "out": False, "resources": {}, "conditions": []})
        else:
            order.append(_entry(state, state.chars[cid], acting, nxt, tie=not settled))
    listed = {cid for cid, _ in ids}
    order += [_entry(state, c, acting, nxt) for c in state.chars.values()
              if c.id not in listed and (c.kind != "minion" or c.alive)]
    out: dict[str, Any] = {
        "phase": f"Round {state.round} · {PHASES.get(state.phase, state.phase)}" if state.stage == "play"
        else "Game over",
        "round": state.round, "order_title": "Activation order", "order": order, "sides": list(state.team_names),
        "acting": acting if acting in state.chars else None,
        "scores": _scores(state), "prompt": prompt(state),
        "extra": {"mode": state.mode, "pending": _pending(state), "notices": list(state.notices),
                  "youre_next": _youre_next(state, ids),
                  "formations": {p: list(f) for p, f in state.formations.items()},
                  "minion_turn": acting.split(":", 1)[1] if acting and acting.startswith("minions:") else None},
    }
    if viewer == "control" and acting in state.chars:
        out["extra"]["uses"] = uses(state, state.chars[acting])
    if state.last_action:
        la = state.last_action
        out["last_action"] = {"title": la.title, "lines": list(la.lines), "result": la.result}
    if state.board:
        out["board"] = _board(state)
    out["placeholders"] = placeholders(state)
    return out


def placeholders(state: DemigodsState) -> list[str]:
    """The cards in play whose values are still placeholders (``to_enter`` in ``data/*.json``, not given
    by the ``hero_stats``/``demigod_stats``/``item_stats`` options), as "Trapper's card" and "Bow (item)"
    (for the TV's "placeholder stats" badge)."""
    left = data.unentered(state.hero_stats, state.demigod_stats, state.item_stats)
    out = [f"{c.name}'s card" for c in state.chars.values()
           if c.kind in ("hero", "demigod") and f"demigods:{c.kind}:{c.card_id}" in left]
    items = {i for c in state.chars.values() for i in c.items}
    return out + [f"{i} (item)" for i in sorted(items) if f"demigods:item:{i}" in left]


def uses(state: DemigodsState, ch: Character) -> list[dict[str, Any]]:
    """What ``ch`` could use now (for the control page): ``use`` id, name, AP, divine cost and,
    when it cannot, why (``blocked``)."""

    ids = (["attack"] if ch.kind == "hero" else []) + [s["id"] for s in ch.skills if not s.get("passive")]
    if ch.kind == "demigod":
        ids += [demigod_card(state, ch.card_id)["primary"]["id"]] + [i for i in ch.items if i and item_card(state, i).get("active")]
    out = []
    for use in ids:
        try:
            s = spec(state, ch, use)
        except Refused:
            continue
        blocked = ""
        if s["ap"] > ch.ap:
            blocked = f"needs {s['ap']} AP"
        elif ch.kind == "hero" and s["cost"] > ch.divine:
            blocked = f"needs {s['cost']} {ch.power}"
        elif dict(ch.cooldowns).get(use):
            blocked = f"cooldown {dict(ch.cooldowns)[use]}"
        elif s["kind"] == "ability" and use in ch.used:
            blocked = "used this turn"
        out.append({"use": use, "name": s["name"], "ap": s["ap"], "cost": s["cost"], "blocked": blocked})
    return out


def _youre_next(state: DemigodsState, ids: list[tuple[str, bool]]) -> dict[str, str | None]:
    """Where each player's "You're Next!" token lies: their next character yet to act (p.26, p.30)."""
    out: dict[str, str | None] = {}
    for p in state.players:
        out[p] = next((cid for cid, _ in ids if cid != state.acting and cid not in state.activated
                       and cid in state.chars and state.chars[cid].player == p), None)
    return out


def _scores(state: DemigodsState) -> list[dict[str, Any]]:
    if base_mode(state.mode) == "tactics":
        return [{"side": n, "label": "Tactical points", "value": state.points.get(n, 0),
                 "max": required_points(state, n)} for n in state.team_names]
    return [{"side": n, "label": "Heroes standing",
             "value": sum(1 for c in state.chars.values() if c.kind == "hero" and c.alive and c.player in team),
             "max": state.heroes_per_player * len(team)} for n, team in zip(state.team_names, state.teams)]


def _pending(state: DemigodsState) -> dict[str, Any] | None:
    p = state.pending
    if p is None:
        return None
    return {"attacker": p.attacker, "use": p.use, "use_name": _use_name(state, p.attacker, p.use),
            "targets": list(p.targets), "retaliation": p.retaliation,
            "rerolls_left": p.rerolls_left,
            "dice": [{"owner": d.owner, "die": f"dg-{d.type}", "face": d.face or None,
                      "result": damage.read(state.dice, d.type, d.face) if d.face else None} for d in p.dice]}


def _use_name(state: DemigodsState, who: str, use: str) -> str | None:
    """The printed name of what ``who`` uses ("base attack", "Warlord's Scythe"), or ``None`` when
    it no longer resolves (the character gone from the table)."""

    try:
        return spec(state, state.chars[who], use)["name"]
    except (Refused, KeyError):
        return None


def _board(state: DemigodsState) -> dict[str, Any]:
    b = state.board
    return {"kind": "square", "cols": b.cols, "rows": b.rows,
            "cells": [[c, r] for r in range(b.rows) for c in range(b.cols)],
            "obstacles": [{"cell": [c, r], "kind": k} for c, r, k in b.obstacles],
            "figures": [{"id": c.id, "name": c.name, "side": side_name(state, c.player), "cell": list(c.cell),
                         "facing": c.facing} for c in state.chars.values() if c.alive and c.on_board and c.cell]}


def prompt(state: DemigodsState) -> str:
    """What the table waits for, in plain words."""
    if state.result is not None:
        return ""
    if state.pending is not None:
        p = state.pending
        open_dice = [d for d in p.dice if not d.face]
        if open_dice:
            who = lambda d: "" if d.owner == "attack" else f" for {state.chars[d.owner].name}"  # noqa: E731
            return "Roll " + ", ".join(f"{d.type}{who(d)}" for d in open_dice)
        return f"{state.chars[p.attacker].name} may re-roll {p.rerolls_left} die (attack link) or resolve"
    if state.phase == "demigod" and state.acting is None:
        _, needs = rounds.demigod_ranking(state)
        return f"Roll the Demigod dice: {', '.join(needs)}"
    if state.phase == "hero" and state.acting is None:
        nh = rounds.next_hero(state)
        if nh.kind == "roll":
            return f"Initiative tie: roll the Demigod dice: {', '.join(nh.contenders)}"
        if nh.kind == "choice":
            return "Teammates' tie: choose who acts: " + ", ".join(state.chars[h].name for h in nh.ids)
    if state.acting and state.acting.startswith("minions:"):
        return f"{state.acting.split(':', 1)[1]}: enter and move minions, then end the turn"
    if state.acting:
        ch = state.chars[state.acting]
        return f"{ch.name}: {ch.ap} AP left" + ("" if ch.on_board else " (enter the battlefield)")
    return ""


def _select_view(state: DemigodsState) -> dict[str, Any]:

    teams = []
    for p in state.players:
        picks = [h for q, h in state.picks if q == p]
        dg = demigod_of(state, p)
        teams.append({"player": p, "heroes": picks, "demigod": dg.id if dg else None,
                      "items": list(dg.items) if dg else [], "formation": list(state.formations.get(p, ()))})
    prompt = begin_error(state) or "Ready: dg-begin"
    if state.selection == "chieftain" and len(state.picks) < state.heroes_per_player * len(state.players):

        totals = tuple(state.heroes_per_player * len(t) for t in state.teams)
        first = (state.team_names.index(state.first) if state.first in state.team_names
                 else next(i for i, t in enumerate(state.teams) if state.first in t))
        prompt = f"Chieftain: {state.team_names[chieftain_sides(first, totals)[len(state.picks)]]} picks a hero"
    return {"phase": f"Setup · {state.selection}", "round": 0, "order_title": "Selection", "order": [],
            "sides": list(state.team_names),
            "acting": None, "scores": [], "prompt": prompt,
            "extra": {"mode": state.mode, "teams": teams, "to_enter": data.unentered(state.hero_stats, state.demigod_stats, state.item_stats)}}


def describe(before: DemigodsState, after: DemigodsState | None, event: Any) -> str:
    """One line of plain words for ``event`` (``after`` is None when it was rejected)."""
    kind = event.KIND
    name = lambda cid: before.chars[cid].name if cid in before.chars else cid  # noqa: E731
    if after is None:
        return ""
    if after.last_action is not None and after.last_action is not before.last_action:
        la = after.last_action
        return f"{la.title}: {la.lines[-1]} ({la.result})" if la.lines else la.title
    if kind == "roll":
        if event.die == data.demigod_die()["kind"]:
            return f"Demigod dice: {', '.join(map(str, event.faces))}"
        if event.die.startswith("dg-"):
            t = event.die[3:]
            return f"{t.title()} die: " + ", ".join(str(damage.read(before.dice, t, f)) for f in event.faces)
        return ""
    texts = {
        "dg-pick": lambda e: f"{e.player} picks {e.hero}",
        "dg-demigod": lambda e: f"{e.player} fields the {e.demigod}",
        "dg-equip": lambda e: f"{e.player} equips {e.item}",
        "dg-formation": lambda e: f"{e.player}'s formation: {', '.join(e.heroes)}",
        "dg-begin": lambda e: "Round 1 begins",
        "dg-enter": lambda e: f"{name(e.who)} enters the battlefield",
        "dg-move": lambda e: f"{name(e.who)} moves ({before.chars[e.who].ap - after.chars[e.who].ap} AP)",
        "dg-place": lambda e: f"{name(e.who)} " + ("leaves the board" if e.off else "is on the battlefield"
                                                     + (f" at {list(e.cell)}" if e.cell else "")),
        "dg-use": lambda e: f"{name(e.who)} uses {e.use}" + (f" on {', '.join(map(name, e.targets))}" if e.targets else ""),
        "dg-end-turn": lambda e: f"{name(before.acting) if before.acting in before.chars else before.acting} ends the turn",
        "dg-divine-read": lambda e: f"Camera reads {name(e.who)}'s divine die: {e.value}" + (
            f" (engine: {before.chars[e.who].divine}, mismatch)" if before.chars[e.who].divine != e.value else ""),
        "dg-divine": lambda e: f"{name(e.who)}'s {before.chars[e.who].power or 'divine power'} set to {e.value} "
                               f"(was {before.chars[e.who].divine})",
        "dg-wound": lambda e: f"{name(e.who)}: {e.amount:+d} wounds {e.reason}".strip(),
        "dg-condition": lambda e: f"{name(e.who)} gets {e.name}",
        "dg-activate": lambda e: f"{name(e.who)} acts next",
        "dg-minion-enter": lambda e: f"{e.player} enters a minion",
        "dg-minion-exit": lambda e: f"{name(e.who)} scores a tactical point",
    }
    fn = texts.get(kind)
    text = fn(event) if fn else ""
    if kind != "dg-end-turn":
        return text
    return "; ".join(filter(None, (text, *new_notices(before.notices, after.notices))))


def new_notices(old: tuple[str, ...], new: tuple[str, ...]) -> tuple[str, ...]:
    """The notices an event added to the state's ``old`` ones, ``new`` being them afterwards (the
    state keeps the last 8): what happened on its own (Burn wounds, a knocked-down turn, a character
    slain), for the log line of the event.

    >>> new_notices(("x",), ("x", "y", "z")), new_notices(("a", "b"), ("b", "c")), new_notices(("a",), ("a",))
    (('y', 'z'), ('c',), ())
    """
    for k in range(len(new) + 1):
        head = new[:len(new) - k]
        if len(head) <= len(old) and old[len(old) - len(head):] == head:
            return new[len(new) - k:]
    return new
