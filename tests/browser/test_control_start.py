"""The control page's new-game question in Chromium: a start that would end a game in progress
is asked about first (in the page's words when its view is the table's, else in the server's), a
start the rules refuse asks nothing, and a page behind the table never ends a game it did not show."""

from __future__ import annotations

import pytest
from browserkit import login

pytestmark = pytest.mark.browser

def test_starting_over_a_running_board_game_asks_first(live, page):
    # A new user's trial: one click on Start ended a Theosis game mid-play, and Undo stops at a
    # game's start. Now the page asks; "Cancel" keeps the game, "OK" starts the new one.
    from arena_table.rules import DiceRolled, GameStarted

    live.table.submit(GameStarted(game="demigods", options={"players": ["Ann", "Bo"]}))
    live.table.submit(DiceRolled(die="d6", faces=(4,), source="test"))  # something to lose (the server's rule)
    login(page, live.url)
    page.wait_for_function("document.querySelector('#running').textContent.includes('Demigods')", timeout=5000)
    page.select_option("#start-game", "dice-tray")
    asked = []

    def answer(dialog, accept):
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda d: answer(d, False))
    page.click("#start-form button[type=submit]")
    page.wait_for_timeout(300)
    assert asked and asked[0].startswith("End the running Demigods") and "Undo cannot bring it back" in asked[0]
    assert live.table.state.game == "demigods"
    page.once("dialog", lambda d: answer(d, True))
    page.click("#start-form button[type=submit]")
    page.wait_for_function("document.querySelector('#toast').textContent.startsWith('Started')", timeout=5000)
    assert live.table.state.game == "dice-tray" and len(asked) == 2


def test_starting_over_a_dice_tray_with_rolls_asks_first(live, page):
    # A new user's trial: one click on Start cleared a dice tray's rolls from the spectator screen,
    # with no question, and Undo stops at a game's start. An empty tray starts without asking.
    from arena_table.rules import DiceRolled

    login(page, live.url)
    page.wait_for_selector("#start-game option[value='theosis']", state="attached")
    live.table.submit(DiceRolled(die="d6", faces=(3, 5), source="test"))
    page.wait_for_function("document.querySelector('#running').textContent.length > 0", timeout=5000)
    page.wait_for_timeout(300)  # the page's state has the roll
    asked = _start_answered_no(page, "dice-tray")
    assert asked and asked[0].startswith("Clear the dice tray (1 roll)")
    assert len(live.table.state.tray.rolls) == 1
    page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    page.click("#start-form button[type=submit]")
    page.wait_for_function("document.querySelector('#toast').textContent.startsWith('Started')", timeout=5000)
    assert len(live.table.state.tray.rolls) == 0 and len(asked) == 2


def _start_answered_no(page, game: str) -> list[str]:
    """Start ``game`` from the form, answering no to a question; the questions asked."""
    asked: list[str] = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.select_option("#start-game", game)
    page.click("#start-form button[type=submit]")
    page.wait_for_timeout(300)
    return asked


def test_the_question_counts_every_roll_of_the_tray_not_those_its_view_lists(live, page):
    """A new user's trial: the page asked to clear "20 rolls on screen" while the API's question
    named the tray's 39 rolls (the view lists the last 20)."""
    from arena_table.rules import DiceRolled

    login(page, live.url)
    page.wait_for_selector("#start-game option[value='theosis']", state="attached")
    for k in range(23):
        live.table.submit(DiceRolled(die="d6", faces=(k % 6 + 1,), source="test"))
    page.wait_for_function("document.querySelector('#running').textContent.length > 0", timeout=5000)
    page.wait_for_timeout(500)
    asked = _start_answered_no(page, "dice-tray")
    assert asked and asked[0].startswith("Clear the dice tray (23 rolls) and start a new game?")
    assert len(live.table.state.tray.rolls) == 23


def test_a_control_page_behind_the_table_asks_the_servers_question_before_a_start(live, page):
    """A review: a second control page whose view was behind (it missed the rolls) sent its start with
    confirm=true without asking anyone, ending the rolls. Now it sends none; the server's 409 names
    what the start would end, the page asks that, and only a yes sends the confirmation."""
    from arena_table.rules import DiceRolled

    page.add_init_script(FROZEN_VIEW)
    login(page, live.url)
    page.wait_for_selector("#start-game option[value='theosis']", state="attached")
    page.wait_for_function("document.querySelector('#running').textContent.length > 0", timeout=5000)
    for faces in ((3, 5), (6,)):
        live.table.submit(DiceRolled(die="d6", faces=faces, source="test"))
    asked = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    _start_until_its_409(page, "dice-tray")
    answered(page, asked, 1)
    assert asked == ["End the dice tray's 2 rolls and start a new game? Its events stay in the log, but Undo "
                     "cannot bring it back."]
    assert len(live.table.state.tray.rolls) == 2  # the page's own view said nothing was in progress
    assert "confirm" not in page.inner_text("#toast")  # no API wording before or after the question
    page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    page.click("#start-form button[type=submit]")
    page.wait_for_function("document.querySelector('#toast').textContent.startsWith('Started')", timeout=5000)
    assert len(live.table.state.tray.rolls) == 0 and len(asked) == 2


