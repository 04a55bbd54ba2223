"""The JSON the spectator page renders: the rules' table view plus its pictures.

``rules.table_view`` gives ``game``, ``title``, ``seq``, ``view`` (the game's own view,
``docs/view-schema.md``), ``tray``, ``outcome``, ``log`` and ``tags``; this module adds
``svg`` (board, per-die-kind histograms and, once the game is over, health over time),
built once per change by the SSE hub and shared by every client.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from arena_table.rules import (DieCorrected, Refused, RulesError, TableState, find_game, replay_steps, table_view,
                               to_jsonable)
from arena_table.rules.kernel.corrections import check_correction

from . import svg
from .service import TableService

log = logging.getLogger(__name__)


def spectator_state(ts: TableState, service: TableService | None = None, viewer: str = "spectator") -> dict[str, Any]:
    """``table_view(ts, viewer)`` with an ``svg`` key: ``board``, ``tracks``, ``histograms`` {die: svg}, ``health``;
    the tray's ``last`` roll gets ``correctable`` (see :func:`correctable`) and, when not,
    ``correct_refused`` (the rules' reason)."""
    view = table_view(ts, viewer)
    for roll in [(view.get("tray") or {}).get("last")] + list((view.get("tray") or {}).get("history") or []):
        if roll and roll.get("kinds"):  # the faces a die of each kind can be corrected to, by symbol
            roll["face_choices"] = [face_choices(k) for k in roll["kinds"]] if len(roll["kinds"]) == len(roll["faces"]) \
                else [face_choices(roll["kinds"][0])] * len(roll["faces"])
    last = (view.get("tray") or {}).get("last")
    if last:
        last["correctable"], reason = correctable(ts, last)
        if reason:
            last["correct_refused"] = reason
    pictures: dict[str, Any] = {"histograms": {}}
    board = (view.get("view") or {}).get("board")
    if board:
        try:
            pictures["board"] = svg.board_svg(board, title=f"{view['title']} board")
        except (ValueError, TypeError, KeyError, IndexError) as exc:
            log.warning("cannot draw the board of %s: %s", view["game"], exc)
    tracks = (view.get("view") or {}).get("tracks")
    if tracks:
        try:
            pictures["tracks"] = svg.tracks_svg(tracks, title=f"{view['title']} tracks")
        except (ValueError, TypeError, KeyError) as exc:
            log.warning("cannot draw the tracks of %s: %s", view["game"], exc)
    for die, s in (view.get("tray") or {}).get("stats", {}).items():
        pictures["histograms"][die] = svg.histogram_svg(die, s["counts"], s.get("chi2"), s.get("p_value"),
                                                          s.get("shares"))
    if view.get("outcome") and service is not None:
        series, maxima = health_series(service, ts)
        if series:
            pictures["health"] = svg.health_svg(series, maxima)
    view["svg"] = pictures
    return view


_RST = [
    (re.compile(r":[\w:+.-]+:`([^`<]*?)\s*(?:<[^>]*>)?`"), r"\1"),  # :role:`text <target>` -> text
    (re.compile(r"``(.+?)``"), r"\1"),  # ``literal``
    (re.compile(r"`([^`<]*?)\s*(?:<[^>]*>)?`_{1,2}"), r"\1"),  # `link <url>`_
    (re.compile(r"`([^`]+)`"), r"\1"),  # `interpreted`
    (re.compile(r"\*\*(.+?)\*\*"), r"\1"),  # **strong**
    (re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])"), r"\1"),  # *emphasis*
    (re.compile(r"\|([^|\s][^|]*)\|"), r"\1"),  # |substitution|
]


def plain_words(text: str) -> str:
    """``text`` (a docstring or a form's help, in reStructuredText) without its markup.

    >>> plain_words("Each ``player`` picks a :class:`Hero` (*see* **§3**, `rules <https://x>`_).")
    'Each player picks a Hero (see §3, rules).'
    """
    for pattern, repl in _RST:
        text = pattern.sub(repl, text)
    return text


def face_choices(kind: str) -> list[str]:
    """The face symbols of a die of ``kind`` (the catalogue's, in face order), ``[]`` for a kind it
    does not know (a kind taught at the table: corrected by number only).

    >>> face_choices("demigods-bludgeoning")
    ['knockdown', 'push', 'critical', '2', '1', '-1']
    """
    from arena_table.rules.kernel.mechanics.dice import known_kind

    k = known_kind(kind)
    return [str(s) for s in k.symbols] if k is not None else []


