"""The Battle Phase example of 6.5 (Round 1), played through events with the order of play and
the final state asserted; the Preparation and Deployment examples of 6.3 and 6.4 lead up to it."""

from arena_table.rules import table_view

from sns_helpers import EXAMPLE_BOARD, HEROES, RED4, Table

OPTIONS = {"quest": "pvp1", "soulrank": 2, "resurrections": 1, "heroes": HEROES, "board": EXAMPLE_BOARD}


def deployed() -> Table:
    t = Table(OPTIONS)
    # 6.3: both Teams go to the Heroes' Hall; Team Purple rolls 3 icons, Team Red 2: Purple uses it first.
    t.do('sns-visit visits={"purple":"heroes-hall","red":"heroes-hall"}',
         f"sns-roll team=purple red={RED4[3]}", f"sns-roll team=red red={RED4[2]}")
    assert t.st.visits == (("purple", "heroes-hall"), ("red", "heroes-hall"))
    t.do("sns-ready", 'sns-claim claims={"purple":"p-shrine","red":"r-shrine"}')
    # 6.4: "The order established using the Tiebreaker Procedure allows Team Red to deploy first".
    t.do(f"sns-roll team=purple red={RED4[1]}", f"sns-roll team=red red={RED4[2]}")
    assert t.st.order == ("red", "purple")
    t.do("sns-place hero=artemis area=mid",       # 2 areas away from its Shrine
         "sns-place hero=shae area=p-room",       # inside its tile's corner
         "sns-place hero=thorgren area=pillar",   # over the stone pillar's area
         "sns-place hero=thorgar area=p-front")   # in front of the Shrine
    assert (t.st.stage, t.st.round, t.st.phase) == ("play", 1, "time")
    # PvP I: during the first Time Phase a Pitfall on each Location A-D; Sand (V) under Thorgren.
    t.do("sns-pitfall number=V location=A", "sns-pitfall number=I location=B", "sns-pitfall number=II location=C",
         "sns-pitfall number=IV location=D")
    return t


def test_deployment_refuses_a_hero_far_from_its_shrine_and_out_of_turn():
    import pytest
    from arena_table.rules import Refused
    t = Table(OPTIONS).do("sns-ready", 'sns-claim claims={"purple":"p-shrine","red":"r-shrine"}',
                          f"sns-roll team=purple red={RED4[1]}", f"sns-roll team=red red={RED4[2]}")
    with pytest.raises(Refused, match="red places its Hero now"):
        t.do("sns-place hero=shae area=p-room")
    with pytest.raises(Refused, match="not within 2 areas of red's Shrine"):
        t.do("sns-place hero=artemis area=p-step")


