"""Rounds and activation order ('Playing the Game', pp.26-34); the phase table is :mod:`.flow`.

A round is the Demigod Phase (Demigods in the order of that round's Demigod
dice, ties re-rolled), the Hero Phase (heroes by initiative, highest first,
across all players), the minions (Advanced Tactics, in the Demigods' order)
and the Preparation Phase (mana +1, focus +2, You're Next! back to the Demigod,
pitfall ejection, knockdown removal, global tokens flipped).

Hero ties (p.31): when heroes of opposing players share an initiative the
players roll the Demigod dice (every round, p.26); only the left-most tied hero
of each player may activate until every tied player has activated one, then
the rest follow the same way in the order of the rolls. A tie between
teammates only is not rolled: the players choose (``dg-activate``), except when the
teammates are what is left of a tie rolled this round: those rolls still give the order. Initiative
changed by tokens counts; the formation does not change.

"Who is next" is derived here from the state's ``activated`` list and rolls.
The "You're Next!" token of each player is the player's next character in
this derived order (p.26, p.30).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from arena_table.rules.kernel.mechanics.initiative import rank_by_rolls, round_robin
from . import buffs, divine, positions
from .state import DemigodsState, add_notice, char, demigod_of, heroes_of, put, team_index
from .victory import wound

MINIONS_FIRST_ROUND = 2
MINIONS_PER_ROUND = 1
"""Minions a player may enter: two in the first round, one every round after (p.20)."""


@dataclass(frozen=True)
class Next:
    """What the Hero Phase waits for: a hero, a Demigod-dice roll, a choice, or nothing left."""

    kind: str
    """``hero``, ``roll``, ``choice`` or ``done``."""
    ids: tuple[str, ...] = ()
    """The hero (``hero``) or the heroes to choose from (``choice``)."""
    key: str = ""
    """Roll key (``init:<n>``) for ``roll``."""
    contenders: tuple[str, ...] = ()
    """Players who must roll now, seat order."""


def minion_turn_id(player: str) -> str:
    return f"minions:{player}"


def _seat(state: DemigodsState, players) -> tuple[str, ...]:
    return tuple(p for p in state.players if p in set(players))


def demigod_ranking(state: DemigodsState) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """This round's Demigod order (players) or the players who must roll the Demigod dice."""
    contenders = state.contenders.get("demigods") or _seat(
        state, [p for p in state.players if (dg := demigod_of(state, p)) and dg.alive])
    order, needs = rank_by_rolls(contenders, state.rolls.get("demigods", ()))
    return order, needs


