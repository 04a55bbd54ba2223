"""The spectator/control view (docs/view-schema.md) and the plain-words log line of each event.

The spectator view hides what lies face down: Power hands and discard piles, sealed bids
until they are revealed, prepared Rituals (only their turn tokens show), the Power discarded
by actions 1-2. ``control`` sees everything.
"""

from __future__ import annotations

from typing import Any

from . import catalog
from .board import arena
from .entering import placeholders
from .mats import alignment_of, name, tokens_on
from .offers import LOCATION_NAMES
from .preparation import LOCATIONS, next_placer
from .ranking import allocation_order, describe_ranking
from .state import ALL_ITEMS, ARENA_TURNS, CENTRE, MAX_HEALTH, PREP_TURNS, ThState

ICONS = {"fiery-purge": "flame", "poison": "drop", "terror": "skull", "pacify": "chain", "entangling-roots": "chain",
         "tentacles-black": "chain", "valor": "sword", "aegis": "shield", "rejuvenation": "heart",
         "thalassic-favour": "sparkle"}
"""Icon names from webui/static/icons.svg for each Blessing/Curse token."""
EFFECT_TEXT = {"fiery-purge": "-1 Health at the end of their turn", "poison": "-1 Defense", "terror": "-1 Attack",
               "pacify": "cannot attack", "entangling-roots": "speed 1", "valor": "+1 Attack", "aegis": "+1 Defense",
               "rejuvenation": "+1 Health at the end of their turn", "tentacles-black": "enemy moves this hero",
               "thalassic-favour": "+1 Mana at the end of their turn"}


def phase_line(state: ThState) -> str:
    if state.phase == "idle":
        return "Waiting for players"
    if state.phase == "preparation":
        return f"Preparation · Hierapolis turn {state.prep_turn}/{PREP_TURNS}"
    if state.phase == "fast":
        return "Fast Action Preparation"
    if state.phase == "ranking":
        return "Hero Ranking · gold allocation"
    if state.phase == "over":
        return f"Game over · turn {state.turn}/{ARENA_TURNS}"
    return f"{'Monsters' if state.phase == 'monsters' else 'Combat'} · turn {state.turn}/{ARENA_TURNS}"


def _conditions(state: ThState, hid: str) -> list[dict[str, Any]]:
    out = []
    for token in tokens_on(state, hid):
        kind = catalog.powers()[token]["type"]
        out.append({"name": catalog.powers()[token]["name"], "icon": ICONS.get(token, "star"),
                    "kind": "buff" if kind == "blessing" else "debuff",
                    "text": EFFECT_TEXT.get(token, catalog.powers()[token]["text"])})
    h = state.heroes[hid]
    if h.flipped:
        out.append({"name": "Ranking token flipped", "icon": "eye-off", "kind": "debuff", "text": "skips its next turn"})
    if ALL_ITEMS in h.items_off:
        out.append({"name": "Items face down", "icon": "arrow-down", "kind": "debuff", "text": "no items this turn"})
    elif h.items_off:
        kinds = " and ".join({"weapon": "Weapons", "armor": "Armor", "shield": "Shield"}[k] for k in h.items_off)
        out.append({"name": f"{kinds} face down", "icon": "arrow-down", "kind": "debuff", "text": "not usable this turn"})
    if h.stealth:
        out.append({"name": "Stealth", "icon": "eye-off", "kind": "buff", "text": "only area attacks reach her"})
    return out


def prompt(state: ThState) -> str:
    p = state.pending
    if p:
        return {"thieves-d6": f"{p.actor}: roll the d6 at the Thieves' Guild",
                "mercenary-d4": f"{p.actor}: roll the d4 at the Mercenary Camp",
                "defence-d4": "roll the monster's Defence d4",
                "skull": f"{name(state, p.actor)}: roll the skullduggery die",
                "monster-targets": f"{name(state, p.actor)}: choose targets; heroes lay their defence Powers",
                "monster-d4": f"{name(state, p.actor)}: roll the attack d4",
                "ritual": f"cast the Ritual due on turn {state.turn}: {', '.join(p.data.get('due', []))}",
                }.get(p.kind, p.kind)
    if state.phase == "preparation":
        who = next_placer(state)
        if who:
            return f"{who}: place a hero" + (" on a golden quest slot" if not any(
                state.heroes[h].placed for h in state.player(who).heroes) else "")
        if state.artifact:
            return "sealed bids for " + name(state, state.artifact)
        return "reveal the Artifact or end the turn (then refresh the Market)"
    if state.phase == "fast":
        return "draft Powers, place one Mana gem per hero, share Artifacts and items"
    if state.phase == "ranking":
        todo = [x for x in allocation_order(state) if not state.player(x).allocated]
        return f"{todo[0]}: allocate gold to your heroes" if todo else "set the Ranking"
    hid = state.acting_hero()
    if hid:
        return f"{name(state, hid)}: move, then act (Power, Skill, Blessing or Spell)"
    return ""


