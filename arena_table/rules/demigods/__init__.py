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

from arena_table.rules.errors import IllegalEvent
from arena_table.rules.events import DiceRolled, DieCorrected, Event, Note, TagPlaced, TagRemoved
from arena_table.rules.game import Outcome, register_game

from . import actions, combat, data, divine, form, moves, rounds, setup, victory
from . import events as ev
from .buffs import add, make, remove
from .options import checked
from .state import DemigodsState, char, put, side_name
from .view import describe as _describe
from .view import view as _view

Illegal = actions.Illegal


def _order_roll(state: DemigodsState, faces: tuple[int, ...]) -> DemigodsState:
    """Demigod dice for the Demigod order or an initiative tie (one die per contender, seat order)."""
    if state.stage != "play" or state.pending is not None:
        raise Illegal("no Demigod dice roll is awaited")
    values = data.demigod_die()["values"]
    if any(not 1 <= f <= len(values) for f in faces):
        raise Illegal(f"Demigod die faces are 1..{len(values)}, got {list(faces)}")
    needs: tuple[str, ...] = ()
    if state.phase == "demigod" and state.acting is None:
        key, (_, needs) = "demigods", rounds.demigod_ranking(state)
    elif state.phase == "hero" and state.acting is None:
        nh = rounds.next_hero(state)
        key, needs = nh.key, nh.contenders
    if not needs:
        raise Illegal("no Demigod dice roll is awaited")
    if len(faces) != len(needs):
        raise Illegal(f"{len(needs)} Demigod dice expected, one each for {', '.join(needs)} in seat order")
    contenders = dict(state.contenders)
    contenders.setdefault(key, needs)
    rolls = {**state.rolls, key: state.rolls.get(key, ()) + (tuple(values[f - 1] for f in faces),)}
    return rounds.advance(dataclasses.replace(state, rolls=rolls, contenders=contenders))




def _condition_error(e: ev.AddCondition) -> str:
    """Why a hand-placed buff/debuff token cannot be (``Buffs & Debuffs``, p.25), or "".

    Durations: "Most tokens are numbered with a '2' on one side and a '1' on the other", and a token
    on or from a Demigod starts on its '1' side, so a token lasts 2 turns or 1. The book names no
    token with another number; "most" leaves room for one, but none is printed, so other durations
    are refused (the safe choice). A passive token lasts the whole game and its ``turns`` is unused
    (0, 1 or 2 accepted).
    """
    from .buffs import ICONS
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
    from .positions import FORWARD
    facing = getattr(e, "facing", None)
    if facing is not None and facing not in FORWARD:
        return f"facing is 0 (north), 1 (east), 2 (south) or 3 (west), not {facing}"
    cell = getattr(e, "to", None) if isinstance(e, ev.Move) else getattr(e, "cell", None)
    if cell is not None and min(cell) < 0:
        return f"fields are counted from 0 at the north-west corner: {tuple(cell)} is off the board"
    return ""


def _checked(err: str) -> None:
    if err:
        raise Illegal(err)


