"""``apply(state, event)``: one handler per event kind, then the Victory Condition check.

Every handler reports what it did through the state; stage and phase changes live in
:mod:`.flow`. A Save or a Holy Pitfall die awaited blocks play until it comes (4.2, 4.3).
"""

from __future__ import annotations

import dataclasses

from arena_table.rules.events import DiceRolled, DieCorrected, Event, Note, TagPlaced, TagRemoved

from . import dice, flow, harm, hazards, play
from . import events as ev
from .errors import Illegal
from .state import SnsState, put


def _faces(faces) -> tuple[str, ...]:
    try:
        return dice.check_faces(faces)
    except ValueError as exc:
        raise Illegal(str(exc)) from None


def _roll(state: SnsState, team: str, red: tuple[str, ...], blue: tuple[str, ...], shields) -> SnsState:
    red, blue = _faces(red), _faces(blue)
    if state.tiebreak is not None:
        if blue or shields:
            raise Illegal("a Tiebreaker roll is 4 red dice")
        return flow.tiebreak_roll(state, team, red)
    holy = [h for h, why in state.saves if why == "holy"]
    if holy and not state.combat:
        if red or len(blue) != 1:
            raise Illegal(f"{state.hero(holy[0]).name} rolls 1 Blue Die on the Holy Pitfall")
        return _holy(state, holy[0], blue[0])
    if state.combat is None:
        raise Illegal("no roll is awaited (no Tiebreaker Procedure, attack or Holy Pitfall)")
    if team:
        raise Illegal("team= names a Tiebreaker roll; this roll is for the pending attack")
    for k, v in dict(shields or {}).items():
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise Illegal(f"shields: {k} adds a whole number of shields, not {v!r}")
    return play.roll(state, red, blue, dict(shields or {}))


def _holy(state: SnsState, hid: str, face: str) -> SnsState:
    saves = list(state.saves)
    saves.remove((hid, "holy"))
    return hazards.holy(dataclasses.replace(state, saves=tuple(saves)), hid, face)


def _kernel_roll(state: SnsState, e: DiceRolled) -> SnsState:
    """``roll die=sns-red|sns-blue faces=[indices]`` read through the die kinds (:mod:`.dice`)."""
    try:
        faces = tuple(dice.face_of(e.die, i) for i in e.faces)
    except ValueError as exc:
        raise Illegal(str(exc)) from None
    colour = dice.DIE_KINDS[e.die]["colour"]
    return _roll(state, "", faces if colour == "red" else (), faces if colour == "blue" else (), None)


def _need(state: SnsState, stage: str, what: str) -> None:
    if state.stage != stage:
        raise Illegal(f"{what} belongs to the {stage} stage; the game is in its {state.stage} stage")


def _free(state: SnsState) -> None:
    """Nothing else may happen while a Tiebreaker roll or a Save is awaited."""
    if state.tiebreak is not None:
        raise Illegal(f"a Tiebreaker Procedure ({state.tiebreak.purpose}) awaits the roll of "
                      f"{', '.join(state.tiebreak.to_roll())}")
    blocking = [f"{h} ({why})" for h, why in state.saves if why != "poison"]
    if blocking:
        raise Illegal(f"awaiting first: {', '.join(blocking)} (sns-save / sns-holy)")


def apply(state: SnsState, e: Event) -> SnsState:
    """The state after ``e``, the Victory Condition checked.

    Raises:
        Illegal: the rules forbid ``e`` now (the message says why).
        KeyError, ValueError: an unknown Hero, Team or value named in ``e``.
    """
    return flow.victory(_apply(state, e))


