"""A Hero's attack (actions 4-6, pp.14-19): building both sides' numbers from cards, items, tokens
and Rituals, resolving with :mod:`.combat`, and applying the Power and Skill texts that change
numbers or state (pp.32-43, errata).

A Power used face down for combat activates its text when it is Common or a Curse; a Spell
face up activates its text; a Power played under a Skill gives only its values (p.19 Powers and Skills).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

from arena_table.rules.kernel.errors import Refused

from . import catalog
from .arena import allies, area_safe, auto_damage, finish, require_actor, spend_gem
from .combat import Result, Side, resolve
from .events import Attack
from .mats import (add_gems, alive_hero, clear_tokens, damage, damage_type, discard_from_hand, equipped, heal,
                   mitigation, name, place_token, play_card, power, power_values, remove, remove_gems, take_back,
                   tokens_on)
from .ranking import move_up, swap_down
from .reach import check_guard, check_range
from .state import ALL_ITEMS, MAX_HEALTH, ThState, replace_hero, replace_player

AREA_SKILLS = ("ring", "line", "cone", "all")
HEAL_SPELLS = ("healing", "cleansing-rain", "resurrection", "ungrave")


def text_active(pid: str, *, skill: str = "", spell: bool = False) -> bool:
    kind = power(pid)["type"]
    return not skill and (kind in ("common", "curse") or (kind == "spell" and spell))


def skill_effects(skill: str) -> list[str]:
    return list(catalog.skills()[skill].get("effects", ())) if skill else []


def has_shield(state: ThState, hero_id: str) -> bool:
    return any(i["kind"] == "shield" for i in equipped(state, hero_id))


def attack_side(state: ThState, ev: Attack, card: str, target: str, *, vs_monster: bool = False,
                defender_card: str = "", defender_skill: str = "", values_card: str = ""
                ) -> tuple[ThState, Side, dict[str, Any]]:
    """The attacker's total Attack (Attack and Defense p.16, Monster Defense) and what the texts decided on the way.

    ``values_card`` replaces the card's values only (an opponent's Oppress/Confusion, p.40).
    """
    a_val, d_val = power_values(state, values_card or card)
    notes: dict[str, Any] = {}
    active = text_active(card, skill=ev.skill, spell=ev.spell)
    raised = ev.choice.get("raise")
    if card == "raise-the-dead" and active and raised:
        if raised not in state.player(state.heroes[ev.hero].player).discard:
            raise Refused(f"{name(state, raised)} is not in the discard pile")
        a_val, d_val = power_values(state, raised)
    rec = power(card)
    if vs_monster and rec.get("monster_values") and (active or card == "warcraft"):
        a_val = rec["monster_values"][0]
    if active and rec.get("boost_hero") == ev.hero and ev.spell:
        a_val = 4
    if card == "bloodthirst" and active and ev.choice.get("bloodthirst"):
        a_val = 5
        notes["bloodthirst"] = True
    if card == "lightning-strike" and active and not vs_monster and any(
            i.get("metal") and "physical" in i.get("protection", ()) for i in equipped(state, target)):
        a_val = 5
    value = d_val if "use-defense-value" in skill_effects(ev.skill) else a_val
    if "d4-attack" in skill_effects(ev.skill):  # Chocking: a d4 replaces the card's Attack (errata p.34)
        value = _d4(ev.choice.get("d4"), "Chocking")
    if defender_card and not defender_skill and defender_card == "equalize":
        value = 1
    bonuses: list[tuple[str, int]] = []
    art = sum(int(i.get("attack", 0)) for i in equipped(state, ev.hero) if i["kind"] == "weapon" and i.get("artifact"))
    if art:
        bonuses.append(("artifact", art))
    if ev.skill:
        bonus = int(catalog.skills()[ev.skill]["bonus"])
        for eff in skill_effects(ev.skill):
            if eff.startswith("bonus-if-no-shield") and not vs_monster and not has_shield(state, target):
                bonus += int(eff.split(":")[1])
        if bonus:
            bonuses.append(("skill", bonus))
    if "valor" in tokens_on(state, ev.hero):
        bonuses.append(("Valor", 1))
    if on_banner(state, ev.hero):  # a ``banner`` choice is checked against the board first (check_banner)
        bonuses.append(("Banner of Victory", 1))
    if "terror" in tokens_on(state, ev.hero):
        bonuses.append(("Terror", -1))
    return state, Side(name(state, ev.hero), value, tuple(bonuses), state.rank_of(ev.hero)), notes


def on_banner(state: ThState, hero_id: str) -> bool:
    """Banner of Victory (p.45): +1 Attack to a Hero "occupying one of the other three Hexes"."""
    cell = state.heroes[hero_id].cell
    return bool(cell) and cell in state.ritual_cells.get("banner-of-victory", ())


def check_banner(state: ThState, ev: Attack) -> None:
    """A ``banner`` choice claims the Banner's +1 (p.45): refused unless the token is in the Arena and the
    attacker stands on one of its hexes; the bonus itself comes from the board."""
    if not ev.choice.get("banner") or on_banner(state, ev.hero):
        return
    if "banner-of-victory" not in state.ritual_cells:
        raise Refused("no Banner of Victory in the Arena: it gives +1 Attack only to a Hero on its hexes (p.45)")
    where = state.heroes[ev.hero].cell
    raise Refused(f"{name(state, ev.hero)} does not stand on the Banner of Victory "
                   f"({list(where) if where else 'not in the Arena'}; the Banner covers "
                   f"{', '.join(str(list(c)) for c in state.ritual_cells['banner-of-victory'])}) (p.45)")


def _d4(value: Any, what: str) -> int:
    if not isinstance(value, int) or not 1 <= value <= 4:
        raise Refused(f"{what} rolls a d4: enter its face as choice d4/defense_d4 (1-4)")
    return value


def defense_side(state: ThState, target: str, card: str, dskill: str, attacker_card: str, attacker_active: bool,
                 *, vs_monster: bool = False, d4: Any = None, raised: Any = None) -> Side:
    """The defender's total Defense (p.16): Power, artifacts, Aegis, Fortifications, Poison.

    ``raised``: the card a defending Raise the Dead takes its values from (Appendix Powers: "When this Power is
    revealed ... use the Discarded Power's Attack value and Defense value"; errata p.16: the defender's texts too).
    """
    a_val, d_val = power_values(state, card)
    active = text_active(card, skill=dskill)
    if card == "raise-the-dead" and active and raised:
        if raised not in state.player(state.heroes[target].player).discard:
            raise Refused(f"{name(state, raised)} is not in the discard pile")
        a_val, d_val = power_values(state, raised)
    rec = power(card)
    if vs_monster and active and rec.get("monster_values"):
        d_val = rec["monster_values"][1]
    value = a_val if "defend-with-attack-value" in skill_effects(dskill) else d_val
    if "d4-defense" in skill_effects(dskill):  # Unearthly Beauty (errata p.34)
        value = _d4(d4, "Unearthly Beauty")
    if attacker_active and attacker_card == "equalize":
        value = 1
    bonuses: list[tuple[str, int]] = []
    art = sum(int(i.get("defense", 0)) for i in equipped(state, target)
              if i["kind"] in ("armor", "shield") and i.get("artifact"))
    if art:
        bonuses.append(("artifact", art))
    if "aegis" in tokens_on(state, target):
        bonuses.append(("Aegis", 1))
    h = state.heroes[target]
    if h.cell and h.cell in state.ritual_cells.get("fortifications", ()):
        bonuses.append(("Fortifications", 1))
    if "poison" in tokens_on(state, target):
        bonuses.append(("Poison", -1))
    return Side(name(state, target), value, tuple(bonuses), state.rank_of(target))


def weapons_of(state: ThState, hero_id: str) -> tuple[tuple[int, str | None], ...]:
    return tuple((int(i.get("damage", 0)), i.get("damage_type")) for i in equipped(state, hero_id)
                 if i["kind"] == "weapon")


def attack_type(state: ThState, ev: Attack, card: str, target: str | None = None) -> str:
    if ev.skill:
        sk = catalog.skills()[ev.skill]
        if "fire-if-no-shield" in sk.get("effects", ()) and target in state.heroes and not has_shield(state, target):
            return "fire"
        return sk["type"] or "physical"
    return damage_type(state, card)


def attack(state: ThState, ev: Attack, vs_monsters: Callable[[ThState, Attack, str], ThState]) -> ThState:
    """Resolve a Hero's attack on heroes; an attack on monsters, once checked, goes on in
    ``vs_monsters(state, ev, card)`` (:func:`.monsters.hero_attacks_monsters`, which needs this module)."""
    require_actor(state, ev.hero)
    me = state.heroes[ev.hero]
    check_banner(state, ev)
    card = ev.power or state.pad_powers.get("attacker", "")
    if not card:
        raise Refused("name the Power played for the attack (or lay it on the attacker pad)")
    rec = power(card)
    if ev.spell and rec["type"] != "spell":
        raise Refused(f"{rec['name']} is not a Spell")
    if ev.spell and card in HEAL_SPELLS:
        return heal_spell(state, ev, card)
    if "pacify" in tokens_on(state, ev.hero):
        raise Refused(f"{name(state, ev.hero)} is Pacified and cannot attack (p.39)")
    if not ev.target:
        raise Refused("an attack needs a target")
    unknown = [t for t in ev.target if t not in state.heroes and all(m.id != t for m in state.monsters)]
    if unknown:
        raise Refused(f"no hero or monster {unknown[0]!r} in this game")
    area = ev.spell or (ev.skill and catalog.skills()[ev.skill]["area"] in AREA_SKILLS) or (
        card == "lightning-strike" and all(t not in state.heroes for t in ev.target))  # hits all monsters (p.24)
    if len(ev.target) > 1 and not area:
        raise Refused("only Spells and Ring, Line or Cone Skills attack more than one target")
    if ev.hero in ev.target:  # an attack is between an Attacker and a Defender (p.16); friendly fire hits "your other Heroes" (p.14)
        raise Refused(f"{name(state, ev.hero)} cannot attack itself")
    if not (card == "lightning-strike" and area and not ev.skill and not ev.spell):  # all monsters (p.24)
        check_range(state, ev.hero, ev.target, skill=ev.skill, spell=ev.spell)
    if ev.skill:
        sk = catalog.skills().get(ev.skill)
        if not sk or sk["kind"] != "attack":
            raise Refused(f"{ev.skill!r} is not an attack skill")
        if not (ev.skill == "northern-twin-strike" and state.follow_up == ev.hero):
            state = spend_gem(state, ev.hero, ev.skill)
    mons = [t for t in ev.target if t not in state.heroes]
    if mons:
        if len(mons) != len(ev.target):
            raise Refused("attack heroes and monsters separately")
        for t in mons:  # Quietus: Flying Terror / Shadow in Darkness (Monster Stat Blocks)
            check_guard(state, ev.hero, t, area=bool(area), skill=ev.skill)
        return vs_monsters(state, ev, card)
    for t in ev.target:
        alive_hero(state, t)
        if area and area_safe(state, t):
            raise Refused(f"{name(state, t)} stands on a starting triad: safe from area attacks on turn 1 "
                           "(errata p.14)")
        if ev.spell and spell_warded(state, t) and state.team_of(t) != state.team_of(ev.hero):
            raise Refused(f"{name(state, t)} is warded against enemy Spells: a Spell Ward of "
                           f"{name(state, t)}'s side was revealed (p.38, errata p.38)")
        if state.heroes[t].stealth and not area:
            raise Refused(f"{name(state, t)} is in Stealth: only area attacks reach her")
    defend = ev.defend or ((state.pad_powers["defender"],) if "defender" in state.pad_powers else ())
    if len(defend) != len(ev.target):
        raise Refused(f"each target defends with one Power: {len(ev.target)} target(s), {len(defend)} defence(s)")
    by_player: dict[str, list[str]] = {}
    for t, d in zip(ev.target, defend):
        by_player.setdefault(state.heroes[t].player, []).append(d)
    for pid, cards in by_player.items():
        if len(set(cards)) != len(cards):
            raise Refused(f"{pid}'s heroes must defend with different Powers (p.16)")
    # The attacker's Power is laid first, then one defence per target in the order assigned; a
    # player who uses the last Power in hand takes the discards back at once, the last card staying
    # (Power Management, p.16 Area Attacks: "so you can always defend", FAQ).
    scratch = play_card(state, me.player, card)
    for t, d in zip(ev.target, defend):
        scratch = play_card(scratch, state.heroes[t].player, d)
    dskills = ev.defense_skill or ("",) * len(ev.target)
    if len(dskills) != len(ev.target):
        raise Refused("defense_skill lists one Skill (or '') per target")
    for t, dsk in zip(ev.target, dskills):
        if dsk:
            if catalog.skills().get(dsk, {}).get("kind") != "defense":
                raise Refused(f"{dsk!r} is not a Defense skill")
            if "pacify" in tokens_on(state, t) and any(e == "counter" or e.startswith("reflect-half")
                                                        for e in skill_effects(dsk)):
                raise Refused(f"{name(state, t)} is Pacified: {catalog.skills()[dsk]['name']} would inflict Damage "
                               "on other Heroes (p.39)")
            state = spend_gem(state, t, dsk)  # a Skill's text costs its Mana gem (p.14)
    order = sorted(range(len(ev.target)), key=lambda i: state.rank_of(ev.target[i]))
    if len(ev.target) > 1 and any(k in ev.choice for k in ("tactics", "replace", "defender_tactics",
                                                             "replace_attacker")):
        raise Refused("card switches (Tactics, Oppress, Confusion) are entered for single-target attacks only")
    twin = ev.skill == "northern-twin-strike"
    lines, results, extra, discards = [], [], False, []
    for i in order:
        state, res, result_text, more = one_attack(state, ev, card, ev.target[i], defend[i], dskills[i])
        discards += more
        if len(ev.target) > 1:
            lines.append(f"{name(state, ev.target[i])}: {res.text}")
        else:
            lines.extend(res.lines)
        results.append(result_text)
    if state.heroes[ev.hero].stealth:  # attacking ends Stealth (Appendix Skills: Stealth)
        state = replace_hero(state, dataclasses.replace(state.heroes[ev.hero], stealth=False))
    state = play_card(state, me.player, card)
    for t, d in zip(ev.target, defend):
        state = play_card(state, state.heroes[t].player, d)
    for pid, c in discards:
        state = play_card(state, pid, c)
    if ("extra-turn" in skill_effects(ev.skill) or twin) and state.follow_up != ev.hero:
        extra = True  # Celerity: a complete additional turn; Twin Strike: a second attack (Appendix Skills)
    state = dataclasses.replace(state, follow_up=ev.hero if extra else "")
    for eff in skill_effects(ev.skill):
        if eff.startswith("gain-mana:"):
            state = add_gems(state, ev.hero, 1, eff.split(":")[1])
    title = f"{name(state, ev.hero)} attacks {', '.join(name(state, t) for t in ev.target)}"
    with_what = catalog.skills()[ev.skill]["name"] if ev.skill else power(card)["name"]
    state = dataclasses.replace(state, last_action={
        "title": f"{title} with {with_what}", "lines": lines, "result": "; ".join(r for r in results if r)})
    return finish(state, ev.hero, extra_turn=extra)


def swaps(state: ThState, ev: Attack, card: str, target: str, dcard: str, dskill: str
          ) -> tuple[str, str, str, str, list[tuple[str, str]]]:
    """Cards replaced after the reveal, attacker's text first (p.19): Tactics (p.38) swaps its own
    card; Oppress/Confusion (p.40) swap the opponent's (attacking: values and text; defending:
    values only). Returns (attacker text card, attacker values card, defender text card, defender
    values card, extra (player, card) discards)."""
    a_text = a_vals = card
    d_text = d_vals = dcard
    extra: list[tuple[str, str]] = []
    pa, pd = state.heroes[ev.hero].player, state.heroes[target].player

    def take(player: str, new: Any, instead_of: str) -> str:
        if new == instead_of or new not in state.player(player).hand:
            raise Refused(f"{player} cannot switch to {new!r}: it must be another card in hand")
        extra.append((player, new))
        return new

    if text_active(card, skill=ev.skill, spell=ev.spell):
        if card == "tactics" and ev.choice.get("tactics"):
            a_text = a_vals = take(pa, ev.choice["tactics"], card)
        if a_text in ("oppress", "confusion") and ev.choice.get("replace"):
            d_text = d_vals = take(pd, ev.choice["replace"], dcard)
    if text_active(d_text, skill=dskill):
        if d_text == "tactics" and ev.choice.get("defender_tactics"):
            d_text = d_vals = take(pd, ev.choice["defender_tactics"], d_text)
        if d_text in ("oppress", "confusion") and ev.choice.get("replace_attacker"):
            a_vals = take(pa, ev.choice["replace_attacker"], a_text)
    return a_text, a_vals, d_text, d_vals, extra


def counter_attack(state: ThState, ev: Attack, card: str, target: str, dcard: str, dskill: str
                   ) -> tuple[ThState, Result, str]:
    """Counter Attack / Arrow Retaliation: the defender attacks with its defence Power; the attacker
    defends with its attack Power (Appendix Skills)."""
    counter = Attack(hero=target, target=(ev.hero,), power=dcard, skill=dskill)
    state, a_side, _ = attack_side(state, counter, dcard, ev.hero)
    d_side = defense_side(state, ev.hero, card, "", "", False)
    prot, res = mitigation(state, ev.hero)
    result = resolve(a_side, d_side, weapons=weapons_of(state, target), damage_type=attack_type(state, counter, dcard),
                     protect=prot, resist=res)
    result = dataclasses.replace(result, lines=(f"{catalog.skills()[dskill]['name']}",) + result.lines)
    before = state.heroes[ev.hero].health
    if result.hit:
        state = damage(state, ev.hero, result.damage)
    return state, result, f"{name(state, ev.hero)} {before} → {state.heroes[ev.hero].health}" if result.hit else ""


def one_attack(state: ThState, ev: Attack, card: str, target: str, dcard: str, dskill: str
               ) -> tuple[ThState, Result, str, list[tuple[str, str]]]:
    """One attacker-defender combat with every text applied.

    Returns (state, result, ``"Rac 9 → 8"``, extra cards to discard).
    """
    if "counter" in skill_effects(dskill):
        return (*counter_attack(state, ev, card, target, dcard, dskill), [])
    card, a_vals, dcard, d_vals, extra = swaps(state, ev, card, target, dcard, dskill)
    active = text_active(card, skill=ev.skill, spell=ev.spell)
    d_active = text_active(dcard, skill=dskill)
    if active and card == "spell-ward":  # a Common Power's text activates when revealed (p.15)
        state = ward(state, ev.hero)
    if d_active and dcard == "spell-ward":  # defenders activate texts too (errata p.16)
        state = ward(state, target)
    state, a_side, notes = attack_side(state, ev, card, target, defender_card=dcard if d_active else "",
                                       defender_skill=dskill, values_card=a_vals)
    if notes.get("bloodthirst"):
        state = damage(state, ev.hero, 3)  # the attack continues even below one Health (p.38)
    # the defender's Raise the Dead card: ``defender_raise``, or ``raise`` when the attacker's text does not use it
    d_raise = ev.choice.get("defender_raise") or (
        None if active and card == "raise-the-dead" else ev.choice.get("raise"))
    d_side = defense_side(state, target, d_vals, dskill, card, active, d4=ev.choice.get("defense_d4"), raised=d_raise)
    prot, res = mitigation(state, target)
    if d_active:
        prot |= set(power(dcard).get("defense_protection", ()))
    for eff in skill_effects(dskill):
        if eff.startswith("protect:"):
            prot |= set(eff.split(":")[1].split(","))
    effects = skill_effects(ev.skill)
    me = state.heroes[ev.hero]
    fixed = (MAX_HEALTH - me.health) if "damage-taken" in effects else None
    result = resolve(a_side, d_side, weapons=weapons_of(state, ev.hero), damage_type=attack_type(state, ev, card, target),
                     protect=prot, resist=res, remainder=ev.choice.get("remainder"),
                     weapon_factor=2 if "double-weapon" in effects else 1,
                     unmitigated={"physical"} if "unmitigated" in effects else set(),
                     despair=d_active and dcard == "despair", fixed=fixed)
    state, result, text = _after(state, ev, card, target, dcard, dskill, result, active, d_active, effects)
    return state, result, text, extra


def _after(state: ThState, ev: Attack, card: str, target: str, dcard: str, dskill: str, result: Result,
           active: bool, d_active: bool, effects: list[str]) -> tuple[ThState, Result, str]:
    """Apply a resolved combat: damage and every text triggered by the hit or the held defence."""
    me = state.heroes[ev.hero]
    before = state.heroes[target].health
    if result.hit and "negate-curse-attack" in skill_effects(dskill) and active and power(card)["type"] == "curse":
        result = dataclasses.replace(result, hit=False, damage=0, lines=result.lines + ("negated by Crystal Soul",))
    if "burn-attacker-mana:2" in skill_effects(dskill):  # Profane Armor: once attacked, hit or not (Appendix Skills)
        state = remove_gems(state, ev.hero, 2)
    if not result.hit:
        if d_active and dcard == "last-stand":
            state = move_up(state, target)
        return state, result, ""
    dmg = result.damage
    kill = "kill" in effects or ("kill-if-stealth" in effects and me.stealth)
    if kill:
        state = remove(state, target)
        return state, dataclasses.replace(result, lines=result.lines + ("killed instead of damaged",)), \
            f"{name(state, target)} {before} → slain"
    if (active and card == "lifeswap") or (d_active and dcard == "lifeswap"):
        a, t = state.heroes[ev.hero], state.heroes[target]
        state = replace_hero(replace_hero(state, dataclasses.replace(a, health=t.health)),
                             dataclasses.replace(t, health=a.health))
        result = dataclasses.replace(result, lines=result.lines + ("Lifeswap exchanges Health first",))
        before = state.heroes[target].health
    state = damage(state, target, dmg)
    after = state.heroes[target].health
    if d_active and dcard == "pain-spike":
        state = damage(state, ev.hero, dmg // 2)
    for eff in skill_effects(dskill):
        if eff.startswith("regenerate") and state.heroes[target].alive:
            state = heal(state, target, int(eff.split(":")[1]))
        if eff.startswith("reflect-half"):
            state = auto_damage(state, ev.hero, dmg // 2, "void")
    if "heal-dealt" in effects:
        state = heal(state, ev.hero, before - after)
    if "remove-blessings" in effects or (active and card == "damnation"):
        state = clear_tokens(state, target, "blessing")
    if "steal-mana-on-hit" in effects and state.heroes[target].mana:
        state = add_gems(remove_gems(state, target, 1), ev.hero, 1)
    flip = (("weapon",) if "flip-weapons" in effects else ()) + (("armor", "shield") if "flip-armor" in effects else ())
    if flip:  # Sunder Weapon flips the Weapons, Sunder Armor the Armor and Shield, after damage (Appendix Skills, FAQ)
        t = state.heroes[target]
        if ALL_ITEMS not in t.items_off:  # Flesh and Blood has every item face down already
            off = tuple(dict.fromkeys(t.items_off + flip))
            state = replace_hero(state, dataclasses.replace(t, items_off=off))
    if "swap-positions" in effects:
        a, t = state.heroes[ev.hero], state.heroes[target]
        state = replace_hero(replace_hero(state, dataclasses.replace(a, cell=t.cell)),
                             dataclasses.replace(t, cell=a.cell))
    if active and state.heroes[target].alive:
        state = power_text_on_hit(state, ev, card, target)
    return state, result, f"{name(state, target)} {before} → {after}"


def power_text_on_hit(state: ThState, ev: Attack, card: str, target: str) -> ThState:
    """Texts of a victorious attacking Power (pp.38-43)."""
    if power(card)["type"] == "curse":
        return place_token(state, card, target)
    if card == "warcraft":
        return swap_down(state, target)
    if card == "enervation":
        return remove_gems(state, target, 99)
    if card in ("blind", "neutralize") and ev.choice.get("discard"):
        return discard_from_hand(state, state.heroes[target].player, ev.choice["discard"])
    return state


def ward(state: ThState, hero_id: str) -> ThState:
    """Spell Ward's text activated for ``hero_id``'s player (p.38, errata p.38: "neither this Hero
    nor any other allied Heroes can be affected by an enemy's Spell Power"). The text names no end,
    so the ward lasts; a Spell that attacked before the ward was revealed, the very Spell it is
    revealed against included, is not affected."""
    p = state.player(state.heroes[hero_id].player)
    return state if p.spell_ward else replace_player(state, dataclasses.replace(p, spell_ward=True))


def spell_warded(state: ThState, hero_id: str) -> bool:
    """A Spell Ward of the Hero's side is active: its own player's or an allied player's, since
    texts that affect Allied Heroes affect all Heroes of a team (p.20 Team vs Team)."""
    team = state.team_of(hero_id)
    return any(p.spell_ward for p in state.players if p.team == team)


def heal_spell(state: ThState, ev: Attack, card: str) -> ThState:
    """Healing, Cleansing Rain, Resurrection and Ungrave used face up as Spells (pp.39-42)."""
    me = state.heroes[ev.hero]
    friends = allies(state, ev.hero)
    if card == "healing":
        for t in friends:
            state = heal(state, t, 4)
    elif card == "cleansing-rain":
        for t in friends:
            state = clear_tokens(heal(state, t, 1), t, "curse")
    elif card == "resurrection":
        t = ev.target[0] if ev.target else ""
        h = state.heroes.get(t)
        if h is None:
            raise Refused("Resurrection names a hero (fallen: back at 4 Health; living ally: one Mana gem)")
        if not h.alive:
            if h.no_resurrect:
                raise Refused(f"{name(state, t)} cannot be resurrected")
            state = replace_hero(state, dataclasses.replace(h, alive=True, health=4, mana=(), flipped=False))
            if t not in state.ranking:
                state = dataclasses.replace(state, ranking=state.ranking + (t,))
        else:
            state = add_gems(state, t, 1)
    elif card == "ungrave":
        pick = ev.choice.get("take")
        if pick:
            state = take_back(state, me.player, pick)
    state = play_card(state, me.player, card)
    state = dataclasses.replace(state, last_action={"title": f"{name(state, ev.hero)} casts {power(card)['name']}",
                                                    "lines": [power(card)["text"]], "result": ""})
    return finish(state, ev.hero)
