"""The event handlers (one per event kind) and the guard every event passes first.

Handlers record what happened; phase changes and the Victory Condition live in :mod:`.flow`'s
phase table. A Tiebreaker roll, a Save or a Holy Pitfall die awaited blocks play until it comes
(6.1, 4.2, 4.3).
"""

from __future__ import annotations

import dataclasses

from arena_table.rules.kernel.events import DiceRolled, Event, Note, TagPlaced, TagRemoved
from arena_table.rules.kernel.errors import Refused
from arena_table.rules.kernel.mechanics.dice import kind_values

from . import dice, flow, harm, hazards, play
from . import events as ev
from .state import SnsState, put


def _faces(faces) -> tuple[str, ...]:
    try:
        return dice.check_faces(faces)
    except ValueError as exc:
        raise Refused(str(exc)) from None


def _roll(state: SnsState, team: str, red: tuple[str, ...], blue: tuple[str, ...], shields) -> SnsState:
    red, blue = _faces(red), _faces(blue)
    if state.tiebreak is not None:
        if blue or shields:
            raise Refused("a Tiebreaker roll is 4 red dice")
        return flow.tiebreak_roll(state, team, red)
    holy = [h for h, why in state.saves if why == "holy"]
    if holy and not state.combat:
        if red or len(blue) != 1:
            raise Refused(f"{state.hero(holy[0]).name} rolls 1 Blue Die on the Holy Pitfall")
        return _holy(state, holy[0], blue[0])
    if state.combat is None:
        raise Refused("no roll is awaited (no Tiebreaker Procedure, attack or Holy Pitfall)")
    if team:
        raise Refused("team= names a Tiebreaker roll; this roll is for the pending attack")
    for k, v in dict(shields or {}).items():
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise Refused(f"shields: {k} adds a whole number of shields, not {v!r}")
    return play.roll(state, red, blue, dict(shields or {}))


def _holy(state: SnsState, hid: str, face: str) -> SnsState:
    saves = list(state.saves)
    saves.remove((hid, "holy"))
    return hazards.holy(dataclasses.replace(state, saves=tuple(saves)), hid, face)


def _kernel_roll(state: SnsState, e: DiceRolled) -> SnsState:
    """``roll die=sns-red|sns-blue faces=[indices]`` read through the die kinds (:mod:`.dice`); a throw
    named by die kind gives its faces by symbol, red and blue dice together
    (``roll kinds=[sns-red,sns-red,sns-blue] faces=[hit+gate1,blank+gate2,shield]``)."""
    if e.kinds:
        pairs = kind_values(e)
        if any(k not in dice.DIE_KINDS for k, _ in pairs):
            return state  # dice Sword & Sorcery does not throw: the tray keeps them
        red = tuple(str(f) for k, f in pairs if k == "sns-red")
        return _roll(state, "", red, tuple(str(f) for k, f in pairs if k == "sns-blue"), None)
    try:
        faces = tuple(dice.face_of(e.die, i) for i in e.faces)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    colour = dice.DIE_KINDS[e.die]["colour"]
    return _roll(state, "", faces if colour == "red" else (), faces if colour == "blue" else (), None)


NEEDS = {ev.Visit: "preparation", ev.Ready: "preparation", ev.Claim: "claim", ev.Place: "deploy"}
"""The phase an event belongs to; every other ``sns-`` event needs a Round under way."""
FREE = (ev.Roll, ev.Save, ev.Holy, ev.Reroll, ev.Resolve, ev.PlacePitfall, ev.ActivatePitfall, ev.FlipPitfall,
        ev.Token, ev.Condition, ev.Clear, ev.Hp, ev.MagicShield, ev.SoulPoints, ev.Power, DiceRolled)
"""Events taken while a Tiebreaker roll or a Save is awaited (the others wait for it)."""
QUIET = (ev.Battle, ev.Resurrect, ev.Activate, ev.EndTurn, ev.Move, ev.Recall, ev.Stand, ev.Action, ev.Summon,
         ev.Teleport)
"""Events refused while an attack or an Evade is under way."""


