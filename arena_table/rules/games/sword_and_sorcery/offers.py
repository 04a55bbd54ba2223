"""What the players can do now in Sword & Sorcery (Clash of the Heroes), as tappable actions
(``Game.actions``).

Preparation (6.3: each Team's Building, all at the same time; then all agree to deploy), the
Shrine claims made together (6.4), the deployment within 2 areas of the Shrine (6.4), the Time
Phase (Resurrection, PvP I's Pitfalls over Locations A-D, then the Battle Phase), and the Hero
Turn (Rules Reference, Battle Phase): activating a Hero, the Movement Activity to an adjacent
area, standing up after K.O., Recall as a Ghost Soul, Dash and Focus, an attack on an Opponent
with an equipped weapon, the Reaction Attacks of an Evade (or passing), resolving an attack once
its dice are in, the Saves against a Trap or Poison, and the end of the Hero Turn. Nothing is
offered while a Tiebreaker roll, an attack's HIT or DEF dice, or a Holy Pitfall's Blue Die are
awaited. Every choice is one ``apply`` accepts (:func:`~arena_table.rules.kernel.actions.legal`).
"""

from __future__ import annotations

from arena_table.rules.kernel.actions import Action, Apply, Choice, Param, legal, settled

from . import play
from .state import Hero, SnsState

BUILDINGS = (("Heroes' Hall", "heroes-hall"), ("Talents Guild", "talents-guild"))
"""The Site Sheet's Buildings the book names (6.3, its example l.799); others are typed."""
PITFALLS = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")
"""Pitfall tiles by their numerals (4.2)."""
SAVE = (Choice("saved", {"ok": True}), Choice("failed", {"ok": False}))
BLIND = Param("blind_save", "Blinded: the Save before the Activity", (Choice("saved", {"blind_save": True}),
                                                                        Choice("failed", {"blind_save": False})))
"""A Blinded Hero's Save before each Activity (Body Conditions, Blinded)."""


def actions(state: SnsState, apply: Apply) -> list[Action]:
    """The actions legal in ``state`` under ``apply`` (the game's own, ``GAME.apply``); empty while
    dice are awaited or once the game is over."""
    if state.result is not None or state.phase == "over" or state.tiebreak is not None:
        return []
    if any(why == "holy" for _, why in state.saves) and state.combat is None:
        return []
    out = _saves(state, apply)
    if any(why not in ("poison",) for _, why in state.saves):
        return [a for a in (settled(a) for a in out) if a]
    if state.combat is not None:
        if play.awaited(state) == "resolve":
            c = state.combat
            out.append(legal(apply, state, "sns-resolve", "Resolve the attack", _team(state, c.attacker)))
    elif state.evade is not None:
        out += _reactions(state, apply)
    elif state.stage == "preparation":
        out += _preparation(state, apply)
    elif state.stage == "claim":
        out.append(_claims(state, apply))
    elif state.stage == "deploy":
        out += _deploy(state, apply)
    elif state.phase == "time":
        out += _time(state, apply)
    elif state.phase == "battle":
        out += _turn(state, apply) if state.turn is not None else _activations(state, apply)
    return [a for a in (settled(a) for a in out) if a]


def _team(state: SnsState, hid: str) -> str:
    return state.hero(hid).team


def _areas(state: SnsState, areas: tuple[str, ...] | None = None) -> tuple[Choice, ...]:
    return tuple(Choice(a, {"area": a}) for a in (areas if areas is not None else
                                                   tuple(a for a, _ in state.board.adjacent)))


def _saves(state: SnsState, apply: Apply) -> list[Action | None]:
    """The Saves awaited: against a Trap (4.3) or Poison (Time Phase)."""
    words = {"trap": "Save against the Trap", "poison": "Save against Poison"}
    return [legal(apply, state, "sns-save", f"{state.hero(h).name}: {words[why]}", _team(state, h), {"hero": h},
                  (Param("ok", "The Save", SAVE),)) for h, why in state.saves if why in words]


def _preparation(state: SnsState, apply: Apply) -> list[Action | None]:
    """A Preparation run: each Team's Building at the same time (6.3), or all agree to deploy."""
    params = tuple(Param(f"visits.{t.name}", f"{t.name}: Building", tuple(
        Choice(label, {"visits": {t.name: b}}) for label, b in BUILDINGS)) for t in state.teams)
    return [legal(apply, state, "sns-visit", "A Preparation run: each Team's Building", params=params),
            legal(apply, state, "sns-ready", "All Teams conclude the Preparation")]


def _claims(state: SnsState, apply: Apply) -> Action | None:
    """The Teams without a Shrine claim one each, at the same time (6.4)."""
    taken = {t.shrine for t in state.teams if t.shrine}
    free = [a for a in state.board.open_shrines if a not in taken]
    params = tuple(Param(f"claims.{t.name}", f"{t.name}: Shrine", tuple(Choice(f"the Shrine in {a}", {"claims": {t.name: a}})
                                                                        for a in free))
                   for t in state.teams if not t.shrine)
    return legal(apply, state, "sns-claim", "Claim the Shrines", params=params)


