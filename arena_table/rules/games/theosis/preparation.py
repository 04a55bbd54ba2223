"""The Preparation Phase: six turns in Hierapolis (pp.10-12) and Fast Action Preparation (Game Modes).

Heroes are placed one at a time, players taking turns clockwise from the Initiative
Marker holder; each player's first Hero of a turn must take a quest's golden slot and gains
that quest's Power with the turn's values (4,0), (3,1), (2,2), (1,1), (1,3), (0,4). Quests
move their Alignment track one step; golden slots also give the quest reward. Thieves'
Guild (d6) and Mercenary Camp (d4) wait for the ``roll`` event. After all placements the
Artifact is bid for with sealed bids; every bid is paid, a tie discards the Artifact.
"""

from __future__ import annotations

import dataclasses

from arena_table.rules.kernel.errors import Refused

from . import catalog
from .events import ArtifactRevealed, Bid, Draft, Equip, Gem, Next, Place
from .mats import add_gems, alive_hero, damage, equip, give_gems, heal, item, name, power_values
from .state import MAX_HEALTH, Pending, ThState, replace_hero, replace_player

LOCATIONS = ("tavern", "cathedral", "thieves-guild", "mercenary-camp", "market", "mage-tower")


def next_placer(state: ThState) -> str | None:
    """The player who places a Hero now: round by round in initiative order (p.10)."""
    best = None
    for pid in state.initiative_order():
        p = state.player(pid)
        todo = [h for h in p.heroes if state.heroes[h].alive and not state.heroes[h].placed]
        if not todo:
            continue
        done = sum(1 for h in p.heroes if state.heroes[h].placed)
        if best is None or done < best[0]:
            best = (done, pid)
    return best[1] if best else None


def quest_card(state: ThState, alignment: str, choice: str = "") -> str:
    """The Power a golden slot gives this turn: the alignment's card with this turn's values, or
    the expansion card with the same values when chosen (p.4, errata p.4)."""
    values = catalog.VALUE_ORDER[state.prep_turn - 1]
    cands = [p for p, rec in catalog.powers().items() if rec["alignment"] == alignment
             and (not rec.get("expansion") or state.config.expansion) and _values_or_none(state, p) == values]
    basic = [p for p in cands if not catalog.powers()[p].get("expansion") and p != "frigid-night"] or cands
    if choice:
        if choice not in cands:
            raise Refused(f"{choice!r} is not offered on the {alignment} quest this turn (offer: {', '.join(cands)})")
        return choice
    if not basic:
        raise Refused(f"no {alignment} Power with values {values}: check power_values")
    return basic[0]


def _values_or_none(state: ThState, pid: str) -> tuple[int, int] | None:
    try:
        return power_values(state, pid)
    except Refused:
        return None


def _move_track(state: ThState, alignment: str) -> ThState:
    for first, second in catalog.TRACKS:
        if alignment in (first, second):
            pos = state.alignment[first] + (1 if alignment == first else -1)
            pos = max(-catalog.TRACK_MAX, min(catalog.TRACK_MAX, pos))
            return dataclasses.replace(state, alignment={**state.alignment, first: pos})
    raise Refused(f"{alignment!r} is not an alignment")


def _gold(state: ThState, pid: str, delta: int) -> ThState:
    p = state.player(pid)
    return replace_player(state, dataclasses.replace(p, gold=max(0, p.gold + delta)))


def _enemy_hero(state: ThState, pid: str, target: str) -> str:
    if target not in state.heroes:
        raise Refused(f"{target!r} is not a hero in this game")
    alive_hero(state, target)
    if state.team_of(target) == state.player(pid).team:
        raise Refused(f"{name(state, target)} is not an enemy hero")
    return target


def _target_player(state: ThState, target: str) -> str:
    if target in state.heroes:
        return state.heroes[target].player
    try:
        return state.player(target).id
    except KeyError:
        raise Refused(f"{target!r} is neither a player nor a hero") from None


