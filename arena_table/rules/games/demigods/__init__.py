"""Demigods Evolution (rulebook: ``../shared/rulebooks/demigods-evolution.txt``).

The engine keeps every number the table used to keep by hand: the Demigod
and initiative order with its tie-break dice, AP, rage/focus/mana, morale and
links, wounds, buff/debuff tokens and item cooldowns, tactical points and the
victory conditions. Modules: ``setup`` (options, selection), ``formation``
(links), ``rounds`` (phases, activation order), ``actions``/``combat``
(declaring and resolving attacks), ``damage`` (arithmetic), ``divine``,
``buffs``, ``positions``/``moves`` (fields, facing, line of sight),
``victory``, ``view``.

>>> from arena_table.rules import find_game
>>> find_game("demigods-evolution").title
'Demigods Evolution'
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping

from arena_table.rules.kernel.errors import Refused
from arena_table.rules.kernel.events import DiceRolled, Event, TagPlaced
from arena_table.rules.kernel.game import Game, Outcome
from arena_table.rules.kernel.mechanics.dice import kind_values
from arena_table.rules.kernel.view import View

from . import combat, data, divine, form, moves, offers, rounds, sensed, setup, use, victory
from . import events as ev
from .buffs import ICONS, add, make, remove
from .flow import FLOW
from .options import checked
from .positions import FORWARD
from .state import DemigodsState, char, put, side_name
from .view import describe as _describe
from .view import view as _view

def _order_roll(state: DemigodsState, faces: tuple[int, ...]) -> DemigodsState:
    """Demigod dice for the Demigod order or an initiative tie (one die per contender, seat order)."""
    if state.stage != "play" or state.pending is not None:
        raise Refused("no Demigod dice roll is awaited")
    values = data.demigod_die()["values"]
    if any(not 1 <= f <= len(values) for f in faces):
        raise Refused(f"Demigod die faces are 1..{len(values)}, got {list(faces)}")
    needs: tuple[str, ...] = ()
    if state.phase == "demigod" and state.acting is None:
        key, (_, needs) = "demigods", rounds.demigod_ranking(state)
    elif state.phase == "hero" and state.acting is None:
        nh = rounds.next_hero(state)
        key, needs = nh.key, nh.contenders
    if not needs:
        raise Refused("no Demigod dice roll is awaited")
    if len(faces) != len(needs):
        raise Refused(f"{len(needs)} Demigod dice expected, one each for {', '.join(needs)} in seat order")
    contenders = dict(state.contenders)
    contenders.setdefault(key, needs)
    rolls = {**state.rolls, key: state.rolls.get(key, ()) + (tuple(values[f - 1] for f in faces),)}
    return dataclasses.replace(state, rolls=rolls, contenders=contenders)




def _condition_error(e: ev.AddCondition) -> str:
    """Why a hand-placed buff/debuff token cannot be (``Buffs & Debuffs``, p.25), or "".

    Durations: "Most tokens are numbered with a '2' on one side and a '1' on the other", and a token
    on or from a Demigod starts on its '1' side, so a token lasts 2 turns or 1. The book names no
    token with another number; "most" leaves room for one, but none is printed, so other durations
    are refused (the safe choice). A passive token lasts the whole game and its ``turns`` is unused
    (0, 1 or 2 accepted).
    """
    if e.stat and e.stat not in ICONS:
        return f"unknown stat {e.stat!r}; stats: {', '.join(ICONS)}"
    if e.scope not in ("character", "global"):
        return f"scope is 'character' or 'global', not {e.scope!r}"
    if e.wounds < 0:
        return f"wounds of a token cannot be negative (wounds={e.wounds})"
    if e.turns not in ((0, 1, 2) if e.passive else (1, 2)):
        return (f"a buff/debuff token lasts 2 turns (its '2' side) or 1 (its '1' side), not turns={e.turns} "
                "(Buffs & Debuffs, p.25" + ("; passive=true for a token that lasts the whole game)" if not e.passive
                                            else ")"))
    return ""


def _position_error(e: Event) -> str:
    """Why a figure's cell or facing cannot exist on any board ('Movement', p.21), or ""."""
    facing = getattr(e, "facing", None)
    if facing is not None and facing not in FORWARD:
        return f"facing is 0 (north), 1 (east), 2 (south) or 3 (west), not {facing}"
    cell = getattr(e, "to", None) if isinstance(e, ev.Move) else getattr(e, "cell", None)
    if cell is not None and min(cell) < 0:
        return f"fields are counted from 0 at the north-west corner: {tuple(cell)} is off the board"
    return ""


