"""The game's flow: Preparation, Shrine claims, deployment, and the Rounds' phases (6.3-6.5).

Phases (:data:`FLOW`): ``preparation`` -> ``claim`` -> ``deploy`` -> a Round's ``time`` ->
``battle`` -> ``event`` -> the next Round's ``time`` ... -> ``over``. A Round (Rules
Reference, Game Sequence) is a Time Phase (Effects Cleanup, damage first; Powers Refresh and
Cooldown; Resurrection), a Battle Phase (a Tiebreaker Procedure sets the
order of play, then the Teams in that order each play one Hero Turn with a Hero not activated yet,
round and round until every Hero has been activated; no Enemy Turns) and an Event Phase (only the
Day/Night alternation when enabled, 6.2). Every change of phase happens in :data:`FLOW`: handlers
only record what happened (a Team's readiness, the Shrines claimed, a Hero's bookmark) and the
phase table's end conditions read it.
"""

from __future__ import annotations

import dataclasses

from arena_table.rules.kernel.game import Flow, Phase
from arena_table.rules.kernel.errors import Refused

from . import conditions, harm, hazards, tiebreak
from .dice import count
from .quests import INFINITE
from .state import SnsState, put, put_team


# --- Tiebreaker Procedures ------------------------------------------------------------------

def begin_tiebreak(state: SnsState, purpose: str, teams: tuple[str, ...]) -> SnsState:
    """Start a Tiebreaker Procedure (or queue it behind the running one); one Team settles at once."""
    if state.tiebreak is not None:
        return dataclasses.replace(state, queue=state.queue + ((purpose, teams),))
    again = 1 if state.options.tie_reroll == "once-then-listing" else 0
    t = tiebreak.start(purpose, teams, again)
    state = dataclasses.replace(state, tiebreak=t)
    return _settled(state) if t.is_done else state


def tiebreak_roll(state: SnsState, team: str, faces: tuple[str, ...]) -> SnsState:
    """A Team's 4 red dice for the running Tiebreaker Procedure (6.1)."""
    t = state.tiebreak
    if t is None:
        raise Refused("no Tiebreaker Procedure is under way")
    team = team or (t.to_roll()[0] if t.to_roll() else "")
    if len(faces) != tiebreak.DICE:
        raise Refused(f"a Tiebreaker roll is {tiebreak.DICE} red dice, not {len(faces)}")
    try:
        t = tiebreak.roll(t, team, count(faces, "tiebreaker"))
    except ValueError as exc:
        raise Refused(str(exc)) from None
    state = dataclasses.replace(state, tiebreak=t)
    return _settled(state) if t.is_done else state


def _settled(state: SnsState) -> SnsState:
    t = state.tiebreak
    order = tiebreak.ranking(t)
    state = dataclasses.replace(state, tiebreak=None, tiebreaks=state.tiebreaks + (t,))
    kind, _, what = t.purpose.partition(":")
    if kind == "building":
        state = dataclasses.replace(state, visits=state.visits + tuple((team, what) for team in order))
    elif kind == "shrine":
        state = put_team(state, dataclasses.replace(state.team(order[0]), shrine=what))
    elif kind == "deploy":
        state = dataclasses.replace(state, order=order, medals=_medals(order), next_team=0)
    elif kind == "battle":
        state = _next_team(dataclasses.replace(state, order=order, medals=_medals(order), next_team=0), start=0)
    elif kind == "evade" and state.evade is not None:
        state = dataclasses.replace(state, evade=dataclasses.replace(state.evade, team_order=order))
    if state.queue:
        (purpose, teams), rest = state.queue[0], state.queue[1:]
        return begin_tiebreak(dataclasses.replace(state, queue=rest), purpose, teams)
    return state


