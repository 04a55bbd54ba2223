"""The automated Monster's attack: steps B and C of the Monster Attack Phase (Playing with Fire,
Combat, l.800-842; Fellowship uses the same rules, l.923-925).

B) The two Monster dice and the Combat die are read (one Monster die under Air Essence or One
Eye, l.808 and l.527). Air turns the higher of two differing Monster dice to its opposite side
(``7 - v``, l.805). C) in the book's order: a Gaar symbol gives the Monster a Gaar token; a Silver
card symbol sets a Silver card aside for the cache after the phase; each Chaos symbol is one
Chaos Action, as far as Chaos tokens and cached cards allow; then the Gaar loop: while the Combat
Value does not reach the highest (rightmost) attack range, a Monster die shows 1-3 and the Monster
has Gaar, one Gaar token is spent blue side up (+2) and the lowest die re-rolled (either if tied);
then the Hero responds, which can restart the loop. The Combat Value is the Monster dice plus 2
for each Gaar token spent plus modifiers (Earth +2, Corrupted -2 on the hex, l.806-807; cards;
Hero tiles). When the response ends Shii's Intervention adds 1 to the Die of Hope for Monster dice
of 10 or more (l.804), and the attack range reached inflicts its Injuries and effects.
"""

from __future__ import annotations

import dataclasses

from . import caches, wounds
from .state import Attack, Combat, EuState, Refused, put_enemy, put_hero

GAAR_BONUS = 2
"""A Gaar token spent blue side up adds 2 to the Combat Value (l.821 and the Shadowbeast example)."""
SHII = 10
"""Monster dice of 10 or more: +1 to the Die of Hope (Shii's Intervention, l.804)."""
LOW = 3
"""A Monster die showing 1, 2 or 3 may be re-rolled with Gaar (l.821)."""


def _combat(state: EuState) -> Combat:
    if state.combat is None or state.combat.over:
        raise Refused("no Combat is being fought")
    return state.combat


def attack_of(state: EuState) -> Attack:
    """The Monster Attack being resolved.

    Raises:
        Refused: none is.
    """
    c = _combat(state)
    if c.attack is None:
        raise Refused("no Monster Attack is being resolved")
    return c.attack


def _set(state: EuState, attack: Attack | None = None, **combat) -> EuState:
    c = dataclasses.replace(state.combat, **combat)
    if attack is not None:
        c = dataclasses.replace(c, attack=attack)
    return dataclasses.replace(state, combat=c)


def card_of(state: EuState, index: int) -> dict:
    return state.config.monsters[state.combat.enemies[index].card]


def top_range(state: EuState, attack: Attack) -> int:
    """The lowest Combat Value of the Monster's highest (rightmost) attack range."""
    return card_of(state, attack.enemy)["attacks"][-1]["min"]


def band(state: EuState, attack: Attack, cv: int) -> tuple[int, dict] | None:
    """``(index, range)`` of the attack range ``cv`` lies in, or ``None`` below the first."""
    ranges = card_of(state, attack.enemy)["attacks"]
    found = None
    for i, r in enumerate(ranges):
        if cv >= r["min"]:
            found = (i, r)
    return found


def creature_mods(state: EuState, attack: Attack, field: str) -> list[tuple[int, str]]:
    """Modifiers from the Rotting creatures acting in this Monster Attack (``cv`` or ``injuries``)."""
    out = []
    for c in state.combat.creatures:
        if wounds.is_acting(c, attack.number, state.config.creature_now):
            box = state.config.cards[c.cache][c.kind]["boxes"][c.slot - 1]
            if box.get(field):
                out.append((box[field], f"{state.config.cards[c.cache][c.kind]['name']} (box {c.slot})"))
    return out


def combat_value(state: EuState, attack: Attack) -> int:
    """Monster dice + 2 per Gaar token spent + modifiers (Combat, l.800-807, 821)."""
    mods = list(attack.cv_mods) + creature_mods(state, attack, "cv")
    return sum(attack.dice) + GAAR_BONUS * attack.gaar_spent + sum(m for m, _ in mods)