def _checked(err: str) -> None:
    if err:
        raise Refused(err)


def _tag(state: DemigodsState, e: TagPlaced) -> DemigodsState:
    """A hero token laid on a pad chooses that hero to act, when the rules allow it now."""
    hero = e.object.removeprefix("demigods:hero:") if e.object.startswith("demigods:hero:") else ""
    if hero and rounds.is_choice_legal(state, hero):
        return rounds.start_turn(state, hero)
    return state


def _kind_roll(state: DemigodsState, e: DiceRolled) -> DemigodsState:
    """A throw named by die kind (``roll kinds=[demigods-fire,demigods-ice] faces=[burn,2]``): each attack die
    fills the waiting attack with the face showing its printed result ('Attack Dice', p.24; the game's
    ``dice_faces``), Demigod dice order the Demigods or break a tie when no attack waits; other dice are
    the tray's.

    Raises:
        Refused: a result the game's die of that type does not have, or as :func:`combat.take_roll`.
    """
    attack: dict[str, list[int]] = {}
    order: list[int] = []
    for kid, value in kind_values(e):
        kind = kid.removeprefix("demigods-")
        if kind in state.dice:
            results = state.dice[kind]
            if value not in results:
                raise Refused(f"the {kind} die of this game has no {value} face; its faces: "
                              + ", ".join(map(str, results)))
            attack.setdefault(kind, []).append(results.index(value) + 1)
        elif kid == "demigods-demigod":
            order.append(value)
    if attack:
        for kind, faces in attack.items():
            state = combat.take_roll(state, kind, tuple(faces))
        return state
    return _order_roll(state, tuple(order)) if order else state


def _roll(state: DemigodsState, e: DiceRolled) -> DemigodsState:
    """Demigod dice order the Demigods or break an initiative tie; ``dg-<type>`` dice resolve an attack;
    a throw named by die kind: :func:`_kind_roll`."""
    if e.kinds:
        return _kind_roll(state, e)
    if e.die == data.demigod_die()["kind"]:
        return _order_roll(state, e.faces)
    if e.die in data.demigod_die().get("aliases", ()):
        try:
            return _order_roll(state, e.faces)
        except Refused:
            return state  # an ordinary die nobody waited for: the tray keeps it
    if e.die.startswith("dg-"):
        if e.die[3:] not in state.dice:
            raise Refused(f"unknown Demigods die {e.die!r}; dice: dg-demigod, "
                          + ", ".join(f"dg-{t}" for t in state.dice))
        return combat.take_roll(state, e.die[3:], e.faces)
    return state


SELECTION = (ev.Pick, ev.ChooseDemigod, ev.Equip, ev.Formation, ev.Begin)
"""Events of the selection (before round 1); every other Demigods event needs a game in play."""


def guard(state: DemigodsState, e: Event) -> None:
    """A Demigods event needs a game not over (a divine die may still be read), and, past the
    selection, a game in play.

    Raises:
        Refused: the game is over, or the event needs play to have begun (``dg-begin``).
    """
    if not e.KIND.startswith("dg-"):
        return  # the kernel's events: dice, tags, notes
    if state.stage == "over" and not isinstance(e, ev.DivineRead):
        raise Refused("the game is over")
    if not isinstance(e, SELECTION) and state.stage != "play":
        raise Refused(f"{e.KIND} needs a game in play; finish the selection first (dg-begin)")


def _activate(state: DemigodsState, e: ev.Activate) -> DemigodsState:
    if state.acting == e.who:
        return state
    if not rounds.is_choice_legal(state, e.who):
        raise Refused(f"{e.who} cannot be chosen to act now")
    return rounds.start_turn(state, e.who)


def _end_turn(state: DemigodsState, e: ev.EndTurn) -> DemigodsState:
    if state.pending is not None:
        raise Refused("the attack must be resolved before the turn ends")
    if state.acting is None:
        raise Refused("nobody is acting")
    if e.who and e.who not in (state.acting, state.acting.split(":", 1)[-1]):
        raise Refused(f"it is {state.acting}'s turn, not {e.who}'s")
    actor = state.chars.get(state.acting)
    if actor is not None and state.board and actor.cell in state.board.own_stones(actor.player) \
            and actor.kind == "demigod":
        raise Refused(f"{actor.name} cannot end its turn on its Ascending Stone (p.9): move off it first")
    return rounds.end_turn(state)