def place(state: ThState, ev: Place) -> ThState:
    if state.phase != "preparation":
        raise Refused("heroes are placed in Hierapolis only during the Preparation Phase")
    if state.pending:
        raise Refused(f"waiting for {state.pending.kind} first")
    if state.artifact:
        raise Refused("all heroes are placed; the Artifact is being bid for")
    h = alive_hero(state, ev.hero)
    if h.placed:
        raise Refused(f"{name(state, ev.hero)} is already at the {h.placed} this turn")
    who = next_placer(state)
    if h.player != who:
        raise Refused(f"it is {who}'s turn to place a hero")
    pid = h.player
    first = not any(state.heroes[x].placed for x in state.player(pid).heroes)
    quest = ev.location in catalog.ALIGNMENTS
    if not quest and ev.location not in LOCATIONS:
        raise Refused(f"unknown location {ev.location!r}; quests: {', '.join(catalog.ALIGNMENTS)}; "
                       f"locations: {', '.join(LOCATIONS)}")
    if state.monsters and len(state.heroes) <= 9 and ev.location in ("deceitful", "thieves-guild"):
        raise Refused("with nine or fewer heroes against monsters the Deceitful Quest and the Thieves' Guild "
                       "belong to the three enemy heroes (Game Modes)")
    if ev.golden and not quest:
        raise Refused("only quests have golden slots")
    if ev.golden and ev.location in state.golden:
        raise Refused(f"the golden slot of the {ev.location} quest is taken this turn")
    if first and not ev.golden:
        raise Refused("a player's first hero each turn goes to a golden quest slot (p.10)")
    if ev.golden and not first:
        raise Refused("one golden slot per player each turn (p.10)")
    state = replace_hero(state, dataclasses.replace(h, placed=ev.location))
    if quest:
        state = _move_track(state, ev.location)
        if ev.golden:
            state = dataclasses.replace(state, golden=state.golden + (ev.location,))
            state = _golden_reward(state, ev, pid)
        return state
    return _location(state, ev, pid)


def _golden_reward(state: ThState, ev: Place, pid: str) -> ThState:
    card = quest_card(state, ev.location, ev.power)
    p = state.player(pid)
    state = replace_player(state, dataclasses.replace(p, hand=p.hand + (card,)))
    quest = catalog.locations()["quests"][ev.location]
    state = _gold(state, pid, quest["gold"])
    if ev.location == "warmonger" and ev.target:
        state = damage(state, _enemy_hero(state, pid, ev.target), 1)
    elif ev.location == "guardian":
        state = dataclasses.replace(state, initiative_next=pid)
    elif ev.location == "deceitful" and ev.target:
        victim = _target_player(state, ev.target)
        if not -1 <= ev.amount <= 3:
            raise Refused(f"the Deceitful quest steals 0 to 3 gold (amount=-1: as much as allowed), not {ev.amount}")
        amount = min(3 if ev.amount < 0 else ev.amount, state.player(victim).gold)
        state = _gold(_gold(state, victim, -amount), pid, amount)
    elif ev.location in ("righteous", "vengeful") and ev.item:
        state = equip(state, ev.equip or ev.hero, ev.item)
    elif ev.location == "merciful":
        if len(ev.mana) > 2:
            raise Refused("the Merciful quest gives up to two Mana gems")
        state = give_gems(state, ev.mana, pid)
    return state


def _location(state: ThState, ev: Place, pid: str) -> ThState:
    loc = ev.location
    if loc == "tavern":
        return dataclasses.replace(state, initiative_next=pid)
    if loc == "cathedral":
        if len(ev.mana) > 2:
            raise Refused("the Cathedral gives up to two Mana gems")
        state = give_gems(state, ev.mana, pid)
        if ev.heal:
            alive_hero(state, ev.heal)
            state = heal(state, ev.heal, MAX_HEALTH)
        return state
    if loc == "thieves-guild":
        return dataclasses.replace(state, pending=Pending("thieves-d6", pid, {"target": ev.target, "hero": ev.hero}))
    if loc == "mercenary-camp":
        return dataclasses.replace(state, pending=Pending("mercenary-d4", pid, {"hero": ev.hero}))
    if loc == "market":
        return equip(state, ev.equip or ev.hero, ev.item) if ev.item else state
    # mage tower
    if ev.ritual not in catalog.rituals() or not 1 <= ev.ritual_turn <= 9:
        raise Refused("the Mage Tower needs a ritual and a turn token 1-9")
    p = state.player(pid)
    return replace_player(state, dataclasses.replace(p, rituals=p.rituals + ((ev.ritual, ev.ritual_turn),)))


def thieves_result(state: ThState, face: int) -> str:
    faces = {**{k: v for k, v in catalog.locations()["thieves_guild_faces"].items() if not k.startswith("_")},
             **state.config.thieves_faces}
    return faces[str(face)]


