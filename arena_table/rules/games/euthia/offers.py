"""What the players can do now in Euthia, as tappable actions (``Game.actions``).

Outside a Combat: set up a Combat (Combat Setup, l.946-957: the Monster card(s) left to right,
the Hero or the two Heroes of a joint Combat, l.926-934, the hex's Elemental Power, l.805-807),
a Hero Roll for a Map Secrets hunt (Bird, Deer, l.630-656), and in Fellowship the round's
Fellowship card (l.872-883), Exchanging Items (l.894-898), the Move tokens (l.884-887) and the
Personal Quests (l.889); the scenario's end. In a Combat: the next Enemy's Monster Attack (left to
right, the Hero it attacks, l.943), a Hero's Hero Attack with a weapon's bands or Charm, the
Damage dealt once the roll is made, the Chaos-Action cards revealed (l.822-834), the Hero's
response (Gaar tokens, l.823) and Hero tiles by their printed names at their timing. Nothing
is offered while the Monster dice, the Combat die or a Hero's two dice are awaited, except
the tiles used Before Monster-Attack Roll. Every choice is one ``apply`` accepts
(:func:`~arena_table.rules.kernel.actions.legal`).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from arena_table.rules.kernel.actions import Action, Apply, Choice, Param, accepts, legal, merge, settled

from . import fellowship, rolls
from .catalog import tiles
from .state import EuState

POWERS = (("No Elemental Power", ""), ("Air", "air"), ("Earth", "earth"), ("Corrupted", "corrupted"))
"""Elemental Power of the Combat's hex (Playing with Fire, Combat, l.805-807)."""
WEAPON_NAMES = {"elven-sword": "Elven Sword", "rusty-cleaver": "Rusty Cleaver", "crystal-staff": "Crystal Staff"}
"""The weapons whose Hero-Attack bands the book prints (:data:`.rolls.WEAPONS`), by their tiles' names."""
DAMAGE = range(0, 9)
"""Damage amounts offered once a Hero Attack roll is made: the weapon tile shows it per band (the
book prints none); 0 is a miss."""
VALUES = range(1, 7)
"""'The value shown' on a Scroll (Treasures, l.719-733): the tiles print it; the choices offered."""
CARD_PARTS = (("enemy", "Extra Enemy", (("none", ""), ("a Level 1 Monster", "1"), ("a Level 2 Monster", "2"),
                                        ("a Level 3 Monster", "3"), ("Area Attack", "area"))),
              ("health", "Monster Health +", tuple((str(n), n) for n in range(4))),
              ("injuries", "Monster Injuries +", tuple((str(n), n) for n in range(3))),
              ("chaos_action", "Additional Chaos Action", (("no", False), ("yes", True))),
              ("exchange", "Exchange value", tuple((str(n), n) for n in range(11))),
              ("silver", "Silver cards (bar)", tuple((str(n), n) for n in range(3))),
              ("gold", "Gold cards (bar)", tuple((str(n), n) for n in range(3))),
              ("chaos", "Chaos tokens (bar)", tuple((str(n), n) for n in range(3))),
              ("gaar", "Gaar tokens (bar)", tuple((str(n), n) for n in range(3))))
"""The parts of a Fellowship card (l.873-883) and the values offered for each (the cards' values
are not printed in the book; its reward box is entered at the advanced panel)."""
CHOICE_WORDS = {"": "as printed", "silver": "discarding a Silver card", "one": "re-roll one Monster die",
                "both": "re-roll both Monster dice", "roll": "add to the Hero Roll", "hope": "the Die of Hope",
                "gaar": "destroy a Gaar token", "chaos": "destroy a Chaos token", "astral": "Astral Wolf",
                "dire": "Dire Wolf", "injuries": "1 Injury less"}
"""A tile's choices (``data/tiles.json``) in words."""


