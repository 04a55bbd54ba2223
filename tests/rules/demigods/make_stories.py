"""Writes the story transcripts (examples/demigods-*.txt and golden/*.txt) by playing simple
strategies through events. Run by hand after a deliberate rules change:

    .venv/bin/python tests/rules/demigods/make_stories.py

The tests never call this: they replay the frozen files and check hand-verified facts.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from arena_table.rules import GameStarted  # noqa: E402
from arena_table.rules.games.demigods import actions, rounds  # noqa: E402

from dg_helpers import Table  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
BEST = {"slashing": 3, "piercing": 1, "bludgeoning": 3, "fire": 3, "ice": 3, "arcane": 3}
"""Face index of each attack die's Critical."""


def q(items) -> str:
    return json.dumps(list(items), separators=(",", ":"))


def roll_pending(t: Table, face: dict[str, int]) -> None:
    while t.st.pending is not None:
        p = t.st.pending
        open_dice = [d for d in p.dice if not d.face]
        if not open_dice:
            t.do("dg-resolve")
            continue
        d = open_dice[0]
        f = face.get(d.type, 4) if d.owner == "attack" else 6  # defenders roll their worst face
        t.do(f"roll die=dg-{d.type} faces=[{f}]")


def target_for(t: Table, who: str) -> str | None:
    me = t.ch(who)
    foes = [c for c in t.st.chars.values() if c.alive and c.kind == "hero" and c.player != me.player]
    return min(foes, key=lambda c: (c.health_left, c.id)).id if foes else None


def play_turn(t: Table, face: dict[str, int], minions: bool) -> None:
    st = t.st
    who = st.acting
    if who.startswith("minions:"):
        player = who.split(":", 1)[1]
        mine = [c for c in st.chars.values() if c.kind == "minion" and c.player == player and c.alive]
        for m in mine:
            t.do(f"dg-minion-exit who={m.id}")
            if t.st.result:
                return
        for _ in range(rounds.entered_this_round_limit(st)):
            try:
                t.do(f"dg-minion-enter player={player}")
            except Exception:
                break
        t.do("dg-end-turn")
        return
    ch = t.ch(who)
    if not ch.on_board:
        t.do(f"dg-enter who={who}")
    tgt = target_for(t, who)
    if tgt and not t.ch(tgt).on_board:
        t.do(f"dg-place who={tgt}")
    if tgt and ch.kind == "hero" and t.ch(who).ap >= actions.spec(st, ch, "attack")["ap"]:
        t.do(f"dg-use who={who} targets={q([tgt])} side={q(['back'])}")
        roll_pending(t, face)
    elif tgt and ch.kind == "demigod" and st.round > 1 and ch.items and ch.items[0] and not ch.cooldowns:
        t.do(f"dg-use who={who} use={ch.items[0]} targets={q([tgt])}")
        roll_pending(t, face)
    if t.st.acting == who and not t.st.result:
        t.do("dg-end-turn")


def play(t: Table, face: dict[str, int], minions: bool = False, limit: int = 400) -> Table:
    for _ in range(limit):
        st = t.st
        if st.result:
            return t
        if st.acting is None:
            needs = rounds.demigod_ranking(st)[1] if st.phase == "demigod" else rounds.next_hero(st).contenders
            faces = [(st.round + i) % 6 + 1 for i in range(len(needs))]
            t.do(f"roll die=dg-demigod faces=[{','.join(map(str, faces))}]")
            continue
        play_turn(t, face, minions)
    raise RuntimeError("no winner")


def write(name: str, t: Table, title: str) -> None:
    body = [f"# {title}", "# Demigods Evolution story transcript: one event a line in notation (arena-table replay)."]
    body += t.lines()
    (ROOT / "examples" / f"demigods-{name}.txt").write_text("\n".join(body) + "\n")
    golden = body + [f"# digest: {t.digest}", f"# outcome: {t.st.result[0][0]} ({t.st.result[1]})"]
    (Path(__file__).parent / "golden" / f"{name}.txt").write_text("\n".join(golden) + "\n")
    print(name, len(t.lines()), "events", t.st.result, "round", t.st.round)


def slayer() -> Table:
    opts = {"mode": "slayer", "players": ["Ann", "Bo"], "heroes": 3, "lineup": {
        "Ann": {"demigod": "warlord", "heroes": ["knight", "black-wolf", "weaponsmith"], "items": ["elemental-sword"]},
        "Bo": {"demigod": "protector", "heroes": ["trapper", "blacksmith", "ogre"]}}}
    t = Table({}, start=False).do(str(GameStarted(game="demigods", options=opts)))
    return play(t, BEST)


def tactics() -> Table:
    t = Table({}, start=False)
    t.do(str(GameStarted(game="demigods", options={"mode": "tactics", "players": ["Ann", "Bo"], "heroes": 4,
                                                    "selection": "chieftain", "first": "Bo"})))
    picks = [("Bo", "trapper"), ("Ann", "knight"), ("Ann", "black-wolf"), ("Bo", "blacksmith"), ("Bo", "assassin"),
             ("Ann", "weaponsmith"), ("Ann", "high-elder"), ("Bo", "gunner")]
    t.do(*(f"dg-pick player={p} hero={h}" for p, h in picks))
    t.do("dg-demigod player=Ann demigod=warlord", "dg-demigod player=Bo demigod=protector",
         "dg-equip player=Ann item=elemental-sword slot=0", "dg-equip player=Bo item=frost-staff slot=0",
         f"dg-formation player=Ann heroes={q(['knight', 'black-wolf', 'high-elder', 'weaponsmith'])}",
         "dg-begin")
    return play(t, BEST)


def advanced() -> Table:
    opts = {"mode": "advanced-tactics", "players": ["Ann", "Bo"], "heroes": 4, "lineup": {
        "Ann": {"demigod": "warlord", "heroes": ["knight", "black-wolf", "weaponsmith", "gunner"]},
        "Bo": {"demigod": "protector", "heroes": ["trapper", "high-elder", "blacksmith", "assassin"]}}}
    t = Table({}, start=False).do(str(GameStarted(game="demigods", options=opts)))
    weak = {k: 5 for k in BEST}  # small hits: the minions decide this one
    return play(t, weak, minions=True)


if __name__ == "__main__":
    write("slayer", slayer(), "Slayer: Ann's Warlord team against Bo's Protector team, 3 heroes each")
    write("tactics", tactics(), "Tactics: Chieftain selection (Bo first), 4 heroes each, 6 points to win")
    write("advanced-tactics", advanced(), "Advanced Tactics: minions score on the far side")