def _apply(state: SnsState, e: Event) -> SnsState:  # noqa: C901 - one dispatch table
    if isinstance(e, (Note, TagRemoved, TagPlaced)):
        return state
    if isinstance(e, DieCorrected):
        raise Illegal("Sword & Sorcery uses each die as it is read: undo the roll and enter it again")
    if state.stage == "over":
        raise Illegal("the game is over")
    if isinstance(e, DiceRolled):
        return _kernel_roll(state, e)
    if isinstance(e, ev.Roll):
        return _roll(state, e.team, e.red, e.blue, e.shields)
    if isinstance(e, ev.Save):
        for h, why in state.saves:
            if h == e.hero:
                saves = list(state.saves)
                saves.remove((h, why))
                state = dataclasses.replace(state, saves=tuple(saves))
                if why == "trap":
                    return hazards.trap_save(state, h, e.ok)
                if why == "poison":
                    return put(state, dataclasses.replace(state.hero(h), poison=0)) if e.ok else state
                raise Illegal(f"{h} awaits the Holy Pitfall's Blue Die (sns-holy), not a Save")
        raise Illegal(f"no Save is awaited from {e.hero}")
    if isinstance(e, ev.Holy):
        if (e.hero, "holy") not in state.saves:
            raise Illegal(f"{e.hero} is not on a Holy Pitfall awaiting its die")
        return _holy(state, e.hero, _faces((e.face,))[0])
    if isinstance(e, ev.Simultaneous):
        _free(state)
        for t in e.teams:
            state.team(t)
        return flow.begin_tiebreak(state, f"simultaneous:{e.what}", tuple(e.teams))
    if isinstance(e, ev.Visit):
        _need(state, "preparation", "a Building visit")
        _free(state)
        return flow.visit(state, {str(k).lower(): str(v) for k, v in e.visits.items()})
    if isinstance(e, ev.Ready):
        _need(state, "preparation", "ending the Preparation")
        _free(state)
        return dataclasses.replace(state, stage="claim", visits=())
    if isinstance(e, ev.Claim):
        _need(state, "claim", "a Shrine claim")
        _free(state)
        return flow.claim(state, {str(k).lower(): str(v) for k, v in e.claims.items()})
    if isinstance(e, ev.Place):
        _need(state, "deploy", "placing a Hero")
        _free(state)
        return flow.place(state, e.hero, e.area)
    _need(state, "play", f"{e.KIND}")
    if isinstance(e, ev.Reroll):
        return play.reroll(state, e.die, e.index, _faces((e.face,))[0])
    if isinstance(e, ev.Resolve):
        if state.combat is None:
            raise Illegal("no attack is under way")
        return play.resolve(state)
    if isinstance(e, ev.Attack):
        _free(state)
        return play.attack(state, e)
    if isinstance(e, ev.Pass):
        _free(state)
        return play.pass_reaction(state, e.who)
    if isinstance(e, (ev.PlacePitfall, ev.ActivatePitfall, ev.FlipPitfall, ev.Token, ev.Condition, ev.Clear,
                      ev.Hp, ev.MagicShield)):
        return _board_or_hand(state, e)
    _free(state)
    if state.combat is not None or state.evade is not None:
        raise Illegal("an attack or an Evade is under way: finish it first")
    if isinstance(e, ev.Battle):
        return flow.begin_battle(state)
    if isinstance(e, ev.Resurrect):
        return flow.resurrect(state, e.hero)
    if isinstance(e, ev.Activate):
        return play.activate(state, e.hero)
    if isinstance(e, ev.EndTurn):
        if state.turn is None:
            raise Illegal("no Hero Turn is under way")
        return flow.end_turn(state)
    if isinstance(e, ev.Move):
        return play.move(state, e.hero, e.to, e.blind_save)
    if isinstance(e, ev.Recall):
        return play.recall(state, e.hero, e.to)
    if isinstance(e, ev.Stand):
        return play.stand(state, e.hero)
    if isinstance(e, ev.Action):
        return play.action(state, e.hero, e.name, e.blind_save)
    if isinstance(e, ev.Summon):
        return play.summon(state, e.hero, e.id.strip().lower(), e.area, e.name, e.hp)
    if isinstance(e, ev.Teleport):
        return play.teleport(state, e.hero, _faces((e.face,))[0])
    raise Illegal(f"{e.KIND} is not an event of Sword & Sorcery")


def _board_or_hand(state: SnsState, e: Event) -> SnsState:
    """Tokens placed and effects entered by hand (cards, powers, Items the engine does not model)."""
    try:
        if isinstance(e, ev.PlacePitfall):
            return hazards.place_pitfall(state, hazards.number(e.number), e.location.upper(), not e.closed)
        if isinstance(e, ev.ActivatePitfall):
            p = hazards.pitfall_at(state, dict(state.board.locations).get(e.location.upper(), ""))
            if p is None:
                raise Illegal(f"no Pitfall on Location {e.location}")
            return hazards.activate(state, p)
        if isinstance(e, ev.FlipPitfall):
            p = hazards.pitfall_at(state, dict(state.board.locations).get(e.location.upper(), ""))
            if p is None:
                raise Illegal(f"no Pitfall on Location {e.location}")
            pits = tuple(dataclasses.replace(q, open=e.open) if q is p else q for q in state.board.pitfalls)
            return dataclasses.replace(state, board=dataclasses.replace(state.board, pitfalls=pits))
        if isinstance(e, ev.Token):
            return hazards.place_token(state, e.kind, e.area)
    except ValueError as exc:
        raise Illegal(str(exc)) from None
    h = state.hero(e.hero)
    if isinstance(e, ev.Condition):
        if h.ghost:
            raise Illegal(f"{h.name} is a Ghost Soul: no Body Conditions")
        return harm.inflict(state, h.id, e.name, by=e.by)
    if isinstance(e, ev.Clear):
        from .conditions import HEALTH, canonical, names
        name = canonical(e.name, state.quest.act)
        if name not in names(h):
            raise Illegal(f"{h.name} has no {name}")
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
    if isinstance(e, ev.MagicShield):
        if h.magic_shields + e.count < 0:
            raise Illegal(f"{h.name} has {h.magic_shields} Magic Shields")
        return put(state, dataclasses.replace(h, magic_shields=h.magic_shields + e.count))
    raise Illegal(f"{e.KIND} is not an event of Sword & Sorcery")
