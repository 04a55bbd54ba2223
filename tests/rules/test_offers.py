"""The actions each game offers now (``Game.actions``): what a known state offers, how many taps
complete it, and that every offered action, applied, is accepted (random legal walks)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from arena_table.rules import DiceRolled, find_game, parse

sys.path.insert(0, str(Path(__file__).parent / "demigods"))
from dg_helpers import Table  # noqa: E402

THEOSIS = find_game("theosis")
DEMIGODS = find_game("demigods")
TH_OPTIONS = {"players": ["Ann", "Bo"], "heroes": {"Ann": ["rochon", "rac", "norn"], "Bo": ["aer", "lug", "edhel"]}}
EXAMPLES = Path(__file__).parents[2] / "examples"


def by_label(actions):
    return {a.label: a for a in actions}


def choices(param):
    return [c.label for c in param.choices]


def test_theosis_first_placement_offers_the_placers_heroes_on_golden_quest_slots():
    acts = by_label(THEOSIS.actions(THEOSIS.setup(TH_OPTIONS)))
    assert list(acts) == ["Place Rochon", "Place Rac", "Place Norn"]
    assert {a.player for a in acts.values()} == {"Ann"}
    where = acts["Place Norn"].params[0]
    assert choices(where) == [f"{q} quest (golden slot)" for q in
                              ("Warmonger", "Guardian", "Deceitful", "Righteous", "Vengeful", "Merciful")]
    warmonger = where.choices[0]
    assert choices(warmonger.then[0]) == ["Aer", "Lug", "Edhel"]  # the TV's names, Bo's heroes only
    # three taps: the hero, the quest, the target
    assert [len(c) for c in acts["Place Norn"].completions()][:1] == [2]
    assert str(acts["Place Norn"].event([0, 2])) == "th-place hero=norn location=warmonger golden=true target=edhel"


def test_theosis_second_hero_of_a_turn_takes_no_golden_slot_and_the_taken_slot_is_gone():
    st = THEOSIS.setup(TH_OPTIONS)
    for line in ("th-place hero=rochon location=guardian golden=true", "th-place hero=aer location=warmonger "
                 "golden=true target=rochon"):
        st = THEOSIS.apply(st, parse(line))
    acts = by_label(THEOSIS.actions(st))
    assert list(acts) == ["Place Rac", "Place Norn"]
    where = choices(acts["Place Rac"].params[0])
    assert not any("golden" in w for w in where)
    assert {"Tavern", "Cathedral", "Thieves' Guild", "Mercenary Camp", "Market", "Guardian quest"} <= set(where)


def test_theosis_offers_only_the_thieves_guild_d6_while_it_is_awaited_each_face_with_its_result():
    st = THEOSIS.setup(TH_OPTIONS)
    for line in ("th-place hero=rochon location=guardian golden=true",
                 "th-place hero=aer location=righteous golden=true",
                 "th-place hero=rac location=thieves-guild target=lug"):
        st = THEOSIS.apply(st, parse(line))
    (roll,) = THEOSIS.actions(st)
    assert (roll.label, roll.player) == ("Roll the Thieves' Guild d6", "Ann")
    assert choices(roll.params[0]) == ["1: steal mana", "2: deal 3 damage", "3: steal 2 gold", "4: steal 4 gold",
                                       "5: gain initiative", "6: gain initiative"]  # the default faces (ENTER)
    assert THEOSIS.apply(st, roll.event([2])).player("Ann").gold == st.player("Ann").gold + 2
    assert "roll the d6 at the Thieves' Guild" in THEOSIS.view(st)["prompt"]


def _demigods_until(stop: str) -> Table:
    t = Table({}, start=False)
    for line in (EXAMPLES / "demigods-tactics.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            t.do(line)
            if line == stop:
                return t
    raise AssertionError(stop)


def test_demigods_entry_is_one_tap_and_an_attack_three():
    t = _demigods_until("roll die=dg-demigod faces=[2,3]")
    acts = by_label(DEMIGODS.actions(t.st))
    assert list(acts) == ["Protector: enter the battlefield", "Protector: end the turn"]
    assert acts["Protector: enter the battlefield"].to_json()["notation"] == "dg-enter who=protector"
    t = _demigods_until("dg-enter who=knight")
    acts = by_label(DEMIGODS.actions(t.st))
    attack = acts["Knight: base attack"]
    assert attack.player == "Ann"
    assert choices(attack.params[0]) == ["Assassin (Bo)", "Protector (Bo)"]
    assert choices(attack.params[0].choices[0].then[0]) == ["Front", "Side", "Back"]
    assert {len(c) for c in attack.completions()} == {2}  # + the action's own tap: three taps
    assert str(attack.event([0, 2])) == 'dg-use who=knight targets=["assassin"] side=["back"]'


def test_demigods_attack_die_is_offered_as_its_faces_by_their_printed_results():
    t = _demigods_until('dg-use who=knight targets=["assassin"] side=["back"]')
    (roll,) = DEMIGODS.actions(t.st)
    assert (roll.label, roll.player) == ("Roll the bludgeoning die", "Ann")
    assert choices(roll.params[0]) == ["1: Knockdown", "2: Push", "3: Critical", "4: +2", "5: +1", "6: -1"]
    assert str(roll.event([2])) == "roll die=dg-bludgeoning faces=[3] source=control"  # the transcript's die


def _walk(game, state, rng, roll, steps):
    """Apply ``steps`` random offered completions; where nothing is offered, ``roll`` must give
    the awaited dice (or the game is over)."""
    taken = 0
    for _ in range(steps):
        acts = game.actions(state)
        if not acts:
            ev = roll(state, rng)
            if ev is None:
                return taken
            state = game.apply(state, ev)
            continue
        action = rng.choice(acts)
        picks = rng.choice(action.completions())
        state = game.apply(state, action.event(picks))  # a refusal here fails the test
        taken += 1
    return taken


def _theosis_roll(state, rng):
    kind = state.pending.kind if state.pending else ""
    if not kind:
        return None
    faces = 4 if kind.endswith("d4") else 6
    return DiceRolled(die="d4" if faces == 4 else "d6", faces=(rng.randint(1, faces),))


@pytest.mark.parametrize("seed", range(4))
def test_theosis_every_offered_action_is_accepted(seed):
    taken = _walk(THEOSIS, THEOSIS.setup(TH_OPTIONS), random.Random(seed), _theosis_roll, 40)
    assert taken >= 12  # at least two Hierapolis turns of placements were walked


def _demigods_roll(state, rng):
    from arena_table.rules.games.demigods import rounds

    if state.pending is not None:
        d = next(d for d in state.pending.dice if not d.face)
        return DiceRolled(die=f"dg-{d.type}", faces=(rng.randint(1, 6),))
    if state.acting is None and state.stage == "play":
        needs = rounds.demigod_ranking(state)[1] if state.phase == "demigod" else rounds.next_hero(state).contenders
        if needs:
            return DiceRolled(die="dg-demigod", faces=tuple(rng.sample(range(1, 7), len(needs))))
    return None


@pytest.mark.parametrize("seed", range(3))
def test_demigods_every_offered_action_is_accepted(seed):
    t = _demigods_until("dg-begin")
    taken = _walk(DEMIGODS, t.st, random.Random(seed), _demigods_roll, 60)
    assert taken >= 10
