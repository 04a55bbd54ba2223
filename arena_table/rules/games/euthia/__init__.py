"""Euthia: Torment of Resurrection — Fierce Powers (rulebook: ``../shared/rulebooks/euthia-fierce-powers.txt``).

The engine runs the automated Monster of Playing with Fire (the solo mode, l.776-842) and of
Fellowship (the co-op mode, l.843-975): it reads the two Monster dice and the Combat die, takes
Gaar tokens, sets Silver cards aside, performs Chaos Actions from the Silver and Gold caches it
counts, names the Monster die to re-roll with Gaar and why, and resolves the attack range the
Combat Value reaches. Modules: :mod:`.monster_attack` (steps B and C), :mod:`.caches` (the caches
and Chaos Actions), :mod:`.wounds` (Monster Healing tokens, Rotting Fly and Worm),
:mod:`.combat` (setup, injuries, death, rewards), :mod:`.rolls` (Hero Rolls, Charm, Map
Secrets), :mod:`.tiles`, :mod:`.fellowship`, :mod:`.setup`, :mod:`.view`.

A Playing with Fire Monster Attack in notation::

    start game=euthia options={"heroes":["ael"],"monsters":{"shadowbeast":{...}}}
    eu-combat enemies=["shadowbeast"] heroes=["ael"]
    eu-monster-attack enemy=0 target=ael
    roll die=eu-monster faces=[1,6]
    roll die=eu-combat faces=[1]        # the engine spends a Gaar token: re-roll the 1
    roll die=eu-monster faces=[3]       # Combat Value 3 + 6 + 2 = 11
    eu-done

The book refers to the base game for values it does not print (the Monster cards' values, most
Silver/Gold card boxes, the Combat die's faces, Hero Health, the Die of Hope): these are data
with ``to_enter`` markers, listed by the view's ``extra.to_enter`` and given as ``start`` options.

>>> from arena_table.rules import find_game
>>> find_game("euthia").title
'Euthia: Fierce Powers'
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping

from arena_table.rules.kernel.events import DiceRolled, Event, TagPlaced
from arena_table.rules.kernel.game import Game, Outcome
from arena_table.rules.kernel.mechanics.dice import kind_values
from arena_table.rules.kernel.view import View

from . import catalog, combat, familiars, fellowship, monster_attack as ma, offers, rolls, sensed, tiles
from . import events as ev
from .flow import FLOW
from .setup import new_game
from .state import EuState, Refused, put_hero
from .view import describe as _describe, view as _view

DICE = {"eu-monster": 6, "eu-combat": 6, "eu-attack": 6, "eu-hero": 6, "d6": 6}
"""The dice Euthia rolls: the Monster dice (two dice of another Hero, l.787), the Combat die (faces
1-6 named by ``combat_die``), the three of one Monster-Attack throw (``eu-attack``: two Monster
dice then the Combat die), a Hero's two dice, and a plain d6 for whichever is awaited. By die kind
(``data/die_kinds.json``): ``euthia-hero``, ``euthia-monster``, ``euthia-combat`` (aliases of the above)."""


def _kind_roll(state: EuState, e: DiceRolled) -> EuState:
    """A throw named by die kind: Hero dice (``euthia-hero``) are the open Hero roll, Monster dice
    (``euthia-monster``) the Monster-Attack roll, the Combat die (``euthia-combat``) read by its symbols
    (``chaos+chaos``, as ``eu-combat-face``), Monster dice and the Combat die of one throw together
    (step B); a plain ``d6`` kind as a ``d6`` roll.

    Raises:
        Refused: a mix of Hero dice with others, more than one Combat die, or as the handlers above.
    """
    groups: dict[str, list] = {}
    for kid, value in kind_values(e):
        groups.setdefault(kid, []).append(value)
    hero, monster, combat_d = (groups.pop(k, []) for k in ("euthia-hero", "euthia-monster", "euthia-combat"))
    plain = groups.pop("d6", [])
    if groups:
        return state  # dice Euthia does not throw: the tray keeps them
    if hero and (monster or combat_d or plain):
        raise Refused("Hero dice are thrown on their own, not with Monster dice or the Combat die")
    if len(combat_d) > 1:
        raise Refused(f"one Combat die, not {len(combat_d)}")
    if hero:
        return rolls.hero_dice(state, tuple(hero))
    if monster:
        state = ma.monster_dice(state, tuple(monster))
    if combat_d:
        state = ma.combat_face(state, tuple(str(combat_d[0]).split("+")))
    if plain:
        state = _roll(state, DiceRolled(faces=tuple(plain)))
    return state


def _roll(state: EuState, e: DiceRolled) -> EuState:
    if e.kinds:
        return _kind_roll(state, e)
    die, faces = e.die.lower(), tuple(e.faces)
    c = state.combat
    attack = c.attack if c is not None and not c.over else None
    if die == "eu-attack":
        if attack is None or attack.step != "roll" or attack.dice or attack.combat:
            raise Refused("no Monster-Attack roll is awaited")
        want = 1 if attack.one_die else 2
        if len(faces) != want + 1:
            raise Refused(f"{want} Monster {'die' if want == 1 else 'dice'} and the Combat die, got {len(faces)} faces")
        return ma.combat_die(ma.monster_dice(state, faces[:want]), faces[want])
    if die == "eu-combat":
        if len(faces) != 1:
            raise Refused("one Combat die")
        return ma.combat_die(state, faces[0])
    if die == "eu-monster":
        return ma.monster_dice(state, faces)
    if die == "eu-hero":
        return rolls.hero_dice(state, faces)
    if rolls.open_roll(state) is not None and not rolls.open_roll(state).dice:
        return rolls.hero_dice(state, faces)
    if attack is not None and ma.dice_awaited(attack):
        return ma.monster_dice(state, faces)
    return state  # a d6 nobody waited for: the tray keeps it


def _done(state: EuState, e: ev.Done) -> EuState:
    c = state.combat
    if c is not None and not c.over and c.attack is not None:
        return combat.resolve(state)
    return rolls.settle(state)


def _tag(state: EuState, e: TagPlaced) -> EuState:
    """A Silver or Gold card laid on a pad (``euthia:card:<type>``) is the card a Chaos Action revealed."""
    kind, _, oid = e.object.removeprefix("euthia:").partition(":")
    c = state.combat
    if e.object.startswith("euthia:") and kind == "card" and c and c.attack and c.attack.step == "reveal":
        return ma.reveal(state, oid)
    return state


def _reroll(state: EuState, e: ev.HeroReroll) -> EuState:
    h = state.hero(e.hero)
    if e.gaar:
        if h.gaar <= 0:
            raise Refused(f"{h.name} has no Gaar token")
        state = put_hero(state, dataclasses.replace(h, gaar=h.gaar - 1))
    return ma.hero_reroll(state, e.hero, tuple(e.dice), e.reason or ("a Gaar token" if e.gaar else "a re-roll"))


def _hope(state: EuState, e: ev.Hope) -> EuState:
    """The Die of Hope's points spent or added (base-game Die of Hope; Prayer, Scroll of Blessing)."""
    c = state.combat
    if c is None or c.over:
        raise Refused("the Die of Hope is used during a Combat")
    state.hero(e.hero)
    hope = c.hope + e.change
    if not 0 <= hope <= state.config.die_of_hope_max:
        raise Refused(f"the Die of Hope shows {c.hope}: {e.change:+d} leaves 0..{state.config.die_of_hope_max}")
    return dataclasses.replace(state, combat=dataclasses.replace(c, hope=hope))