def acting_side(state: ThState) -> str | None:
    """The player who must act now when no hero acts: the next to place a hero in Hierapolis (p.11),
    to allocate gold (p.13), or to roll for a location; ``None`` otherwise."""
    p = state.pending
    if p and p.kind in ("thieves-d6", "mercenary-d4"):
        return p.actor if any(x.id == p.actor for x in state.players) else None
    if p:
        return None
    if state.phase == "preparation":
        return next_placer(state) or None
    if state.phase == "ranking":
        return next((x for x in allocation_order(state) if not state.player(x).allocated), None)
    return None


def view(state: ThState, viewer: str = "spectator") -> dict[str, Any]:
    """JSON-ready view for ``viewer`` (``spectator`` or ``control``), see docs/view-schema.md."""
    secret = viewer != "control"
    acting = state.acting_hero()
    ranked = list(state.ranking) or [h for pid in state.initiative_order() for h in state.player(pid).heroes]
    upcoming = [h for h in state.ranking if h not in state.acted and state.heroes[h].alive and h != acting]
    nxt = upcoming[0] if state.phase == "combat" and upcoming else None
    order = []
    for i, hid in enumerate(ranked, 1):
        h = state.heroes[hid]
        entry = {"id": hid, "name": name(state, hid), "side": h.player, "acting": hid == acting, "next": hid == nxt,
                 "out": not h.alive, "health": h.health, "health_max": MAX_HEALTH,
                 "resources": {"mana": len(h.mana), "gold": h.gold}, "conditions": _conditions(state, hid)}
        if state.ranking:
            entry["rank"] = i
        if not secret:
            entry["mana_skills"] = list(h.mana)
        order.append(entry)
    players = []
    sealed = secret and any(p.bid is None for p in state.players)  # bids are revealed together (p.12)
    for p in state.players:
        row = {"id": p.id, "team": p.team, "gold": p.gold, "hand": len(p.hand), "discard": len(p.discard),
               "rituals": [{"turn": t, "cast": r in p.cast, **({} if secret and r not in p.cast else {"ritual": r})}
                           for r, t in p.rituals],
               "bid": (p.bid is not None) if sealed else p.bid, "stamina_taken": p.stamina_taken}
        if not secret:
            row["hand_cards"], row["discard_cards"] = list(p.hand), list(p.discard)
        players.append(row)
    monsters = [{"id": m.id, "name": name(state, m.id), "tokens": m.tokens, "hidden": m.hidden,
                 "top": None if m.top is None or (m.hidden and secret) else {"threshold": m.top.threshold, "resist": list(m.top.resist),
                                                    "protect": list(m.top.protect)},
                 "guard": list(m.guard), "fiery_purge": m.fiery_purge} for m in state.monsters]
    out: dict[str, Any] = {
        "phase": phase_line(state), "round": state.turn if state.turn else state.prep_turn,
        "round_max": ARENA_TURNS if state.turn else PREP_TURNS,
        "order_title": "Hero Ranking" if state.ranking else "Initiative", "order": order, "acting": acting,
        "sides": [p.id for p in state.players], "acting_side": None if acting else acting_side(state),
        "last_action": state.last_action, "prompt": prompt(state),
        "extra": {"initiative": state.initiative, "initiative_next": state.initiative_next,
                  "alignment": {f"{a}/{b}": state.alignment[a] for a, b in catalog.TRACKS},
                  "artifact": state.artifact, "players": players, "monsters": monsters,
                  "pads": {role: ("face down" if secret else card) for role, card in state.pad_powers.items()}},
    }
    if state.monsters and state.config.mode == "light":
        out["scores"] = [{"side": p.id, "label": "Stamina Tokens", "value": p.stamina_taken} for p in state.players]
    else:
        out["scores"] = [{"side": p.id, "label": "Gold", "value": p.gold} for p in state.players]
    figures = [{"id": h, "name": name(state, h), "side": x.player, "cell": list(x.cell),
                **({"facing": x.facing} if x.facing is not None else {})}
               for h, x in state.heroes.items() if x.alive and x.cell]
    figures += [{"id": m.id, "name": name(state, m.id), "side": "monsters", "cell": list(m.cell)}
                for m in state.monsters if m.alive and m.cell]
    if state.phase not in ("idle", "preparation", "fast", "ranking") or figures:
        out["board"] = board(state, figures)
    elif state.phase == "preparation":
        out["board"] = hierapolis(state)
    if state.players:
        out["tracks"] = tracks(state)
        out["placeholders"] = placeholders(state)
    return out


