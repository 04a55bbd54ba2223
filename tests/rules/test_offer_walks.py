"""Random legal walks through every game (issue 28's property test): from a start, take one of the
offered actions with random picks again and again, with the awaited dice supplied as ``roll``
events where nothing is offered. Every offered action must be accepted by ``apply``, and a state
that offers nothing must be the game's end or a wait for a roll (a dead state is a bug of the
engine or of its offers). A game that ends is started again until the steps are used up."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from arena_table.rules import DiceRolled, find_game, parse

EXAMPLES = Path(__file__).parents[2] / "examples"
SEEDS = range(4)


def picks(action, rng):
    """One random complete pick of ``action`` (a choice per parameter, following each choice's ``then``)."""
    out, todo = [], list(action.params)
    while todo:
        p = todo.pop(0)
        i = rng.randrange(len(p.choices))
        out.append(i)
        todo[:0] = p.choices[i].then
    return out


def walk(game, start, roll, rng, steps, rare=(), stop=lambda state: False):
    """``steps`` events of a random legal walk from ``start()``; returns the kinds taken and the games ended.

    ``roll(state, rng)`` is the awaited roll as a ``roll`` event, or ``None`` when no roll is awaited;
    a roll awaited while actions are offered too (a tile used before the Monster dice) is thrown
    half the time. Each step picks an offered kind of event at random, then one action of it; a
    ``rare`` kind (the scenario's end) is picked only one time in twenty. The walk ends early
    where ``stop(state)`` holds."""
    state, taken, ended = start(), Counter(), 0
    for _ in range(steps):
        if stop(state):
            break
        acts = game.actions(state)
        ev = roll(state, rng)
        if not acts or (ev is not None and rng.random() < 0.5):
            if not acts and game.outcome(state) is not None:
                ended += 1
                state = start()
                continue
            assert ev is not None, f"{game.name}: nothing offered, no roll awaited, not over: {game.summary(state)}"
            state = game.apply(state, ev)
            taken["roll"] += 1
            continue
        kinds = sorted({a.kind for a in acts})
        common = [k for k in kinds if k not in rare]
        kind = rng.choice(common if common and rng.random() >= 0.05 else kinds)
        action = rng.choice([a for a in acts if a.kind == kind])
        ev = action.event(picks(action, rng))
        state = game.apply(state, ev)  # a refusal fails the test, naming the event and the state
        taken[action.kind] += 1
    return taken, ended


def _start_line(path):
    line = next(ln for ln in (EXAMPLES / path).read_text(encoding="utf-8").splitlines() if ln.startswith("start "))
    return parse(line).options


# --- Theosis -----------------------------------------------------------------------------------

TH_OPTIONS = {"players": ["Ann", "Bo"], "heroes": {"Ann": ["rochon", "rac", "norn"], "Bo": ["aer", "lug", "edhel"]}}


def _theosis_roll(state, rng):
    awaited = find_game("theosis").awaits(state)
    if not awaited:
        return None
    kind, count = next(iter(awaited.items()))
    faces = 4 if kind == "d4" else 6
    return DiceRolled(die=kind, faces=tuple(rng.randint(1, faces) for _ in range(count)))


@pytest.mark.parametrize("seed", SEEDS[:2])  # each a whole game: preparation, Ranking, nine Arena turns
def test_theosis_walk(seed):
    game = find_game("theosis")
    taken, ended = walk(game, lambda: game.setup(TH_OPTIONS), _theosis_roll, random.Random(seed), 300)
    assert taken["th-place"] >= 36 and taken["th-allocate"] >= 2 and taken["th-attack"] >= 6 and ended >= 1


TH_STARTS = sorted((Path(__file__).parent / "theosis" / "golden").glob("*.txt"))


@pytest.mark.parametrize("start", TH_STARTS, ids=lambda p: p.stem)
def test_theosis_walk_every_mode(start):
    """Each golden game's start (PvP, team, blitz, solo, the co-op and semi co-op modes, Fast Action
    Preparation): a walk to the end of the game, the monsters' targets and defences included."""
    game = find_game("theosis")
    options = _start_line(start)
    taken, ended = walk(game, lambda: game.setup(options), _theosis_roll, random.Random(0), 150)
    assert taken["th-move"] >= 4 and (taken["th-place"] or taken["th-draft"])
    if game.setup(options).monsters:
        assert taken["th-monster"] >= 1


# --- Demigods ----------------------------------------------------------------------------------

def _demigods_start():
    game = find_game("demigods")
    lines = [ln for ln in (EXAMPLES / "demigods-tactics.txt").read_text(encoding="utf-8").splitlines()
             if ln.strip() and not ln.startswith("#")]
    state = game.setup(parse(lines[0]).options)
    for line in lines[1:lines.index("dg-begin") + 1]:
        state = game.apply(state, parse(line))
    return state


def _demigods_roll(state, rng):
    from arena_table.rules.games.demigods import rounds

    if state.pending is not None:
        d = next((d for d in state.pending.dice if not d.face), None)
        return None if d is None else DiceRolled(die=f"dg-{d.type}", faces=(rng.randint(1, 6),))
    if state.acting is None and state.stage == "play":
        needs = rounds.demigod_ranking(state)[1] if state.phase == "demigod" else rounds.next_hero(state).contenders
        if needs:
            return DiceRolled(die="dg-demigod", faces=tuple(rng.sample(range(1, 7), len(needs))))
    return None


@pytest.mark.parametrize("seed", SEEDS)
def test_demigods_walk(seed):
    game = find_game("demigods")
    taken, _ = walk(game, _demigods_start, _demigods_roll, random.Random(seed), 150)
    assert taken["dg-use"] >= 3 and taken["dg-end-turn"] >= 5


@pytest.mark.parametrize("start, first", [("demigods-tactics.txt", ("dg-pick", "dg-demigod", "dg-begin")),
                                          ("demigods-slayer.txt", ("dg-end-turn",)),
                                          ("demigods-advanced-tactics.txt", ("dg-end-turn",))])
@pytest.mark.parametrize("seed", SEEDS[:2])
def test_demigods_walk_from_the_start(seed, start, first):
    """From the start line: heroes taken, Demigods fielded and equipped by the offers, then play
    (the Slayer and Advanced Tactics examples start from a line-up, in play)."""
    game = find_game("demigods")
    options = _start_line(start)
    taken, _ = walk(game, lambda: game.setup(options), _demigods_roll, random.Random(seed), 120)
    assert all(taken[k] >= 1 for k in first), taken


# --- Euthia ------------------------------------------------------------------------------------

def _euthia_roll(state, rng):
    from arena_table.rules.games.euthia import monster_attack as ma, rolls

    c = state.combat
    a = c.attack if c is not None and not c.over else None
    d6 = lambda n: tuple(rng.randint(1, 6) for _ in range(n))  # noqa: E731
    if a is not None and a.step == "roll":
        if not a.dice and not a.combat:
            return DiceRolled(die="eu-attack", faces=d6(ma.dice_awaited(a) + 1))
        return DiceRolled(die="eu-monster", faces=d6(ma.dice_awaited(a))) if not a.dice else \
            DiceRolled(die="eu-combat", faces=d6(1))
    if a is not None and a.step == "reroll":
        return DiceRolled(die="eu-monster", faces=d6(ma.dice_awaited(a)))
    roll = rolls.open_roll(state)
    if roll is not None and not roll.dice:
        return DiceRolled(die="eu-hero", faces=d6(2))
    return None


@pytest.mark.parametrize("example", ["euthia-fire-shadowbeast.txt", "euthia-fellowship-3p.txt"])
@pytest.mark.parametrize("seed", SEEDS)
def test_euthia_walk(example, seed):
    game = find_game("euthia")
    options = _start_line(example)
    taken, _ = walk(game, lambda: game.setup(options), _euthia_roll, random.Random(seed), 250,
                       rare=("eu-end",))
    assert taken["eu-combat"] >= 1 and taken["eu-monster-attack"] >= 1 and taken["roll"] >= 2


# --- Sword & Sorcery ---------------------------------------------------------------------------

def _sns_roll(state, rng):
    from arena_table.rules.games.sword_and_sorcery import dice, play

    faces = {c: dice.DIE_KINDS[f"sns-{c}"]["faces"] for c in ("red", "blue")}
    throw = lambda colour, n: [rng.choice(faces[colour]) for _ in range(n)]  # noqa: E731
    if state.tiebreak is not None:
        return parse(f"sns-roll team={state.tiebreak.to_roll()[0]} red={json.dumps(throw('red', 4))}")
    holy = [h for h, why in state.saves if why == "holy"]
    if holy and state.combat is None:
        return parse(f"sns-holy hero={holy[0]} face={throw('blue', 1)[0]}")
    if state.combat is None:
        return None
    stage = play.awaited(state)
    if stage == "hit":
        w = state.hero(state.combat.attacker).weapon(state.combat.weapon)
        return parse(f"sns-roll red={json.dumps(throw('red', w.red))} blue={json.dumps(throw('blue', w.blue))}")
    if stage.startswith("def:"):
        need = next(n for t, _, n in play.plan(state, state.combat)["targets"] if t == stage[4:])
        return parse(f"sns-roll blue={json.dumps(throw('blue', need))}")
    return None


SNS_STARTS = [EXAMPLES / "sword-and-sorcery-pvp1.txt"] + sorted(
    (Path(__file__).parent / "sword_and_sorcery" / "golden").glob("*.txt"))


@pytest.mark.parametrize("start", SNS_STARTS, ids=lambda p: p.stem)
@pytest.mark.parametrize("seed", SEEDS)
def test_sword_and_sorcery_walk(seed, start):
    game = find_game("sword-and-sorcery")
    options = _start_line(start)
    taken, _ = walk(game, lambda: game.setup(options), _sns_roll, random.Random(seed), 250)
    assert taken["sns-place"] >= 2 and taken["sns-activate"] >= 4 and taken["sns-attack"] >= 1


# --- the example game and the dice tray --------------------------------------------------------

@pytest.mark.parametrize("seed", SEEDS)
def test_first_to_ten_walk(seed):
    game = find_game("first-to-ten")
    taken, ended = walk(game, lambda: game.setup({"players": ["Ann", "Bo", "Cy"]}), lambda s, r: None,
                        random.Random(seed), 60)
    assert ended >= 2 and taken["roll"] == 60 - ended


@pytest.mark.parametrize("seed", SEEDS)
def test_dice_tray_walk(seed):
    game = find_game("dice-tray")
    taken, ended = walk(game, lambda: game.setup({}), lambda s, r: None, random.Random(seed), 40)
    assert taken["roll"] == 40 and ended == 0


WALKED = {"theosis", "demigods", "euthia", "sword-and-sorcery", "first-to-ten", "dice-tray"}
"""The games the walks above cover; a new game adds its walk here (docs/new-game.md)."""


def test_every_registered_game_offers_actions_and_is_walked():
    from arena_table.rules.kernel.registry import registered_games

    games = {g.name: g for g in registered_games()}
    assert {n for n, g in games.items() if g.actions is None} == set()
    assert set(games) <= WALKED, f"no random walk for {sorted(set(games) - WALKED)}"