def test_battle_phase_example_round_1():
    t = deployed()
    t.do("sns-battle", f"sns-roll team=purple red={RED4[2]}", f"sns-roll team=red red={RED4[1]}")
    assert t.st.order == ("purple", "red")  # "Team Purple wins the Tiebreaker Procedure"
    played = []

    # (1) Thorgar moves 2 areas into Artemis's area; Guard against Protection Sphere is tiebroken.
    t.do("sns-activate hero=thorgar", "sns-move hero=thorgar to=p-step", "sns-move hero=thorgar to=mid")
    played.append(t.st.turn.hero)
    t.do('sns-simultaneous teams=["purple","red"] what="Guard vs Protection Sphere"',
         f"sns-roll team=purple red={RED4[3]}", f"sns-roll team=red red={RED4[2]}")
    assert t.st.tiebreaks[-1].groups == (("purple",), ("red",))  # Protection Sphere applies first
    # Artemis' Guard: 3 hits - 1 Protection Sphere - 2 Armor = 0: no DEF dice, no damage.
    t.do('sns-attack who=artemis target=thorgar weapon=bow mode=power power=Guard reduce={"Protection Sphere":1}',
         'sns-roll red=["hit","hit"] blue=["hit"]', "sns-resolve")
    assert t.hp("thorgar") == 8
    # Thorgar resumes his Turn and attacks Artemis: 1 vs 1 in the area, no Domination bonus.
    # 3 hits - 1 Armor = 2 -> 2 Blue Dice, 1 shield: 1 HP.
    t.do("sns-attack who=thorgar target=artemis weapon=hammer", 'sns-roll red=["hit+hit","hit"]',
         'sns-roll blue=["shield","blank"]', "sns-resolve", "sns-end-turn")
    assert t.hp("artemis") == 6
    assert t.st.last.lines == ("3 rolled = 3 hits", "Artemis: - 1 Armor", "Artemis: 2 hits - 1 shields = 1 HP")

    # (2) Artemis summons Dharma: 2 figures against 1, she dominates and Evades freely.
    t.do("sns-activate hero=artemis")
    played.append(t.st.turn.hero)
    t.do("sns-summon hero=artemis id=dharma name=Dharma area=mid hp=3")
    view = table_view(t.ts)["view"]
    assert {"area": "mid", "figures": ["thorgar", "artemis", "dharma"], "control": "red", "domination": "red",
            "counts": {"purple": 1, "red": 2}} in view["extra"]["areas"]
    t.do("sns-move hero=artemis to=p-step")
    assert t.st.evade is None and t.st.hero("artemis").area == "p-step"
    t.do("sns-move hero=artemis to=p-front", "sns-move hero=artemis to=p-shrine", "sns-move hero=artemis to=p-room")
    # A very lucky attack: 5 hits - 1 Armor = 4; Shae rolls her 2 Blue Dice, no shield: 4 HP, she dies.
    t.do("sns-attack who=artemis target=shae weapon=bow", 'sns-roll red=["hit+hit","hit+hit"] blue=["hit"]',
         'sns-roll blue=["blank","hit"]', "sns-resolve", "sns-end-turn")
    shae = t.st.hero("shae")
    assert shae.ghost and shae.hp == 0 and shae.soulrank == 2  # death keeps the Soulrank
    assert shae.weapons == (("staff", shae.weapon("staff")),)  # and the Items
    assert t.st.hero("artemis").kill_coins == 1

    # (3) Shae, a Ghost Soul, uses Recall to reach the Red corner's Shrine.
    t.do("sns-activate hero=shae", "sns-recall hero=shae to=r-shrine", "sns-end-turn")
    played.append("shae")

    # (4) Thorgren's ranged Trident attack on Thorgar from the pillar: 2 hits - 2 Armor = 0.
    t.do("sns-activate hero=thorgren")
    played.append("thorgren")
    t.do("sns-attack who=thorgren target=thorgar weapon=trident", 'sns-roll red=["hit+hit"] blue=["blank"]',
         "sns-resolve")
    assert t.st.hero("thorgren").area == "pillar"  # he maintains his position
    t.do("sns-end-turn")
    assert played == ["thorgar", "artemis", "shae", "thorgren"]

    # Event Phase: nothing (no Day/Night cycle); Round 2's Time Phase: Purple spends its token for Shae.
    assert (t.st.round, t.st.phase) == (2, "time")
    t.do("sns-resurrect hero=shae")
    shae = t.st.hero("shae")
    assert not shae.ghost and shae.hp == 4 and shae.area == "r-shrine"
    assert t.st.team("purple").resurrections == 0 and t.st.team("red").resurrections == 1
    assert {h.id: h.hp for _, h in t.st.heroes} == {"thorgar": 8, "shae": 4, "artemis": 6, "thorgren": 9, "dharma": 3}
    assert not any(h.activated for _, h in t.st.heroes)
    assert t.st.result is None  # "The fight is not over yet!"
    # "then a new Tiebreaker Procedure will be used to establish the activation order"
    t.do("sns-battle")
    assert t.st.tiebreak.purpose == "battle" and t.st.tiebreak.to_roll() == ("purple", "red")
