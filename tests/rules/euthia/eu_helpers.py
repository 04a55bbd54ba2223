"""Shared helpers of the Euthia tests: a table played from lines of notation.

The book prints no Monster card's values, so each test enters the values its example implies
(as a table would copy them from the card) and says which ones it assumed.
"""

from __future__ import annotations

import json

from arena_table.rules import apply, new_table, parse, table_view
from test_golden_transcripts import load  # noqa: F401 - tests/rules' one transcript reader (on the test path)

SHADOWBEAST = {"gaar": 2, "chaos": 0, "health": 8,
               "attacks": [{"min": 2, "injuries": 1}, {"min": 6, "injuries": 2}, {"min": 10, "injuries": 3}]}
"""The example's Shadowbeast: 2 Gaar tokens (printed); 7 below and 11 in its highest range (printed),
so the highest range starts at 8-11 — 10 is assumed."""
GECKO = {"gaar": 0, "chaos": 1, "health": 5,
         "attacks": [{"min": 2, "injuries": 1}, {"min": 6, "injuries": 2, "effects": {"silver": 2}},
                     {"min": 9, "injuries": 3}]}
"""The example's Gecko: Combat Value 7 inflicts 2 Injuries and takes 2 Silver cards (printed)."""
DIE = [["blank"], ["gaar"], ["silver"], ["chaos"], ["chaos", "chaos"], ["gaar", "chaos"]]
"""Combat-die faces entered for the tests: 1 blank, 2 Gaar, 3 Silver, 4 Chaos, 5 two Chaos, 6 Gaar + Chaos."""


def start(**options) -> str:
    options.setdefault("heroes", ["ael"])
    options.setdefault("combat_die", DIE)
    return "start game=euthia options=" + json.dumps(options, separators=(",", ":"), sort_keys=True)


class Table:
    """A live table fed with notation lines; ``s`` is Euthia's state, ``v`` the spectator view."""

    def __init__(self, *lines: str):
        self.ts = new_table()
        self.lines: list[str] = []
        self.play(*lines)

    def play(self, *lines: str) -> "Table":
        for line in lines:
            ev = parse(line)
            self.ts = apply(self.ts, ev)
            self.lines.append(line)
        return self

    @property
    def s(self):
        return self.ts.state

    @property
    def v(self):
        return table_view(self.ts)["view"]

    @property
    def attack(self):
        return self.s.combat.attack

