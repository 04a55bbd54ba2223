"""One plain-words log line per event, computed from the state before and after it.

Face-down information stays out of the line: the Power discarded by actions 1-2, sealed bids
until all are revealed, the Ritual prepared at the Mage Tower.
"""

from __future__ import annotations

from typing import Any

from arena_table.rules.kernel.errors import Refused
from arena_table.rules.kernel.events import DiceRolled, Event, TagPlaced
from . import catalog
from .die_kinds import as_die
from .events import (Adjust, Allocate, ArtifactRevealed, Attack, Bid, Bless, CastRitual, Draft, Enter, Equip, Gem,
                     MonsterAction, Move, Next, Pass, Place, SetRanking, Stamina, UseSkill)
from .mats import name
from .preparation import bid as resolve_bid, gemless, thieves_result
from .state import ThState
from .view import final_line


def describe(game: Any, state: ThState, ev: Event) -> str:
    try:
        after = game.apply(state, ev)
    except Refused as exc:
        return f"rejected: {exc.reason}"
    text = _line(state, after, ev)
    if after.result and not state.result:
        text = (text + " — " if text else "") + final_line(after)
    return text


def _line(before: ThState, after: ThState, ev: Event) -> str:
    n = lambda x: name(before, x)  # noqa: E731
    if isinstance(ev, Place):
        where = f"the golden slot of the {ev.location.capitalize()} quest" if ev.golden else (
            f"the {ev.location.capitalize()} quest" if ev.location in catalog.ALIGNMENTS
            else f"the {ev.location.replace('-', ' ').title()}")
        text = f"{n(ev.hero)} goes to {where}"
        gained = [c for c in after.player(before.heroes[ev.hero].player).hand
                  if c not in before.player(before.heroes[ev.hero].player).hand]
        if gained:
            text += f" and gains {n(gained[0])}"
        return text
    if isinstance(ev, DiceRolled):
        return _dice_line(before, after, ev)
    if isinstance(ev, Enter):
        return _entered(before, ev)
    if isinstance(ev, ArtifactRevealed):
        return f"The Artifact of this turn is {n(ev.artifact)}: bids, please"
    if isinstance(ev, Bid):
        if all(p.bid is not None for p in after.players) or after.artifact == "":
            return resolve_bid(before, ev)[1]
        return f"{ev.player} bids (sealed)"
    if isinstance(ev, Next):
        if before.phase == "combat":
            return f"{n(before.acting_hero() or '')} forgoes the extra attack"
        if after.phase == "ranking" and before.phase != "ranking":
            missing = gemless(before) if before.phase == "fast" else []
            return ("Preparation is over" if before.phase == "fast" else
                    "Hierapolis is over: Alignment bonuses paid") + "; allocate gold" + (
                "; no Mana gem yet (each Hero receives one, Game Modes: th-gem hero=... skill=...): "
                + ", ".join(missing) if missing else "")
        return f"Hierapolis turn {before.prep_turn} ends; refresh the Market (six new Weapons and Armor). " \
               f"{after.initiative} holds the Initiative Marker"
    if isinstance(ev, Allocate):
        text = f"{ev.player} puts " + (", ".join(f"{v} gold on {n(h)}" for h, v in ev.gold.items()) or "no gold")
        if after.ranking and not before.ranking:
            text += ". Hero Ranking: " + ", ".join(f"{i}. {n(h)}" for i, h in enumerate(after.ranking, 1))
        return text
    if isinstance(ev, SetRanking):
        return "Hero Ranking: " + ", ".join(f"{i}. {n(h)}" for i, h in enumerate(ev.order, 1))
    if isinstance(ev, Draft):
        return f"{ev.player} drafts {n(ev.power)}"
    if isinstance(ev, Equip):
        return f"{n(ev.hero)} equips {ev.item}"
    if isinstance(ev, Gem):
        return f"{n(ev.hero)} places a Mana gem"
    if isinstance(ev, Move):
        return f"{n(ev.hero)} moves to {list(ev.cell)}"
    if isinstance(ev, Stamina):
        extra = ", ".join([f"{t} resistance" for t in ev.resist] + [f"{t} protection" for t in ev.protect])
        return f"{n(ev.monster)}'s Stamina Token: {ev.threshold} damage to remove" + (f", {extra}" if extra else "")
    if isinstance(ev, CastRitual):
        p = before.player(ev.player)
        ritual = next((r for r, t in p.rituals if t == before.turn and r not in p.cast), "")
        return f"{ev.player} casts the Ritual {catalog.rituals().get(ritual, {}).get('name', ritual)}"
    if isinstance(ev, Pass):
        text = f"{n(ev.hero)} discards a Power face down"
        if ev.skill:
            text += f", places a Mana gem in {catalog.skills()[ev.skill]['name']} and takes 1 damage"
        return text + _health_changes(before, after)
    if isinstance(ev, Bless):
        return f"{n(ev.hero)} blesses {n(ev.target)} with {n(ev.power)}"
    if isinstance(ev, (Attack, MonsterAction)) or (after.last_action is not before.last_action and after.last_action):
        la = after.last_action
        if la is not before.last_action and la:
            return f"{la['title']}: " + " → ".join(la["lines"]) + (f" ({la['result']})" if la.get("result") else "")
        if isinstance(ev, Attack):
            return f"{n(ev.hero)} attacks {', '.join(n(t) for t in ev.target)}: roll the Defence d4"
        return f"{n(ev.monster)} targets {', '.join(n(t) for t in ev.target) or 'every hero'}: roll the attack d4"
    if isinstance(ev, UseSkill):
        return f"{n(ev.hero)} uses {catalog.skills()[ev.skill]['name']}" + _health_changes(before, after)
    if isinstance(ev, Adjust):
        return f"Correction on {n(ev.target)}: " + ", ".join(
            f"{k} {v:+d}" for k, v in (("health", ev.health), ("mana", ev.mana), ("gold", ev.gold)) if v) + \
            (f" ({ev.reason})" if ev.reason else "")
    if isinstance(ev, TagPlaced):
        if after.pad_powers != before.pad_powers:
            role = next(r for r in after.pad_powers if after.pad_powers[r] != before.pad_powers.get(r))
            return f"{role.capitalize()} lays a Power card on the pad"
        return ""
    return _health_changes(before, after).lstrip("; ")