def actions(state: EuState, apply: Apply) -> list[Action]:
    """The actions legal in ``state`` under ``apply`` (the game's own, ``GAME.apply``); empty while
    dice are awaited or once the scenario has ended."""
    if state.result is not None:
        return []
    c = state.combat
    fighting = c is not None and not c.over
    roll = rolls.open_roll(state)
    if fighting and c.attack is not None:
        out = _attack(state, apply)
    elif roll is not None:
        out = _roll(state, apply, roll) if roll.dice else []
    elif fighting:
        out = _combat(state, apply)
    else:
        out = _outside(state, apply)
    return [a for a in (settled(a) for a in out) if a is not None]


def _name(state: EuState, hid: str) -> str:
    return state.heroes[hid].name


def _player(state: EuState, hid: str) -> str:
    return state.heroes[hid].player


def _leader(state: EuState) -> str:
    """Whose decision a group's choice is: the Leader's in Fellowship (l.868), the solo Hero's otherwise."""
    hid = state.round.leader if state.round else state.order[0]
    return _player(state, hid)


def _tiles(state: EuState, apply: Apply, heroes: Sequence[str]) -> list[Action | None]:
    """Each Hero's own tiles and the Treasures / tokens anyone may hold, by their printed names."""
    out: list[Action | None] = []
    for hid in heroes:
        for tid, t in tiles().items():
            if t.get("hero") not in ("", hid):
                continue
            choices = []
            for key, fx in t["choices"].items():
                then: tuple[Param, ...] = ()
                if "value" in fx.values() or "-value" in fx.values():
                    then += (Param("value", "The value shown", tuple(Choice(str(v), {"value": v}) for v in VALUES)),)
                if fx.get("reroll") == "one":
                    then += (_die_param(state, "die", lambda i: {"die": i}),)
                choices.append(Choice(CHOICE_WORDS.get(key, key), {"choice": key}, then))
            out.append(legal(apply, state, "eu-tile", f"{_name(state, hid)}: {t['name']}", _player(state, hid),
                             {"hero": hid, "tile": tid}, (Param("choice", "Used as", tuple(choices)),)))
    return out


def _die_param(state: EuState, name: str, fields: Any) -> Param:
    dice = state.combat.attack.dice if state.combat and state.combat.attack else ()
    return Param(name, "Which Monster die", tuple(Choice(f"die {i + 1} (shows {d})", fields(i))
                                                  for i, d in enumerate(dice)))


def _attack(state: EuState, apply: Apply) -> list[Action | None]:
    """A Monster Attack under way: the tiles Before Monster-Attack Roll while its dice are awaited,
    the Chaos-Action card revealed, or the Hero's response (step C 5, l.823)."""
    c = state.combat
    a = c.attack
    target = a.targets[0]
    if a.step == "roll":
        return _tiles(state, apply, a.targets) if not a.dice else []
    if a.step == "reveal":
        cache = a.chaos.cache
        cards = Param("card", "Card revealed", tuple(Choice(rec.get("name", kind), {"card": kind})
                                                     for kind, rec in state.config.cards[cache].items()))
        return [legal(apply, state, "eu-reveal", f"Reveal the top card of the {cache.title()} cache",
                      _player(state, target), params=(cards,))]
    if a.step != "response":
        return []
    out: list[Action | None] = []
    for hid in a.targets:
        both = (Choice("both Monster dice", {"dice": list(range(len(a.dice)))}),) if len(a.dice) > 1 else ()
        dice = _die_param(state, "dice", lambda i: {"dice": [i]})
        out.append(legal(apply, state, "eu-reroll", f"{_name(state, hid)}: spend a Gaar token to re-roll",
                         _player(state, hid), {"hero": hid, "gaar": True},
                         (Param("dice", "Which Monster die", dice.choices + both),)))
    out += _tiles(state, apply, a.targets)
    out.append(legal(apply, state, "eu-done", "End the Hero's response", _player(state, target)))
    return out


