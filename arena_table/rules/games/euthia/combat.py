"""A Combat: setting it up, resolving the Monster's attacks, the Heroes' damage, death and rewards.

Combat Setup (Fellowship, l.946-957; Playing with Fire follows the same steps for one Monster):
the Monster cards are laid left to right (a Fellowship card may add one), their Silver and Gold
cards join the caches, their Gaar and Chaos tokens form the Combat Pool, and the round's
Fellowship card adds its bar, extra Health, extra Injuries and an extra Chaos Action. Enemies
attack left to right (l.943); a joint Combat has two Heroes (l.926-934); Death of a Hero costs
1 Reputation in Fellowship (l.962-964); rewards of a joint Combat are halved (l.965-971, see
:mod:`.fellowship`).
"""

from __future__ import annotations

import dataclasses

from . import caches, fellowship, monster_attack as ma, wounds
from .state import Combat, Enemy, EuState, Refused, notice, put_enemy, put_hero

DECKS = {"normal": ("base",), "hard": ("base", "fierce"), "heroic": ("fierce",)}
"""Monster decks each difficulty draws from (Monster Cards, Setup, l.555-558); Minions and Elite
Monsters are fought at any difficulty."""


def setup_combat(state: EuState, enemies: tuple[str, ...], heroes: tuple[str, ...], power: str,
                 familiar: str) -> EuState:
    """The state once a Combat is set up (Combat Setup, l.946-957).

    Raises:
        Refused: a Combat is under way, an unknown card or one outside the difficulty's decks, a
            Hero not at the table or dead, two Heroes in Playing with Fire, more than two in a
            joint Combat (l.928), or Enemies that do not match the Fellowship card.
    """
    if state.combat is not None and not state.combat.over:
        raise Refused("a Combat is under way; only one Combat takes place at a time (l.881)")
    cfg = state.config
    if power not in ("", "air", "earth", "corrupted"):
        raise Refused(f"power is air, earth, corrupted or empty, not {power!r}")
    if familiar not in ("", "air", "earth"):
        raise Refused(f"familiar (Hawk Spirit's Power) is air, earth or empty, not {familiar!r}")
    for h in heroes:
        state.hero(h)
    if not heroes or len(set(heroes)) != len(heroes) or len(heroes) > (2 if cfg.mode == "fellowship" else 1):
        raise Refused("one Hero fights" + (", or two in a joint Combat (l.928)" if cfg.mode == "fellowship" else
                                           " in Playing with Fire"))
    if not enemies:
        raise Refused("name the Monster card(s) revealed, left to right")
    card = state.round.card if state.round else {}
    for e in enemies:
        if e not in cfg.monsters:
            raise Refused(f"unknown Monster card {e!r}; cards: {', '.join(sorted(cfg.monsters))}")
        deck = cfg.monsters[e].get("deck", "base")
        if deck in ("base", "fierce") and deck not in DECKS[cfg.difficulty]:
            raise Refused(f"{cfg.monsters[e]['name']} is a {deck} card, not in the {cfg.difficulty} decks "
                          f"(Monster Cards, Setup)")
    extra = card.get("enemy", "")
    if str(extra).isdigit() and len(enemies) != 2:
        raise Refused(f"this round's Fellowship card adds a Level {extra} Monster to the right: name both cards")
    if not str(extra).isdigit() and len(enemies) != 1:
        raise Refused("one Monster card is fought (the Fellowship card adds no Monster this round)")
    health = card.get("health", 0)
    line = tuple(Enemy(card=e, name=cfg.monsters[e]["name"], health=cfg.monsters[e]["health"] + health)
                 for e in enemies)
    silver = sum(cfg.monsters[e].get("silver", 0) for e in enemies) + card.get("silver", 0)
    gold = sum(cfg.monsters[e].get("gold", 0) for e in enemies) + card.get("gold", 0)
    s, g, _ = caches.add(state.silver, state.gold, silver, gold, cfg.convert_repeat)
    combat = Combat(enemies=line, heroes=tuple(heroes), power=power, familiar=familiar,
                    gaar=sum(cfg.monsters[e].get("gaar", 0) for e in enemies) + card.get("gaar", 0),
                    chaos=sum(cfg.monsters[e].get("chaos", 0) for e in enemies) + card.get("chaos", 0),
                    hope=cfg.die_of_hope_start, area=extra == "area", extra_injuries=card.get("injuries", 0),
                    extra_chaos=1 if card.get("chaos_action") else 0)
    return dataclasses.replace(state, combat=combat, silver=s, gold=g, last={})