def _dice_line(before: ThState, after: ThState, ev: DiceRolled) -> str:
    p = before.pending
    ev = as_die(ev)
    if p is None or after.pending == p or ev is None:
        return ""
    if p.kind == "mercenary-d4":
        return f"{p.actor} rolls {ev.faces[0]} at the Mercenary Camp and earns {ev.faces[0]} gold"
    if p.kind == "thieves-d6":
        return f"{p.actor} rolls {ev.faces[0]} at the Thieves' Guild: {thieves_result(before, ev.faces[0])}" + \
            _health_changes(before, after)
    la = after.last_action
    if la and la is not before.last_action:
        return f"{la['title']}: " + " → ".join(la["lines"]) + (f" ({la['result']})" if la.get("result") else "")
    return ""


def _health_changes(before: ThState, after: ThState) -> str:
    changes = [f"{name(before, h)} {x.health} → {after.heroes[h].health}" for h, x in before.heroes.items()
               if after.heroes[h].health != x.health]
    return ("; " + ", ".join(changes)) if changes else ""


def _entered(state: ThState, ev: Enter) -> str:
    """The log line of a value entered from a component (``th-enter``)."""
    v = ev.value
    if ev.what in ("speed", "alignment"):
        return f"{name(state, ev.key)}'s {ev.what} entered: {v if ev.what == 'speed' else str(v).capitalize()}"
    if ev.what == "power":
        a, d = v["values"]
        return f"{catalog.powers()[ev.key]['name']} entered: Attack {a} / Defense {d}, {v.get('damage_type', 'physical')} damage"
    if ev.what == "thieves-faces":
        return "The Thieves' Guild die entered: " + ", ".join(f"{f} {v[str(f)].replace('-', ' ')}" for f in range(1, 7))
    parts = [f"{v['damage']} damage" if "damage" in v else "", {1: "one hand", 2: "two hands"}.get(v.get("hands"), ""),
             ", ".join(f"resists {t}" for t in v.get("resistance", ())),
             f"Artifact +{v.get('attack', 0)} Attack +{v.get('defense', 0)} Defense" if v.get("artifact") else ""]
    return f"Item token entered: {v.get('name', ev.key)} (" + ", ".join(p for p in parts if p) + ")"
