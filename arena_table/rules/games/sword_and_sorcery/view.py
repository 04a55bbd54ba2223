"""The spectator view (``docs/view-schema.md``) and the plain-words log lines.

Shown: the Teams in this Battle Phase's order with their Medals (6.1), which Heroes of each Team
have activated this Round (the Hero Bookmarks, 6.5), each Hero's HP, Body Conditions and
Soulrank, the areas' control and domination, each Team's Resurrection tokens and Kill Coins, and
the last combat's HIT and DEF arithmetic.
"""

from __future__ import annotations

from typing import Any

from . import areas, hazards, play
from .conditions import names
from .quests import INFINITE, ROMAN
from .state import SnsState

ICONS = {"slowed": ("arrow-down", "Slowed: a single Activity"), "blinded": ("eye-off", "Blinded: a Save before each Activity"),
         "stunned": ("bolt", "Stunned: no Activities"), "bleed1": ("drop", "Bleed I: 1 HP before each Activity"),
         "bleed2": ("drop", "Bleed II: 1 HP before each Activity"), "fire1": ("flame", "Fire I: 1 HP each Time Phase"),
         "fire2": ("flame", "Fire II: 1 HP each Time Phase, then Fire I"),
         "poison1": ("skull", "Poison I: 1 HP each Time Phase"), "poison2": ("skull", "Poison II: 2 HP each Time Phase"),
         "ko": ("arrow-down", "K.O.: Armor and figure count 0, no attacks")}
LABELS = {"slowed": "Slowed", "blinded": "Blinded", "stunned": "Stunned", "bleed1": "Bleed I", "bleed2": "Bleed II",
          "fire1": "Fire I", "fire2": "Fire II", "poison1": "Poison I", "poison2": "Poison II", "ko": "K.O."}
PHASES = {"time": "Time Phase", "battle": "Battle Phase", "event": "Event Phase"}
STAGES = {"preparation": "Preparation", "claim": "Shrine claims", "deploy": "Deployment", "over": "Game over"}


def phase_line(state: SnsState) -> str:
    if state.stage != "play":
        return STAGES[state.stage] + (f" · Round {state.round}" if state.round else "")
    cycle = (" · Day" if state.day else " · Night") if state.quest.day_night else ""
    return f"Round {state.round} · {PHASES[state.phase]}{cycle}"


def prompt(state: SnsState) -> str:
    """What the table waits for, in plain words."""
    t = state.tiebreak
    if state.result is not None:
        return ""
    if t is not None:
        return f"Tiebreaker ({t.purpose}): {', '.join(t.to_roll())} roll 4 red dice"
    for h, why in state.saves:
        if why == "holy":
            return f"{state.hero(h).name}: roll 1 Blue Die for the Holy Pitfall"
        if why == "trap":
            return f"{state.hero(h).name}: Save against the Trap"
    if state.combat is not None:
        stage = play.awaited(state)
        c = state.combat
        if stage == "hit":
            w = state.hero(c.attacker).weapon(c.weapon)
            return f"{state.hero(c.attacker).name}: roll {w.red} red and {w.blue} blue dice (HIT)"
        if stage.startswith("def:"):
            tid = stage[4:]
            need = next(n for x, _, n in play.plan(state, c)["targets"] if x == tid)
            return f"{state.hero(tid).name}: roll {need} Blue Dice (DEF)"
        return "resolve the attack"
    if state.evade is not None:
        left = ", ".join(state.hero(r).name for r in state.evade.reactors)
        return f"{state.hero(state.evade.hero).name} Evades: Reaction Attacks from {left}"
    if state.stage == "preparation":
        return "each Team chooses a Building (sns-visit), or all agree to deploy (sns-ready)"
    if state.stage == "claim":
        return "Teams without a Shrine claim one: " + ", ".join(t.name for t in state.teams if not t.shrine)
    if state.stage == "deploy":
        return f"{state.order[state.next_team]} places a Hero within 2 areas of its Shrine"
    if state.phase == "time":
        return "Time Phase: resurrections, then begin the Battle Phase"
    if state.turn is not None:
        return f"{state.hero(state.turn.hero).name}'s Hero Turn"
    if state.phase == "battle":
        return f"{state.order[state.next_team]} activates a Hero"
    return ""


def area_rows(state: SnsState) -> list[dict[str, Any]]:
    """Every area holding figures: who controls it and who dominates it."""
    rows = []
    for area, _ in state.board.adjacent:
        figs = areas.figures(state, area)
        if not figs:
            continue
        teams = sorted({h.team for h in figs})
        ctrl = next((t for t in teams if areas.controls(state, area, t)), None)
        dom = next((t for t in teams if areas.dominates(state, area, t)), None)
        rows.append({"area": area, "figures": [h.id for h in figs], "control": ctrl, "domination": dom,
                     "counts": {t: areas.strength(state, area, t)[0] for t in teams}})
    return rows


