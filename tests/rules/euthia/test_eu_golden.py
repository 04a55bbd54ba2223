"""The two story tests: a Playing with Fire Combat and a Fellowship round with a joint Combat, played
through events only (``make_golden.py`` wrote them; tests/rules/test_golden_transcripts.py replays
every golden file to its digest). The figures asserted are worked out by hand from the entered
cards (``make_golden.CARDS``)."""

from __future__ import annotations

from pathlib import Path

from arena_table.cli import main
from arena_table.rules import replay

from .eu_helpers import load

HERE = Path(__file__).parent
EXAMPLES = sorted((HERE.parents[2] / "examples").glob("euthia-*.txt"))
EXAMPLE = HERE.parents[2] / "examples" / "euthia-fire-shadowbeast.txt"


def test_playing_with_fire_story():
    """Air turns the 5 of 2-5 to 2; Gaar + Chaos: one Chaos Action reveals Power Strike, Power Strike,
    Healing (to the bottom); 2 and 2 (4) is below the highest range, a Gaar is spent on the tied 2 -> 6;
    Prayer +2 to the Die of Hope; a Scroll of Weakness (1) takes 11 to 9 and the loop restarts on the 2 -> 5:
    6 + 5 + 4 Gaar - 1 = 14, range 3: 3 + 2 (Power Strike x2) - 1 = 4 Injuries; Shii (11): Hope 1+2+1 = 4."""
    events, _ = load(HERE / "golden" / "fire-shadowbeast.txt")
    s = replay(events[:16]).state
    assert s.heroes["ael"].injuries == 4 and s.combat.hope == 4 and s.combat.gaar == 1 and s.combat.chaos == 0
    assert (s.gold, s.bottom) == (1, (("gold", "healing"),))
    assert s.last["cv"] == 14 and s.last["band"] == 3
    s = replay(events).state
    assert s.heroes["ael"].injuries == 6  # second attack: 4 + 4 = 8, range 2
    assert s.silver == 3  # the Combat die's Silver card joined the cache after the attack
    assert s.combat.over == "won" and s.heroes["ael"].reputation == 2 and s.heroes["ael"].purse == {"gold": 3, "trophies": 1}


def test_fellowship_story():
    """Round 1 (Fellowship I, Exchange 6, +1 Health, +1 Injury, a Level 1 Monster added, Gaar and Silver in the
    bar, 2 Gold reward): Dral gives 4 + 2; Gecko then the Goblin Archer attack (left to right); Gecko on Dral:
    5 + 4 + 2 Gaar = 11, range 3: 3 + 1 Power Strike + 1 (the card) = 5; the Archer on Áel: 6 + 2 + 2 = 10,
    range 2: 2 + 1 = 3 and its heal is lost (undamaged); rewards 5 Gold and 2 Reputation halved, the odd Gold
    to Dral. Round 2: the Leader moves clockwise to Dral; Maeldur dies outside Combat: -1 Reputation."""
    events, _ = load(HERE / "golden" / "fellowship-3p.txt")
    s = replay(events).state
    assert s.heroes["dral"].injuries == 5 + 2 and s.heroes["ael"].injuries == 3
    assert s.heroes["ael"].purse == {"gold": 2, "trophies": 1} and s.heroes["dral"].purse == {"gold": 3, "trophies": 1}
    assert s.heroes["ael"].reputation == 1 and s.heroes["dral"].reputation == 1
    assert s.round.number == 2 and s.round.leader == "dral" and s.round.gave == () and s.round.move_tokens == 1
    assert s.heroes["maeldur"].deaths == 1 and s.heroes["ael"].quests == ("starting",)
    mid = replay(events[:5]).state
    assert mid.round.gave == ("dral",) and mid.round.move_tokens == 0
    assert [e.health for e in mid.combat.enemies] == [6, 5] and mid.combat.gaar == 2


def test_examples_are_the_golden_stories():
    assert [p.name for p in EXAMPLES] == ["euthia-fellowship-3p.txt", "euthia-fire-shadowbeast.txt"]
    for p in EXAMPLES:
        assert p.read_text(encoding="utf-8") == (HERE / "golden" / p.name.removeprefix("euthia-")).read_text(encoding="utf-8")


def test_arena_table_replay_prints_the_outcome(capsys):
    assert main(["replay", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Euthia: Fierce Powers: 26 events")
    assert "Áel deals 4; Shadowbeast: Damage 4 → 8 of 8 — defeated — Combat won" in out
    assert "outcome: won by Áel (the scenario goal is reached)" in out
