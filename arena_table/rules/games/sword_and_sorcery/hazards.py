"""The arena's hazards (4.2-4.6): Pitfalls, Trap tokens, Lava, Infernal Flames.

Pitfall effects (4.2; ``ACT`` is the Quest's ACT):

- I Ice: the Character suffers Slow; if on Fire, it removes all its Fire tokens.
- II Fire: Fire ACT; if Slowed, it removes the Slow.
- III Holy: roll 1 Blue Die; on the Holy icon it suffers ACT HP, otherwise it heals ACT HP. The icon
  is not in the text layer (*to enter*: :data:`HOLY_ICON`), so the die arrives as a face.
- IV Thunder: Stun. V Sand: no effect.
- VI-VIII: not printed in this book (*to enter*): no effect unless the ``pitfall_effects`` option
  gives one.
- IX and X, the rotating Blades: the Blade hits (ACT HP, as the Artemis example of IX says; X adds
  Bleed ACT, as its Orc example says), the Base is harmless. At the end of each Hero Turn IX turns
  90° clockwise and X counter-clockwise, and the Blade hits whoever stands in its new area; placed
  (or activated) they turn 360°, hitting the four areas of their ring.

Open Pitfalls act on every Character entering their area, "even if flying"; placed (or activated)
a Pitfall acts on its area and the adjacent ones, "similarly to an AoE 1" (4.2.2). A closed
Pitfall does nothing. Damage from Pitfalls is "never attributed to Heroes" (4.2.1): no Kill Coin.

Trap tokens (4.3): a non-Flying Hero entering their area attempts a Save (awaited as an event);
success leaves the Trap, failure triggers it (the Trap card is drawn off the engine) and discards
the token. One Trap per area. Lava (4.5): a non-flying Character moving into an active Lava area,
or in an area where Lava is placed, suffers Fire ACT; one Lava per area; the grey side does nothing.
Infernal Flames (4.6): Fire I for a Hero entering or placed in their area (reading
``flames_on_entry``); Cerberus is an Enemy, so its Infernal Blessing is bookkeeping only.

>>> PITFALLS[1], PITFALLS[10]
(('slowed', 'unfire'), ('hpact', 'bleedact'))
"""

from __future__ import annotations

import dataclasses

from . import areas, harm
from .state import Pitfall, SnsState, put

PITFALLS: dict[int, tuple[str, ...]] = {
    1: ("slowed", "unfire"),
    2: ("fireact", "unslow"),
    3: ("holy",),
    4: ("stunned",),
    5: (),
    6: (), 7: (), 8: (),
    9: ("hpact",),
    10: ("hpact", "bleedact"),
}
"""Effects by Pitfall number (VI-VIII *to enter*: not printed)."""
BLADES = {9: 1, 10: -1}
"""Rotating Blades: quarter turns each Hero Turn (+1 clockwise)."""
HOLY_ICON = "star"
"""The Holy Pitfall's icon on the Blue Die (*to enter*: not in the text layer, l.163)."""
ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6, "VII": 7, "VIII": 8, "IX": 9, "X": 10}


def number(value: object) -> int:
    """A Pitfall number from ``4`` or ``"IV"``.

    Raises:
        ValueError: not I-X.
    """
    if isinstance(value, str) and value.strip().upper() in ROMAN:
        return ROMAN[value.strip().upper()]
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 10:
        return value
    raise ValueError(f"a Pitfall is numbered I to X, not {value!r}")


def effects(state: SnsState, num: int) -> tuple[str, ...]:
    return dict(state.pitfall_effects).get(num, PITFALLS[num])


def apply_effects(state: SnsState, hid: str, effs: tuple[str, ...]) -> SnsState:
    """``hid`` suffers the hazard effects ``effs`` in order (no Kill Coin: 4.2.1)."""
    act = state.quest.act
    for e in effs:
        h = state.hero(hid)
        if h.ghost or h.area is None:
            break
        if e == "unfire":
            state = put(state, dataclasses.replace(h, fire=()))
        elif e == "unslow":
            if h.health == 1:
                state = put(state, dataclasses.replace(h, health=0))
        elif e == "hpact":
            state = harm.hurt(state, hid, act)
        elif e == "holy":
            state = dataclasses.replace(state, saves=state.saves + ((hid, "holy"),))
        elif e.startswith("hp"):
            state = harm.hurt(state, hid, int(e[2:]))
        else:
            state = harm.inflict(state, hid, e)
    return state


def holy(state: SnsState, hid: str, face: str) -> SnsState:
    """Pitfall III's Blue Die for ``hid``: the Holy icon hurts ACT HP, any other face heals ACT HP."""
    from .dice import symbols
    act = state.quest.act
    if HOLY_ICON in symbols(face):
        return harm.hurt(state, hid, act)
    return harm.heal(state, hid, act)


def pitfall_at(state: SnsState, area: str) -> Pitfall | None:
    return next((p for p in state.board.pitfalls if p.area == area), None)


def ring(state: SnsState, p: Pitfall) -> tuple[str, ...]:
    return dict(state.board.rings).get(p.area, ())


def blade_area(state: SnsState, p: Pitfall) -> str | None:
    r = ring(state, p)
    return r[p.blade % len(r)] if r else None