def view(state: SnsState, viewer: str = "spectator") -> dict[str, Any]:
    """The JSON-ready view for the spectator screen (nothing is face-down in this game)."""
    medal = dict(state.medals)
    order_teams = list(state.order) + [t.name for t in state.teams if t.name not in state.order]
    acting_team = state.order[state.next_team] if state.order and state.phase == "battle" else None
    order = []
    for team in order_teams:
        for h in state.team_heroes(team, companions=True):
            order.append({
                "id": h.id, "name": h.name + (f" ({state.hero(h.companion_of).name}'s Companion)" if h.companion_of else ""),
                "side": team, "rank": medal.get(team),
                "acting": state.turn is not None and state.turn.hero == h.id,
                "next": state.turn is None and team == acting_team and not h.activated and not h.companion_of,
                "out": h.ghost or h.area is None, "health": h.hp, "health_max": h.hp_max,
                "resources": {"Soulrank": ROMAN.get(h.soulrank, str(h.soulrank)), "Armor": h.armor_now,
                              "Kill Coins": h.kill_coins, **({"Magic Shields": h.magic_shields} if h.magic_shields else {}),
                              **({"Powers resting": len(h.powers)} if h.powers else {})},
                "conditions": [{"name": LABELS[c], "icon": ICONS[c][0], "kind": "debuff", "text": ICONS[c][1]}
                               for c in names(h)] + ([{"name": "Ghost Soul", "icon": "sparkle", "kind": "debuff",
                                                       "text": "dead: Ghost Soul abilities only"}] if h.ghost else []),
                "activated": h.activated, "area": h.area,
            })
    teams = []
    for t in state.teams:
        hs = state.team_heroes(t.name)
        teams.append({"name": t.name, "medal": medal.get(t.name), "shrine": t.shrine,
                      "resurrections": "∞" if t.resurrections == INFINITE else t.resurrections, "crowns": t.crowns,
                      "kill_coins": sum(h.kill_coins for h in state.team_heroes(t.name, companions=True)),
                      "activated": [h.id for h in hs if h.activated], "waiting": [h.id for h in hs if not h.activated],
                      "allies": list(t.allies)})
    tb = state.tiebreak
    last = state.last
    return {
        "phase": phase_line(state), "round": state.round,
        "order_title": "Order of play",
        "order": order,
        "acting": state.turn.hero if state.turn else None,
        "sides": [t.name for t in state.teams],
        "acting_side": acting_team if state.turn is None else None,
        "scores": [{"side": t["name"], "label": "Resurrection tokens", "value": t["resurrections"]} for t in teams]
        + [{"side": t["name"], "label": "Kill Coins", "value": t["kill_coins"],
            **({"max": state.quest.kills_to_win} if state.quest.kills_to_win else {})} for t in teams],
        "last_action": {"title": last.title, "lines": list(last.lines), "result": last.result} if last else None,
        "board": _board(state),
        "prompt": prompt(state),
        "extra": {
            "quest": state.quest.sheet.title, "act": ROMAN[state.quest.act], "teams": teams,
            "areas": area_rows(state),
            "tiebreak": None if tb is None else {"purpose": tb.purpose, "to_roll": list(tb.to_roll()),
                                                 "groups": [list(g) for g in tb.groups],
                                                 "rolls": [list(r) for r in tb.history] + [list(tb.rolls)]},
            "pitfalls": [{"number": p.number, "area": p.area, "open": p.open,
                          "blade": hazards.blade_area(state, p) if p.number in hazards.BLADES else None}
                         for p in state.board.pitfalls],
            "day_night": ("Day" if state.day else "Night") if state.quest.day_night else None,
        },
    }


def _board(state: SnsState) -> dict[str, Any]:
    """The areas for the board picture, each labelled with who dominates or controls it."""
    rows = _grid(state)
    cells = [a for row in rows for a in row] if rows else [a for a, _ in state.board.adjacent]
    labels = {}
    for r in area_rows(state):
        if r["domination"]:
            labels[r["area"]] = f"{r['domination']} dominates"
        elif r["control"]:
            labels[r["area"]] = f"{r['control']} controls"
    return {"kind": "areas", "cells": cells, **({"columns": len(rows[0])} if rows else {}), "labels": labels,
            "figures": [{"id": h.id, "name": h.name, "side": h.team, "cell": h.area}
                        for _, h in state.heroes if h.area is not None and not h.ghost]
            + [{"id": h.id, "name": h.name + " (Ghost Soul)", "side": h.team, "cell": h.area}
               for _, h in state.heroes if h.area is not None and h.ghost]}


def _grid(state: SnsState) -> list[list[str]] | None:
    """The schematic board's rows of area names (``None`` for a board given as a graph)."""
    cells = [a for a, _ in state.board.adjacent]
    if sorted(cells) != sorted(r + c for r in areas.ROWS for c in areas.COLS):
        return None
    return [[r + c for c in areas.COLS] for r in areas.ROWS]


def describe(before: SnsState, after: SnsState | None, e: Any) -> str:
    """One line of plain words for the log (``after`` is ``None`` for a refused event)."""
    if after is None:
        return ""
    kind = getattr(e, "KIND", "")
    if after.tiebreaks != before.tiebreaks:
        t = after.tiebreaks[-1]
        rank = ", ".join(f"{i}. {team}" for i, team in enumerate((g[0] for g in t.groups), start=1))
        return f"Tiebreaker ({t.purpose}): {rank}"
    if kind in ("sns-roll", "roll") and after.tiebreak is not None:
        return f"Tiebreaker roll: {', '.join(f'{t} {n}' for t, n in after.tiebreak.rolls) or 'tie, roll again'}"
    if after.last is not None and after.last != before.last:
        return f"{after.last.title}: {after.last.result}"
    if after.result is not None and before.result is None:
        return f"Victory: {', '.join(after.result[0])} ({after.result[1]})"
    if after.round != before.round:
        return f"Round {after.round}: Time Phase"
    if kind == "sns-activate":
        return f"{after.hero(e.hero).name} is activated"
    if kind == "sns-move":
        h = after.hero(e.hero)
        return f"{h.name} moves to {h.area}" if h.area == e.to else f"{h.name} Evades from {h.area}"
    if kind == "sns-resurrect":
        return f"{after.hero(e.hero).name} is resurrected"
    if kind == "sns-place":
        return f"{after.hero(e.hero).name} is deployed on {e.area}"
    return ""
