"""What the players can do now in Theosis, as tappable actions (``Game.actions``).

Covers the Hierapolis turns (p.10-12): the placer's heroes, each with the quests and
locations it may take now (the first hero of a turn a golden quest slot, p.10), the
targets of Warmonger, Deceitful and the Thieves' Guild, the Market's items, the Mage
Tower's Rituals; then the Artifact, the sealed bids and the end of the turn. Every choice
is one :func:`~arena_table.rules.kernel.actions.accepts` lets through, so only what
``apply`` accepts is offered. While the Thieves' Guild d6 or the Mercenary Camp d4 is awaited,
its faces are offered (the d6's with their results); while another die is awaited nothing is. Later phases offer the end of the step (``th-next``) where it is legal;
their moves are still typed at the control page's advanced panel.
"""

from __future__ import annotations

from typing import Any

from arena_table.rules.kernel.actions import Action, Apply, Choice, Param, accepts, legal

from . import catalog
from .mats import name
from .preparation import LOCATIONS, next_placer, thieves_result
from .state import ThState

LOCATION_NAMES = {"tavern": "Tavern", "cathedral": "Cathedral", "thieves-guild": "Thieves' Guild",
                  "mercenary-camp": "Mercenary Camp", "market": "Market", "mage-tower": "Mage Tower"}
"""Hierapolis locations by their names on the board (Hierapolis Locations, p.11)."""
RITUAL_TURNS = range(1, 10)
"""The turn tokens a Ritual is prepared with at the Mage Tower (1-9, p.14)."""


def actions(state: ThState, apply: Apply) -> list[Action]:
    """The actions legal in ``state`` under ``apply`` (the game's own, ``GAME.apply``); empty while a roll is awaited or the game is over."""
    if state.pending:
        roll = _roll(state, apply)
        return [roll] if roll else []
    out: list[Action] = []
    if state.phase == "preparation":
        out += _placements(state, apply) or _bidding(state, apply)
    if accepts(apply, state, "th-next", {}):
        out.append(Action(kind="th-next", label="End the turn" if state.phase == "preparation" else "Done",
                          player=""))
    return out


def _roll(state: ThState, apply: Apply) -> Action | None:
    """The Hierapolis die awaited, its faces to tap: the Thieves' Guild d6 with each face's result
    (the ``thieves_guild_faces`` in force) and the Mercenary Camp d4 (p.11); the Arena's dice are
    rolled at the table and read by the camera or typed."""
    p = state.pending
    if p.kind == "thieves-d6":
        faces = tuple(Choice(f"{f}: {thieves_result(state, f).replace('-', ' ')}", {"faces": [f]}) for f in range(1, 7))
        return legal(apply, state, "roll", "Roll the Thieves' Guild d6", p.actor, {"die": "d6", "source": "control"},
                     (Param("faces", "Face rolled", faces),))
    if p.kind == "mercenary-d4":
        faces = tuple(Choice(f"{f} gold", {"faces": [f]}) for f in range(1, 5))
        return legal(apply, state, "roll", "Roll the Mercenary Camp d4", p.actor, {"die": "d4", "source": "control"},
                     (Param("faces", "Face rolled", faces),))
    return None


def _placements(state: ThState, apply: Apply) -> list[Action]:
    who = next_placer(state)
    if who is None or state.artifact:
        return []
    out = []
    for hid in state.player(who).heroes:
        h = state.heroes[hid]
        if h.alive and not h.placed:
            out.append(legal(apply, state, "th-place", f"Place {name(state, hid)}", who, {"hero": hid},
                             (Param("where", "Where", tuple(_where(state, who, hid))),)))
    return [a for a in out if a is not None]


def _where(state: ThState, pid: str, hid: str) -> list[Choice]:
    """Every quest slot and location, each with what it asks next (targets, item, Ritual)."""
    team = state.player(pid).team
    enemies = [x for x in state.heroes if state.heroes[x].alive and state.team_of(x) != team]
    hero_targets = Param("target", "Which enemy hero", tuple(Choice(name(state, x), {"target": x}) for x in enemies))
    players = Param("target", "Steal from", tuple(Choice(p.id, {"target": p.id}) for p in state.players
                                                  if p.id != pid and p.team != team))
    out = []
    for q in catalog.ALIGNMENTS:
        then: tuple[Param, ...] = ()
        if q == "warmonger" and hero_targets.choices:
            then = (hero_targets,)
        elif q == "deceitful" and players.choices:
            then = (players,)
        out.append(Choice(f"{q.capitalize()} quest (golden slot)", {"location": q, "golden": True}, then))
        out.append(Choice(f"{q.capitalize()} quest", {"location": q, "golden": False}))
    for loc in LOCATIONS:
        then = ()
        if loc == "thieves-guild" and hero_targets.choices:
            then = (hero_targets,)
        elif loc == "market":
            then = (Param("item", "Which item", (Choice("nothing", {}),) + tuple(
                Choice(rec.get("name", iid), {"item": iid}) for iid, rec in _items(state).items()
                if not rec.get("artifact"))),)
        elif loc == "mage-tower":
            turns = Param("ritual_turn", "Turn token", tuple(Choice(str(t), {"ritual_turn": t}) for t in RITUAL_TURNS))
            then = (Param("ritual", "Which Ritual", tuple(Choice(rec.get("name", rid), {"ritual": rid}, (turns,))
                                                          for rid, rec in catalog.rituals().items())),)
        out.append(Choice(LOCATION_NAMES[loc], {"location": loc}, then))
    return out


def _items(state: ThState) -> dict[str, dict[str, Any]]:
    return {**{k: v for k, v in catalog.items().items() if not k.startswith("_")}, **state.config.items}


def _bidding(state: ThState, apply: Apply) -> list[Action]:
    if not state.artifact:
        arts = Param("artifact", "Which Artifact", tuple(Choice(rec.get("name", iid), {"artifact": iid})
                                                         for iid, rec in _items(state).items() if rec.get("artifact")))
        reveal = legal(apply, state, "th-artifact", "Reveal the Artifact", params=(arts,))
        return [reveal] if reveal else []
    out = []
    for p in state.players:
        if p.bid is not None:
            continue
        heroes = Param("hero", "Who equips it", tuple(Choice(name(state, h), {"hero": h}) for h in p.heroes
                                                      if state.heroes[h].alive))
        amounts = Param("amount", "Bid", tuple(Choice(f"{g} gold" if g else "no bid", {"amount": g},
                                                      (heroes,) if g else ()) for g in range(p.gold + 1)))
        out.append(legal(apply, state, "th-bid", f"{p.id}: sealed bid for {name(state, state.artifact)}", p.id,
                         {"player": p.id}, (amounts,)))
    return [a for a in out if a is not None]