def _roll(state: EuState, apply: Apply, roll: Any) -> list[Action | None]:
    """A Hero Roll made: its Damage (a Hero Attack) or its result, and the tiles used on it."""
    hid = roll.hero
    out: list[Action | None] = []
    if roll.purpose == "attack":
        params = [Param("amount", "Damage dealt", tuple(Choice(f"{n} (a miss)" if n == 0 else str(n), {"amount": n})
                                                        for n in DAMAGE))]
        targets = _damage_targets(state)
        if len(targets) > 1:
            params.append(Param("target", "Dealt to", tuple(targets)))
        out.append(legal(apply, state, "eu-damage", f"{_name(state, hid)}: Damage dealt", _player(state, hid),
                         {"hero": hid, "target": roll.target}, params))
    else:
        out.append(legal(apply, state, "eu-done", f"{_name(state, hid)}: take the Hero Roll's result",
                         _player(state, hid)))
    return out + _tiles(state, apply, (hid,))


def _damage_targets(state: EuState) -> list[Choice]:
    c = state.combat
    out = [Choice(e.name, {"target": str(i)}) for i, e in enumerate(c.enemies) if not e.defeated]
    out += [Choice(state.config.cards[x.cache][x.kind].get("name", x.kind), {"target": x.kind}) for x in c.creatures]
    return out


def _combat(state: EuState, apply: Apply) -> list[Action | None]:
    """Between attacks: the next Enemy's Monster Attack, the Heroes' Hero Attacks or Charm, tiles."""
    c = state.combat
    out: list[Action | None] = []
    living = [h for h in c.heroes if h not in c.dead]
    waiting = [i for i, e in enumerate(c.enemies) if not e.defeated and i not in c.attacked]
    if waiting:
        i = waiting[0]
        targets = Param("target", "The Hero it attacks", tuple(Choice(_name(state, h), {"target": h}) for h in living))
        out.append(legal(apply, state, "eu-monster-attack", f"{c.enemies[i].name}'s Monster Attack", _leader(state),
                         {"enemy": i}, (targets,)))
    foes = [Choice(e.name, {"target": str(i)}) for i, e in enumerate(c.enemies) if not e.defeated]
    weapons = tuple(Choice(f"{WEAPON_NAMES[w]} ({bands})", {"weapon": w}) for w, bands in rolls.WEAPONS.items())
    for hid in living:
        params = [Param("weapon", "Weapon", weapons + (Choice("another weapon (no bands)", {"weapon": ""}),))]
        if len(foes) > 1:
            params.append(Param("target", "The Enemy attacked", tuple(foes)))
        out.append(legal(apply, state, "eu-hero-roll", f"{_name(state, hid)}: Hero Attack", _player(state, hid),
                         {"hero": hid, "purpose": "attack"}, params))
        out.append(legal(apply, state, "eu-hero-roll", f"{_name(state, hid)}: Charm", _player(state, hid),
                         {"hero": hid, "purpose": "charm"}))
    out += _tiles(state, apply, living)
    return out


def _outside(state: EuState, apply: Apply) -> list[Action | None]:
    """No Combat: a Combat set up, a hunt, and in Fellowship the round's card, exchanges, Move
    tokens and Personal Quests; the scenario's end."""
    fellow = state.config.mode == "fellowship"
    out: list[Action | None] = []
    if fellow:
        out.append(_new_round(state, apply))
    if not fellow or state.round is not None:
        out.append(_setup_combat(state, apply))
        hunts = Param("purpose", "What for", (Choice("hunt a Bird (10 or more)", {"purpose": "bird"}),
                                              Choice("hunt a Deer (8 or more)", {"purpose": "deer"}),
                                              Choice("another roll", {"purpose": "other"})))
        for hid in state.order:
            out.append(legal(apply, state, "eu-hero-roll", f"{_name(state, hid)}: Hero Roll", _player(state, hid),
                             {"hero": hid}, (hunts,)))
    if fellow and state.round is not None:
        out += _fellowship(state, apply)
    result = Param("won", "The scenario is", (Choice("won", {"won": True}), Choice("lost", {"won": False})))
    out.append(legal(apply, state, "eu-end", "End the scenario", _leader(state), params=(result,)))
    return out


