"""Demigods' view names the cards in play whose values are still placeholders (``to_enter`` in the
data files), for the TV's "placeholder stats" badge; a card given by the ``hero_stats`` option is not."""

import json
from pathlib import Path

from arena_table.rules import parse, replay, table_view
from arena_table.rules.games.demigods.data import hero, unentered

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "demigods-advanced-tactics.txt"


def lines(upto: int) -> list[str]:
    return [ln for ln in EXAMPLE.read_text(encoding="utf-8").splitlines() if ln.strip() and not ln.startswith("#")][:upto]


def test_the_cards_in_play_with_placeholder_values_are_named():
    shown = table_view(replay([parse(ln) for ln in lines(12)]))["view"]["placeholders"]
    assert "Trapper's card" in shown and "Knight's card" in shown
    assert "Warlord's card" in shown and len(shown) == 10  # two Demigods and eight heroes, every card a placeholder


def test_a_card_entered_as_an_option_is_not_a_placeholder():
    first, rest = lines(12)[0], lines(12)[1:]
    assert first.startswith("start game=demigods options={")
    card = hero("trapper")  # the placeholder values, now given as the table's: entered
    given = {f: card[f] for f in unentered()["demigods:hero:trapper"] if "." not in f}
    options = json.loads(first.split("options=", 1)[1])
    options["hero_stats"] = {**options.get("hero_stats", {}), "trapper": given}
    start = "start game=demigods options=" + json.dumps(options)
    shown = table_view(replay([parse(start), *(parse(ln) for ln in rest)]))["view"]["placeholders"]
    assert "Trapper's card" not in shown and "Knight's card" in shown
