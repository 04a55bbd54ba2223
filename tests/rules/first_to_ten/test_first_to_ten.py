"""The example game of docs/new-game.md: the page shows the game's folder whole, and it plays."""

from pathlib import Path

import pytest

from arena_table.rules import Refused, find_game, parse, replay, table_view
from arena_table.rules.games import first_to_ten

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = Path(__file__).parent / "golden" / "ann-wins.txt"


def _block(text: str, lang: str) -> str:
    return text.split(f"```{lang}\n", 1)[1].split("```", 1)[0]


def test_the_page_shows_the_whole_example_folder_and_its_transcript():
    page = (ROOT / "docs" / "new-game.md").read_text(encoding="utf-8")
    assert [p.name for p in Path(first_to_ten.__file__).parent.glob("*.py")] == ["__init__.py"]
    assert _block(page, "python") == Path(first_to_ten.__file__).read_text(encoding="utf-8")
    assert _block(page, "text") == GOLDEN.read_text(encoding="utf-8")


def events(*lines: str):
    return [parse('start game=first-to-ten options={"players":["Ann","Bo"]}'), *map(parse, lines)]


def test_first_to_ten_points_wins():
    ts = replay(events("roll faces=[6]", "roll faces=[3]", "roll faces=[2]", "roll faces=[5]", "roll faces=[4]"))
    assert ts.state.scores == (12, 8) and ts.state.phase == "over"  # Ann 6+2+4, Bo 3+5
    o = find_game("ft10").outcome(ts.state)
    assert (o.winners, o.reason) == (("Ann",), "first to 10 points")
    view = table_view(ts)
    assert [(s["side"], s["value"]) for s in view["view"]["scores"]] == [("Ann", 12), ("Bo", 8)]
    assert view["log"][-1]["text"] == "Ann rolls 4: 12 points"


def test_play_passes_from_player_to_player_and_the_view_says_who_rolls():
    ts = replay(events("roll faces=[1]"))
    view = table_view(ts)["view"]
    assert view["prompt"] == "Bo: roll the d6" and [e["acting"] for e in view["order"]] == [False, True]


@pytest.mark.parametrize("line, why", [
    ("roll die=d8 faces=[3]", "uses no 'd8' die"),
    ("roll faces=[7]", "shows 1 to 6"),
    ("roll faces=[2,3]", "roll one d6, not 2"),
])
def test_what_the_game_refuses(line, why):
    with pytest.raises(Refused, match=why):
        replay(events(line))


def test_no_roll_after_the_end():
    with pytest.raises(Refused, match="the game is over: Ann won") as err:
        replay(events("roll faces=[6]", "roll faces=[1]", "roll faces=[6]", "roll faces=[1]"))
    assert err.value.rule == "first to 10"


def test_at_least_two_players():
    with pytest.raises(Refused, match="players: at least two"):
        replay([parse('start game=first-to-ten options={"players":["Ann"]}')])
