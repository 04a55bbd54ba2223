"""Divine dice in the hero-card slots become dg-divine-read events the Demigods engine takes.

Readings are injected at the vision boundary (the kind reader's output shape); the slots are
hand-placed pixel boxes, the expected values hand-computed from which box centre lies where.
"""

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from arena_table.table.counter_slots import CounterSlot, counter_slots
from arena_table.table.counters import CounterTracker, place, slot_value

sys.path.insert(0, str(Path(__file__).parents[1] / "rules" / "demigods"))
from dg_helpers import at  # noqa: E402

SPECS = counter_slots([{"hero": "knight", "box_px": [0, 0, 100, 100]},
                       {"hero": "trapper", "power": "focus", "box_px": [200, 0, 100, 100]}])
PLACED, _ = place([CounterSlot.of(s) for s in SPECS], (640, 480))


def die(kind, face, x, y, status="ok"):
    return SimpleNamespace(kind=kind, face=face, box=(x, y, 40, 40), status=status, confidence=0.99)


def values(reads):
    return {p.slot.hero: slot_value(reads, p, p.slot.power)[0] for p in PLACED}


def test_die_centre_decides_the_slot_and_an_empty_slot_reads_zero():
    # centre (90, 50) lies in the knight's slot although the box runs past it; (110, 50) in none
    reads = [die("demigods-divine-rage", "4", 70, 30), die("demigods-divine-rage", "2", 90, 30)]
    assert values(reads) == {"knight": 4, "trapper": 0}


def test_a_slot_is_read_in_its_region_grown_by_half_its_side():
    assert [p.region for p in PLACED] == [(0, 0, 150, 150), (150, 0, 200, 150)]


def test_an_unread_doubled_or_wrong_power_slot_keeps_the_last_value():
    reads = [die("demigods-divine-focus", "2", 210, 10), die("demigods-divine-focus", "5", 250, 50),
             die(None, None, 10, 10, status="abstain")]
    assert values(reads) == {"knight": None, "trapper": None}
    assert slot_value([die("demigods-divine-rage", "3", 210, 10)], PLACED[1], "focus") == \
        (None, "a demigods-divine-rage die in trapper's slot; trapper's divine power is focus")
    assert values([die(None, None, 210, 10, status="other-kind")])["trapper"] is None


def test_only_steady_changes_become_events_and_the_engine_takes_them():
    tracker = CounterTracker(stable_reads=2)
    assert tracker.update({"knight": 4, "trapper": 3}) == []  # seen once: not yet
    first = tracker.update({"knight": 4, "trapper": 3})
    assert [str(e) for e in first] == ["dg-divine-read who=knight value=4", "dg-divine-read who=trapper value=3"]
    assert tracker.update({"knight": 4, "trapper": None}) == []
    assert tracker.update({"knight": 5, "trapper": 0}) == []
    second = tracker.update({"knight": 4, "trapper": 0})  # the knight's 5 for one read only: no event
    assert [str(e) for e in second] == ["dg-divine-read who=trapper value=0"]
    assert tracker.update({"knight": 4, "trapper": 0}) == []
    t = at("knight").do(*(str(e) for e in first + second))
    assert t.ts.log[-1].text == "Camera reads Trapper's divine die: 0 (engine: 3, mismatch)"


def test_a_value_the_log_already_has_is_not_recorded_again():
    tracker = CounterTracker(stable_reads=1)
    assert tracker.update({"knight": 1}, known={"knight": 1}) == []
    assert [str(e) for e in tracker.update({"knight": 2}, known={"knight": 1})] == ["dg-divine-read who=knight value=2"]


@pytest.mark.parametrize("slots, message", [
    ([{"hero": "knight", "box_px": [0, 0, 0, 10]}], "slot 1 (knight): box_px: must be [x, y, width, height] in "
                                                    "camera pixels with width and height above 0, got [0, 0, 0, 10]"),
    ([{"hero": "knight", "power": "fury", "box_px": [0, 0, 9, 9]}], "slot 1 (knight): power must be rage, focus, "
                                                                    "mana, got 'fury'"),
    ([{"hero": "knight"}], "slot 1 (knight): needs box_mm (board mm) or box_px (camera pixels)"),
    ([{"box_px": [0, 0, 9, 9]}], "slot 1: hero must be the hero's id in the game"),
    ([{"hero": "a", "box_px": [0, 0, 9, 9]}, {"hero": "a", "box_mm": [0, 0, 9, 9]}],
     "slot 2 (a): a second slot of a; a hero has one divine die"),
    ({"knight": [0, 0, 9, 9]}, "must be a list of slots"),
])
def test_a_bad_slot_is_named(slots, message):
    with pytest.raises(ValueError) as err:
        counter_slots(slots)
    assert str(err.value).startswith(message)


def test_a_still_slot_keeps_its_reading_and_a_die_turned_in_place_is_read_again():
    """Sensor noise alone leaves the slot's reading as it was; the same die turned to another face
    at the same spot and angle is read anew (the numeral's blocks change)."""
    import arena_table.rules  # noqa: F401
    from arena_table.rules.kernel.mechanics.die_kinds import find_kind
    from arena_table.table.counters import read_slots
    from arena_table.vision.counter_film import table_photo

    kinds = [find_kind("demigods-divine-rage")]
    (slot,), _ = place([CounterSlot("knight", box_px=(230, 585, 80, 80))], (1280, 720))
    memory: dict = {}
    assert read_slots(table_photo([("demigods-divine-rage", 3, (270, 625), 10)], 1), [(slot, "rage")], kinds,
                      memory) == ({"knight": 3}, {})
    first = memory["knight"][0]
    assert read_slots(table_photo([("demigods-divine-rage", 3, (270, 625), 10)], 2), [(slot, "rage")], kinds,
                      memory) == ({"knight": 3}, {})
    assert memory["knight"][0] is first  # not read again: the region looks the same
    for face in (1, 2, 4, 5, 6):
        assert read_slots(table_photo([("demigods-divine-rage", face, (270, 625), 10)], 3), [(slot, "rage")],
                          kinds, memory)[0] == {"knight": face}


def test_a_die_against_its_cards_edge_is_not_read_never_an_empty_slot():
    """The kind reader finds no die touching the card (one blob, not square); the slot then keeps
    its last value rather than read 0. The same die clear of the card reads 3."""
    import arena_table.rules  # noqa: F401
    from arena_table.rules.kernel.mechanics.die_kinds import find_kind
    from arena_table.table.counters import read_slots
    from arena_table.vision.counter_film import table_photo

    kinds = [find_kind("demigods-divine-rage")]
    (slot,), _ = place([CounterSlot("knight", box_px=(230, 585, 80, 80))], (1280, 720))
    card = [(40, 560, 190, 130)]  # its right edge at x 230, the slot's left edge
    against = table_photo([("demigods-divine-rage", 3, (252, 625), 0)], 1, card)
    assert read_slots(against, [(slot, "rage")], kinds) == (
        {"knight": None}, {"knight": "something lies in knight's slot that is not read as a die (a die touching "
                                     "another, or a card's edge?)"})
    clear = table_photo([("demigods-divine-rage", 3, (280, 625), 0)], 1, card)
    assert read_slots(clear, [(slot, "rage")], kinds) == ({"knight": 3}, {})
    assert read_slots(table_photo([], 1, card), [(slot, "rage")], kinds) == ({"knight": 0}, {})
