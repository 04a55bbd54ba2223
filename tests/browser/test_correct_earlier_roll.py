"""Correct any die, any time, on the remote by taps only (no typed notation): a roll's line in the
event log has a Correct button; its die and value are tapped; a later event the corrected value
makes illegal is named and dropped by a tap. Screenshots at 390x844 and 1280x800 in
``artifacts/screenshots/correct-*.png``."""

from __future__ import annotations

import dataclasses

import pytest
from browserkit import ROOT, login, new_page

from arena_table.rules import parse, replay

pytestmark = pytest.mark.browser

BACK = 5
"""Events between the roll and its correction."""


def lines_of(name: str) -> list[str]:
    return [ln for ln in (ROOT / "examples" / name).read_text(encoding="utf-8").splitlines()
            if ln.strip() and not ln.startswith("#")]


def taps_counted(page):
    """Count every click on a button of the page from now on (``window.taps``)."""
    page.evaluate("window.taps = 0; document.addEventListener('click', e => { if (e.target.closest('button')) window.taps++; }, true)")


def wait_toast(page, start: str) -> str:
    page.wait_for_function("s => document.querySelector('#toast').textContent.startsWith(s)", arg=start, timeout=10000)
    return page.inner_text("#toast")


def open_die(browser, live, lines, roll_seq: int, size: tuple[int, int]):
    """Record ``lines``, open the remote at ``size`` and tap Correct on roll ``roll_seq``'s log line,
    then its first die; returns ``(context, page)`` with the clicks counted from the Correct tap."""
    for line in lines:
        live.table.submit(parse(line))
    ctx, page = new_page(browser, *size)
    login(page, live.url)
    page.wait_for_selector(f"#control-log button[aria-label='Correct roll #{roll_seq}']")
    taps_counted(page)
    page.click(f"#control-log button[aria-label='Correct roll #{roll_seq}']")
    page.wait_for_function("s => document.querySelector('#correct-dice .roll-no')?.textContent === s", arg=f"Roll #{roll_seq}:")
    page.click("#correct-dice button[data-index='0']")
    return ctx, page


def test_a_die_of_a_roll_five_events_back_corrected_by_taps(browser, live, screenshots):
    """Theosis p.11, Mercenary Camp: Ann gains the d4 in gold. Read as 3, five placements later
    corrected to 1 by three taps (Correct on the roll's log line, the die, the value): Ann has 2 gold
    less, as if 1 had been entered at once."""
    lines = lines_of("theosis-pvp-12.txt")
    k = lines.index("roll die=d4 faces=[3]")
    gold = replay([parse(x) for x in lines[:k + 1 + BACK]]).state.player("Ann").gold
    ctx, page = open_die(browser, live, lines[:k + 1 + BACK], k + 1, (390, 844))
    page.screenshot(path=str(screenshots / "correct-earlier-roll-390x844.png"), full_page=False)
    page.click("#correct-values button:text-is('1')")
    assert wait_toast(page, "Corrected") == f"Corrected die 1 of roll #{k + 1} to 1 (event #{k + 2 + BACK})"
    assert page.evaluate("window.taps") == 3
    st = live.table.state
    assert st.state.player("Ann").gold == gold - 2
    right = [parse(x) for x in lines[:k]] + [parse("roll die=d4 faces=[1]")] + [parse(x) for x in lines[k + 1:k + 1 + BACK]]
    assert st.state == replay(right).state
    roll = next(r for r in st.tray.rolls if r.seq == k + 1)
    assert (roll.faces, roll.sensed) == ((1,), (3,))
    ctx.close()


def test_a_later_event_made_illegal_is_named_and_dropped_by_taps(browser, live, screenshots):
    """Demigods, "Demigod Phase": the Demigod dice decide who acts first. Corrected five events later,
    the activation that followed is illegal: the card names it and why, and a tap drops it (as many
    times as events depend on it); the state is the log's without them, with the corrected dice."""
    lines = lines_of("demigods-tactics.txt")
    k = lines.index("roll die=dg-demigod faces=[2,3]")
    ctx, page = open_die(browser, live, lines[:k + 1 + BACK], k + 1, (1280, 800))
    page.click("#correct-values button:text-is('5')")
    assert page.evaluate("window.taps") == 3  # Correct, the die, the face
    page.wait_for_selector("#correct-later:not([hidden])")
    what = page.inner_text("#correct-later .correct-later-what")
    assert what.startswith(f"With die 1 of roll #{k + 1} as 5, event #{k + 2} (") and "is illegal: " in what
    assert "=" not in what.split("(")[1].split(")")[0]  # the event in plain words, not notation
    page.screenshot(path=str(screenshots / "correct-later-event-1280x800.png"), full_page=False)
    dropped = []
    for n in range(BACK):
        seq = int(page.get_attribute("#correct-later button[data-key='later-drop']", "aria-label").split("#")[1].split(" ")[0])
        dropped.append(seq)
        # the first one to enter again (as it should be, after the correction); the rest dropped
        key = "later-reenter" if n == 0 else "later-drop"
        page.click(f"#correct-later button[data-key='{key}']")
        page.wait_for_function("() => document.querySelector('#correct-later').hidden"
                               " || !document.querySelector('#correct-later').textContent.includes('event #" + str(seq) + " (')",
                               timeout=10000)
        if page.locator("#correct-later").is_hidden():
            break
    # each refused try is kept in the log as rejected, then come the drops and the correction
    assert wait_toast(page, "Corrected") == (f"Corrected die 1 of roll #{k + 1} to 5 (event #{k + 2 + BACK + 2 * len(dropped)}), "
                                             "dropped " + ", ".join(f"#{d}" for d in dropped) + ". Enter it again as it "
                                             "should be: the buttons above, or the line under Advanced")
    assert page.eval_on_selector("#event-text", "e => e.value") == lines[dropped[0] - 1]  # ready to change and send
    records = live.table.engine.log.records()
    assert [ev.seq for _, ev in records if ev.KIND == "drop"] == dropped
    kept = [(i, parse(x)) for i, x in enumerate(lines[:k + 1 + BACK], 1) if i not in dropped]
    right = [(i, dataclasses.replace(e, faces=(5, 3)) if i == k + 1 else e) for i, e in kept]
    assert live.table.state.state == replay(right).state
    ctx.close()


def test_a_die_of_a_kind_is_corrected_by_tapping_its_printed_face(browser, live):
    """A Demigods attack die rolled by kind offers its faces by the book's words (Critical, not a bare 3)."""
    lines = lines_of("demigods-tactics.txt")
    k = lines.index("roll die=dg-bludgeoning faces=[3]")
    ctx, page = open_die(browser, live, lines[:k] + ["roll kinds=[demigods-bludgeoning] faces=[1]"], k + 1, (390, 844))
    faces = page.eval_on_selector_all("#correct-values button", "els => els.map(e => e.textContent)")
    assert faces == ["knockdown", "push", "critical", "2", "1", "-1"]
    page.click("#correct-values button:text-is('critical')")
    assert wait_toast(page, "Corrected") == f"Corrected die 1 of roll #{k + 1} to critical (event #{k + 2})"
    roll = live.table.state.tray.rolls[-1]
    assert (roll.faces, roll.sensed) == (("critical",), (1,))
    ctx.close()