def explain(state: EuState, attack: Attack) -> str:
    """``"3 + 6 + 2 Gaar = 11"``: the Combat Value's sum spelled out."""
    parts = [" + ".join(str(d) for d in attack.dice) or "?"]
    if attack.gaar_spent:
        parts.append(f"{GAAR_BONUS * attack.gaar_spent} Gaar")
    for m, why in list(attack.cv_mods) + creature_mods(state, attack, "cv"):
        parts.append(f"{m:+d} {why}".replace("+", "+ ", 1).replace("-", "- ", 1))
    text = parts[0] + "".join(f" + {p}" if p[0] not in "+-" else f" {p}" for p in parts[1:])
    return f"{text} = {combat_value(state, attack)}"


def begin(state: EuState, enemy: int, targets: tuple[str, ...]) -> EuState:
    """Start the Monster Attack of Enemy ``enemy`` (left to right, l.943) on ``targets``.

    Raises:
        Refused: another attack is open, the Enemy is defeated, attacked already this Combat Round
            or not the leftmost still to attack, or a target is not a living Hero of this Combat.
    """
    c = _combat(state)
    if c.attack is not None:
        raise Refused("a Monster Attack is still being resolved")
    if c.roll is not None:
        raise Refused(f"{state.hero(c.roll.hero).name}'s Hero Roll is awaited first")
    if not 0 <= enemy < len(c.enemies) or c.enemies[enemy].defeated:
        raise Refused(f"Enemy {enemy} is not in the line of undefeated Enemies")
    waiting = [i for i, e in enumerate(c.enemies) if not e.defeated and i not in c.attacked]
    if enemy not in waiting:
        raise Refused(f"{c.enemies[enemy].name} attacked already this Combat Round")
    if enemy != waiting[0]:
        raise Refused(f"Enemies attack left to right (l.943): {c.enemies[waiting[0]].name} attacks first")
    living = [h for h in c.heroes if h not in c.dead]
    if c.area:
        targets = tuple(living)  # an Area Attack hits every Hero of the Combat (l.957)
    if not targets or any(t not in living for t in targets):
        raise Refused(f"the Monster attacks one of the Heroes in this Combat: {', '.join(living)}")
    if len(targets) > 1 and not c.area:
        raise Refused("only an Area Attack hits more than one Hero")
    cv_mods = list(c.cv_next)
    if c.power == "earth" and state.config.earth == "monster":
        cv_mods.append((2, "Earth"))
    if c.power == "corrupted":
        cv_mods.append((-2, "Corrupted"))
    injuries = [(m, why, h) for h in targets for m, why in c.injuries_next.get(h, ())]
    injuries += [(v, "this Combat Round", h) for h, v in c.round_injuries.items() if h in targets and v]
    attack = Attack(enemy=enemy, targets=targets, number=c.attacks + 1, cv_mods=tuple(cv_mods),
                    injury_mods=tuple(injuries), one_die=c.one_die,
                    lines=(f"{c.enemies[enemy].name} attacks {', '.join(state.hero(t).name for t in targets)}",))
    return _set(state, attack, attacks=c.attacks + 1, cv_next=(), first_struck=(),
                injuries_next={h: v for h, v in c.injuries_next.items() if h not in targets})


def dice_awaited(attack: Attack) -> int:
    """Monster dice the step awaits: 2 (1 with Air Essence / One Eye) in step B, the re-roll's count."""
    if attack.step == "roll":
        return 0 if attack.dice else (1 if attack.one_die else 2)
    return len(attack.reroll) if attack.step == "reroll" else 0


def _air(state: EuState, dice: tuple[int, ...]) -> tuple[tuple[int, ...], str]:
    c = state.combat
    if "air" not in (c.power, c.familiar) or len(dice) != 2 or dice[0] == dice[1]:
        return dice, ""
    hi = 0 if dice[0] > dice[1] else 1
    turned = list(dice)
    turned[hi] = 7 - dice[hi]
    return tuple(turned), f"Air: the {dice[hi]} turned to {turned[hi]}"