def _tie_order(state: DemigodsState, key: str, players: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    contenders = state.contenders.get(key, players)
    order, needs = rank_by_rolls(contenders, state.rolls.get(key, ()))
    if needs:
        return (), needs
    return tuple(p for p in order if p in players) + tuple(p for p in players if p not in order), ()


def next_hero(state: DemigodsState, activated: tuple[str, ...] | None = None, guess: bool = False) -> Next:
    """The next hero to act in the Hero Phase given ``activated`` (default: the state's).

    With ``guess`` an unrolled tie is taken in seat order and a choice by its
    first option (for the predicted order the view shows).
    """
    done = set(state.activated if activated is None else activated)
    heroes = [c for c in state.chars.values() if c.kind == "hero" and c.alive]
    pending = [h for h in heroes if h.id not in done]
    if not pending:
        return Next("done")
    init = {h.id: buffs.initiative(state, h) for h in heroes}
    top = max(init[h.id] for h in pending)
    players = _seat(state, [h.player for h in pending if init[h.id] == top])
    queues = {p: [h.id for h in heroes_of(state, p) if h.id not in done and init[h.id] == top] for p in players}
    if len(players) == 1:
        return Next("hero", (queues[players[0]][0],))
    went = {p: sum(1 for h in heroes if h.player == p and h.id in done and init[h.id] == top) for p in players}
    key = f"init:{top}"
    # A tie rolled this round keeps its order for the heroes left over, teammates' included (p.31).
    if len({team_index(state, p) for p in players}) > 1 or state.rolls.get(key):
        order, needs = _tie_order(state, key, players)
        if not needs:
            return Next("hero", (round_robin(queues, order, went)[0],))
        if len({team_index(state, p) for p in players}) > 1:
            if not guess:
                return Next("roll", key=key, contenders=needs)
            return Next("hero", (round_robin(queues, players, went)[0],))
    fewest = min(went.values())
    eligible = tuple(queues[p][0] for p in players if went[p] == fewest)
    if len(eligible) == 1 or guess:
        return Next("hero", eligible[:1])
    return Next("choice", eligible)


def predicted_heroes(state: DemigodsState) -> list[tuple[str, bool]]:
    """The rest of this round's hero activations ``(id, settled)``; unsettled ties are guesses."""
    done = list(state.activated)
    if state.acting:
        done.append(state.acting)
    out, guessed = [], set()
    while True:
        real = next_hero(state, tuple(done))
        nxt = real if real.kind == "hero" else next_hero(state, tuple(done), guess=True)
        if nxt.kind != "hero":
            return out
        init = buffs.initiative(state, state.chars[nxt.ids[0]])
        if real.kind != "hero":
            guessed.add(init)
        out.append((nxt.ids[0], init not in guessed))
        done.append(nxt.ids[0])


def begin_round(state: DemigodsState) -> DemigodsState:
    """A new round: its number, and nobody has rolled or acted yet (p.28); :mod:`.flow` enters its Demigod Phase."""
    return dataclasses.replace(state, round=state.round + 1, rolls={}, contenders={},
                               activated=(), acting=None, minions_entered={})


def start_turn(state: DemigodsState, cid: str) -> DemigodsState:
    ch = char(state, cid)
    state = put(state, dataclasses.replace(ch, ap=buffs.ap_for_turn(state, ch), used=()))
    state = dataclasses.replace(state, acting=cid)
    if buffs.has(state, ch, "knockdown"):
        state = add_notice(state, f"{ch.name} is knocked down and loses the turn")
        return end_turn(state)
    return state


def end_turn(state: DemigodsState) -> DemigodsState:
    """End the acting character's turn: tokens flip (damage tokens wound), cooldowns tick (p.25, p.29).
    Who acts next is :func:`next_turn`'s to say, run by :mod:`.flow`."""
    cid = state.acting
    if cid is None:
        return state
    state = dataclasses.replace(state, acting=None, activated=state.activated + (cid,))
    if cid.startswith("minions:"):
        return state
    ch = char(state, cid)
    if ch.alive:
        if ch.kind == "demigod":
            cool = tuple((item, n - (item not in ch.used)) for item, n in ch.cooldowns)
            ch = dataclasses.replace(ch, cooldowns=tuple((i, n) for i, n in cool if n > 0))
        ch, wounds, ticked = buffs.end_of_turn(ch)
        state = put(state, dataclasses.replace(ch, ap=0))
        if wounds:  # Burn/Bleed wound when flipped or removed (Buffs & Debuffs p.25): said in the log
            names = ", ".join(t.name for t in ticked if t.wounds)
            state = add_notice(state, f"round {state.round}: {ch.name} takes {wounds} wound{'s' * (wounds != 1)} "
                                      f"from the {names} token{'s' * (',' in names)} "
                                      f"({min(ch.health, ch.wounds + wounds)}/{ch.health})")
            state = wound(state, cid, wounds, f"{names} token", source=next((t.source for t in ticked if t.wounds), ""))
    return state


def after_action(state: DemigodsState, ends_turn: bool) -> DemigodsState:
    """After an action: end the turn if the action ends it, AP ran out or the actor fell (p.17)."""
    if state.result is not None or state.acting is None:
        return state
    actor = char(state, state.acting)
    if ends_turn or actor.ap <= 0 or not actor.alive:
        return end_turn(state)
    return state


def is_idle(state: DemigodsState) -> bool:
    """In play, nobody acting, no attack waiting for dice and no result: play moves on by itself."""
    return state.stage == "play" and state.result is None and state.acting is None and state.pending is None


def _next_demigod(state: DemigodsState) -> str | None:
    """The next Demigod to act in this round's Demigod order, or ``None`` (also while its dice are awaited)."""
    order, needs = demigod_ranking(state)
    if needs:
        return None
    dg = next((d for p in order if (d := demigod_of(state, p)) and d.alive and d.id not in state.activated), None)
    return dg.id if dg else None


def _next_minions(state: DemigodsState) -> str | None:
    """The next player whose minions act (Advanced Tactics, in the Demigods' order), or ``None``."""
    order, _ = demigod_ranking(state)
    return next((p for p in order or state.players if minion_turn_id(p) not in state.activated), None)


def demigods_done(state: DemigodsState) -> bool:
    """The Demigod Phase is over: its order is rolled and every living Demigod has acted (p.28)."""
    return is_idle(state) and not demigod_ranking(state)[1] and _next_demigod(state) is None


def heroes_done(state: DemigodsState) -> bool:
    """The Hero Phase is over: every hero has acted (p.30)."""
    return is_idle(state) and next_hero(state).kind == "done"


def minions_done(state: DemigodsState) -> bool:
    """The minions' part of the round is over: every player's minions have acted (p.20)."""
    return is_idle(state) and _next_minions(state) is None


def next_turn(state: DemigodsState) -> DemigodsState:
    """The turn order within a phase: when nobody acts, the next character (or player's minions)
    begins its turn; ``state`` itself when nobody is to start (a roll or choice is awaited, or
    the phase is over).
    """
    if not is_idle(state):
        return state
    if state.phase == "demigod":
        nxt = _next_demigod(state)
        return start_turn(state, nxt) if nxt is not None else state
    if state.phase == "hero":
        nh = next_hero(state)
        return start_turn(state, nh.ids[0]) if nh.kind == "hero" else state
    if state.phase == "minion":
        player = _next_minions(state)
        if player is None:
            return state
        minions = [c for c in state.chars.values() if c.kind == "minion" and c.player == player and c.alive]
        state = put(state, *(dataclasses.replace(m, ap=m.ap_max) for m in minions))
        return dataclasses.replace(state, acting=minion_turn_id(player))
    return state


def preparation(state: DemigodsState) -> DemigodsState:
    """The Preparation Phase, steps 1-5 (p.34)."""
    changed = []
    for ch in state.chars.values():
        new = divine.preparation(ch) if ch.alive else ch
        new = buffs.remove_knockdown(new)
        if new is not ch:
            changed.append(new)
    state = put(state, *changed)
    if state.board is not None:
        taken = {c.cell for c in state.chars.values() if c.alive and c.on_board and c.cell}
        for ch in list(state.chars.values()):
            if ch.alive and ch.cell and state.board.obstacle(ch.cell) in ("pitfall", "spike-pit"):
                free = [f for f in positions.adjacent_fields(ch.cell)
                        if 0 <= f[0] < state.board.cols and 0 <= f[1] < state.board.rows and f not in taken
                        and state.board.obstacle(f) not in ("boulder", "stone", "pitfall", "spike-pit")]
                if free:
                    taken.discard(ch.cell)
                    taken.add(free[0])
                    state = put(state, dataclasses.replace(ch, cell=free[0]))
                    state = add_notice(state, f"{ch.name} leaves the pit to {free[0]} (correct with dg-place)")
    glob = {side: buffs.flip_global(conds) for side, conds in state.global_conditions.items()}
    return dataclasses.replace(state, global_conditions={k: v for k, v in glob.items() if v})


def is_choice_legal(state: DemigodsState, cid: str) -> bool:
    nh = next_hero(state)
    return state.phase == "hero" and state.acting is None and nh.kind == "choice" and cid in nh.ids


def entered_this_round_limit(state: DemigodsState) -> int:
    return MINIONS_FIRST_ROUND if state.round == 1 else MINIONS_PER_ROUND
