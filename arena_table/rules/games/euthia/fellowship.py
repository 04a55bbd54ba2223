"""Fellowship, the co-op mode (l.843-975): rounds 1-20 with their Fellowship cards, the Leader,
Exchanging Items, Move tokens, Personal Quests and the rewards of a joint Combat.

The Fellowship deck is stacked I (rounds 1-7) on II (8-14) on III (15-20) (Setup, l.857-861); one
card is revealed at the start of each round and applies until its end (l.872). The Leader is
chosen at random for round 1 and moves clockwise from round 2 (l.868). Each player may give
Items once a round, to one or more Heroes on the hex, to a total selling price within the
card's Exchange value (l.894-898). In a 3- or 4-player game one or two Move tokens of 2 Move
points lie beside the card (l.884-887).

>>> tier(7), tier(8), tier(20)
('I', 'II', 'III')
>>> leader_of(("ael", "dral", "maeldur"), "dral", 3)
'ael'
>>> split_rewards({"gold": 5, "reputation": 3}, ("ael", "dral"), ("ael", "dral"), {"gold": "dral", "reputation": "ael"})
{'ael': {'gold': 2, 'reputation': 2}, 'dral': {'gold': 3, 'reputation': 1}}
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping

from .state import EuState, Refused, Round, put_hero

ROUNDS = 20
TIERS = (("I", 1, 7), ("II", 8, 14), ("III", 15, 20))
"""Fellowship card ranges on their reverse side (Setup, Fellowship deck, l.857)."""
CARD_KEYS = ("tier", "name", "silver", "gold", "chaos", "gaar", "exchange", "health", "injuries", "chaos_action",
             "enemy", "reward")
"""A Fellowship card's parts (l.873-883): the bar (silver, gold, chaos, gaar), the Exchange value,
the boxes (health, injuries, chaos_action, enemy: "" / a Level "1"-"3" / "area", reward)."""
MOVE_TOKENS = {3: 1, 4: 2}
"""Move tokens of 2 Move points beside each new Fellowship card (l.884-887)."""
REWARD_KEYS = ("gold", "reputation", "silver", "gold_cards", "potions", "gems", "essences", "trophies")
"""The values halved between the two Heroes of a joint Combat (l.966); a single Trophy goes to the
Hero the players choose (the Leader if they disagree, ambiguities.md)."""


def tier(number: int) -> str:
    """The Fellowship deck part a round's card comes from."""
    return next(t for t, lo, hi in TIERS if lo <= number <= hi)


def leader_of(order: tuple[str, ...], first: str, number: int) -> str:
    """The Leader of round ``number``: the first Leader, moved clockwise once a round from round 2."""
    return order[(order.index(first) + number - 1) % len(order)]


def check_card(card: Mapping[str, Any]) -> dict[str, Any]:
    """A Fellowship card's values as entered.

    Raises:
        Refused: an unknown part, a negative number or an unknown extra enemy.
    """
    unknown = sorted(set(card) - set(CARD_KEYS))
    if unknown:
        raise Refused(f"a Fellowship card has no {', '.join(unknown)}; its parts: {', '.join(CARD_KEYS)}")
    out = dict(card)
    for k in ("silver", "gold", "chaos", "gaar", "exchange", "health", "injuries"):
        v = out.get(k, 0)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise Refused(f"Fellowship card {k} is a number 0 or more, not {v!r}")
    if str(out.get("enemy", "")) not in ("", "1", "2", "3", "area"):
        raise Refused(f"Fellowship card enemy is empty, a Level 1-3 or area, not {out.get('enemy')!r}")
    out["enemy"] = str(out.get("enemy", ""))
    reward = out.get("reward", {})
    if not isinstance(reward, Mapping) or any(k not in REWARD_KEYS for k in reward):
        raise Refused(f"Fellowship card reward names {', '.join(REWARD_KEYS)}")
    return out


def new_round(state: EuState, card: Mapping[str, Any], leader: str = "") -> EuState:
    """The next round begins with its Fellowship card revealed (Fellowship cards, l.872).

    Raises:
        Refused: not a Fellowship game, past round 20, a Combat under way, the card's tier not the
            round's, or a Leader named after round 1.
    """
    if state.config.mode != "fellowship":
        raise Refused("Fellowship rounds belong to the Fellowship mode")
    if state.combat is not None and not state.combat.over:
        raise Refused("the round's Combat must end first")
    number = state.round.number + 1 if state.round else 1
    if number > ROUNDS:
        raise Refused(f"the Fellowship game has {ROUNDS} rounds")
    card = check_card(card)
    if card.get("tier") and card["tier"] != tier(number):
        raise Refused(f"round {number} reveals a Fellowship {tier(number)} card, not {card['tier']}")
    first = state.first_leader
    if number == 1:
        first = leader or state.first_leader or state.order[0]
        state.hero(first)
    elif leader and leader != leader_of(state.order, first, number):
        raise Refused(f"the Leader token moves clockwise: {state.hero(leader_of(state.order, first, number)).name} "
                      f"leads round {number}")
    rnd = Round(number=number, card=card, leader=leader_of(state.order, first, number),
                move_tokens=MOVE_TOKENS.get(len(state.order), 0))
    return dataclasses.replace(state, round=rnd, first_leader=first)