def _everyone_in(state: SnsState, areas_: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(h.id for _, h in state.heroes if h.area in areas_ and not h.ghost)


def place_pitfall(state: SnsState, num: int, location: str, is_open: bool = True) -> SnsState:
    """Pitfall ``num`` placed on Location ``location`` (A-E) and, open, applied at once (4.2.2).

    Raises:
        ValueError: unknown Location, or a Pitfall already on it or already in play.
    """
    locs = dict(state.board.locations)
    if location not in locs:
        raise ValueError(f"no Location {location!r}; locations: {', '.join(locs)}")
    area = locs[location]
    if pitfall_at(state, area):
        raise ValueError(f"Location {location} already holds Pitfall {pitfall_at(state, area).number}")
    if any(p.number == num for p in state.board.pitfalls):
        raise ValueError(f"Pitfall {num} is already in play")
    blade = 0
    if num in BLADES:  # "the Blade must be oriented toward the center of the arena"
        r = dict(state.board.rings).get(area, ())
        if not r:
            raise ValueError(f"Location {location} has no ring of four areas for a Blade")
        centre = locs.get("E", area)
        blade = min(range(len(r)), key=lambda i: (areas.distance(state.board, r[i], centre) or 99, i))
    p = Pitfall(num, area, is_open, blade)
    state = dataclasses.replace(state, board=dataclasses.replace(state.board, pitfalls=state.board.pitfalls + (p,)))
    return activate(state, p) if is_open else state


def activate(state: SnsState, p: Pitfall) -> SnsState:
    """Apply a Pitfall's placement/activation: AoE 1 around it, or the Blade's 360° turn."""
    hit_areas = ring(state, p) if p.number in BLADES else areas.within(state.board, p.area, 1)
    for hid in _everyone_in(state, hit_areas):
        state = apply_effects(state, hid, effects(state, p.number))
    return state


def rotate_blades(state: SnsState) -> SnsState:
    """End of a Hero Turn: IX turns 90° clockwise, X counter-clockwise; the Blade hits its new area."""
    for p in state.board.pitfalls:
        if p.number not in BLADES or not ring(state, p):
            continue
        turned = dataclasses.replace(p, blade=(p.blade + BLADES[p.number]) % len(ring(state, p)))
        pits = tuple(turned if q is p else q for q in state.board.pitfalls)
        state = dataclasses.replace(state, board=dataclasses.replace(state.board, pitfalls=pits))
        if p.open:
            for hid in _everyone_in(state, (blade_area(state, turned),)):
                state = apply_effects(state, hid, effects(state, p.number))
    return state


def entering(state: SnsState, hid: str, area: str) -> SnsState:
    """What ``hid`` suffers moving into ``area``: Pitfall or Blade, Lava, Infernal Flames, Deadly,
    then a Trap's Save (awaited)."""
    h = state.hero(hid)
    if h.ghost:
        return state
    for p in state.board.pitfalls:
        if not p.open:
            continue
        hit = blade_area(state, p) == area if p.number in BLADES else p.area == area
        if hit:
            state = apply_effects(state, hid, effects(state, p.number))
    h = state.hero(hid)
    if not h.flying and dict(state.board.lava).get(area):
        state = harm.inflict(state, hid, "fireact")
    if area in state.board.flames and state.options.flames_on_entry:
        state = harm.inflict(state, hid, "fire1")
    if area in state.board.deadly:
        state = harm.hurt(state, hid, 1)
    h = state.hero(hid)
    if area in state.board.traps and not h.flying and not h.ghost:
        state = dataclasses.replace(state, saves=state.saves + ((hid, "trap"),))
    return state


def trap_save(state: SnsState, hid: str, ok: bool) -> SnsState:
    """The Trap Save of ``hid``: failure triggers the Trap and discards its token (4.3)."""
    area = state.hero(hid).area
    if ok:
        return state
    return dataclasses.replace(state, board=dataclasses.replace(
        state.board, traps=tuple(a for a in state.board.traps if a != area)))


def place_token(state: SnsState, kind: str, area: str) -> SnsState:
    """A Lava, Trap or Infernal Flame token placed on ``area`` (one Lava, one Trap per area), or a
    Lava token turned to its inactive grey side (``lava-off``) or back (``lava-on``).

    Raises:
        ValueError: unknown area or kind.
    """
    b = state.board
    if not b.has(area):
        raise ValueError(f"no area {area!r} on the board")
    if kind == "trap":
        return state if area in b.traps else dataclasses.replace(state, board=dataclasses.replace(b, traps=b.traps + (area,)))
    if kind in ("lava-off", "lava-on"):  # the token turned to its grey (inactive) side or back
        if area not in dict(b.lava):
            raise ValueError(f"no Lava token on {area}")
        lava = tuple((a, kind == "lava-on") if a == area else (a, on) for a, on in b.lava)
        return dataclasses.replace(state, board=dataclasses.replace(b, lava=lava))
    if kind == "lava":
        if area in dict(b.lava):
            return state
        state = dataclasses.replace(state, board=dataclasses.replace(b, lava=b.lava + ((area, True),)))
        for hid in _everyone_in(state, (area,)):
            if not state.hero(hid).flying:
                state = harm.inflict(state, hid, "fireact")
        return state
    if kind == "flame":
        state = dataclasses.replace(state, board=dataclasses.replace(b, flames=b.flames + (area,)))
        if state.options.flames_on_entry:
            for hid in _everyone_in(state, (area,)):
                state = harm.inflict(state, hid, "fire1")
        return state
    raise ValueError(f"token is trap, lava, lava-off, lava-on or flame, not {kind!r}")
