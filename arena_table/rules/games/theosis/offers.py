"""What the players can do now in Theosis, as tappable actions (``Game.actions``).

Covers the Hierapolis turns (p.10-12): the placer's heroes, each with the quests and
locations it may take now (the first hero of a turn a golden quest slot, p.10), the
targets of Warmonger, Deceitful and the Thieves' Guild, the Market's items, the Mage
Tower's Rituals; then the Artifact, the sealed bids and the end of the turn. The Hero Ranking's
gold, each player in allocation order placing gold on each living Hero (p.13 Step 2). In the
Arena (p.14) the acting Hero's move to a hex (entering the Arena, then within its speed),
actions 1-2 (discard a Power face down, with or without a Mana gem placed) and action 5, a
Power used face down on an enemy Hero in range who defends with a Power face down (p.16). Every choice
is one :func:`~arena_table.rules.kernel.actions.accepts` lets through, so only what
``apply`` accepts is offered. While the Thieves' Guild d6 or the Mercenary Camp d4 is awaited,
its faces are offered (the d6's with their results); while another die is awaited nothing is. A Ritual due at the start of an Arena turn (p.14), cast by its player: Mana Surge's up to four
Mana gems to allied Heroes (p.44); a Ritual token placed on the hex chosen (the tokens' shapes
are pictures in the book: a token covering more hexes is typed with all of them). Blessings,
Spells, Skills and area attacks are still typed at the control page's advanced panel.
Fast Action Preparation (Game Modes): each player drafts a Power of each value pair, each Hero
places its Mana gem, then its end. A monster's attack (Monster Defense): the Hero it targets and
the Power each attacked Hero defends with.
"""

from __future__ import annotations

from typing import Any

from arena_table.rules.kernel.actions import Action, Apply, Choice, Param, accepts, legal, settled
from arena_table.rules.kernel.geometry import hexes

from . import catalog
from .mats import name, play_card, skills_of
from .preparation import LOCATIONS, next_placer, thieves_result
from .ranking import allocation_order
from .state import CENTRE, ThState

LOCATION_NAMES = {"tavern": "Tavern", "cathedral": "Cathedral", "thieves-guild": "Thieves' Guild",
                  "mercenary-camp": "Mercenary Camp", "market": "Market", "mage-tower": "Mage Tower"}
"""Hierapolis locations by their names on the board (Hierapolis Locations, p.11)."""
RITUAL_TURNS = range(1, 10)
"""The turn tokens a Ritual is prepared with at the Mage Tower (1-9, p.14)."""