def _injure(state: EuState, e: ev.Injure) -> EuState:
    h = state.hero(e.hero)
    if h.injuries + e.amount < 0:
        raise Refused(f"{h.name} has {h.injuries} Injuries to heal")
    if e.amount > 0:
        return combat.injure(state, e.hero, e.amount, in_combat=False)
    return put_hero(state, dataclasses.replace(h, injuries=h.injuries + e.amount))


def _object(state: EuState, e: ev.PlaceObject) -> EuState:
    """Gaining Secret Card Rewards (l.617-620): the Object token goes beside the Hero board."""
    h = state.hero(e.hero)
    if e.from_sack and e.object not in h.sack:
        raise Refused(f"{h.name} carries no {e.object} Object token")
    sack = list(h.sack)
    if e.from_sack:
        sack.remove(e.object)
    return put_hero(state, dataclasses.replace(h, sack=tuple(sack), objects=h.objects + (e.object,)))


def _beast(state: EuState, e: ev.Beast) -> EuState:
    """Wolf / Bear (l.638-667): the token's Injuries, then the Damage totals against 3 / 4."""
    if e.beast not in rolls.BEASTS:
        raise Refused(f"the killing Tasks are {', '.join(rolls.BEASTS)}, not {e.beast!r}")
    state = combat.injure(state, e.hero, e.injuries, in_combat=False) if e.injuries else state
    h = state.hero(e.hero)
    if rolls.beast_task(e.beast, tuple(e.damage)):
        state = put_hero(state, dataclasses.replace(h, sack=h.sack + (e.beast,)))
    return state


def _odd(state: EuState, e: ev.OddRewards) -> EuState:
    c = state.combat
    if c is None or c.over or len(c.heroes) != 2:
        raise Refused("odd rewards are chosen in a joint Combat")
    for k, h in e.odd.items():
        if h not in c.heroes or k not in fellowship.REWARD_KEYS:
            raise Refused(f"odd rewards name a value ({', '.join(fellowship.REWARD_KEYS)}) and a Hero of the Combat")
    return dataclasses.replace(state, combat=dataclasses.replace(c, odd={**c.odd, **e.odd}))


def _count(n: int) -> int:
    if n < 0:
        raise Refused(f"cards drawn are 0 or more, not {n}")
    return n