def injure(state: EuState, hid: str, amount: int, in_combat: bool = True) -> EuState:
    """``amount`` Injuries on a Hero; at the Hero's Health the Hero dies (Death of a Hero, l.962)."""
    h = state.hero(hid)
    injuries = h.injuries + amount
    if injuries < h.health:
        return put_hero(state, dataclasses.replace(h, injuries=max(0, injuries)))
    return die(state, hid, in_combat=in_combat)


def die(state: EuState, hid: str, in_combat: bool) -> EuState:
    """A Hero dies: resurrected with no Injuries; in Fellowship 1 Reputation is lost instead of the
    Monster-player taking a Hero token, and 1 instead of 2 outside of Combat (l.962-964). The
    base game's other death steps are left to the table."""
    h = state.hero(hid)
    loss = 1 if state.config.mode == "fellowship" else (0 if in_combat else 2)
    state = put_hero(state, dataclasses.replace(h, injuries=0, reputation=max(0, h.reputation - loss),
                                                deaths=h.deaths + 1))
    state = draw(state, hid, gold=1)  # the Gold card drawn on resurrection joins the cache too (l.963)
    state = notice(state, f"{h.name} dies" + (f" and loses {loss} Reputation" if loss else ""))
    c = state.combat
    if in_combat and c is not None and hid in c.heroes:
        dead = c.dead + (hid,)
        state = dataclasses.replace(state, combat=dataclasses.replace(c, dead=dead))
    return state


