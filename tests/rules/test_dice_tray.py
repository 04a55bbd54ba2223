"""The dice tray: die kinds and their plain-words lines."""


def test_spellings_of_one_die_kind_are_counted_together():
    """A new user's audit: D6, d06 and d6 were three kinds, each needing its own 60 dice."""
    from arena_table.rules import parse, replay, table_view

    ts = replay([parse("roll die=D6 faces=[6]"), parse("roll die=d6 faces=[6]"), parse("roll die=d06 faces=[5]")])
    stats = table_view(ts)["tray"]["stats"]
    assert list(stats) == ["d6"] and stats["d6"]["dice"] == 3


def test_a_custom_die_is_described_with_its_name():
    from arena_table.rules import DiceRolled, find_game

    game = find_game("dice-tray")
    assert game.describe(game.setup({}), DiceRolled(die="attack", faces=(1, -2))) == "Rolled 2 × attack: 1, -2 (total -1)"


def test_a_roll_s_camera_data_must_be_probabilities_and_media_references():
    """A new user's trial: ``confidence=[2,0.5]`` was taken (the spectator showed "conf. 200%") and
    ``image="/etc/passwd"`` was stored in the log."""
    import pytest

    from arena_table.rules import Refused, parse, replay, table_view

    for text, message in [
        ("roll faces=[3,4] confidence=[2,0.5]", "confidence 2.0 of die #1 is not a probability from 0 to 1"),
        ("roll faces=[3,4] confidence=[0.5,-0.1]", "confidence -0.1 of die #2 is not a probability from 0 to 1"),
        ('roll faces=[3] image="/etc/passwd"', "image '/etc/passwd' is not a media reference"),
        ('roll faces=[3,4] crops=["2026-11-29/a.jpg","../../secret.jpg"]',
         "crop of die #2 '../../secret.jpg' is not a media reference"),
    ]:
        with pytest.raises(Refused, match=message.replace("(", r"\(").replace(")", r"\)")):
            replay([parse(text)])
    ts = replay([parse('roll faces=[3,4] confidence=[1,0] image="2026-11-29/1764412345678-00001-frame.jpg" '
                       'crops=["2026-11-29/a.jpg","2026-11-29/b.png"]')])
    last = table_view(ts)["tray"]["last"]
    assert last["confidence"] == [1, 0] and last["crops"] == ["2026-11-29/a.jpg", "2026-11-29/b.png"]