def correctable(ts: TableState, last: dict[str, Any]) -> tuple[bool, str]:
    """Whether the running game accepts a ``correct`` of the roll ``last`` (a tray view's
    ``last``: ``seq``, ``die``, ``faces``), asked of the rules with one trial correction of
    its first die to another face; ``(False, reason)`` when refused.

    Every game takes corrections of its rolls (replayed with the events after them); this says
    no for a die kind or face the game does not have.
    """
    faces = last.get("faces") or []
    if not faces:
        return False, "the roll has no dice"
    sides = re.fullmatch(r"d(\d+)", str(last.get("die") or "d6"))
    n = int(sides.group(1)) if sides else 6
    choices = (last.get("face_choices") or [[]])[0]
    if choices:
        value = next((c for c in choices if c != str(faces[0])), faces[0])
    else:
        value = faces[0] % n + 1 if n > 1 and isinstance(faces[0], int) else faces[0]
    try:
        check_correction(ts, DieCorrected(roll=int(last["seq"]), index=0,
                                          value=int(value) if isinstance(value, int) else str(value)))
    except Refused as exc:
        return False, exc.reason
    except (RulesError, ValueError, TypeError, KeyError):
        return False, "the rules cannot correct this roll"
    return True, ""


def health_series(service: TableService, ts: TableState) -> tuple[dict[str, list[tuple[int, int]]], dict[str, int]]:
    """Health of every character in the running game after each of its events.

    Replays the game's part of the log (from its ``start`` event, honouring undo) and reads
    ``health`` from each ``order`` entry of the game's view. Returns ``(series, maxima)``:
    ``series[name] = [(step, health), ...]`` with a point where health changed, and the
    ``health_max`` of each name. Empty when the running game was not begun by a ``start``.
    """
    if not ts.started_seq:
        return {}, {}
    rows = [r for r in service.rows(since=ts.started_seq - 1) if r.status == "ok" and r.seq <= ts.seq]
    records = [(r.seq, r.event) for r in rows]
    series: dict[str, list[tuple[int, int]]] = {}
    maxima: dict[str, int] = {}
    step = 0
    for cur in replay_steps(records, strict=False):  # undone, dropped and corrected as the state
        order = (find_game(cur.game).view(cur.state, "spectator") or {}).get("order") or []
        for entry in order:
            if entry.get("health") is None:
                continue
            name = str(entry.get("name") or entry.get("id"))
            pts = series.setdefault(name, [])
            if not pts or pts[-1][1] != entry["health"]:
                pts.append((step, int(entry["health"])))
            if entry.get("health_max") is not None:
                maxima[name] = int(entry["health_max"])
        step += 1
    for pts in series.values():  # carry each line to the end of the game
        if pts and pts[-1][0] != step - 1:
            pts.append((step - 1, pts[-1][1]))
    return series, maxima


def log_rows(service: TableService, since: int, limit: int, viewer: str = "spectator") -> list[dict[str, Any]]:
    """The log after ``since`` as JSON rows; spectators get applied events only, with
    any field an event class lists in ``PRIVATE_FIELDS`` (sealed bids, hands) left out."""
    out = []
    words = {line.seq: line.text for line in service.state.log} if viewer != "spectator" else {}
    # spectators see applied events only: filtered in the query, so ``limit`` counts what they get
    for row in service.rows(since=since, limit=limit, include_rejected=viewer != "spectator"):
        ev = row.event
        data = to_jsonable({"kind": ev.KIND, **{k: getattr(ev, k) for k in _fields(ev)}})
        text = str(ev)
        if viewer == "spectator":
            private = set(getattr(type(ev), "PRIVATE_FIELDS", ()) or ())
            if private:
                data = {k: ("hidden" if k in private else v) for k, v in data.items()}
                text = ev.KIND + " (details hidden)"
        item = {"seq": row.seq, "status": row.status, "text": text, "event": data, "recorded": row.recorded}
        if viewer != "spectator":
            item["reason"] = row.reason
            item["words"] = words.get(row.seq) or plain_notation(ev)
            item["when"] = _clock(row.recorded)
        out.append(item)
    return out


RAW_FIELDS = ("at", "image", "crops", "confidence")
"""Event fields the control log leaves out of its words: times in seconds since 1970 and stored image
references (the JSON ``event`` keeps them)."""


def plain_notation(ev: Any) -> str:
    """``ev`` in notation without :data:`RAW_FIELDS`, a file source shortened to its file name.

    >>> from arena_table.rules import DiceRolled
    >>> plain_notation(DiceRolled(faces=(3,), source="dir:/home/pi/shots/IMG_1.jpg", image="m/ab.jpg", at=1.7e9))
    'roll faces=[3] source=IMG_1.jpg'
    """
    import dataclasses

    fields = {f.name: f for f in dataclasses.fields(ev)}
    changes: dict[str, Any] = {name: fields[name].default for name in RAW_FIELDS
                               if name in fields and fields[name].default is not dataclasses.MISSING}
    source = getattr(ev, "source", None)
    if isinstance(source, str) and "/" in source:
        changes["source"] = source.rsplit("/", 1)[1]
    return str(dataclasses.replace(ev, **changes)) if changes else str(ev)


def _clock(recorded: Any) -> str:
    """``HH:MM:SS`` local time of a row's recording time (seconds since 1970), or ""."""
    import math
    import time

    if not isinstance(recorded, (int, float)) or not math.isfinite(recorded) or not 0 < recorded < 1e11:
        return ""
    return time.strftime("%H:%M:%S", time.localtime(recorded))


def _fields(ev: Any) -> list[str]:
    import dataclasses

    return [f.name for f in dataclasses.fields(ev)]