def resolve(state: EuState) -> EuState:
    """The Hero's response is over: Shii's Intervention, the attack range reached, its Injuries and
    effects, then the Silver cards set aside join the cache (l.815).

    Raises:
        Refused: the attack still waits for dice, cards or a re-roll.
    """
    a = ma.attack_of(state)
    if a.step != "response":
        raise Refused({"roll": "the Monster dice and the Combat die are awaited first",
                       "reveal": "the Chaos-Action cards are awaited first",
                       "reroll": "the Monster die re-roll is awaited first"}[a.step])
    cfg, c = state.config, state.combat
    lines = list(a.lines)
    shii_dice = a.first_dice if cfg.shii == "first" else a.dice
    hope = c.hope
    if sum(shii_dice) >= ma.SHII:
        hope = min(cfg.die_of_hope_max, hope + 1)
        lines.append(f"Shii's Intervention: Monster dice {sum(shii_dice)} ≥ {ma.SHII}, Die of Hope {c.hope} → {hope}")
    cv = ma.combat_value(state, a)
    lines.append(f"Combat Value {ma.explain(state, a)}")
    found = ma.band(state, a, cv)
    enemy = c.enemies[a.enemy]
    state = dataclasses.replace(state, combat=dataclasses.replace(c, hope=hope))
    result = []
    if found is None:
        lines.append("below the first attack range: no Injuries")
        band = {}
    else:
        i, band = found
        lines.append(f"attack range {i + 1} of {len(cfg.monsters[enemy.card]['attacks'])} (from {band['min']}): "
                     f"{band.get('injuries', 0)} Injuries")
    base = band.get("injuries", 0)
    cards = sum(m for m, _, who in a.injury_mods if m > 0) + sum(m for m, _ in ma.creature_mods(state, a, "injuries"))
    for t in a.targets:
        raw = base + cards
        if raw >= 1 and c.extra_injuries:
            raw += c.extra_injuries  # the Monster Injury token needs at least 1 Injury (l.879)
        less = sum(m for m, _, who in a.injury_mods if m < 0 and who in ("", t))
        dealt = max(0, raw + less) if band else 0
        result.append(f"{state.hero(t).name} suffers {dealt} Injur{'y' if dealt == 1 else 'ies'}")
        state = injure(state, t, dealt)
    effects = band.get("effects", {})
    c = state.combat
    if effects.get("heal") and not c.enemies[a.enemy].defeated:
        healed = wounds.heal(c.enemies[a.enemy], effects["heal"], token=cfg.own_heal_token)
        result.append(f"{enemy.name} heals {effects['heal']}")
        c = put_enemy(c, a.enemy, healed)
    if effects.get("hero_damage"):
        for t in a.targets:
            c = dataclasses.replace(c, damage_next={**c.damage_next, t: c.damage_next.get(t, ()) + (
                (effects["hero_damage"], enemy.name),)})
        result.append(f"Hero Damage {effects['hero_damage']:+d} in the next Hero Attack")
    if effects.get("chaos"):
        c = dataclasses.replace(c, chaos=c.chaos + effects["chaos"])
        result.append(f"the Monster takes {effects['chaos']} Chaos token")
    add_s, add_g = effects.get("silver", 0) + a.silver_later, effects.get("gold", 0)
    if effects.get("silver"):
        result.append(f"the Monster takes {effects['silver']} Silver cards into the cache")
    s, g, n = caches.add(state.silver, state.gold, add_s, add_g, cfg.convert_repeat)
    if n:
        result.append(f"{4 * n} Silver cards → {n} Gold card{'s' if n > 1 else ''}")
    c = dataclasses.replace(c, attack=None, attacked=c.attacked + (a.enemy,))
    state = dataclasses.replace(state, combat=c if not state.combat.over else dataclasses.replace(
        state.combat, attack=None), silver=s, gold=g,
        last={"title": lines[0], "lines": lines[1:], "result": "; ".join(result), "cv": cv,
              "band": None if found is None else found[0] + 1})
    return state


def damage(state: EuState, hero: str, amount: int, target: str) -> EuState:
    """Damage a Hero deals: to an Enemy (``"0"``, ``"1"`` ... or ``""`` for the one attacked) or a
    Rotting creature (``rotting-fly``/``rotting-worm``), whose overflow goes to the Monster.
    A Monster's 'Damage dealt by the Hero is reduced by 1' applies to this attack (l.551)."""
    c = state.combat
    if c is None or c.over:
        raise Refused("no Combat is being fought")
    if hero not in c.heroes or hero in c.dead:
        raise Refused(f"{state.hero(hero).name} is not fighting in this Combat")
    if amount < 0:
        raise Refused("Damage dealt is 0 or more")
    adj = sum(m for m, _ in c.damage_next.get(hero, ()))
    dealt = max(0, amount + adj) if amount else 0
    living = [i for i, e in enumerate(c.enemies) if not e.defeated]
    if not living:
        raise Refused("every Enemy is defeated")
    if target in ("", "monster"):
        index = living[0]
    elif target.isdigit():
        index = int(target)
        if index not in living:
            raise Refused(f"Enemy {index} is not an undefeated Enemy")
    else:
        index = living[0]
    lines = [f"{state.hero(hero).name} deals {amount}" + (f" {adj:+d} = {dealt}" if adj and amount else "")]
    if target.startswith("rotting-"):
        found = [x for x in c.creatures if x.kind == target]
        if not found:
            raise Refused(f"no {target} is in play")
        creature, rest = wounds.hit_creature(found[0], dealt)
        creatures = tuple(x for x in c.creatures if x.kind != target) + ((creature,) if creature else ())
        lines.append(f"{target.replace('-', ' ').title()} " + ("defeated" if creature is None else
                     f"Health {creature.health - creature.damage}") + (f"; {rest} Damage to {c.enemies[index].name}"
                                                                         if rest else ""))
        c = dataclasses.replace(c, creatures=creatures)
        dealt = rest
    before = c.enemies[index]
    after = wounds.hit(before, dealt)
    c = put_enemy(c, index, after)
    if dealt:
        lines.append(f"{before.name}: Damage {before.damage} → {after.damage} of {after.health}"
                     + (f" (healed {before.damage + dealt - after.damage} by Monster Healing tokens)"
                        if not after.defeated and before.damage + dealt != after.damage else "")
                     + (" — defeated" if after.defeated else ""))
    first_strike = c.attacks == 0 and c.round == 1
    c = dataclasses.replace(c, roll=None, damage_next={k: v for k, v in c.damage_next.items() if k != hero},
                            struck=c.struck if first_strike else c.struck + (hero,),
                            first_struck=c.first_struck + ((hero,) if first_strike else ()))
    return dataclasses.replace(state, combat=c, last={"title": lines[0], "lines": lines[1:], "result": ""})