def _placed(move):
    """``move`` once the event's cell and facing exist on a board ('Movement', p.21)."""
    def handler(state: DemigodsState, e: Event) -> DemigodsState:
        _checked(_position_error(e))
        return move(state, e)
    return handler


def _divine_read(state: DemigodsState, e: ev.DivineRead) -> DemigodsState:
    ch = char(state, e.who)
    if not ch.power or not 0 <= e.value <= 6:
        raise Refused(f"{ch.name} has no divine die showing {e.value}")
    return dataclasses.replace(state, reads={**state.reads, e.who: e.value})


def _set_divine(state: DemigodsState, e: ev.SetDivine) -> DemigodsState:
    ch = char(state, e.who)
    if not ch.power:
        raise Refused(f"{ch.name} has no divine power")
    if divine.clamp(e.value) != e.value:
        raise Refused(f"divine power runs 0 to {divine.DIVINE_MAX}, not {e.value}")
    return put(state, dataclasses.replace(ch, divine=e.value))


def _wound(state: DemigodsState, e: ev.Wound) -> DemigodsState:
    ch = char(state, e.who)
    if not ch.alive:
        raise Refused(f"{ch.name} is out of the game ({ch.out}): no wounds to correct")
    if ch.wounds + e.amount < 0:
        raise Refused(f"{ch.name} has {ch.wounds} wound(s): {e.amount} would take them below 0 "
                      f"(wounds run 0 to {ch.health})")
    return victory.wound(state, ch.id, e.amount, e.reason or "by hand")


def _add_condition(state: DemigodsState, e: ev.AddCondition) -> DemigodsState:
    _checked(_condition_error(e))
    ch = char(state, e.who)
    # 'Wounds': a slain character is removed from the battlefield; a global token only names
    # someone to pick the side, which is still in play
    if not ch.alive and e.scope != "global":
        raise Refused(f"{ch.name} is out of the game ({ch.out}): no buff or debuff token can be placed")
    spec = {f.name: getattr(e, f.name) for f in dataclasses.fields(e) if f.name not in ("at", "who", "buff")}
    spec["kind"] = "buff" if e.buff else "debuff"
    cond = make(spec, target=ch)
    if e.scope == "global":
        side = side_name(state, ch.player)
        conds = tuple(c for c in state.global_conditions.get(side, ()) if c.name != e.name) + (cond,)
        return dataclasses.replace(state, global_conditions={**state.global_conditions, side: conds})
    return put(state, add(ch, cond))


def _clear_condition(state: DemigodsState, e: ev.ClearCondition) -> DemigodsState:
    ch = char(state, e.who)
    if not any(c.name == e.name for c in ch.conditions):
        raise Refused(f"{ch.name} has no {e.name!r} token")
    return put(state, remove(ch, e.name))


def _selection(error, act, *fields: str):
    """A selection step: refused with ``error(state, *values)``'s reason, else ``act(state, *values)``."""
    def handler(state: DemigodsState, e: Event) -> DemigodsState:
        values = [getattr(e, f) for f in fields]
        _checked(error(state, *values))
        return act(state, *values)
    return handler


def _begin(state: DemigodsState, e: ev.Begin) -> DemigodsState:
    _checked(setup.begin_error(state))
    return setup.begin(state)  # the phase table begins round 1 (flow.py)


HANDLERS = {
    TagPlaced: _tag, DiceRolled: _roll,
    ev.Pick: _selection(setup.pick_error, setup.pick, "player", "hero"),
    ev.ChooseDemigod: _selection(setup.choose_demigod_error, setup.choose_demigod, "player", "demigod"),
    ev.Equip: _selection(setup.equip_error, setup.equip, "player", "item", "slot", "hero"),
    ev.Formation: _selection(setup.formation_error, setup.set_formation, "player", "heroes"),
    ev.Begin: _begin,
    ev.Activate: _activate, ev.Use: use.declare, ev.Reroll: lambda state, e: combat.reroll(state, e.index),
    ev.Resolve: lambda state, e: combat.confirm(state), ev.EndTurn: _end_turn,
    ev.Enter: _placed(moves.enter), ev.Move: _placed(moves.move), ev.Place: _placed(moves.place),
    ev.MinionEnter: _placed(moves.minion_enter), ev.MinionExit: moves.minion_exit,
    ev.DivineRead: _divine_read, ev.SetDivine: _set_divine, ev.Wound: _wound,
    ev.AddCondition: _add_condition, ev.ClearCondition: _clear_condition,
}
"""Event type -> handler (the kernel's ``tag-off`` and ``note`` change nothing here)."""