def guard(state: SnsState, e: Event) -> None:
    """What every event is checked against first: the game's end, its phase, awaited rolls and Saves.

    Raises:
        Refused: the reason names what comes first.
    """
    if isinstance(e, (Note, TagRemoved, TagPlaced)):
        return
    if state.phase == "over":
        raise Refused("the game is over")
    need = NEEDS.get(type(e))
    if need and state.phase != need:
        raise Refused(f"{e.KIND} belongs to the {need} phase; the game is in its {state.phase} phase")
    if not need and not isinstance(e, (DiceRolled, ev.Roll, ev.Simultaneous)) and state.stage != "play":
        raise Refused(f"{e.KIND} needs a Round under way; the game is in its {state.phase} phase")
    if isinstance(e, FREE):
        return
    if state.tiebreak is not None:
        raise Refused(f"a Tiebreaker Procedure ({state.tiebreak.purpose}) awaits the roll of "
                      f"{', '.join(state.tiebreak.to_roll())}")
    blocking = [f"{h} ({why})" for h, why in state.saves if why != "poison"]
    if blocking:
        raise Refused(f"awaiting first: {', '.join(blocking)} (sns-save / sns-holy)")
    if isinstance(e, QUIET) and (state.combat is not None or state.evade is not None):
        raise Refused("an attack or an Evade is under way: finish it first")


def _save(state: SnsState, e: ev.Save) -> SnsState:
    for h, why in state.saves:
        if h == e.hero and why != "holy":
            saves = list(state.saves)
            saves.remove((h, why))
            state = dataclasses.replace(state, saves=tuple(saves))
            if why == "trap":
                return hazards.trap_save(state, h, e.ok)
            return put(state, dataclasses.replace(state.hero(h), poison=0)) if e.ok else state
    raise Refused(f"no Save is awaited from {e.hero}")


def _holy_event(state: SnsState, e: ev.Holy) -> SnsState:
    if (e.hero, "holy") not in state.saves:
        raise Refused(f"{e.hero} is not on a Holy Pitfall awaiting its die")
    return _holy(state, e.hero, _faces((e.face,))[0])


def _simultaneous(state: SnsState, e: ev.Simultaneous) -> SnsState:
    for t in e.teams:
        state.team(t)
    return flow.begin_tiebreak(state, f"simultaneous:{e.what}", tuple(e.teams))


def _resolve(state: SnsState, e: ev.Resolve) -> SnsState:
    if state.combat is None:
        raise Refused("no attack is under way")
    return play.resolve(state)


def _end_turn(state: SnsState, e: ev.EndTurn) -> SnsState:
    if state.turn is None:
        raise Refused("no Hero Turn is under way")
    return flow.end_turn(state)


HANDLERS = {
    DiceRolled: _kernel_roll,
    ev.Roll: lambda s, e: _roll(s, e.team, e.red, e.blue, e.shields),
    ev.Save: _save,
    ev.Holy: _holy_event,
    ev.Simultaneous: _simultaneous,
    ev.Visit: lambda s, e: flow.visit(s, {str(k).lower(): str(v) for k, v in e.visits.items()}),
    ev.Ready: lambda s, e: dataclasses.replace(s, ready=True),
    ev.Claim: lambda s, e: flow.claim(s, {str(k).lower(): str(v) for k, v in e.claims.items()}),
    ev.Place: lambda s, e: flow.place(s, e.hero, e.area),
    ev.Reroll: lambda s, e: play.reroll(s, e.die, e.index, _faces((e.face,))[0]),
    ev.Resolve: _resolve,
    ev.Attack: lambda s, e: play.attack(s, e),
    ev.Pass: lambda s, e: play.pass_reaction(s, e.who),
    ev.Battle: lambda s, e: flow.call_battle(s),
    ev.Resurrect: lambda s, e: flow.resurrect(s, e.hero),
    ev.Activate: lambda s, e: play.activate(s, e.hero),
    ev.EndTurn: _end_turn,
    ev.Move: lambda s, e: play.move(s, e.hero, e.to, e.blind_save),
    ev.Recall: lambda s, e: play.recall(s, e.hero, e.to),
    ev.Stand: lambda s, e: play.stand(s, e.hero, e.blind_save),
    ev.Action: lambda s, e: play.action(s, e.hero, e.name, e.blind_save),
    ev.Summon: lambda s, e: play.summon(s, e.hero, e.id.strip().lower(), e.area, e.name, e.hp),
    ev.Teleport: lambda s, e: play.teleport(s, e.hero, _faces((e.face,))[0]),
    **{k: lambda s, e: _board_or_hand(s, e) for k in (ev.PlacePitfall, ev.ActivatePitfall, ev.FlipPitfall, ev.Token,
                                                    ev.Condition, ev.Clear, ev.Hp, ev.MagicShield, ev.SoulPoints,
                                                    ev.Power)},
}
"""Event type -> ``handler(state, event) -> state`` (the kernel ``Game.handlers``)."""