def enemy_damage(state: EuState, index: int, amount: int) -> EuState:
    """Damage from a Hero tile's effect on the attacking Enemy (applied before its heal, l.549)."""
    c = state.combat
    return dataclasses.replace(state, combat=put_enemy(c, index, wounds.hit(c.enemies[index], amount)))


def end(state: EuState, how: str) -> EuState:
    """The Combat ends: ``won`` (every Enemy defeated) or ``lost`` (every Hero died); rewards are
    taken (halved in a joint Combat, :func:`.fellowship.split_rewards`)."""
    c = dataclasses.replace(state.combat, over=how, attack=None, roll=None, first_struck=())
    state = dataclasses.replace(state, combat=c)
    reward = fellowship.combat_rewards(state)
    survivors = tuple(h for h in c.heroes if h not in c.dead)
    leader = state.round.leader if state.round else c.heroes[0]
    shares = fellowship.split_rewards(reward, c.heroes, survivors, {**{k: leader for k in reward}, **c.odd})
    for hid, share in shares.items():
        h = state.hero(hid)
        purse = dict(h.purse)
        for k, v in share.items():
            if k not in ("reputation", "silver", "gold_cards") and v:
                purse[k] = purse.get(k, 0) + v
        state = put_hero(state, dataclasses.replace(h, reputation=h.reputation + share.get("reputation", 0),
                                                    purse=purse))
        state = draw(state, hid, share.get("silver", 0), share.get("gold_cards", 0))
    words = "; ".join(f"{state.hero(h).name}: " + ", ".join(_amount(k, v) for k, v in s.items() if v)
                      for h, s in shares.items() if any(s.values()))
    return notice(state, f"Combat {how}" + (f" — rewards {words}" if words else ""))


def _amount(key: str, n: int) -> str:
    """``"1 Trophy"``, ``"2 Gold cards"``, ``"3 Gold"``: a reward in words."""
    word = {"gold": "Gold", "reputation": "Reputation", "silver": "Silver card", "gold_cards": "Gold card",
            "potions": "Healing Potion", "gems": "Gem", "essences": "Essence", "trophies": "Trophy"}.get(key, key)
    if n != 1 and key not in ("gold", "reputation"):
        word = word[:-1] + "ies" if word.endswith("y") else word + "s"
    return f"{n} {word}"


def draw(state: EuState, hid: str, silver: int = 0, gold: int = 0, cache: bool = True) -> EuState:
    """A Hero draws Silver / Gold cards; each also adds a card of its type to the cache (Silver and
    Gold Cards, l.916), unless ``cache`` is off (a Gold card for 4 Silver, Charm, Raklor's Forge)."""
    if not silver and not gold:
        return state
    h = state.hero(hid)
    purse = dict(h.purse)
    for k, v in (("silver", silver), ("gold_cards", gold)):
        if v:
            purse[k] = purse.get(k, 0) + v
    state = put_hero(state, dataclasses.replace(h, purse=purse))
    if not cache:
        return state
    s, g, _ = caches.add(state.silver, state.gold, silver, gold, state.config.convert_repeat)
    return dataclasses.replace(state, silver=s, gold=g)