def monster_dice(state: EuState, faces: tuple[int, ...]) -> EuState:
    """The Monster dice read: step B's roll, or the re-roll the engine asked for.

    Raises:
        Refused: no Monster dice are awaited, or the wrong number of them.
    """
    a = attack_of(state)
    want = dice_awaited(a)
    if not want:
        raise Refused("no Monster die is awaited now" + (f" (waiting for {a.step})" if a.step != "roll" else
                                                         ": the Combat die is awaited"))
    if len(faces) != want:
        raise Refused(f"{want} Monster {'die' if want == 1 else 'dice'} awaited, got {len(faces)}")
    lines = list(a.lines)
    if a.step == "roll":
        dice, turned = _air(state, tuple(faces))
        lines.append(f"Monster dice {' and '.join(map(str, faces))}")
        if turned:
            lines.append(turned)
        a = dataclasses.replace(a, dice=dice, first_dice=dice, lines=tuple(lines))
        state = _set(state, a)
        return step_c(state) if a.combat else state
    dice = list(a.dice)
    for i, v in zip(a.reroll, faces):
        dice[i] = v
    # Air turns two-dice rolls only, unless air_single (ambiguities.md)
    dice_t, turned = _air(state, tuple(dice)) if len(a.reroll) == 2 or state.config.air_single else (tuple(dice), "")
    lines.append(f"re-rolled {' and '.join(map(str, faces))}" + (f"; {turned}" if turned else ""))
    a = dataclasses.replace(a, dice=dice_t, reroll=(), reroll_why="", step="response", lines=tuple(lines))
    return gaar_loop(_set(state, a))


def combat_die(state: EuState, face: int) -> EuState:
    """The Combat die read in step B (face 1..6, its symbols from the ``combat_die`` values).

    Raises:
        Refused: step B is over, or the face is not 1..6.
    """
    a = attack_of(state)
    if a.step != "roll" or a.combat:
        raise Refused("the Combat die was read already for this Monster Attack")
    faces = state.config.combat_die
    if not 1 <= face <= len(faces):
        raise Refused(f"the Combat die has faces 1..{len(faces)}, not {face}")
    symbols = faces[face - 1]
    a = dataclasses.replace(a, combat=face, lines=a.lines + (f"Combat die: {', '.join(symbols)}",))
    state = _set(state, a)
    return step_c(state) if a.dice else state


def combat_face(state: EuState, symbols: tuple[str, ...]) -> EuState:
    """The Combat die read by its symbols: the face of ``combat_die`` carrying the same symbols.

    Raises:
        Refused: no face carries those symbols (the message lists the faces), or as
            :func:`combat_die`.
    """
    faces = state.config.combat_die
    wanted = sorted(s.strip().lower() for s in symbols)
    for i, face in enumerate(faces):
        if sorted(face) == wanted:
            return combat_die(state, i + 1)
    known = "; ".join(f"{i + 1}: {'+'.join(face)}" for i, face in enumerate(faces))
    raise Refused(f"the Combat die has no face {'+'.join(wanted) or '(none)'} (its faces: {known})")


def step_c(state: EuState) -> EuState:
    """Step C's first three checks in order (Gaar, Silver, Chaos Actions), then the Gaar loop."""
    a, c = attack_of(state), state.combat
    symbols = state.config.combat_die[a.combat - 1]
    lines = list(a.lines)
    gaar = symbols.count("gaar")
    if gaar:
        lines.append(f"Gaar symbol: the Monster takes {gaar} Gaar token{'s' if gaar > 1 else ''}")
    silver = symbols.count("silver")
    if silver:
        lines.append(f"Silver card symbol: {silver} Silver card set aside for the cache after the attack")
    wanted = symbols.count("chaos") + c.extra_chaos
    n = caches.possible_actions(wanted, c.chaos, state.silver, state.gold)
    if wanted:
        lines.append(f"Chaos Actions: {wanted} wanted, {n} possible ({c.chaos} Chaos tokens, "
                     f"{state.gold} Gold and {state.silver} Silver cards in the caches)")
    a = dataclasses.replace(a, silver_later=a.silver_later + silver, lines=tuple(lines))
    state = _set(state, a, gaar=c.gaar + gaar)
    if n:
        run = caches.start(n, gold=state.gold, silver=state.silver)
        return _set(state, dataclasses.replace(a, step="reveal", chaos=run))
    return gaar_loop(_set(state, dataclasses.replace(a, step="response")))