def _board_or_hand(state: SnsState, e: Event) -> SnsState:
    """Tokens placed and effects entered by hand (cards, powers, Items the engine does not model)."""
    try:
        if isinstance(e, ev.PlacePitfall):
            return hazards.place_pitfall(state, hazards.number(e.number), e.location.upper(), not e.closed)
        if isinstance(e, ev.ActivatePitfall):
            p = hazards.pitfall_at(state, dict(state.board.locations).get(e.location.upper(), ""))
            if p is None:
                raise Refused(f"no Pitfall on Location {e.location}")
            return hazards.activate(state, p)
        if isinstance(e, ev.FlipPitfall):
            p = hazards.pitfall_at(state, dict(state.board.locations).get(e.location.upper(), ""))
            if p is None:
                raise Refused(f"no Pitfall on Location {e.location}")
            pits = tuple(dataclasses.replace(q, open=e.open) if q is p else q for q in state.board.pitfalls)
            return dataclasses.replace(state, board=dataclasses.replace(state.board, pitfalls=pits))
        if isinstance(e, ev.Token):
            return hazards.place_token(state, e.token, e.area)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    h = state.hero(e.hero)
    if isinstance(e, ev.Condition):
        if h.ghost:
            raise Refused(f"{h.name} is a Ghost Soul: no Body Conditions")
        return harm.inflict(state, h.id, e.name, by=e.by)
    if isinstance(e, ev.Clear):
        from .conditions import HEALTH, canonical, names
        name = canonical(e.name, state.quest.act)
        if name not in names(h):
            raise Refused(f"{h.name} has no {name}")
        if name in HEALTH:
            h = dataclasses.replace(h, health=0)
        elif name == "ko":
            h = dataclasses.replace(h, ko=False)
        elif name.startswith("fire"):
            fire = list(h.fire)
            fire.remove(int(name[-1]))
            h = dataclasses.replace(h, fire=tuple(fire))
        else:
            h = dataclasses.replace(h, **{name[:-1]: 0})
        return put(state, h)
    if isinstance(e, ev.Hp):
        if e.amount >= 0:
            return harm.hurt(state, h.id, e.amount, by=e.by)
        return harm.heal(state, h.id, -e.amount)
    if isinstance(e, ev.Power):
        if any(n == e.name for n, _ in h.powers):
            raise Refused(f"{h.name}'s {e.name} is not ready: it is in cooldown or flipped")
        if not 0 <= e.cooldown <= 4:
            raise Refused(f"a cooldown is 0 (refresh) to 4 quarter turns, not {e.cooldown}")
        return put(state, dataclasses.replace(h, powers=h.powers + ((e.name, e.cooldown or -1),)))
    if isinstance(e, ev.SoulPoints):  # 6.5: "translated to losing/gaining HP by the owner"
        hp = abs(e.points) * state.options.soul_point_hp
        return harm.heal(state, h.id, hp) if e.points > 0 else harm.hurt(state, h.id, hp)
    if isinstance(e, ev.MagicShield):
        if h.magic_shields + e.count < 0:
            raise Refused(f"{h.name} has {h.magic_shields} Magic Shields")
        return put(state, dataclasses.replace(h, magic_shields=h.magic_shields + e.count))
    raise Refused(f"{e.KIND} is not an event of Sword & Sorcery")