def _setup_combat(state: EuState, apply: Apply) -> Action | None:
    cfg = state.config
    extra = str((state.round.card if state.round else {}).get("enemy", ""))
    cards = []
    for mid, rec in cfg.monsters.items():
        then: tuple[Param, ...] = ()
        if extra.isdigit():
            right = [m for m, r in cfg.monsters.items() if str(r.get("level", "")) == extra] or list(cfg.monsters)
            then = (Param("enemies", f"The Level {extra} Monster added to the right",
                          tuple(Choice(cfg.monsters[m]["name"], {"enemies": [mid, m]}) for m in right)),)
        cards.append(Choice(rec["name"], {"enemies": [mid]}, then))
    heroes = [Choice(_name(state, h), {"heroes": [h]}) for h in state.order]
    if cfg.mode == "fellowship":
        heroes += [Choice(f"{_name(state, a)} and {_name(state, b)} (joint Combat)", {"heroes": [a, b]})
                   for i, a in enumerate(state.order) for b in state.order[i + 1:]]
    powers = Param("power", "Elemental Power on the hex", tuple(Choice(label, {"power": p}) for label, p in POWERS))
    return legal(apply, state, "eu-combat", "Set up a Combat", _leader(state),
                 params=(Param("enemies", "Monster card", tuple(cards)), Param("heroes", "Hero", tuple(heroes)),
                         powers))


def _new_round(state: EuState, apply: Apply) -> Action | None:
    """The next round's Fellowship card, each part a row of values; round 1 also names the Leader."""
    number = state.round.number + 1 if state.round else 1
    if number > fellowship.ROUNDS:
        return None
    base = {"card": {"tier": fellowship.tier(number)}}
    params = [Param(key, label, tuple(Choice(w, {"card": {key: v}}) for w, v in values))
              for key, label, values in CARD_PARTS]
    if number == 1:
        params.insert(0, Param("leader", "Leader of round 1", tuple(Choice(_name(state, h), {"leader": h})
                                                                   for h in state.order)))
    label = f"Reveal the round {number} Fellowship card ({fellowship.tier(number)})"
    return _card_action(state, apply, label, base, params)


def _card_action(state: EuState, apply: Apply, label: str, base: Mapping[str, Any],
                 params: list[Param]) -> Action | None:
    """The round's card as an action whose parts are picked one by one (each choice's ``card``
    merges into the card, :meth:`~arena_table.rules.kernel.actions.Action.event`): each part's
    values are checked by ``apply`` with the other parts at their first value, the parts being
    independent of each other (:func:`.fellowship.check_card`)."""
    first = [p.choices[0].fields for p in params]
    kept = []
    for i, p in enumerate(params):
        ok = tuple(c for c in p.choices
                   if accepts(apply, state, "eu-round", _merged(base, first[:i] + [c.fields] + first[i + 1:])))
        if not ok:
            return None
        kept.append(Param(p.name, p.label, ok))
    return Action(kind="eu-round", label=label, player=_leader(state), fields=dict(base), params=tuple(kept))


def _merged(base: Mapping[str, Any], picks: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    out = dict(base)
    for fields in picks:
        out = merge(out, fields)
    return out


def _fellowship(state: EuState, apply: Apply) -> list[Action | None]:
    out: list[Action | None] = []
    limit = int(state.round.card.get("exchange", 0))
    for hid in state.order:
        others = tuple(h for h in state.order if h != hid)
        to = Param("to", "Given to", tuple(Choice(_name(state, h), {}, (Param(
            "gifts", "Total selling price", tuple(Choice(str(n), {"gifts": {h: n}}) for n in range(1, limit + 1))),))
            for h in others))
        out.append(legal(apply, state, "eu-exchange", f"{_name(state, hid)}: give Items", _player(state, hid),
                         {"giver": hid}, (to,)))
        out.append(legal(apply, state, "eu-move-token", f"{_name(state, hid)}: take a Move token", _player(state, hid),
                         {"hero": hid}))
        out.append(legal(apply, state, "eu-quest", f"{_name(state, hid)}: fulfil the Personal Quest",
                         _player(state, hid), {"hero": hid}))
    return out
