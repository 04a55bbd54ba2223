"""One runner for every game's golden transcripts (perft-style): ``tests/rules/<game>/golden/*.txt``
and every ``examples/*.txt`` that records its digest.

A transcript is one event a line in notation, with ``# key: value`` lines; ``# digest:`` is the
SHA-256 of the final table state (:func:`arena_table.rules.digest`) and ``# outcome:`` the result,
as JSON (``{"winners": [...], "reason": ..., "draw": ...}``) or as ``winner (reason)``. Each
file's game writes them with its own script (``theosis/transcripts.py``,
``demigods/make_stories.py``, ``euthia/make_golden.py``); regenerate one only when a rules change
is meant to change that game, and review the diff.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena_table.rules import Outcome, apply, digest, find_game, new_table, parse, replay

RULES = Path(__file__).parent
ROOT = RULES.parents[1]


def _recorded(path: Path) -> bool:
    return any(line.startswith("# digest: ") for line in path.read_text(encoding="utf-8").splitlines())


FILES = sorted(RULES.glob("*/golden/*.txt")) + sorted(p for p in (ROOT / "examples").glob("*.txt") if _recorded(p))


def load(path: Path):
    """The events of ``path`` and its ``# key: value`` lines."""
    events, meta = [], {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            key, _, value = line[2:].partition(": ")
            meta[key] = value
        elif line.strip():
            events.append(parse(line))
    return events, meta


def outcome_text(outcome: Outcome | None, form: str) -> object:
    """``outcome`` in the form the transcript recorded it (JSON object or ``winner (reason)``)."""
    if outcome is None:
        return None
    if form.startswith("{") or form == "null":
        return {"winners": list(outcome.winners), "reason": outcome.reason, "draw": outcome.draw}
    return f"{', '.join(outcome.winners)} ({outcome.reason})"


def _id(path: Path) -> str:
    return f"{path.parent.parent.name}/{path.stem}" if path.parent.name == "golden" else f"examples/{path.stem}"


def test_every_game_with_golden_transcripts_is_found():
    games = {p.parent.parent.name for p in FILES if p.parent.name == "golden"}
    assert {"theosis", "demigods"} <= games


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_transcript_replays_to_its_digest_and_outcome(path):
    events, meta = load(path)
    ts = replay(events)
    assert digest(ts) == meta["digest"]
    if "outcome" in meta:
        recorded = json.loads(meta["outcome"]) if meta["outcome"][:1] in "{n" else meta["outcome"]
        assert outcome_text(find_game(ts.game).outcome(ts.state), meta["outcome"]) == recorded


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_live_application_equals_replay_and_notation_round_trips(path):
    events, _ = load(path)
    ts = new_table()
    for seq, ev in enumerate(events, 1):
        assert parse(str(ev)) == ev
        ts = apply(ts, ev, seq)
    assert digest(ts) == digest(replay(events))