def _apply(state: DemigodsState, e: Event) -> DemigodsState:  # noqa: C901 - one dispatch table
    if isinstance(e, (Note, TagRemoved)):
        return state
    if isinstance(e, TagPlaced):
        hero = e.object.removeprefix("demigods:hero:") if e.object.startswith("demigods:hero:") else ""
        if hero and rounds.is_choice_legal(state, hero):
            return rounds.start_turn(state, hero)
        return state
    if isinstance(e, DiceRolled):
        if e.die == data.demigod_die()["kind"]:
            return _order_roll(state, e.faces)
        if e.die in data.demigod_die().get("aliases", ()):
            try:
                return _order_roll(state, e.faces)
            except Illegal:
                return state  # an ordinary die nobody waited for: the tray keeps it
        if e.die.startswith("dg-"):
            if e.die[3:] not in state.dice:
                raise Illegal(f"unknown Demigods die {e.die!r}; dice: dg-demigod, "
                              + ", ".join(f"dg-{t}" for t in state.dice))
            return combat.take_roll(state, e.die[3:], e.faces)
        return state
    if isinstance(e, DieCorrected):
        raise Illegal(f"Demigods uses each die the moment it is read, so roll {e.roll} cannot be corrected "
                      f"afterwards: undo takes back the newest event first, so undo each event after it, then "
                      f"the roll itself (event {e.roll}), and roll or enter the dice again")
    if state.stage == "over" and not isinstance(e, (ev.DivineRead,)):
        raise Illegal("the game is over")
    if isinstance(e, ev.Pick):
        _checked(setup.pick_error(state, e.player, e.hero))
        return setup.pick(state, e.player, e.hero)
    if isinstance(e, ev.ChooseDemigod):
        _checked(setup.choose_demigod_error(state, e.player, e.demigod))
        return setup.choose_demigod(state, e.player, e.demigod)
    if isinstance(e, ev.Equip):
        _checked(setup.equip_error(state, e.player, e.item, e.slot, e.hero))
        return setup.equip(state, e.player, e.item, e.slot, e.hero)
    if isinstance(e, ev.Formation):
        _checked(setup.formation_error(state, e.player, e.heroes))
        return setup.set_formation(state, e.player, e.heroes)
    if isinstance(e, ev.Begin):
        _checked(setup.begin_error(state))
        return rounds.start_round(setup.begin(state))
    if state.stage != "play":
        raise Illegal(f"{e.KIND} needs a game in play; finish the selection first (dg-begin)")
    if isinstance(e, ev.Activate):
        if state.acting == e.who:
            return state
        if not rounds.is_choice_legal(state, e.who):
            raise Illegal(f"{e.who} cannot be chosen to act now")
        return rounds.start_turn(state, e.who)
    if isinstance(e, ev.Use):
        return actions.declare(state, e)
    if isinstance(e, ev.Reroll):
        return combat.reroll(state, e.index)
    if isinstance(e, ev.Resolve):
        return combat.confirm(state)
    if isinstance(e, ev.EndTurn):
        if state.pending is not None:
            raise Illegal("the attack must be resolved before the turn ends")
        if state.acting is None:
            raise Illegal("nobody is acting")
        if e.who and e.who not in (state.acting, state.acting.split(":", 1)[-1]):
            raise Illegal(f"it is {state.acting}'s turn, not {e.who}'s")
        actor = state.chars.get(state.acting)
        if actor is not None and state.board and actor.cell in state.board.own_stones(actor.player) \
                and actor.kind == "demigod":
            raise Illegal(f"{actor.name} cannot end its turn on its Ascending Stone (p.9): move off it first")
        return rounds.end_turn(state)
    if isinstance(e, (ev.Enter, ev.Move, ev.Place, ev.MinionEnter)):
        _checked(_position_error(e))
    if isinstance(e, ev.Enter):
        return moves.enter(state, e)
    if isinstance(e, ev.Move):
        return moves.move(state, e)
    if isinstance(e, ev.Place):
        return moves.place(state, e)
    if isinstance(e, ev.MinionEnter):
        return moves.minion_enter(state, e)
    if isinstance(e, ev.MinionExit):
        return moves.minion_exit(state, e)
    if isinstance(e, ev.DivineRead):
        ch = char(state, e.who)
        if not ch.power or not 0 <= e.value <= 6:
            raise Illegal(f"{ch.name} has no divine die showing {e.value}")
        return dataclasses.replace(state, reads={**state.reads, e.who: e.value})
    if isinstance(e, ev.SetDivine):
        ch = char(state, e.who)
        if not ch.power:
            raise Illegal(f"{ch.name} has no divine power")
        if divine.clamp(e.value) != e.value:
            raise Illegal(f"divine power runs 0 to {divine.DIVINE_MAX}, not {e.value}")
        return put(state, dataclasses.replace(ch, divine=e.value))
    if isinstance(e, ev.Wound):
        ch = char(state, e.who)
        if not ch.alive:
            raise Illegal(f"{ch.name} is out of the game ({ch.out}): no wounds to correct")
        if ch.wounds + e.amount < 0:
            raise Illegal(f"{ch.name} has {ch.wounds} wound(s): {e.amount} would take them below 0 "
                          f"(wounds run 0 to {ch.health})")
        return victory.wound(state, ch.id, e.amount, e.reason or "by hand")
    if isinstance(e, ev.AddCondition):
        _checked(_condition_error(e))
        ch = char(state, e.who)
        # 'Wounds': a slain character is removed from the battlefield; a global token only names
        # someone to pick the side, which is still in play
        if not ch.alive and e.scope != "global":
            raise Illegal(f"{ch.name} is out of the game ({ch.out}): no buff or debuff token can be placed")
        spec = {f.name: getattr(e, f.name) for f in dataclasses.fields(e) if f.name not in ("at", "who", "buff")}
        spec["kind"] = "buff" if e.buff else "debuff"
        cond = make(spec, target=ch)
        if e.scope == "global":
            side = side_name(state, ch.player)
            conds = tuple(c for c in state.global_conditions.get(side, ()) if c.name != e.name) + (cond,)
            return dataclasses.replace(state, global_conditions={**state.global_conditions, side: conds})
        return put(state, add(ch, cond))
    if isinstance(e, ev.ClearCondition):
        ch = char(state, e.who)
        if not any(c.name == e.name for c in ch.conditions):
            raise Illegal(f"{ch.name} has no {e.name!r} token")
        return put(state, remove(ch, e.name))
    raise Illegal(f"{e.KIND} is not an event of Demigods Evolution")


