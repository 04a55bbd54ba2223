"""Helpers for the Sword & Sorcery tests: a table driven by notation lines, and the boards used."""

from __future__ import annotations

import json

from arena_table.rules import GameStarted, apply, parse, replay

RED4 = {n: json.dumps(["tiebreaker"] * n + ["blank"] * (4 - n)) for n in range(5)}
"""Four red dice showing ``n`` tiebreaker icons, as notation."""

EXAMPLE_BOARD = {
    "adjacent": {
        "p-room": ["p-shrine"], "p-shrine": ["p-front"], "p-front": ["p-step"], "p-step": ["mid", "pillar"],
        "mid": ["r-front", "pillar", "south"], "pillar": ["r-front", "south"], "r-front": ["r-shrine"],
        "r-shrine": ["r-room"], "south": ["l-b", "l-c", "l-d"], "l-b": [], "l-c": [], "l-d": [],
    },
    "shrines": ["p-shrine", "r-shrine"],
    "locations": {"A": "pillar", "B": "l-b", "C": "l-c", "D": "l-d", "E": "mid"},
    "rings": {"pillar": ["p-step", "mid", "r-front", "south"]},
}
"""A board shaped after the Battle Phase example of 6.5 (its diagram is not in the text): each
Team's corner holds a room and a Shrine, the stone pillar (Location A) stands between them."""

HEROES = {
    "purple": [{"id": "thorgar", "hp": 8, "armor": 2, "defense": 3, "weapons": {"hammer": {"red": 2}}},
               {"id": "shae", "hp": 4, "armor": 1, "defense": 2, "weapons": {"staff": {"red": 1, "blue": 1}}}],
    "red": [{"id": "artemis", "hp": 7, "armor": 1, "defense": 2, "weapons": {"bow": {"red": 2, "blue": 1, "ranged": True}}},
            {"id": "thorgren", "hp": 9, "armor": 2, "defense": 3,
             "weapons": {"trident": {"red": 1, "blue": 1, "ranged": True}}}],
}


class Table:
    """Events applied one by one, in notation; ``records`` for replay."""

    def __init__(self, options: dict | None = None, game: str = "sword-and-sorcery") -> None:
        self.records: list = []
        self.ts = replay([])
        if options is not None:
            self.do(str(GameStarted(game=game, options=options)))

    def do(self, *lines: str) -> "Table":
        for line in lines:
            e = parse(line)
            seq = len(self.records) + 1
            self.ts = apply(self.ts, e, seq)
            self.records.append((seq, e))
        return self

    @property
    def st(self):
        return self.ts.state

    def hp(self, hid: str) -> int:
        return self.st.hero(hid).hp


def deployed(options: dict, places: dict[str, str], first_time_pitfalls: bool = True) -> Table:
    """A game through Preparation, Shrine claims and deployment, in Round 1's Time Phase.

    ``places``: hero -> area, in the order the heroes are placed (the Teams alternate); the Teams
    are ranked for deployment in the order their first Hero appears there, and claim the board's
    Shrines in that order.
    """
    t = Table(options)
    teams = list(dict.fromkeys(t.st.hero(h).team for h in places))
    shrines = dict(zip(teams, t.st.board.open_shrines))
    t.do("sns-ready", f"sns-claim claims={json.dumps(shrines)}")
    for team in t.st.tiebreak.to_roll():
        t.do(f"sns-roll team={team} red={RED4[len(teams) - teams.index(team)]}")
    for hero, area in places.items():
        t.do(f"sns-place hero={hero} area={area}")
    if first_time_pitfalls and "pitfalls-first-time-phase" in t.st.quest.special:
        t.do("sns-pitfall number=V location=A", "sns-pitfall number=VI location=B",
             "sns-pitfall number=VII location=C", "sns-pitfall number=VIII location=D")
    return t


def battle(t: Table, ranking: list[str]) -> Table:
    """Begin the Battle Phase with the Teams ranked as ``ranking`` (distinct counts, one roll)."""
    t.do("sns-battle")
    counts = {team: len(ranking) - i for i, team in enumerate(ranking)}
    for team in t.st.tiebreak.to_roll():
        t.do(f"sns-roll team={team} red={RED4[counts[team]]}")
    return t