QUEST_NAMES = {q: f"{q.capitalize()} quest" for q in catalog.ALIGNMENTS}
"""The Quest locations by their names on the Hierapolis board (Quests, p.11)."""


def hierapolis(state: ThState) -> dict[str, Any]:
    """The Hierapolis board (p.4, pp.10-12) as an ``areas`` board: the six Quests (a row, paired as
    their Alignment tracks are) over the six other locations, each hero at the location it was
    placed on this turn; a Quest whose golden slot is taken says so.

    >>> from .setup import setup
    >>> s = setup({"players": ["Ann", "Bo"], "heroes": {"Ann": ["rochon", "rac", "norn"], "Bo": ["aer", "lug", "edhel"]}})
    >>> b = hierapolis(s)
    >>> b["kind"], len(b["cells"]), b["cells"][0], b["cells"][6], b["sides"]
    ('areas', 12, 'Warmonger quest', 'Tavern', ['Ann', 'Bo'])
    """
    where = {**QUEST_NAMES, **LOCATION_NAMES}
    quests = [q for pair in catalog.TRACKS for q in pair]
    figures = [{"id": hid, "name": name(state, hid), "side": h.player, "cell": where[h.placed]}
               for hid, h in state.heroes.items() if h.placed in where]
    return {"kind": "areas", "cells": [QUEST_NAMES[q] for q in quests] + [LOCATION_NAMES[loc] for loc in LOCATIONS],
            "columns": 6, "figures": figures, "sides": [p.id for p in state.players],
            "labels": {QUEST_NAMES[q]: "★ golden slot taken" for q in state.golden}}


def tracks(state: ThState) -> list[dict[str, Any]]:
    """The three Alignment tracks (p.4, p.13 Step 1): each cube's position, -3..+3 from the second
    alignment to the first, and under each end the heroes in play favouring it, who gain 10 gold
    per step the cube leans their way when the Preparation Phase ends.

    >>> from .setup import setup
    >>> s = setup({"players": ["Ann", "Bo"], "heroes": {"Ann": ["rochon", "rac", "norn"], "Bo": ["aer", "lug", "edhel"]}})
    >>> t = tracks(s)[1]
    >>> t["ends"], t["value"], t["notes"]
    (['Righteous', 'Deceitful'], 0, ['Rochon (Ann), Aer (Bo)', 'Rac (Ann)'])
    """
    out = []
    for first, second in catalog.TRACKS:
        fans = {a: ", ".join(f"{name(state, hid)} ({h.player})" for hid, h in state.heroes.items()
                             if h.alive and alignment_of(state, hid) == a) for a in (second, first)}
        out.append({"name": f"{first.capitalize()} / {second.capitalize()}",
                    "ends": [second.capitalize(), first.capitalize()], "min": -catalog.TRACK_MAX,
                    "max": catalog.TRACK_MAX, "value": state.alignment[first], "notes": [fans[second], fans[first]]})
    return out


def arena_cells(radius: int) -> list[tuple[int, int]]:
    """Every hex of the Arena in axial ``(q, r)``, centre ``(0, 0)``: ``3r² + 3r + 1`` cells.

    >>> len(arena_cells(4)), (0, 0) in arena_cells(4), (4, -4) in arena_cells(4), (4, 1) in arena_cells(4)
    (61, True, True, False)
    """
    return list(arena(radius).cells)


def board(state: ThState, figures: list[dict[str, Any]]) -> dict[str, Any]:
    """The whole Arena for the SVG (docs/view-schema.md ``board``): every hex, the figures, Ritual tokens.

    The size is ``config.arena_radius`` (default 4; the rulebook text does not print it).
    """
    radius = state.config.arena_radius
    cells = set(arena_cells(radius)) | {tuple(f["cell"]) for f in figures}
    cells |= {c for cs in state.ritual_cells.values() for c in cs}
    return {"kind": "hex", "radius": radius, "centre": list(CENTRE), "cells": sorted([list(c) for c in cells]),
            "figures": figures, "tokens": {r: [list(c) for c in cs] for r, cs in state.ritual_cells.items()}}


def final_line(state: ThState) -> str:
    """Final ranking with Health, and the winner (shown when the game ends)."""
    winners, reason, draw = state.result
    head = "tie, no winner" if draw else (f"winner: {', '.join(winners)}" if winners else "no winner")
    return f"Game over ({reason}): {head}. Final ranking: {describe_ranking(state)}"
