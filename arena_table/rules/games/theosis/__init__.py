"""Theosis (Dreamcraft Games): Hierapolis preparation, Hero Ranking, nine Arena turns, monsters.

The engine keeps every number players would otherwise track on mats and boards and computes
every combat the rules define (see the modules: :mod:`.setup`, :mod:`.preparation`,
:mod:`.ranking`, :mod:`.arena`, :mod:`.fight`, :mod:`.combat`, :mod:`.monsters`, :mod:`.view`).
Section references are to ``../shared/rulebooks/theosis.txt``; its FAQ and errata win.

A game in notation (one event a line; dice and tags are the kernel's ``roll``/``tag-on``)::

    start game=theosis options={"players":["Ann","Bo"],"heroes":{"Ann":["rochon","rac","norn"],...}}
    th-place hero=rochon location=warmonger golden=true target=aer   # Hierapolis, golden quest slot
    th-place hero=rac location=mercenary-camp
    roll die=d4 faces=[3]                                             # Mercenary Camp: +3 gold
    th-artifact artifact=artifact-sword                               # then sealed bids
    th-bid player=Ann amount=2 hero=rochon
    th-next                                                           # end of the Hierapolis turn
    th-allocate player=Bo gold={"aer":3}                              # after turn 6 (p.13)
    th-move hero=rochon cell=[4,-4]                                   # entering the Arena
    th-attack hero=rochon target=["rac"] power=fiery-purge defend=["frigid-night"]
    th-attack hero=norn target=["kotronas"] power=fireball skill=whirlwind
    roll die=d4 faces=[4]                                             # the monster's Defence d4
    roll die=skull faces=[5]                                          # skullduggery die: lightning
    th-monster monster=kotronas target=["norn"] defend=["spell-ward"]
    roll die=d4 faces=[2]                                             # the monster's attack d4

Values the book does not print as text (hero speeds and some alignments, most Power values and
damage icons, item tokens, the Thieves' Guild die faces) are data with ``ENTER`` markers in
``data/*.json`` and can be entered as setup options.

>>> from arena_table.rules import find_game
>>> find_game("theosis").title
'Theosis'
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, Mapping

from arena_table.rules.kernel.errors import Refused
from arena_table.rules.kernel.events import DiceRolled, Event, TagPlaced
from arena_table.rules.kernel.game import Game, Outcome
from arena_table.rules.kernel.view import View

from . import arena, board, catalog, entering, fight, form, monsters, offers, preparation, ranking, sensed
from .describe import describe as _describe
from .die_kinds import as_die
from .events import (Adjust, Allocate, ArtifactRevealed, Attack, Bid, Bless, CastRitual, Draft, Enter, Equip, Gem,
                     MonsterAction, Move, Next, Pass, Place, SetRanking, Stamina, UseSkill)
from .flow import FLOW
from .mats import add_gems, damage, heal, name, remove_gems, skills_of
from .setup import setup as _setup
from .state import MAX_HEALTH, ThState, replace_hero, replace_monster, replace_player
from .view import final_line, view as _view

SKULL_DICE = ("skull", "skullduggery", "d6")
"""Die kinds accepted for the skullduggery die (faces 1-6 = dash, two pips, four pips, sword, lightning, spade)."""
DICE = {"d4": 4, "d6": 6, "skull": 6, "skullduggery": 6, "theosis-d4": 4, "theosis-thieves-d6": 6}
"""Every die Theosis rolls (Setting up the Hierapolis Board; Monsters): the four-sided die (Mercenary
Camp, a monster's Defense and Attack), the six-sided die (Thieves' Guild) and the skullduggery die
(a monster's action), which a plain d6 may stand in for; by die kind (``data/die_kinds.json``): ``theosis-d4``,
``theosis-thieves-d6``, ``theosis-skullduggery`` (its aliases ``skull``, ``skullduggery``)."""
WHILE_PENDING = (CastRitual, MonsterAction, Move, Stamina, Equip, Gem, Enter)
"""Events still taken while a roll or choice is awaited (``state.pending``)."""


def setup(options: Mapping[str, Any]) -> ThState:
    """The state after ``start`` (options: :mod:`.setup`, or the start form's values: :mod:`.form`).

    Raises:
        ValueError: the options name a mode, hero or count the book does not allow.
    """
    return _setup(form.to_options(options))


def dice(state: ThState) -> dict[str, int]:
    """The dice Theosis rolls (kind -> faces); the table refuses any other kind (:data:`DICE`)."""
    return dict(DICE)


AWAITED = {"thieves-d6": ("d6", "theosis-thieves-d6"), "mercenary-d4": ("d4", "theosis-d4"),
           "defence-d4": ("d4", "theosis-d4"), "monster-d4": ("d4", "theosis-d4"), "skull": SKULL_DICE}
"""Each wait (``Pending.kind``) and the dice kinds that answer it (:func:`_dice`)."""


def awaits(state: ThState) -> dict[str, int]:
    """The dice Theosis waits for now (kind -> how many in one roll): the Thieves' Guild d6, the
    Mercenary Camp d4 (p.11), a monster's Defense d4 per target still to roll, its Attack d4 per strike
    left, the skullduggery die (Monsters); ``{}`` otherwise."""
    p = state.pending
    if p is None or p.kind not in AWAITED:
        return {}
    count = 1
    if p.kind == "defence-d4":
        count = len(p.data["target"]) - len(p.data["faces"])
    elif p.kind == "monster-d4":
        count = max(1, len(p.data.get("strikes", ())) - p.data.get("done", 0))
    return {kind: count for kind in AWAITED[p.kind]}


def outcome(state: ThState) -> Outcome | None:
    """The result recorded once the game is over (:func:`.flow.check_over`)."""
    if state.result is None:
        return None
    winners, reason, draw = state.result
    return Outcome(winners=tuple(winners), reason=reason, draw=draw)


def view_of(state: ThState, viewer: str = "spectator") -> View:
    """What the screens show (:func:`.view.view`); the spectator sees no sealed bid or hand."""
    return View.from_json(_view(state, viewer))


def guard(state: ThState, ev: Event) -> None:
    """A Theosis event needs a game set up and not over, and waits while a roll is awaited.

    Raises:
        Refused: the game is over or not set up, or ``state.pending`` awaits something first.
    """
    if not ev.KIND.startswith("th-"):
        return  # kernel events: dice and tags matter where the rules wait for them
    if state.phase == "over":
        raise Refused("the game is over")
    if state.phase == "idle":
        raise Refused("no Theosis game is set up: start one with its players and heroes")
    if state.pending and not isinstance(ev, (Adjust, *WHILE_PENDING)):
        raise Refused(f"waiting for {state.pending.kind} first")


def next_step(state: ThState, ev: Next) -> ThState:
    """``th-next``: in the Arena it declines a follow-up (:func:`.arena.decline`); before it, it ends a
    Hierapolis turn or the draft (:func:`.preparation.end_turn`)."""
    return arena.decline(state) if state.phase == "combat" else preparation.end_turn(state, ev)


def explain(exc: Exception) -> str | None:
    """An id that names no hero, player, monster, power or skill is refused by name."""
    return f"unknown name {exc.args[0]!r}" if isinstance(exc, KeyError) else None


def describe(state: ThState, ev: Event) -> str:
    """The log line of ``ev`` (:mod:`.describe`)."""
    return _describe(GAME, state, ev)


def _dice(state: ThState, ev: DiceRolled) -> ThState:
    """Dice matter only where the rules wait for one; any other roll is just recorded by the tray. A roll
    named by die kind is read through :func:`.die_kinds.as_die` (the skullduggery die by its symbol: Monsters)."""
    p = state.pending
    if p is None or not ev.faces:
        return state
    ev = as_die(ev)
    if ev is None:
        return state  # dice of other kinds, or of several: the tray keeps them
    if p.kind in ("thieves-d6",) and ev.die == "d6" or p.kind == "mercenary-d4" and ev.die == "d4":
        return preparation.on_die(state, ev.faces)[0]
    if p.kind == "defence-d4" and ev.die == "d4":
        return monsters.on_defence_roll(state, ev.faces)
    if p.kind == "skull" and ev.die in SKULL_DICE:
        return monsters.on_skull(state, ev.faces[0])
    if p.kind == "monster-d4" and ev.die == "d4":
        return monsters.on_monster_roll(state, ev.faces)
    return state


def _tag(state: ThState, ev: TagPlaced) -> ThState:
    """A Power card laid on the attacker's or defender's pad is the Power played; other tags are ignored."""
    kind, _, oid = ev.object.removeprefix("theosis:").partition(":")
    if not ev.object.startswith("theosis:") or kind != "power" or oid not in catalog.powers():
        return state
    role = {state.config.attacker_pad: "attacker", state.config.defender_pad: "defender"}.get(ev.pad)
    if role is None or state.phase not in ("combat", "monsters"):
        return state
    return dataclasses.replace(state, pad_powers={**state.pad_powers, role: oid})




def _bounded(what: str, now: int, change: int, low: int, high: int | None, rule: str) -> int:
    """``now + change`` if it stays in ``low..high``, else :class:`Refused` naming the bound."""
    after = now + change
    if after < low or (high is not None and after > high):
        span = f"{low} to {high}" if high is not None else f"at least {low}"
        raise Refused(f"{what} is {now}: a change of {change:+d} would make it {after} ({rule}: {span})")
    return after


def adjust(state: ThState, ev: Adjust) -> ThState:
    """Apply a correction: Health (+heal/-damage, 0 removes), Mana gems, gold (hero mat or player).

    Every change must leave the number in the book's range: Health 0 to 9 (p.6 Hero Mats: the
    Health cube starts on 9, healing sets it back to 9 at most), Mana gems 0 to one per Skill
    (p.6), gold and Stamina Tokens never below 0.

    Raises:
        Refused: the target is unknown, or a change leaves its range (the message names the bound).
    """
    if ev.target in state.heroes:
        h = state.heroes[ev.target]
        who = name(state, ev.target)
        if not h.alive and (ev.health or ev.mana):
            raise Refused(f"{who} has been removed from the game: no Health or Mana to correct")
        _bounded(f"{who}'s Health", h.health, ev.health, 0, MAX_HEALTH, "Health on the Hero mat, p.6")
        _bounded(f"{who}'s Mana", len(h.mana), ev.mana, 0, len(skills_of(state, ev.target)),
                 "one Mana gem per Skill, p.6")
        _bounded(f"{who}'s gold", h.gold, ev.gold, 0, None, "gold on the Hero mat")
        state = heal(state, ev.target, ev.health) if ev.health > 0 else damage(state, ev.target, -ev.health)
        state = add_gems(state, ev.target, ev.mana) if ev.mana > 0 else remove_gems(state, ev.target, -ev.mana)
        h = state.heroes[ev.target]
        return replace_hero(state, dataclasses.replace(h, gold=h.gold + ev.gold))
    if any(p.id == ev.target for p in state.players):
        p = state.player(ev.target)
        if ev.health or ev.mana:
            raise Refused(f"{p.id} is a player: only gold can be corrected (Health and Mana are on the Hero mats)")
        gold = _bounded(f"{p.id}'s gold", p.gold, ev.gold, 0, None, "a player's gold")
        return replace_player(state, dataclasses.replace(p, gold=gold))
    if any(m.id == ev.target for m in state.monsters):
        m = state.monster(ev.target)
        if ev.mana or ev.gold:
            raise Refused(f"{name(state, m.id)} is a monster: only its Stamina Tokens (health) can be corrected")
        tokens = _bounded(f"{name(state, m.id)}'s Stamina Tokens", m.tokens, ev.health, 0, None, "Monster Stamina")
        return replace_monster(state, dataclasses.replace(m, tokens=tokens, top=m.top if ev.health == 0 else None))
    raise Refused(f"no hero, player or monster {ev.target!r}")


HANDLERS = {
    DiceRolled: _dice, TagPlaced: _tag, Adjust: adjust,
    Place: preparation.place, ArtifactRevealed: preparation.reveal, Next: next_step,
    Bid: lambda state, ev: preparation.bid(state, ev)[0], Equip: preparation.fast_equip, Gem: preparation.gem,
    Draft: preparation.draft, Allocate: ranking.allocate, SetRanking: ranking.set_ranking,
    Move: arena.move, CastRitual: arena.cast_ritual, Pass: arena.pass_turn, Bless: arena.bless,
    UseSkill: arena.use_skill, Attack: functools.partial(fight.attack, vs_monsters=monsters.hero_attacks_monsters),
    Stamina: monsters.reveal, MonsterAction: monsters.monster_action, Enter: entering.enter,
}
"""Event type -> handler (the kernel's ``tag-off`` and ``note`` change nothing here; a ``correct`` is replayed by the kernel)."""

GAME = Game(
    name="theosis", title="Theosis", aliases=("th", "theosis-arena"), setup=setup, handlers=HANDLERS,
    flow=FLOW, guard=guard, explain=explain, outcome=outcome, view=view_of, describe=describe,
    objects=catalog.object_ids, dice=dice, setup_form=form.setup_form, summary=ThState.summary,
    actions=lambda state: offers.actions(state, GAME.apply), awaits=awaits, figures=sensed.FIGURES,
    board=board.board, to_enter=entering.to_enter,
)

__all__ = ["GAME", "ThState", "MAX_HEALTH", "final_line", "name"]