def exchange(state: EuState, giver: str, gifts: Mapping[str, int]) -> EuState:
    """``giver`` gives Items of these selling prices to Heroes on the same hex (Exchanging Items).

    Raises:
        Refused: outside a Fellowship round or during a Combat, the giver gave already this round,
            a gift to themself or an unknown Hero, or a total above the Exchange value.
    """
    if state.round is None:
        raise Refused("Items are exchanged in a Fellowship round")
    if state.combat is not None and not state.combat.over:
        raise Refused("Items are exchanged outside of an Action (not during a Combat)")
    g = state.hero(giver)
    if giver in state.round.gave:
        raise Refused(f"{g.name} gave Items already this round (once per round, l.897)")
    if not gifts or giver in gifts:
        raise Refused("name the Heroes receiving Items and the selling price each receives")
    if len(gifts) > 1 and not state.config.split_exchange:
        raise Refused("one Hero receives a round's exchange (split_exchange is off)")
    for h, v in gifts.items():
        state.hero(h)
        if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
            raise Refused(f"the selling price given to {h} is a number above 0, not {v!r}")
    total, limit = sum(gifts.values()), state.round.card.get("exchange", 0)
    if total > limit:
        raise Refused(f"{g.name} gives Items worth {total}, above this round's Exchange value {limit}")
    return dataclasses.replace(state, round=dataclasses.replace(state.round, gave=state.round.gave + (giver,)))


def take_move_token(state: EuState, hero: str) -> EuState:
    """A Hero takes one of the round's Move tokens (2 Move points, l.886)."""
    if state.round is None or state.round.move_tokens <= 0:
        raise Refused("no Move token lies beside this round's Fellowship card")
    state.hero(hero)
    return dataclasses.replace(state, round=dataclasses.replace(state.round, move_tokens=state.round.move_tokens - 1))


QUESTS = ("starting", "advanced", "elite")


def quest(state: EuState, hero: str) -> EuState:
    """A Personal Quest fulfilled: Starting, then Advanced (2 drawn, 1 kept), then Elite (l.889-891)."""
    h = state.hero(hero)
    if len(h.quests) >= len(QUESTS):
        raise Refused(f"{h.name} fulfilled the Elite Personal Quest already")
    return put_hero(state, dataclasses.replace(h, quests=h.quests + (QUESTS[len(h.quests)],)))


def combat_rewards(state: EuState) -> dict[str, int]:
    """The rewards of the defeated Enemies (a Minion's by the Reputation range of the first Hero,
    l.165) and, once every Enemy is defeated, the Fellowship card's additional Reward (l.883)."""
    c, cfg = state.combat, state.config
    total: dict[str, int] = {}
    first = state.hero(c.heroes[0])
    for e in c.enemies:
        if not e.defeated:
            continue
        card = cfg.monsters[e.card]
        reward = dict(card.get("reward", {}))
        for r in card.get("rewards", ()):
            if r.get("reputation_min", 0) <= first.reputation <= r.get("reputation_max", 10**6):
                reward = {**reward, **r["reward"]}
                break
        reward["trophies"] = reward.get("trophies", 0) + 1  # the Monster card, kept as a Trophy
        for k, v in reward.items():
            total[k] = total.get(k, 0) + v
    if state.round and all(e.defeated for e in c.enemies):
        for k, v in state.round.card.get("reward", {}).items():
            total[k] = total.get(k, 0) + v
    return total


def split_rewards(reward: Mapping[str, int], heroes: tuple[str, ...], survivors: tuple[str, ...],
                  odd: Mapping[str, str]) -> dict[str, dict[str, int]]:
    """Each Hero's share of a Combat's rewards (Joint Combat Rewards, l.965-971).

    One Hero takes everything. Two: each takes half of every value, the odd one to the Hero
    ``odd`` names for it; if one died, only Reputation is divided and the rest goes to the
    survivor; if both died, the defeated Monsters' rewards are divided and the Trophies are lost.

    >>> split_rewards({"gold": 3, "reputation": 3, "trophies": 1}, ("ael", "dral"), ("dral",), {})
    {'ael': {'reputation': 2}, 'dral': {'gold': 3, 'reputation': 1, 'trophies': 1}}
    >>> split_rewards({"gold": 3, "trophies": 2}, ("ael", "dral"), (), {"gold": "dral"})
    {'ael': {'gold': 1}, 'dral': {'gold': 2}}
    """
    if len(heroes) == 1:
        return {heroes[0]: dict(reward)}
    out: dict[str, dict[str, int]] = {h: {} for h in heroes}
    for k, v in reward.items():
        if not survivors and k == "trophies":
            continue  # both Heroes died: the Loot and Trophies are lost (l.970)
        if len(survivors) == 1 and k != "reputation":
            out[survivors[0]][k] = v
            continue
        half, rest = divmod(v, 2)
        for h in heroes:
            out[h][k] = half + (rest if odd.get(k, heroes[0]) == h else 0)
    return out
