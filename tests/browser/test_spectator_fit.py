"""What a new user's trial found on the TV at 1280x720: a long character name in the acting card
and a long attack line in "What happened" must be shown whole, and the "Reconnecting…" banner must
leave the QR code to scan. Checked at 1280x720 and 1920x1080 by the boxes the browser lays out;
screenshots in ``artifacts/screenshots/fit-*.png``."""

from __future__ import annotations

import json

import pytest
from browserkit import ROOT, open_tv, start_live

from arena_table.rules import parse, table_view
from arena_table.rules.games.demigods import data

pytestmark = pytest.mark.browser

LONG_NAME = "High Elder of the Northern Wastes"
LONGEST_KNOWN = max([data.hero(h)["name"] for h in data.hero_ids()]
                    + [data.demigod(d)["name"] for d in data.demigod_ids()], key=len)  # on the Demigods cards


def play_demigods(live, names: dict[str, str], upto: int = 11, bo: str = "Bo") -> None:
    """The Advanced Tactics story with heroes renamed (``hero_stats``) and player Bo called ``bo``, to
    its event ``upto``: at 11 the Knight's attack on the High Elder is the newest line and Bo's
    Assassin acts."""
    lines = [ln for ln in (ROOT / "tests/rules/demigods/golden/advanced-tactics.txt").read_text().splitlines()
             if ln.strip() and not ln.startswith("#")]
    options = json.loads(lines[0].split("options=", 1)[1].replace('"Bo"', json.dumps(bo)))
    options["hero_stats"] = {hero: {"name": name} for hero, name in names.items()}
    lines[0] = "start game=demigods options=" + json.dumps(options)
    assert not any("Bo" in ln for ln in lines[1:upto])
    for line in lines[:upto]:
        live.table.submit(parse(line))


def show_acting_card(page) -> None:
    """Turn the game panel to the page with the ranking's acting card."""
    for _ in range(max([p["pages"] for p in page.evaluate("window.arena.pages()").values()] + [1])):
        if page.locator("#order li.acting .name").is_visible():
            return
        page.evaluate("window.arena.nextPage()")


# [text, its whole content laid out inside its box (nothing clipped or clamped), lines, font px, box]
SHOWN = """sel => [...document.querySelectorAll(sel)].filter(e => e.offsetHeight && !e.closest('.off-page')).map(e => {
  const r = e.getBoundingClientRect(), cs = getComputedStyle(e), range = document.createRange();
  range.selectNodeContents(e);
  const lines = [];  // the text's boxes, side by side ones (a smaller player name after a hero's) one line
  for (const q of [...range.getClientRects()].filter(q => q.width > 1).sort((a, b) => a.top - b.top)) {
    const line = lines.find(l => q.top < l.bottom - 2 && q.bottom > l.top + 2);
    if (line) line.bottom = Math.max(line.bottom, q.bottom); else lines.push({top: q.top, bottom: q.bottom});
  }
  return [e.textContent, e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1, lines.length,
          parseFloat(cs.fontSize), [r.left, r.top, r.right, r.bottom]];
})"""


def inside(box, outer) -> bool:
    return box[0] >= outer[0] - 1 and box[1] >= outer[1] - 1 and box[2] <= outer[2] + 1 and box[3] <= outer[3] + 1


def overlap(a, b) -> bool:
    return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1


def rect(page, sel: str) -> list[float]:
    return page.evaluate("s => { const r = document.querySelector(s).getBoundingClientRect();"
                         " return [r.left, r.top, r.right, r.bottom]; }", sel)


@pytest.mark.parametrize("name", [LONG_NAME, LONGEST_KNOWN])
def test_a_long_acting_name_is_shown_whole(live, tv, screenshots, name):
    """The acting card (the header's and the ranking's) wraps a long name onto two lines or
    shrinks it, never cuts it with an ellipsis."""
    play_demigods(live, {"assassin": name})
    assert table_view(live.table.state)["view"]["acting"] == "assassin"
    open_tv(tv, live)
    width, height = (int(x) for x in tv.size.split("x"))
    show_acting_card(tv)
    tv.screenshot(path=str(screenshots / f"fit-acting-{len(name)}-{tv.size}.png"))
    body = float(tv.evaluate("parseFloat(getComputedStyle(document.body).fontSize)"))
    (who,) = tv.evaluate(SHOWN, "#acting .who")
    (card,) = tv.evaluate(SHOWN, "#order li.acting .name")
    for text, whole, lines, px, box in (who, card):
        assert text.startswith(name) and whole and lines <= 2, (tv.size, text, whole, lines)
        assert px >= 0.75 * body, (tv.size, text, px)  # readable across the room, as the text around it
        assert inside(box, [0, 0, width, height]), (tv.size, text, box)
    assert not overlap(who[4], rect(tv, ".follow")) and not overlap(who[4], rect(tv, ".titles")), who
    assert inside(card[4], rect(tv, "#order li.acting"))
    assert tv.errors == [], tv.errors