def reveal(state: EuState, card: str) -> EuState:
    """One card revealed from the cache of the open Chaos-Action stack; completed stacks act.

    Raises:
        Refused: no card is awaited, or ``card`` is not a type of that cache in play.
    """
    a = attack_of(state)
    run = a.chaos
    if a.step != "reveal" or run is None or not run.cache:
        raise Refused("no Chaos-Action card is awaited now")
    types = state.config.cards[run.cache]
    if card not in types:
        raise Refused(f"{card!r} is no {run.cache.title()} card type in play; {run.cache.title()} cards: "
                      f"{', '.join(types)}")
    magic = run.cache == "silver" and (state.config.silver_magic_any or
                                        bool(card_of(state, a.enemy).get("silver_magic")))
    done = len(run.stacks)
    run, gold, silver, bottom = caches.reveal(run, card, gold=state.gold, silver=state.silver, bottom=state.bottom,
                                              silver_magic=magic, silver_bottom=state.config.silver_bottom)
    state = dataclasses.replace(state, gold=gold, silver=silver, bottom=bottom)
    state = _set(state, dataclasses.replace(a, chaos=run, lines=a.lines + (f"revealed {types[card]['name']}",)))
    for cache, cards, by_magic in run.stacks[done:]:
        state = apply_stack(state, cache, cards, by_magic)
    a = attack_of(state)
    if not a.chaos.cache:
        moved = "".join(f"; {k} to the bottom of the {w.title()} cache" for w, k in a.chaos.to_bottom)
        a = dataclasses.replace(a, step="response", lines=a.lines + (f"{len(a.chaos.stacks)} Chaos "
                                f"Action{'s' if len(a.chaos.stacks) != 1 else ''} performed{moved}",))
        return gaar_loop(_set(state, a))
    return state


def apply_stack(state: EuState, cache: str, cards: tuple[str, ...], magic: bool) -> EuState:
    """One completed stack: a Chaos token leaves the Pool and the box of its size acts
    (the second box for Silver Magic, l.562-569)."""
    a, c = attack_of(state), state.combat
    kind = cards[0]
    data = state.config.cards[cache][kind]
    count = 2 if magic else len(cards)
    box = data["boxes"][min(count, len(data["boxes"])) - 1]
    lines = list(a.lines) + [f"stack: {len(cards)} × {data['name']}" + (" (Silver Magic: second box)" if magic else "")]
    state = _set(state, a, chaos=c.chaos - 1)
    a = attack_of(state)
    if data.get("creature"):
        creatures, new = wounds.play(state.combat.creatures, kind, cache, count, data["health"], a.number)
        lines.append(f"{data['name']} {'enters' if new else 'grows'}: Health "
                     f"{sum(x.health - x.damage for x in creatures if x.kind == kind)}")
        state = _set(state, creatures=creatures)
        a = dataclasses.replace(a, silver_later=a.silver_later + box.get("draw_silver", 0))
        return _set(state, dataclasses.replace(a, lines=tuple(lines)))
    if box.get("cv"):
        a = dataclasses.replace(a, cv_mods=a.cv_mods + ((box["cv"], data["name"]),))
    if box.get("injuries"):
        a = dataclasses.replace(a, injury_mods=a.injury_mods + ((box["injuries"], data["name"], ""),))
    a = dataclasses.replace(a, silver_later=a.silver_later + box.get("draw_silver", 0))
    state = _set(state, a)
    if box.get("heal"):
        e = state.combat.enemies[a.enemy]
        healed = wounds.heal(e, box["heal"])
        lines.append(f"{e.name} healed by {box['heal']}: Damage {e.damage} → {healed.damage}"
                     + (f", Monster Healing token {healed.healing}" if healed.healing else ""))
        state = dataclasses.replace(state, combat=put_enemy(state.combat, a.enemy, healed))
    for _ in range(box.get("steal_gaar", 0)):
        h = state.hero(a.targets[0])
        if h.gaar:
            state = put_hero(state, dataclasses.replace(h, gaar=h.gaar - 1))
            state = _set(state, gaar=state.combat.gaar + 1)
            lines.append(f"{data['name']}: a Gaar token taken from {h.name}")
    return _set(state, dataclasses.replace(attack_of(state), lines=tuple(lines)))