def on_die(state: ThState, faces: tuple[int, ...]) -> tuple[ThState, str]:
    """Resolve a waiting Thieves' Guild d6 or Mercenary Camp d4; returns (state, what happened)."""
    pend = state.pending
    pid = pend.actor
    state = dataclasses.replace(state, pending=None)
    if pend.kind == "mercenary-d4":
        return _gold(state, pid, faces[0]), f"{pid} earns {faces[0]} gold at the Mercenary Camp"
    result = thieves_result(state, faces[0])
    target = pend.data.get("target", "")
    if result == "gain-initiative":
        return dataclasses.replace(state, initiative_next=pid), f"{pid} gains the Initiative Marker"
    if not target:
        return state, f"{pid} rolls {result} but named no target"
    if result == "deal-3-damage":
        return damage(state, _enemy_hero(state, pid, target), 3), f"{name(state, target)} takes 3 damage"
    if result == "steal-mana":
        victim = state.heroes[_enemy_hero(state, pid, target)]
        if not victim.mana:
            return state, f"{name(state, target)} has no Mana to steal"
        state = replace_hero(state, dataclasses.replace(victim, mana=victim.mana[:-1]))
        return add_gems(state, pend.data["hero"], 1), f"{pid} steals a Mana gem from {name(state, target)}"
    amount = 2 if result == "steal-2-gold" else 4
    victim = _target_player(state, target)
    amount = min(amount, state.player(victim).gold)
    return _gold(_gold(state, victim, -amount), pid, amount), f"{pid} steals {amount} gold from {victim}"


def reveal(state: ThState, ev: ArtifactRevealed) -> ThState:
    if state.phase != "preparation" or next_placer(state) is not None or state.pending:
        raise Refused("the Artifact is revealed after every hero is placed (p.12)")
    if state.artifact:
        raise Refused(f"this turn's Artifact ({state.artifact}) is already revealed")
    item(state, ev.artifact)
    return dataclasses.replace(state, artifact=ev.artifact)


def bid(state: ThState, ev: Bid) -> tuple[ThState, str]:
    """Record a sealed bid; when every player has bid, resolve (p.12). Returns (state, resolution)."""
    if not state.artifact:
        raise Refused("no Artifact is up for bidding")
    p = state.player(ev.player) if any(x.id == ev.player for x in state.players) else None
    if p is None:
        raise Refused(f"no player {ev.player!r}")
    if p.bid is not None:
        raise Refused(f"{p.id} has already bid")
    if not 0 <= ev.amount <= p.gold:
        raise Refused(f"{p.id} can bid 0 to {p.gold} gold")
    hero = ev.hero or next((h for h in p.heroes if state.heroes[h].alive), "")
    if ev.amount and state.heroes[hero].player != p.id:
        raise Refused(f"{name(state, hero)} is not {p.id}'s hero")
    if ev.amount:
        equip(state, hero, state.artifact)  # raises now if the hero could not take it
    state = replace_player(state, dataclasses.replace(p, bid=ev.amount, bid_hero=hero))
    if any(x.bid is None for x in state.players):
        return state, ""
    bids = {x.id: x.bid for x in state.players}
    top = max(bids.values())
    winners = [pid for pid, b in bids.items() if b == top]
    for x in state.players:
        state = replace_player(state, dataclasses.replace(state.player(x.id), gold=x.gold - x.bid))
    art = state.artifact
    if top == 0:
        text = f"nobody bids for {name(state, art)}"
    elif len(winners) > 1:
        text = f"tie at {top} gold between {', '.join(winners)}: {art} is discarded, all bids are paid"
    else:
        w = state.player(winners[0])
        state = equip(state, w.bid_hero, art)
        text = f"{w.id} wins {art} for {top} gold ({name(state, w.bid_hero)} equips it); all bids are paid"
    return state, text


