"""Eltrea's Familiars: Summon by Reputation, Move points, the Familiar board's slots (New Hero:
Eltrea, Familiars, l.190-216).

Moving, Recalling or Summoning puts one of Eltrea's Hero tokens on a slot of the Familiar board
(once a turn each); the top slot costs 2 Gold (l.192). Summoning needs Eltrea's current
Reputation to reach the value above that Familiar on the board (l.204) and makes it the one
active Familiar, its remaining Move points lost (l.209). A Familiar spends 1 Move point a hex up
to its card's Move points a turn (l.193-197). The abilities' effects that change numbers are tiles
(:mod:`.tiles`: Will o' Wisp, Hawk Spirit, the Wolf's Wound tokens); their Locations are the
table's to check.
"""

from __future__ import annotations

import dataclasses

from .state import EuState, Refused, put_hero

TOP_COST = 2
"""Gold paid for the Familiar board's top slot (l.192, l.206)."""
ACTIONS = ("summon", "move", "recall", "turn")


def act(state: EuState, hero: str, action: str, familiar: str, steps: int, slot: str) -> EuState:
    """The state after one Familiar action (``turn``: Eltrea's turn begins, the tokens come back).

    Raises:
        Refused: not Eltrea, an unknown action or Familiar, a slot used this turn, not enough
            Gold or Reputation, or more Move points than the Familiar has left.
    """
    f = state.familiar
    if hero != "eltrea" or f is None:
        raise Refused("only Eltrea has Familiars")
    if action not in ACTIONS:
        raise Refused(f"a Familiar action is {', '.join(ACTIONS)}, not {action!r}")
    if action == "turn":
        return dataclasses.replace(state, familiar=dataclasses.replace(f, slots=(), moved=0))
    if state.combat is not None and not state.combat.over:
        raise Refused("Familiars are moved, recalled and summoned outside of Combat")
    if slot not in ("top", "lower"):
        raise Refused(f"the Familiar board's slot is top or lower, not {slot!r}")
    if action == "summon" and slot != "top":
        raise Refused("Summoning uses the top slot of the Familiar board (l.206)")
    if slot in f.slots:
        raise Refused(f"the {slot} slot holds a Hero token already this turn (l.192)")
    cards = state.config.familiars
    h = state.hero(hero)
    if slot == "top":
        if h.purse.get("gold", 0) < TOP_COST:
            raise Refused(f"the top slot costs {TOP_COST} Gold; {h.name} has {h.purse.get('gold', 0)}")
        state = put_hero(state, dataclasses.replace(h, purse={**h.purse, "gold": h.purse["gold"] - TOP_COST}))
    f = dataclasses.replace(f, slots=f.slots + (slot,))
    if action == "summon":
        if familiar not in cards:
            raise Refused(f"unknown Familiar {familiar!r}; Familiars: {', '.join(cards)}")
        need = cards[familiar]["reputation"]
        if h.reputation < need:
            raise Refused(f"Summoning {cards[familiar]['name']} needs {need} Reputation; {h.name} has {h.reputation}")
        f = dataclasses.replace(f, active=familiar, moved=0)
    elif action == "move":
        left = cards[f.active]["move"] - f.moved
        if not 1 <= steps <= left:
            raise Refused(f"{cards[f.active]['name']} has {left} Move point{'s' if left != 1 else ''} left this turn")
        f = dataclasses.replace(f, moved=f.moved + steps)
    return dataclasses.replace(state, familiar=f)



