"""Drive a Demigods game through events in notation, as the table would."""

from __future__ import annotations

from arena_table.rules import GameStarted, apply, digest, parse, replay
from arena_table.rules.games.demigods import rounds
from arena_table.rules.kernel.table import new_table

LINEUP = {
    "Ann": {"demigod": "warlord", "heroes": ["knight", "assassin", "black-wolf", "weaponsmith"],
            "items": ["elemental-sword", "", ""]},
    "Bo": {"demigod": "protector", "heroes": ["pegasus-knight", "trapper", "blacksmith", "gunner"], "items": []},
}
HERO_STATS = {"assassin": {"race": "elf"}, "gunner": {"race": "human"}}
"""Races the book does not print, chosen so that no racial link changes the book's numbers
(the worked examples have no morale in play)."""


class Table:
    """A table running Demigods; ``do`` applies lines of notation and keeps the log."""

    def __init__(self, options: dict, start: bool = True) -> None:
        self.records: list = []
        self.ts = new_table("dice-tray")
        if start:
            self.do(str(GameStarted(game="demigods", options=options)))

    def do(self, *lines: str) -> "Table":
        for line in lines:
            ev = parse(line)
            seq = self.ts.seq + 1
            self.ts = apply(self.ts, ev, seq)
            self.records.append((seq, ev))
        return self

    @property
    def st(self):
        return self.ts.state

    def ch(self, cid: str):
        return self.st.chars[cid]

    def lines(self) -> list[str]:
        return [str(ev) for _, ev in self.records]

    def until(self, cid: str, rolls: dict | None = None, limit: int = 80) -> "Table":
        """End turns (rolling the Demigod dice with ``rolls[player]`` or descending seat values)
        until ``cid`` acts."""
        for _ in range(limit):
            st = self.st
            if st.acting == cid:
                return self
            if st.acting is not None:
                self.do("dg-end-turn")
                continue
            if st.phase == "demigod":
                needs = rounds.demigod_ranking(st)[1]
            else:
                needs = rounds.next_hero(st).contenders
            assert needs, f"stuck: {st!r}"
            faces = [(rolls or {}).get(p, 6 - i) for i, p in enumerate(needs)]
            self.do(f"roll die=dg-demigod faces=[{','.join(map(str, faces))}]")
        raise AssertionError(f"{cid} never acted")

    def replayed_digest(self) -> str:
        return digest(replay(self.records))

    @property
    def digest(self) -> str:
        return digest(self.ts)


def lineup_options(**extra) -> dict:
    return {"mode": "slayer", "players": ["Ann", "Bo"], "heroes": 4, "lineup": LINEUP, "hero_stats": HERO_STATS,
            **extra}


def at(who: str, **extra) -> Table:
    """The lineup game with every figure placed, run until ``who`` acts."""
    t = Table(lineup_options(**extra)).until(who)
    return t.do(*(f"dg-place who={w}" for w in ("knight", "assassin", "black-wolf", "weaponsmith", "pegasus-knight",
                                                   "trapper", "blacksmith", "gunner")))


def elemental_sword_attack() -> Table:
    """'Example Demigod turn' (pp.28-29): the lineup game in round 2, the Warlord, 2 AP moved,
    attacking the Blacksmith (his back) and the Trapper (her front) with the Elemental Sword (10;
    ice, fire and slashing dice), waiting for its dice."""
    t = Table(lineup_options()).until("warlord")  # round 1: Demigods may not attack
    t.until("blacksmith").until("warlord")
    return t.do("dg-place who=warlord", "dg-place who=blacksmith", "dg-place who=trapper", "dg-move who=warlord ap=2",
                'dg-use who=warlord use=elemental-sword targets=["blacksmith","trapper"] side=["back","front"]')