def test_a_long_player_name_leaves_the_acting_heros_name_its_size(live, tv):
    """The player's name after the hero's in the ranking's acting card is cut in its own box (whole
    in its title), rather than make the hero's name smaller."""
    bo = "Bartholomew Montgomery-Smith of Ravenholm"
    play_demigods(live, {}, bo=bo)
    open_tv(tv, live)
    show_acting_card(tv)
    (card,) = tv.evaluate(SHOWN, "#order li.acting .name")
    assert card[0] == "Assassin" + bo and card[1], card
    name = tv.locator("#order li.acting .name")
    assert name.evaluate("e => e.style.fontSize") == ""  # its own size (app.css), not made smaller
    assert inside(rect(tv, "#order li.acting .side"), card[4])
    assert tv.locator("#order li.acting .side").get_attribute("title") == bo
    assert tv.errors == [], tv.errors


def play_theosis_to_a_fireball(live) -> None:
    """Theosis Blitz to event 49: "Rochon attacks Rac with Fireball: …" (170 characters) is the newest line."""
    lines = [ln for ln in (ROOT / "tests/rules/theosis/golden/blitz-2p.txt").read_text().splitlines()
             if ln.strip() and not ln.startswith("#")]
    for line in lines[:49]:
        live.table.submit(parse(line))


@pytest.mark.parametrize("game", ["demigods", "theosis"])
def test_long_attack_lines_in_what_happened_are_shown_whole(live, tv, screenshots, game):
    """Each line shown wraps whole inside the log's panel (older ones drop off); the newest, a long
    attack line, is among them."""
    if game == "demigods":
        play_demigods(live, {"knight": "Knight Commander of the Silver Dawn", "high-elder": LONG_NAME})
    else:
        play_theosis_to_a_fireball(live)
    newest = table_view(live.table.state)["log"][-1]
    assert len(newest["text"]) >= 150 and " attack" in newest["text"], newest
    open_tv(tv, live)
    tv.screenshot(path=str(screenshots / f"fit-log-{game}-{tv.size}.png"))
    shown = tv.evaluate(SHOWN, "#log li")
    panel = tv.evaluate("""() => { const p = document.querySelector('#log').closest('.panel'), cs = getComputedStyle(p),
      r = p.getBoundingClientRect();
      return [r.left, r.top + parseFloat(cs.paddingTop), r.right, r.bottom - parseFloat(cs.paddingBottom)]; }""")
    assert shown and shown[-1][0] == f"#{newest['seq']}{newest['text']}", (tv.size, shown[-1:])
    size = float(tv.evaluate("parseFloat(getComputedStyle(document.querySelector('#log')).fontSize)"))
    for text, whole, _, px, box in shown:
        assert whole and inside(box, panel), (tv.size, text, whole, box, panel)
        assert px >= size / 2, (tv.size, text, px)  # made smaller only when alone too tall, at most by half
    assert tv.evaluate("e => e.title", tv.locator("#log li").last.element_handle()) == ""  # not cut: no tooltip
    assert tv.errors == [], tv.errors


def test_reconnecting_banner_leaves_the_qr_code_to_scan(tmp_path, tv, screenshots):
    """While the stream is away the banner shows, and the QR code (with its white margin) stays
    wholly visible: nothing is painted over any part of it."""
    live = start_live(tmp_path / "table.db")
    serving = True
    try:
        play_demigods(live, {}, upto=10)
        open_tv(tv, live)
        tv.wait_for_function("window.arena.connected", timeout=5000, polling=20)
        live.server.stop()
        serving = False
        tv.wait_for_selector("#conn", state="visible", timeout=10000)
        tv.screenshot(path=str(screenshots / f"fit-reconnecting-{tv.size}.png"))
        banner, qr = rect(tv, "#conn"), rect(tv, "#qr")
        assert not overlap(banner, qr), (tv.size, banner, qr)
        width, height = (int(x) for x in tv.size.split("x"))
        assert inside(banner, [0, 0, width, height]) and inside(qr, [0, 0, width, height]), (banner, qr)
        on_top = tv.evaluate("""() => { const q = document.querySelector('#qr'), r = q.getBoundingClientRect();
          const pts = [];
          for (const fx of [0.02, 0.5, 0.98])
            for (const fy of [0.02, 0.5, 0.98]) pts.push([r.left + fx * r.width, r.top + fy * r.height]);
          return pts.map(([x, y]) => document.elementFromPoint(x, y) === q); }""")
        assert all(on_top), (tv.size, on_top)
        # nor does it hide a panel's content: it covers at most the footer and the space around the panels
        for sel in (".panel.log", "#game .game-main"):
            assert not overlap(banner, rect(tv, sel)), (tv.size, sel, banner)
    finally:
        if serving:
            live.server.stop()
        live.table.close()