def actions(state: ThState, apply: Apply) -> list[Action]:
    """The actions legal in ``state`` under ``apply`` (the game's own, ``GAME.apply``); empty while a roll is awaited or the game is over."""
    if state.pending and state.pending.kind == "ritual":
        return [a for a in _rituals(state, apply) if a]
    if state.pending and state.pending.kind == "monster-targets":
        return [a for a in (settled(_monster_targets(state, apply)),) if a]
    if state.pending:
        roll = _roll(state, apply)
        return [roll] if roll else []
    out: list[Action] = []
    if state.phase == "preparation":
        out += _placements(state, apply) or _bidding(state, apply)
    elif state.phase == "fast":
        out += [a for a in (settled(a) for a in _fast(state, apply)) if a]
    elif state.phase == "ranking":
        out += _allocation(state, apply)
    elif state.phase == "combat":
        out += [a for a in (settled(a) for a in _arena(state, apply)) if a]
    if accepts(apply, state, "th-next", {}):
        done = {"preparation": "End the turn", "fast": "End Fast Action Preparation"}
        out.append(Action(kind="th-next", label=done.get(state.phase, "Done"),
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


def _allocation(state: ThState, apply: Apply) -> list[Action]:
    """The player whose turn it is to allocate puts gold on each living Hero in turn (p.13 Step 2):
    each Hero's amounts are those ``apply`` accepts with the gold already put on the Heroes before."""
    todo = [pid for pid in allocation_order(state) if not state.player(pid).allocated]
    if not todo:
        return []
    p = state.player(todo[0])
    heroes = [h for h in p.heroes if state.heroes[h].alive]

    def rows(i: int, given: dict[str, int]) -> tuple[Param, ...]:
        if i == len(heroes):
            return ()
        h, choices = heroes[i], []
        for g in range(p.gold - sum(given.values()) + 1):
            gold = {**given, h: g}
            if accepts(apply, state, "th-allocate", {"player": p.id, "gold": gold}):
                choices.append(Choice(f"{g} gold", {"gold": {h: g}}, rows(i + 1, gold)))
        return (Param(f"gold.{h}", f"Gold on {name(state, h)}", tuple(choices)),) if choices else ()

    params = rows(0, {})
    if not params and not accepts(apply, state, "th-allocate", {"player": p.id, "gold": {}}):
        return []
    return [Action(kind="th-allocate", label=f"{p.id}: put gold on the Heroes ({p.gold} gold)", player=p.id,
                   fields={"player": p.id, "gold": {}}, params=params)]


def _arena(state: ThState, apply: Apply) -> list[Action | None]:
    """The acting Hero: a move (entering the Arena on any free hex, then within its speed, p.14) and
    actions 1-2 (discard a Power face down; with a Mana gem placed in a Skill, one Damage taken)."""
    out: list[Action | None] = []
    centre = (CENTRE,) + tuple(hexes.ring(CENTRE, 1))
    for m in state.monsters:  # Setting Up the Arena (Monster Modes): they enter at the centre, side by side
        if m.alive and m.cell is None:
            out.append(legal(apply, state, "th-move", f"{name(state, m.id)} enters the Arena", "", {"hero": m.id},
                             (Param("cell", "On the hex", tuple(Choice(f"hex {q},{r}", {"cell": [q, r]})
                                                                for q, r in centre)),)))
    hid = state.acting_hero()
    if hid is None:
        return out
    h = state.heroes[hid]
    me = {"hero": hid}
    cells = tuple(Choice(f"hex {q},{r}", {"cell": [q, r]}) for q, r in hexes.disc(CENTRE, state.config.arena_radius)
                  if (q, r) != h.cell)
    out.append(legal(apply, state, "th-move", f"{name(state, hid)}: " + ("enter the Arena" if h.cell is None else "move"),
                     h.player, me, (Param("cell", "To the hex", cells),)))
    gems = (Choice("do nothing", {}),) + tuple(
        Choice(f"place a Mana gem in {catalog.skills().get(sk, {}).get('name', sk)} (take one Damage)", {"skill": sk})
        for sk in skills_of(state, hid) if sk not in h.mana)
    hand = tuple(dict.fromkeys(state.player(h.player).hand))
    powers = tuple(Choice(name(state, c), {"power": c}, (Param("skill", "And", gems),)) for c in hand)
    pass_params = (Param("power", "Discard face down", powers),) if powers else (Param("skill", "And", gems),)
    out.append(legal(apply, state, "th-pass", f"{name(state, hid)}: discard a Power face down", h.player, me,
                     pass_params))
    out.append(_attack(state, apply, hid, hand))
    return out


def _attack(state: ThState, apply: Apply, hid: str, hand: tuple[str, ...]) -> Action | None:
    """Action 5 (p.14): use a Power face down on one enemy Hero in range, who defends with a Power
    of its player's hand face down (p.16), or on a monster, whose Defense d4 is rolled next; each
    target asks its own Powers (range and defence differ)."""
    h = state.heroes[hid]
    team = state.player(h.player).team
    targets = []
    for t, x in state.heroes.items():
        if not x.alive or x.cell is None or state.team_of(t) == team:
            continue
        defender = x.player
        defend = Param("defend", f"{defender} defends with", tuple(
            Choice(name(state, c), {"defend": [c]}) for c in dict.fromkeys(state.player(defender).hand)))
        attack = Param("power", "Power used face down", tuple(Choice(name(state, c), {"power": c}) for c in hand))
        targets.append(Choice(name(state, t), {"target": [t]}, (attack, defend)))
    for m in state.monsters:  # a monster defends with its d4, rolled next (Monster Defense)
        if m.alive and m.cell is not None:
            attack = Param("power", "Power used face down", tuple(Choice(name(state, c), {"power": c}) for c in hand))
            targets.append(Choice(name(state, m.id), {"target": [m.id]}, (attack,)))
    if not targets or not hand:
        return None
    return legal(apply, state, "th-attack", f"{name(state, hid)}: use a Power face down (attack)", h.player,
                 {"hero": hid}, (Param("target", "Which enemy Hero", tuple(targets)),))


MANA_SURGE_GEMS = 4
"""Mana Surge: "a total of up to four Mana gems distributed as you like" to allied Heroes (p.44)."""


def _rituals(state: ThState, apply: Apply) -> list[Action | None]:
    """Each player's Ritual due this turn (Rituals come first, p.14)."""
    out: list[Action | None] = []
    for pid in state.pending.data.get("due", ()):
        p = state.player(pid)
        ritual = next((r for r, t in p.rituals if t == state.turn and r not in p.cast), None)
        if ritual is None:
            continue
        rec = catalog.rituals().get(ritual, {})
        label = f"{pid}: cast {rec.get('name', ritual)}"
        params: tuple[Param, ...] = ()
        if ritual == "mana-surge":
            allies = [h for h, x in state.heroes.items() if x.alive and state.team_of(h) == p.team]
            params = (_gems(state, allies, ()),)
        elif rec.get("token"):
            params = (Param("cells", "Its token on the hex", tuple(
                Choice(f"hex {q},{r}", {"cells": [[q, r]]}) for q, r in hexes.disc(CENTRE, state.config.arena_radius)
                if (q, r) != CENTRE)),)
        out.append(legal(apply, state, "th-ritual", label, pid, {"player": pid}, params))
    return out


def _gems(state: ThState, allies: list[str], given: tuple[str, ...]) -> Param:
    """The next Mana gem of Mana Surge: to an allied Hero, or no more (each choice carries the gems so far)."""
    more = len(given) + 1 < MANA_SURGE_GEMS
    return Param("mana", f"Mana gem {len(given) + 1}", (Choice("no more gems", {"mana": list(given)}),) + tuple(
        Choice(name(state, h), {"mana": [*given, h]}, (_gems(state, allies, (*given, h)),) if more else ())
        for h in allies))


def _fast(state: ThState, apply: Apply) -> list[Action | None]:
    """Fast Action Preparation (Game Modes): a Power of each value pair drafted by each player, and
    each Hero's one Mana gem placed in a Skill of its choice."""
    out: list[Action | None] = []
    drafted = {c for p in state.players for c in p.hand}
    for p in state.players:
        if len(p.hand) < len(catalog.VALUE_ORDER):
            powers = tuple(Choice(name(state, c), {"power": c}) for c in catalog.powers() if c not in drafted)
            out.append(legal(apply, state, "th-draft", f"{p.id}: draft a Power", p.id, {"player": p.id},
                             (Param("power", "Power", powers),)))
        for hid in p.heroes:
            h = state.heroes[hid]
            if h.alive and not h.mana:
                skills = tuple(Choice(catalog.skills().get(sk, {}).get("name", sk), {"skill": sk})
                               for sk in skills_of(state, hid))
                out.append(legal(apply, state, "th-gem", f"{name(state, hid)}: place its Mana gem", p.id,
                                 {"hero": hid}, (Param("skill", "In the Skill", skills),)))
    return out


def _monster_targets(state: ThState, apply: Apply) -> Action | None:
    """The monster's attacking action (Monster Defense): the Hero it targets (every Hero for an
    attack on all), then each attacked Hero's defence Power, one per Hero per attack, in order."""
    from .monsters import actions_of

    pend = state.pending
    m = state.monster(pend.actor)
    attacks = actions_of(m.kind, pend.data["table"])[pend.data["row"]]["attacks"]
    living = [h for h in state.ranking if state.heroes[h].alive]

    def defences(order: list[str], given: tuple[str, ...], scratch: ThState) -> tuple[Param, ...]:
        """The next defence: a card of the hand as it is after the cards given so far (the last card
        played brings the others back: Power Management, FAQ)."""
        if len(given) == len(order):
            return ()
        pid = state.heroes[order[len(given)]].player
        return (Param("defend", f"{name(state, order[len(given)])} defends with", tuple(
            Choice(name(state, c), {"defend": [*given, c]}, defences(order, (*given, c), play_card(scratch, pid, c)))
            for c in dict.fromkeys(scratch.player(pid).hand))),)

    if any(a.get("area") == "all" for a in attacks):
        from .arena import area_safe
        hit = [h for h in living if not area_safe(state, h)]
        order = [t for a in attacks for t in (hit if a.get("area") == "all" else hit[:1])]
        return legal(apply, state, "th-monster", f"{name(state, m.id)} attacks", "", {"monster": m.id},
                     defences(order, (), state))
    targets = tuple(Choice(name(state, t), {"target": [t]}, defences([t] * len(attacks), (), state)) for t in living)
    return legal(apply, state, "th-monster", f"{name(state, m.id)} attacks: its target", "", {"monster": m.id},
                 (Param("target", "The Hero it targets", targets),))