def _medals(order: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    return tuple((team, i) for i, team in enumerate(order, start=1))


# --- Preparation and deployment (6.3, 6.4) ---------------------------------------------------

def visit(state: SnsState, visits: dict[str, str]) -> SnsState:
    """One Preparation run: uncontested Buildings are used at once, contested ones in tiebreak order."""
    if set(visits) - {t.name for t in state.teams}:
        raise Refused(f"unknown Team(s) {sorted(set(visits) - {t.name for t in state.teams})}")
    by_building: dict[str, list[str]] = {}
    for t in state.teams:
        if t.name in visits:
            by_building.setdefault(str(visits[t.name]).strip().lower(), []).append(t.name)
    state = dataclasses.replace(state, visits=(), runs=state.runs + 1)
    for building, teams in by_building.items():
        if len(teams) == 1:
            state = dataclasses.replace(state, visits=state.visits + ((teams[0], building),))
    for building, teams in by_building.items():
        if len(teams) > 1:
            state = begin_tiebreak(state, f"building:{building}", tuple(teams))
    return state


def claim(state: SnsState, claims: dict[str, str]) -> SnsState:
    """Shrine claims made together; a contested Shrine goes to the tiebreak winner, the others choose
    again among the unclaimed ones (6.4)."""
    taken = {t.shrine for t in state.teams if t.shrine}
    contested: dict[str, list[str]] = {}
    for team, area in claims.items():
        t = state.team(team)
        if t.shrine:
            raise Refused(f"{team} has claimed {t.shrine} already")
        if area not in state.board.open_shrines:
            raise Refused(f"{area!r} is not an open Shrine's area; Shrines: {', '.join(state.board.open_shrines)}")
        if area in taken:
            raise Refused(f"the Shrine in {area} is claimed already; choose a different, unclaimed one")
        contested.setdefault(area, []).append(team)
    for area, teams in contested.items():
        if len(teams) == 1:
            state = put_team(state, dataclasses.replace(state.team(teams[0]), shrine=area))
    for area, teams in contested.items():
        if len(teams) > 1:
            order = tuple(t.name for t in state.teams if t.name in teams)
            state = begin_tiebreak(state, f"shrine:{area}", order)
    return state


def place(state: SnsState, hid: str, area: str) -> SnsState:
    """Deployment: the Team in turn places a Hero within 2 areas of its Shrine (6.4)."""
    from .areas import distance
    team = state.order[state.next_team]
    h = state.hero(hid)
    if h.team != team:
        raise Refused(f"{team} places its Hero now (deployment order {', '.join(state.order)})")
    if h.area is not None:
        raise Refused(f"{h.name} is on the map already")
    if not state.board.has(area):
        raise Refused(f"no area {area!r} on the board")
    d = distance(state.board, state.team(team).shrine, area)
    if d is None or d > 2:
        raise Refused(f"{area} is not within 2 areas of {team}'s Shrine ({state.team(team).shrine})")
    state = hazards.entering(put(state, dataclasses.replace(h, area=area)), hid, area)
    left = _to_place(state)
    if not left:
        return dataclasses.replace(state, next_team=0)
    n = len(state.order)
    nxt = next(i % n for i in range(state.next_team + 1, state.next_team + 1 + n) if state.order[i % n] in left)
    return dataclasses.replace(state, next_team=nxt)


def _to_place(state: SnsState) -> list[str]:
    return [t for t in state.order if any(x.area is None and not x.companion_of for x in state.team_heroes(t))]


# --- Rounds ----------------------------------------------------------------------------------

def is_defeated(state: SnsState, team: str) -> bool:
    """Every Hero of ``team`` is a Ghost Soul and no Resurrection token is left (PvP I)."""
    t = state.team(team)
    return t.resurrections != INFINITE and t.resurrections <= 0 and all(h.ghost for h in state.team_heroes(team))


def active_teams(state: SnsState) -> tuple[str, ...]:
    """Teams in the Tiebreaker and the activation cycle (defeated ones dropped, reading ``drop_defeated``)."""
    return tuple(t.name for t in state.teams if not (state.options.drop_defeated and is_defeated(state, t.name)))


def begin_time(state: SnsState) -> SnsState:
    """A new Round's Time Phase: Effects Cleanup, damage first (Fire, Poison), then the other effects;
    Powers Refresh and Cooldown (:class:`.events.Power`); the Hero Bookmarks cleared."""
    state = dataclasses.replace(state, round=state.round + 1, resurrected=(), turn=None, next_team=0)
    for hid, h in state.heroes:
        if h.ghost or h.area is None:
            continue
        h2, lost = conditions.time_phase(state.hero(hid))
        state = harm.hurt(put(state, h2), hid, lost, by=harm.ticked_by(state, hid))
        if state.hero(hid).poison and not state.hero(hid).ghost:
            state = dataclasses.replace(state, saves=state.saves + ((hid, "poison"),))
    for hid, h in state.heroes:  # Powers Refresh (flipped ones back), then Cooldown (one quarter turn)
        powers = tuple((n, left - 1) for n, left in h.powers if left > 1)
        state = put(state, dataclasses.replace(h, activated=False, powers=powers))
    return state


def call_battle(state: SnsState) -> SnsState:
    """``sns-battle``: the table ends the Time Phase (its Saves and PvP I's Pitfalls done first)."""
    if state.phase != "time":
        raise Refused("the Battle Phase follows a Time Phase")
    pending = [h for h, why in state.saves if why != "poison"]
    if pending:
        raise Refused(f"a Save is awaited first: {', '.join(pending)}")
    if "pitfalls-first-time-phase" in state.quest.special and state.first_time:
        on = {dict(state.board.locations).get(k) for k in "ABCD"} - {None}
        placed = {p.area for p in state.board.pitfalls}
        if not on <= placed:
            raise Refused("PvP Quest I: during the first Time Phase, draw 4 Pitfalls and place one over each "
                          "Location A to D (sns-pitfall) before the Battle Phase")
    return dataclasses.replace(state, battle_called=True)


def begin_battle(state: SnsState) -> SnsState:
    """The Battle Phase begins: the order of play is tiebroken among the Teams still in (6.5)."""
    state = dataclasses.replace(state, first_time=False, battle_called=False, order=(), medals=(),
                                saves=tuple(s for s in state.saves if s[1] != "poison"))
    return begin_tiebreak(state, "battle", active_teams(state))


def _can_play(state: SnsState, team: str) -> bool:
    if team not in active_teams(state):
        return False
    return any(not h.activated for h in state.team_heroes(team))


def _next_team(state: SnsState, start: int) -> SnsState:
    n = len(state.order)
    for i in range(start, start + n):
        if _can_play(state, state.order[i % n]):
            return dataclasses.replace(state, next_team=i % n)
    return state


def battle_over(state: SnsState) -> bool:
    """Every Hero of every Team in the cycle has been activated once (6.5)."""
    return (state.tiebreak is None and state.turn is None and bool(state.order)
            and not any(_can_play(state, t) for t in state.order))


def end_turn(state: SnsState) -> SnsState:
    """End of a Hero Turn: the Hero's bookmark, Health Conditions, the Blades turn, the next Team."""
    t = state.turn
    h = state.hero(t.hero)
    state = put(state, dataclasses.replace(h, activated=True))
    for hid, x in state.heroes:
        if not x.health:
            continue
        own = state.options.health_discard == "own-turn" and hid == t.hero
        gained_now = state.options.health_discard == "inflicted-turn" and x.health_since == state.turns
        if own or gained_now:
            state = put(state, dataclasses.replace(x, health=0, health_since=0))
    state = hazards.rotate_blades(dataclasses.replace(state, turn=None))
    return _next_team(state, state.next_team + 1)


def begin_event(state: SnsState) -> SnsState:
    """Event Phase: Day and Night alternate when the cycle is enabled; nothing else (6.5)."""
    return dataclasses.replace(state, day=not state.day) if state.quest.day_night else state


def resurrect(state: SnsState, hid: str) -> SnsState:
    """Time Phase: a Ghost Soul comes back for one of its Team's Resurrection tokens (free and unlimited
    in PvP III), in an open Shrine's area (reading ``resurrect_at_shrine``)."""
    if state.phase != "time":
        raise Refused("a Resurrection token is spent in the Time Phase")
    h = state.hero(hid)
    if not h.ghost:
        raise Refused(f"{h.name} is not a Ghost Soul")
    team = state.team(h.team)
    if team.resurrections == 0:
        raise Refused(f"{team.name} has no Resurrection token left")
    if state.options.resurrect_at_shrine and h.area not in state.board.open_shrines:
        raise Refused(f"{h.name} must be in an open Shrine's area ({', '.join(state.board.open_shrines)}) to resurrect")
    hp = state.options.resurrect_hp or h.hp_max
    state = put(state, dataclasses.replace(h, ghost=False, hp=min(hp, h.hp_max)))
    if team.resurrections != INFINITE:
        state = put_team(state, dataclasses.replace(team, resurrections=team.resurrections - 1))
    return dataclasses.replace(state, resurrected=state.resurrected + (hid,))


# --- Victory (the three PvP quests) ----------------------------------------------------------

def victory(state: SnsState) -> SnsState:
    """The game ends the moment its Victory Condition holds (6.5)."""
    if state.stage != "play" or state.result is not None:
        return state
    result = None
    v = state.quest.victory
    if v == "last-team":
        standing = [t for t in state.teams if not is_defeated(state, t.name)]
        sides = {tuple(sorted((t.name,) + t.allies)) for t in standing}
        if len(sides) <= 1:
            winners = next(iter(sides), ())
            result = (tuple(t.name for t in state.teams if t.name in winners), "all Teams but one are defeated")
    elif v == "first-blood":
        for killer, victim in state.kill_log:  # "kills a Hero": a Companion's death is no First Blood
            kt, vt = state.hero(killer).team, state.hero(victim).team
            if kt != vt and not state.hero(victim).companion_of:
                result = ((kt,), f"first kill: {state.hero(killer).name} killed {state.hero(victim).name}")
                break
    elif v == "kill-coins":
        for _, h in state.heroes:
            if h.kill_coins >= state.quest.kills_to_win:
                result = ((h.team,), f"{h.name} reached {state.quest.kills_to_win} Kill Coins")
                break
    if result is None:
        return state
    return dataclasses.replace(state, result=result, phase="over", turn=None)


def _enter(state: SnsState, phase: str) -> SnsState:
    return dataclasses.replace(state, phase=phase)


FLOW = Flow(
    phases={
        "preparation": Phase(next=lambda s: "claim", end_if=lambda s: s.ready and s.tiebreak is None),
        "claim": Phase(next=lambda s: "deploy",
                       end_if=lambda s: s.tiebreak is None and all(t.shrine for t in s.teams)),
        "deploy": Phase(next=lambda s: "time", end_if=lambda s: bool(s.order) and not _to_place(s),
                        on_begin=lambda s: begin_tiebreak(s, "deploy", tuple(t.name for t in s.teams))),
        "time": Phase(next=lambda s: "battle", end_if=lambda s: s.battle_called, on_begin=begin_time),
        "battle": Phase(next=lambda s: "event", end_if=battle_over, on_begin=begin_battle),
        "event": Phase(next=lambda s: "time", end_if=lambda s: True, on_begin=begin_event),
    },
    phase_of=lambda s: s.phase, enter=_enter, finish=victory)
"""The phase table (issue 27's kernel ``Flow``): each phase's end condition, what follows it and
what its beginning does."""
