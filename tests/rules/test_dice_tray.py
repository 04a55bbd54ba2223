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
