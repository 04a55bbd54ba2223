"""Values the rulebook text does not print are entered at the table (``th-enter``): the setup
checklist offers one action per value still a default, every pick it offers is accepted, an entered
value leaves the checklist and the placeholders the TV counts, and later events use it."""

from __future__ import annotations

import pytest

from arena_table.rules import Refused, find_game, parse, replay, table_view
from arena_table.rules.games.theosis.mats import power_values, speed_of
from arena_table.rules.games.theosis.preparation import thieves_result

from th_helpers import lines_of

GAME = find_game("theosis")
START = ('start game=theosis options={"players":["Ann","Bo"],'
         '"heroes":{"Ann":["rochon","rac","norn"],"Bo":["aer","lug","edhel"]}}')


def state(*more: str):
    return replay([parse(START), *(parse(ln) for ln in more)]).state


def picks(action, k: int) -> list[int]:
    """The ``k``-th way through an action's parameters: choice ``k mod n`` of each (``then`` followed)."""
    out, todo = [], list(action.params)
    while todo:
        p = todo.pop(0)
        i = k % len(p.choices)
        out.append(i)
        todo[:0] = p.choices[i].then
        k = k // len(p.choices) + 1
    return out


def test_the_checklist_lists_the_heroes_in_play_then_the_powers_the_die_and_a_new_item():
    labels = [a.label for a in GAME.to_enter(state())]
    assert labels[:6] == [f"{n}: speed on the hero mat" for n in ("Rochon", "Rac", "Norn", "Aer", "Lug", "Edhel")]
    # heroes.json: Norn, Lug and Edhel have no alignment printed in the text
    assert labels[6:9] == ["Norn: alignment under the name", "Lug: alignment under the name", "Edhel: alignment under the name"]
    powers = [x for x in labels if x.endswith("Attack / Defense on the card")]
    assert len(powers) == 31  # the 42 Powers less the 11 whose values the text gives (powers.json values_source)
    assert labels[-2:] == ["Thieves' Guild die: what each face means", "Add an item token (Market, pouch, Artifact)"]


@pytest.mark.parametrize("k", [0, 1, 5, 17])
def test_every_pick_the_checklist_offers_is_accepted(k):
    s = state()
    for action in GAME.to_enter(s):
        ev = action.event(picks(action, k))
        GAME.apply(s, ev)  # raises Refused if the rules refuse what was offered


def test_an_entered_speed_leaves_the_checklist_and_the_badge_and_is_used():
    before = state()
    assert "Rochon's speed" in table_view(replay([parse(START)]))["view"]["placeholders"]
    s = state("th-enter what=speed key=rochon value=3")
    assert speed_of(s, "rochon") == 3
    assert "Rochon: speed on the hero mat" not in [a.label for a in GAME.to_enter(s)]
    assert len(GAME.to_enter(s)) == len(GAME.to_enter(before)) - 1
    view = table_view(replay([parse(START), parse("th-enter what=speed key=rochon value=3")]))["view"]
    assert "Rochon's speed" not in view["placeholders"] and "Rac's speed" in view["placeholders"]


def test_a_power_the_thieves_die_and_an_item_entered_as_the_checklist_makes_them():
    s = state()
    acts = {a.label: a for a in GAME.to_enter(s)}
    tactics = acts["Tactics: Attack / Defense on the card"]
    ev = tactics.event([4, 2])  # (1, 3), Fire
    assert str(ev) == 'th-enter what=power key=tactics value={"damage_type":"fire","values":[1,3]}'
    s = GAME.apply(s, ev)
    assert power_values(s, "tactics") == (1, 3) and s.config.damage_types["tactics"] == "fire"
    die = acts["Thieves' Guild die: what each face means"]
    s = GAME.apply(s, die.event([4, 3, 2, 1, 0, 4]))
    assert [thieves_result(s, f) for f in range(1, 7)] == ["gain-initiative", "steal-4-gold", "steal-2-gold",
                                                           "deal-3-damage", "steal-mana", "gain-initiative"]
    item = acts["Add an item token (Market, pouch, Artifact)"]
    s = GAME.apply(s, item.event([0, 2, 1, 0]))  # a Weapon: 3 damage, two hands, not an Artifact
    assert s.config.items["token-1"] == {"kind": "weapon", "name": "Weapon 1", "damage": 3, "hands": 2,
                                         "id": "token-1", "artifact": False}
    # the Market now offers it by its name (offers.py reads the same items)
    for line in ("th-place hero=rochon location=guardian golden=true", "th-place hero=aer location=merciful golden=true"):
        s = GAME.apply(s, parse(line))
    place = next(a for a in GAME.actions(s) if a.label == "Place Rac")
    market = next(c for c in place.params[0].choices if c.label == "Market")
    assert "Weapon 1" in [c.label for c in market.then[0].choices]


def test_entered_values_are_in_the_log_and_replay_the_same():
    text = START + "\n" + "\n".join(lines_of("""
        th-enter what=speed key=norn value=5
        th-enter what=alignment key=norn value=warmonger
        th-place hero=rochon location=guardian golden=true
    """))
    a = replay([parse(ln) for ln in text.splitlines()])
    b = replay([parse(str(parse(ln))) for ln in text.splitlines()])  # through the notation, as the log stores it
    assert a.state == b.state and a.state.config.alignments["norn"] == "warmonger"


def test_a_value_no_component_carries_is_refused_by_name():
    s = state()
    with pytest.raises(Refused, match="a speed is a whole number of hexes 1-8, not 12"):
        GAME.apply(s, parse("th-enter what=speed key=rochon value=12"))
    with pytest.raises(Refused, match=r"one of its pile's pairs"):
        GAME.apply(s, parse('th-enter what=power key=fireball value={"values":[5,5]}'))
    with pytest.raises(Refused, match="nothing called 'colour' to enter"):
        GAME.apply(s, parse("th-enter what=colour key=rochon value=1"))