def end_turn(state: ThState, ev: Next) -> ThState:
    """End a Hierapolis turn (or, in Fast Action Preparation, the draft); the Ranking steps follow
    the sixth (p.13), in :mod:`.flow`."""
    if state.pending:
        raise Refused(f"waiting for {state.pending.kind} first")
    if state.phase == "fast":
        short = [p.id for p in state.players if len(p.hand) < 6]
        if short:
            raise Refused(f"{', '.join(short)} must draft a full set of six Powers first (Game Modes)")
        # a Hero still without its Mana gem is named in the log line (describe.py, gemless), not refused:
        # logs recorded before this check would no longer replay past their th-next
        return state  # the phase table ends Fast Action Preparation on this th-next (flow.py)
    if next_placer(state) is not None:
        raise Refused(f"{next_placer(state)} still has heroes to place")
    if state.artifact and any(p.bid is None for p in state.players):
        raise Refused("bidding for the Artifact is not finished")
    heroes = {k: dataclasses.replace(h, placed="") for k, h in state.heroes.items()}
    players = tuple(dataclasses.replace(p, bid=None, bid_hero="") for p in state.players)
    state = dataclasses.replace(state, heroes=heroes, players=players, golden=(), artifact="",
                                initiative=state.initiative_next or state.initiative, initiative_next="",
                                prep_turn=state.prep_turn + 1)
    return state  # after the sixth turn the phase table moves on to the Ranking (flow.py)


def draft(state: ThState, ev: Draft) -> ThState:
    """Fast Action Preparation: each player drafts one card of each value pair (Game Modes)."""
    if state.phase != "fast":
        raise Refused("Powers are drafted only in Fast Action Preparation")
    values = power_values(state, ev.power)
    if values not in catalog.VALUE_ORDER:
        raise Refused(f"{name(state, ev.power)} has no pile values")
    if any(ev.power in p.hand for p in state.players):
        raise Refused(f"{name(state, ev.power)} is already drafted")
    p = state.player(ev.player)
    if any(power_values(state, c) == values for c in p.hand):
        raise Refused(f"{p.id} already holds a {values[0]}.{values[1]} Power")
    return replace_player(state, dataclasses.replace(p, hand=p.hand + (ev.power,)))


def gemless(state: ThState) -> list[str]:
    """Living Heroes with no Mana gem, as ``"Name (id)"`` (Game Modes, Fast Action Preparation:
    each Hero receives one)."""
    return [f"{name(state, h)} ({h})" for p in state.players for h in p.heroes
            if state.heroes[h].alive and not state.heroes[h].mana]


def gem(state: ThState, ev: Gem) -> ThState:
    """``th-gem``: a Mana gem placed in a Skill outside an action (Fast Action Preparation, Ritual,
    corrections).

    In Fast Action Preparation "each Hero receives one Mana crystal and inserts it into a skill
    slot of their choice" (Game Modes): leaving it (``th-next``) names every Hero still without
    one in its log line (:func:`gemless`), and the gem can still be placed afterwards. It is not
    refused there: the event logs of games recorded before that rule was checked hold no
    ``th-gem`` lines, and a refused ``th-next`` would stop their replay at the Preparation (the
    log is the table's source of truth). A second gem is not refused either, as ``th-gem`` is
    also the table's correction of a misplaced gem.

    Raises:
        Refused: unknown hero, or the Skill already holds a gem.
    """
    h = state.heroes.get(ev.hero)
    if h is None:
        raise Refused(f"no hero {ev.hero!r} in this game")
    if ev.skill and ev.skill in h.mana:
        raise Refused(f"no empty skill {ev.skill or ''} on {ev.hero}")
    return add_gems(state, ev.hero, 1, ev.skill)


def fast_equip(state: ThState, ev: Equip) -> ThState:
    """``th-equip``; in Fast Action Preparation the offers bound what the Heroes can carry (Game Modes):
    one Artifact per Hero, at most six, and two other items per Hero.

    The engine does not see which tokens were drawn, so it only refuses carrying more than the
    offers hold; whether every offered token was taken is left to the table (the book's "until all
    Artifacts are selected" is not checked).

    Raises:
        Refused: no free slot, unknown item, or more Artifacts/items than the offers hold.
    """
    state = equip(state, ev.hero, ev.item, ev.drop)
    if state.phase != "fast":
        return state
    heroes = [h for p in state.players for h in p.heroes]
    carried = [i for h in heroes for i in state.heroes[h].items]
    artifacts = sum(1 for i in carried if item(state, i).get("artifact"))
    new = item(state, ev.item)
    if new.get("artifact") and artifacts > min(len(heroes), 6):
        raise Refused(f"the Artifact offer holds one Artifact per Hero, at most six ({min(len(heroes), 6)} here): "
                       f"{new['name']} would be Artifact {artifacts} (Fast Action Preparation)")
    others = len(carried) - artifacts
    if not new.get("artifact") and others > 2 * len(heroes):
        raise Refused(f"the item offer holds two items per Hero ({2 * len(heroes)} here): "
                       f"{new['name']} would be item {others} (Fast Action Preparation)")
    return state