def test_a_page_behind_the_table_asks_about_the_game_that_runs_not_the_one_it_shows(live, page):
    """A review: the page showed a dice tray with one roll; behind it the table had started Demigods.
    The player's yes to "Clear the dice tray" ended Demigods. The page now sends the start unasked
    and asks the question of the server's 409, which names Demigods; a no leaves it running."""
    from pathlib import Path

    from arena_table.rules import DiceRolled, parse

    page.add_init_script(FROZEN_VIEW)
    live.table.submit(DiceRolled(die="d6", faces=(2,), source="test"))
    login(page, live.url)
    page.wait_for_selector("#start-game option[value='theosis']", state="attached")
    page.wait_for_function("document.querySelector('#running').textContent.length > 0", timeout=5000)
    start = next(ln for ln in (Path(__file__).parents[2] / "examples" / "demigods-tactics.txt").read_text().splitlines()
                 if ln.startswith("start "))
    live.table.submit(parse(start))
    live.table.submit(DiceRolled(die="d6", faces=(5,), source="test"))
    seq = live.table.state.seq
    asked = []
    page.on("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    _start_until_its_409(page, "dice-tray")
    answered(page, asked, 1)
    page.wait_for_timeout(300)
    assert asked == [f"End the running Demigods Evolution (event {seq}) and start a new game? Its events stay in "
                     "the log, but Undo cannot bring it back."]
    assert live.table.state.game == "demigods" and live.table.state.seq == seq  # nothing recorded


def test_a_page_behind_within_the_same_game_asks_about_every_roll(live, page):
    """A review: a page whose view had 1 roll of the tray asked "Clear the dice tray (1 roll)", and a
    yes cleared the 5 the tray held: same game, so the page used its own (stale) words."""
    from arena_table.rules import DiceRolled

    page.add_init_script(FROZEN_VIEW)
    live.table.submit(DiceRolled(die="d6", faces=(2,), source="test"))
    login(page, live.url)
    page.wait_for_selector("#start-game option[value='theosis']", state="attached")
    page.wait_for_function("document.querySelector('#running').textContent.length > 0", timeout=5000)
    for k in range(4):
        live.table.submit(DiceRolled(die="d6", faces=(k + 1,), source="test"))
    asked = []
    page.on("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.select_option("#start-game", "dice-tray")
    page.click("#start-form button[type=submit]")
    answered(page, asked, 1)
    assert asked == ["End the dice tray's 5 rolls and start a new game? Its events stay in the log, but Undo "
                     "cannot bring it back."]
    assert len(live.table.state.tray.rolls) == 5


def test_a_start_the_rules_refuse_says_why_without_asking_to_end_anything(live, page):
    """A new user's trial: Theosis picked with no heroes asked "Clear the dice tray?", and only after
    a yes said the start was refused. Now the refusal comes first, and the rolls stay."""
    from arena_table.rules import DiceRolled

    login(page, live.url)
    page.wait_for_selector("#start-game option[value='theosis']", state="attached")
    live.table.submit(DiceRolled(die="d6", faces=(3, 5), source="test"))
    page.wait_for_function("document.querySelector('#running').textContent.length > 0", timeout=5000)
    asked = []
    page.on("dialog", lambda d: (asked.append(d.message), d.accept()))
    page.select_option("#start-game", "theosis")
    page.fill("#start-options", '{"heroes_1": [], "heroes_2": []}')
    page.click("#start-form button[type=submit]")
    page.wait_for_function("document.querySelector('#toast').classList.contains('error') || "
                           "document.querySelector('#toast').textContent.length > 0", timeout=5000)
    page.wait_for_timeout(300)
    assert asked == []
    assert "hero" in page.inner_text("#toast")
    assert live.table.state.game == "dice-tray" and len(live.table.state.tray.rolls) == 1


def answered(page, asked: list, n: int, timeout_s: float = 5.0) -> None:
    """Let the page run until its ``n``-th dialog was answered (the handlers run while Playwright waits)."""
    for _ in range(int(timeout_s / 0.05)):
        if len(asked) >= n:
            page.wait_for_timeout(100)  # the answer's own request goes out
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"{len(asked)} of {n} dialogs shown: {asked}")


FROZEN_VIEW = """(() => {  // this page misses every live update: its view stays behind
    const Real = window.EventSource;
    window.EventSource = function (url) {
        const es = new Real(url), add = es.addEventListener.bind(es);
        es.addEventListener = (type, fn, opts) => add(type, type === 'update' ? () => {} : fn, opts);
        return es;
    };
    window.EventSource.CLOSED = Real.CLOSED;
})()"""


def _start_until_its_409(page, game: str) -> None:
    """Start ``game`` from the form and wait for the server's 409 (the dialog handlers answer it)."""
    page.select_option("#start-game", game)
    page.click("#start-form button[type=submit]")
    page.wait_for_function("() => window.control.lastResult && window.control.lastResult.status === 409", timeout=5000)