def end_game(state: EuState, e: ev.EndGame) -> EuState:
    """The game ends; Map Secrets' Final Scoring adds Reputation, except in Fellowship (no Final
    Scoring, l.848)."""
    if state.config.mode != "fellowship":
        for h in state.heroes.values():
            state = put_hero(state, dataclasses.replace(h, reputation=h.reputation + rolls.final_scoring(h.objects)))
    winners = tuple(state.heroes[h].player for h in state.order) if e.won else ()
    return dataclasses.replace(state, result=(winners, e.reason or ("won" if e.won else "lost")))


HANDLERS = {
    DiceRolled: _roll, TagPlaced: _tag,
    ev.StartCombat: lambda s, e: combat.setup_combat(s, tuple(e.enemies), tuple(e.heroes), e.power, e.familiar),
    ev.MonsterAttack: lambda s, e: ma.begin(s, e.enemy, (e.target,) if e.target else ()),
    ev.Reveal: lambda s, e: ma.reveal(s, e.card),
    ev.CombatFace: lambda s, e: ma.combat_face(s, tuple(e.symbols)),
    ev.UseTile: lambda s, e: tiles.use(s, e.hero, e.tile, e.choice, e.value, e.die),
    ev.Modify: lambda s, e: ma.modify(s, s.hero(e.hero).id, e.cv, e.injuries, e.reason or "by hand"),
    ev.HeroReroll: _reroll, ev.Done: _done,
    ev.StartHeroRoll: lambda s, e: rolls.begin(s, e.hero, e.purpose, e.target, e.weapon, tuple(e.revealed)),
    ev.Damage: lambda s, e: combat.damage(s, e.hero, e.amount, e.target),
    ev.Hope: _hope, ev.Injure: _injure,
    ev.Death: lambda s, e: combat.die(s, s.hero(e.hero).id, in_combat=False),
    ev.NewRound: lambda s, e: fellowship.new_round(s, e.card, e.leader),
    ev.Exchange: lambda s, e: fellowship.exchange(s, e.giver, e.gifts),
    ev.TakeMoveToken: lambda s, e: fellowship.take_move_token(s, e.hero),
    ev.Quest: lambda s, e: fellowship.quest(s, e.hero),
    ev.Draw: lambda s, e: combat.draw(s, s.hero(e.hero).id, _count(e.silver), _count(e.gold), e.cache),
    ev.FamiliarAction: lambda s, e: familiars.act(s, e.hero, e.action, e.familiar, e.steps, e.slot),
    ev.PlaceObject: _object, ev.Beast: _beast, ev.OddRewards: _odd, ev.EndGame: end_game,
    ev.Stand: lambda s, e: sensed.stand(s, e),
}
"""Event type -> handler (the kernel's ``tag-off`` and ``note`` change nothing here)."""


def guard(state: EuState, e: Event) -> None:
    """Nothing of Euthia's own is accepted once the game is over."""
    if state.result is not None and e.KIND.startswith("eu-"):
        raise Refused("the game is over")


def _setup(options: Mapping[str, Any]) -> EuState:
    """Initial state (options: :mod:`.setup`; the start form's values: :mod:`.form`).

    Raises:
        ValueError: bad options (the message names the option).
    """
    from .form import to_options
    return new_game(to_options(options))


def _setup_form() -> list[dict[str, Any]]:
    from .form import setup_form
    return setup_form()


def outcome(state: EuState) -> Outcome | None:
    """The scenario's end as entered (``eu-end``)."""
    if state.result is None:
        return None
    winners, reason = state.result
    return Outcome(winners=tuple(winners), reason=reason)


def view_of(state: EuState, viewer: str = "spectator") -> View:
    """The view of docs/view-schema.md, typed (:mod:`.view` builds its JSON form)."""
    return View.from_json(_view(state, viewer))


def describe(state: EuState, event: Event) -> str:
    """One log line for ``event`` (``state`` is the one before it)."""
    try:
        after = GAME.apply(state, event)
    except (Refused, KeyError, ValueError):
        after = None
    return _describe(state, after, event)


def objects() -> list[str]:
    """Taggable objects: Heroes, Monster cards, Silver/Gold card types (a revealed card laid on a pad)."""
    from .setup import HEROES
    out = [f"euthia:hero:{h}" for h in HEROES]
    out += [f"euthia:monster:{m}" for m in catalog.monsters()]
    out += [f"euthia:card:{t}" for cache in catalog.cards().values() for t in cache]
    return out


GAME = Game(
    name="euthia", title="Euthia: Fierce Powers", aliases=("euthia-fierce-powers", "fierce-powers", "eu"),
    setup=_setup, handlers=HANDLERS, flow=FLOW, guard=guard, outcome=outcome, view=view_of, describe=describe,
    objects=objects, dice=lambda state: dict(DICE), setup_form=_setup_form, summary=lambda state: state.summary(),
    actions=lambda state: offers.actions(state, GAME.apply), figures=sensed.FIGURES, board=sensed.board)