def new_game(options: Mapping[str, Any]) -> DemigodsState:
    """Initial state; with a ``lineup`` option play starts at round 1 (see :mod:`.setup`).

    The start form's values (:mod:`.form`) are turned into these options first.

    Raises:
        ValueError: bad options (the message names the option and the rule).
    """
    if not isinstance(options, Mapping):
        raise ValueError(f"demigods options must be a JSON object, got {options!r:.40}")
    options = checked(form.to_options(options))
    state = setup.new_game(options)
    if options.get("lineup"):
        state = FLOW.settle(setup.apply_lineup(state, options["lineup"]))
    return state


def awaits(state: DemigodsState) -> dict[str, int]:
    """The dice Demigods waits for now (kind -> how many in one roll): the attack dice still open
    ('Attacking' p.22-24), else the Demigod dice of the contenders of the activation order or an
    initiative tie (p.26-30, the die's kind or a plain ``d6``); ``{}`` otherwise."""
    if state.stage != "play":
        return {}
    if state.pending is not None:
        out: dict[str, int] = {}
        for d in state.pending.dice:
            if not d.face:
                out[f"dg-{d.type}"] = out.get(f"dg-{d.type}", 0) + 1
        return out
    needs: tuple[str, ...] | list[str] = ()
    if state.acting is None and state.phase == "demigod":
        needs = rounds.demigod_ranking(state)[1]
    elif state.acting is None and state.phase == "hero":
        nh = rounds.next_hero(state)
        needs = nh.contenders if nh.kind == "roll" else ()
    die = data.demigod_die()
    return {kind: len(needs) for kind in (die["kind"], *die.get("aliases", ()))} if needs else {}


def dice(state: DemigodsState) -> dict[str, int]:
    """The dice Demigods rolls (kind -> faces; 'Attack Dice' p.24 and the Demigod dice of the activation order): the
    Demigod die (``dg-demigod``, a plain ``d6`` standing in for it) and one ``dg-<type>`` per
    attack type, whose faces are indices into the printed results. The table refuses any other kind.

    >>> sorted(dice(new_game({"players": ["Ann", "Bo"]})))[:3]
    ['d6', 'dg-arcane', 'dg-bludgeoning']
    """
    die = data.demigod_die()
    kinds = {die["kind"]: len(die["values"]), **{a: 6 for a in die.get("aliases", ())}}
    return {**kinds, **{f"dg-{t}": len(faces) for t, faces in state.dice.items()}}


def outcome(state: DemigodsState) -> Outcome | None:
    """The result once a side has won (:mod:`.victory`); no winner is a draw."""
    if state.result is None:
        return None
    winners, reason = state.result
    return Outcome(winners=tuple(winners), reason=reason, draw=not winners)


def view_of(state: DemigodsState, viewer: str = "spectator") -> View:
    """What the screens show (:func:`.view.view`)."""
    return View.from_json(_view(state, viewer))


def explain(exc: Exception) -> str:
    """An id naming nothing, or a value out of its range, refused in the error's own words."""
    return str(exc.args[0] if exc.args else exc)


def describe(state: DemigodsState, event: Event) -> str:
    """The log line of ``event`` (:func:`.view.describe`), from the state before and after it."""
    return _describe(state, GAME.after(state, event), event)


def objects() -> list[str]:
    """Taggable objects for the NFC tag registry: heroes, Demigods, items."""
    out = [f"demigods:hero:{h}" for h in data.hero_ids()]
    out += [f"demigods:demigod:{d}" for d in data.demigod_ids()]
    out += [f"demigods:item:{i}" for i in data.item_ids()]
    out += [f"demigods:item:{data.demigod(d)['primary']['id']}" for d in data.demigod_ids()]
    return out


def summary(state: DemigodsState) -> str:
    """The stage, or in play the round, phase and acting character, for refusal messages."""
    if state.stage != "play":
        return f"demigods {state.stage}"
    return f"round {state.round}, {state.phase} phase, acting {state.acting or 'nobody'}"


GAME = Game(
    name="demigods", title="Demigods Evolution", aliases=("demigods-evolution", "demigods evolution", "dg"),
    setup=new_game, handlers=HANDLERS, flow=FLOW, guard=guard, explain=explain, outcome=outcome, view=view_of,
    describe=describe, objects=objects, dice=dice, setup_form=form.setup_form, summary=summary,
    actions=lambda state: offers.actions(state, GAME.apply), awaits=awaits, figures=sensed.FIGURES,
    board=sensed.board,
)