class Demigods:
    """The ``demigods`` game (``Game`` protocol of :mod:`arena_table.rules.game`)."""

    name = "demigods"
    aliases = ("demigods-evolution", "demigods evolution", "dg")
    title = "Demigods Evolution"

    def setup(self, options: Mapping[str, Any]) -> DemigodsState:
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
            state = rounds.start_round(setup.apply_lineup(state, options["lineup"]))
        return state

    def setup_form(self) -> list[dict[str, Any]]:
        """The control page's start form (``/api/games`` field format; see :mod:`.form`)."""
        return form.setup_form()

    def dice(self, state: DemigodsState) -> dict[str, int]:
        """The dice Demigods rolls (kind -> faces; 'Attack Dice' p.24 and the Demigod dice of the activation order): the
        Demigod die (``dg-demigod``, a plain ``d6`` standing in for it) and one ``dg-<type>`` per
        attack type, whose faces are indices into the printed results. The table refuses any other kind.

        >>> sorted(Demigods().dice(Demigods().setup({"players": ["Ann", "Bo"]})))[:3]
        ['d6', 'dg-arcane', 'dg-bludgeoning']
        """
        die = data.demigod_die()
        kinds = {die["kind"]: len(die["values"]), **{a: 6 for a in die.get("aliases", ())}}
        return {**kinds, **{f"dg-{t}": len(faces) for t, faces in state.dice.items()}}

    def apply(self, state: DemigodsState, event: Event) -> DemigodsState:
        """The state after ``event``.

        Raises:
            IllegalEvent: the rules forbid it now; the reason says why.
        """
        try:
            return _apply(state, event)
        except Illegal as exc:
            raise IllegalEvent(event, str(exc), self.summary(state)) from None
        except (KeyError, ValueError) as exc:
            raise IllegalEvent(event, str(exc.args[0] if exc.args else exc), self.summary(state)) from None

    def outcome(self, state: DemigodsState) -> Outcome | None:
        if state.result is None:
            return None
        winners, reason = state.result
        return Outcome(winners=tuple(winners), reason=reason, draw=not winners)

    def view(self, state: DemigodsState, viewer: str = "spectator") -> dict[str, Any]:
        return _view(state, viewer)

    def describe(self, state: DemigodsState, event: Event) -> str:
        try:
            after = _apply(state, event)
        except (Illegal, KeyError, ValueError):
            after = None
        return _describe(state, after, event)

    def objects(self) -> list[str]:
        """Taggable objects for the NFC tag registry: heroes, Demigods, items."""
        out = [f"demigods:hero:{h}" for h in data.hero_ids()]
        out += [f"demigods:demigod:{d}" for d in data.demigod_ids()]
        out += [f"demigods:item:{i}" for i in data.item_ids()]
        out += [f"demigods:item:{data.demigod(d)['primary']['id']}" for d in data.demigod_ids()]
        return out

    @staticmethod
    def summary(state: DemigodsState) -> str:
        if state.stage != "play":
            return f"demigods {state.stage}"
        return f"round {state.round}, {state.phase} phase, acting {state.acting or 'nobody'}"


DEMIGODS = register_game(Demigods())