def _deploy(state: SnsState, apply: Apply) -> list[Action | None]:
    """The Team in turn places a Hero within 2 areas of its Shrine (6.4)."""
    team = state.order[state.next_team]
    return [legal(apply, state, "sns-place", f"Place {h.name}", team, {"hero": h.id},
                  (Param("area", "Area", _areas(state)),))
            for h in state.team_heroes(team) if h.area is None]


def _time(state: SnsState, apply: Apply) -> list[Action | None]:
    """Resurrection (6.2), the Pitfalls PvP I places in its first Time Phase, the Battle Phase."""
    out: list[Action | None] = [legal(apply, state, "sns-resurrect", f"{h.name}: spend a Resurrection token",
                                      h.team, {"hero": h.id}) for _, h in state.heroes if h.ghost]
    if "pitfalls-first-time-phase" in state.quest.special and state.first_time:
        placed = {p.area for p in state.board.pitfalls}
        free = [loc for loc, area in state.board.locations if loc in "ABCD" and area not in placed]
        numbers = Param("number", "Pitfall drawn", tuple(Choice(n, {"number": n}) for n in PITFALLS))
        out.append(legal(apply, state, "sns-pitfall", "Place a Pitfall", params=(  # a Blade needs a ring: per Location
            Param("location", "Over Location", tuple(Choice(f"Location {loc}", {"location": loc}, (numbers,))
                                                     for loc in free)),)))
    out.append(legal(apply, state, "sns-battle", "Begin the Battle Phase"))
    return out


def _activations(state: SnsState, apply: Apply) -> list[Action | None]:
    if not state.order:
        return []
    team = state.order[state.next_team]
    return [legal(apply, state, "sns-activate", f"{h.name}: Hero Turn", team, {"hero": h.id})
            for h in state.team_heroes(team) if not h.activated]


def _turn(state: SnsState, apply: Apply) -> list[Action | None]:
    """The active Hero's Activities (Battle Phase, Hero Turn) and the end of its turn."""
    h = state.hero(state.turn.hero)
    blind = (BLIND,) if h.health == 2 else ()
    me = {"hero": h.id}
    out: list[Action | None] = []
    if h.ghost:
        shrines = Param("to", "To the Shrine in", tuple(Choice(a, {"to": a}) for a in state.board.shrines))
        out.append(legal(apply, state, "sns-recall", f"{h.name}: Recall", h.team, me, (shrines,)))
    near = Param("to", "To", tuple(Choice(a, {"to": a}) for a in state.board.neighbours(h.area))) if h.area else None
    if near is not None:
        out.append(legal(apply, state, "sns-move", f"{h.name}: move", h.team, me, (near,) + blind))
    if h.ko:
        out.append(legal(apply, state, "sns-stand", f"{h.name}: stand up (1 point of movement)", h.team, me, blind))
    for name, words in (("dash", "Dash"), ("focus", "Focus")):
        out.append(legal(apply, state, "sns-action", f"{h.name}: {words}", h.team, {**me, "name": name}, blind))
    out.append(_attack(state, apply, h, "attack", blind))
    out.append(legal(apply, state, "sns-end-turn", f"{h.name}: end the Hero Turn", h.team))
    return out


def _attack(state: SnsState, apply: Apply, h: Hero, mode: str, extra: tuple[Param, ...] = (),
            targets: tuple[Hero, ...] | None = None) -> Action | None:
    """``h`` attacks an Opponent (or, reacting, the evading Hero) with an equipped weapon, or bare-handed."""
    foes = targets if targets is not None else tuple(o for _, o in state.heroes if o.team != h.team and o.area)
    weapons = tuple(Choice(n.replace("-", " ").title(), {"weapon": n}) for n, _ in h.weapons)
    arms = (Param("weapon", "Weapon", weapons or (Choice("bare-handed", {"weapon": ""}),)),) + extra
    # the weapons each target allows differ (a ranged one reaches another area): asked per target
    params = (Param("target", "Target", tuple(Choice(f"{o.name} ({o.team})", {"target": o.id}, arms) for o in foes)),)
    label = f"{h.name}: Reaction Attack" if mode == "reaction" else f"{h.name}: attack"
    return legal(apply, state, "sns-attack", label, h.team, {"who": h.id, "mode": mode}, params)


def _reactions(state: SnsState, apply: Apply) -> list[Action | None]:
    """An Evade: each Enemy in the area makes a Reaction Attack on the evading Hero, or passes."""
    ev = state.evade
    evader = state.hero(ev.hero)
    out: list[Action | None] = []
    for rid in ev.reactors:
        r = state.hero(rid)
        out.append(_attack(state, apply, r, "reaction", targets=(evader,)))
        out.append(legal(apply, state, "sns-pass", f"{r.name}: no Reaction Attack on {evader.name}", r.team,
                         {"who": rid}))
    return out