def gaar_needed(state: EuState, attack: Attack) -> int | None:
    """Index of the Monster die the Gaar loop re-rolls next (the lowest, the first if tied), or
    ``None``: the Combat Value reaches the highest range, no die shows 1-3, or no Gaar is left."""
    if not attack.dice or state.combat.gaar <= 0 or combat_value(state, attack) >= top_range(state, attack):
        return None
    low = min(attack.dice)
    if low > LOW and (state.config.gaar_tests == "every" or not attack.looping):
        return None
    return attack.dice.index(low)


def gaar_loop(state: EuState) -> EuState:
    """Step C 4: spend a Gaar token and name the die to re-roll, or go on to the Hero's response."""
    a = attack_of(state)
    i = gaar_needed(state, a)
    if i is None:
        if a.looping or a.step != "response":
            a = dataclasses.replace(a, looping=False, step="response")
        return _set(state, a)
    cv, top = combat_value(state, a), top_range(state, a)
    tied = len(a.dice) == 2 and a.dice[0] == a.dice[1]
    why = (f"Combat Value {cv} is below {top}, the highest range; the die shows {a.dice[i]} (1-3); "
           f"{state.combat.gaar} Gaar: one spent (+2)" + ("; either die: tied" if tied else
                                                         ("; the lower die" if len(a.dice) == 2 else "")))
    a = dataclasses.replace(a, gaar_spent=a.gaar_spent + 1, reroll=(i,), reroll_why=why,
                            step="reroll", looping=True, lines=a.lines + (f"Gaar spent: re-roll the {a.dice[i]}",))
    return _set(state, a, gaar=state.combat.gaar - 1)


def hero_reroll(state: EuState, hero: str, dice: tuple[int, ...], why: str) -> EuState:
    """The Hero has Monster dice re-rolled in the response (a Gaar token, Cyclone): awaits them.

    Raises:
        Refused: not in the Hero's response, or a die index that is not a Monster die.
    """
    a = attack_of(state)
    if a.step != "response":
        raise Refused(f"the Hero responds after the Monster's re-rolls (now: {a.step})")
    if not dice or any(not 0 <= i < len(a.dice) for i in dice) or len(set(dice)) != len(dice):
        raise Refused(f"Monster dice are numbered 0..{len(a.dice) - 1}, got {list(dice)}")
    return _set(state, dataclasses.replace(a, step="reroll", reroll=tuple(dice),
                                           reroll_why=f"{state.hero(hero).name}: {why}", looping=False))


def modify(state: EuState, hero: str, cv: int, injuries: int, why: str) -> EuState:
    """A response changing the Combat Value or the Injuries inflicted on ``hero``; the Gaar loop
    is checked again (step C 5: a Hero tile effect can restart it)."""
    a = attack_of(state)
    if a.step not in ("response",):
        raise Refused(f"the Hero responds after the Monster's re-rolls (now: {a.step})")
    if cv:
        a = dataclasses.replace(a, cv_mods=a.cv_mods + ((cv, why),))
    if injuries:
        a = dataclasses.replace(a, injury_mods=a.injury_mods + ((injuries, why, hero),))
    return gaar_loop(_set(state, a))
