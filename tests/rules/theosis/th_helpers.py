"""Helpers for the Theosis tests: play a transcript written in event notation."""

from __future__ import annotations


from arena_table.rules import parse, replay



def lines_of(text: str) -> list[str]:
    return [ln.strip() for ln in text.strip().splitlines() if ln.strip() and not ln.strip().startswith("#")]


def play(*texts: str):
    """Replay transcripts (event notation, one a line) and return the table state."""
    return replay([parse(ln) for t in texts for ln in lines_of(t)])




def fast_blitz(ann: list[str], bo: list[str], *, extra_options: str = "", archetypes: dict | None = None,
               heroes: dict | None = None, gems: dict | None = None) -> str:
    """Start + drafts of a two-player blitz game with Fast Action Preparation (Ann: Rochon, Norn;
    Bo: Rac, Aer), ``ann``/``bo`` being the six Powers drafted by each, then each Hero's one Mana
    gem (Game Modes: Fast Action Preparation), in the Skill ``gems`` names for it, else its first."""
    import json
    opts = {"mode": "blitz", "fast": True, "players": ["Ann", "Bo"],
            "heroes": heroes or {"Ann": ["rochon", "norn"], "Bo": ["rac", "aer"]}}
    if archetypes:
        opts["archetypes"] = archetypes
    text = "start game=theosis options=" + json.dumps(opts, separators=(",", ":"))
    if extra_options:
        text = text[:-1] + "," + extra_options + "}"
    return "\n".join([text, drafts("Ann", ann), drafts("Bo", bo), fast_gems(opts["heroes"], gems)])


def fast_gems(heroes: dict, skills: dict | None = None) -> str:
    """One ``th-gem`` line per Hero of ``heroes`` (player -> hero ids), in ``skills[hero]`` when given."""
    skills = skills or {}
    return "\n".join(f"th-gem hero={h}" + (f" skill={skills[h]}" if h in skills else "")
                      for hs in heroes.values() for h in hs)


def drafts(player: str, powers: list[str]) -> str:
    """The ``th-draft`` lines of ``player`` taking ``powers`` in order."""
    return "\n".join(f"th-draft player={player} power={p}" for p in powers)


BLITZ_FAST = fast_blitz(["fiery-purge", "fireball", "bloodthirst", "tactics", "pain-spike", "spell-ward"],
                        ["warcraft", "nova", "confusion", "valor", "lifeswap", "frigid-night"])
"""Two players, blitz, Fast Action Preparation: Ann (Rochon, Norn) and Bo (Rac, Aer)."""


ARENA = """
th-next
th-allocate player=Bo gold={"rac":3}
th-allocate player=Ann gold={"norn":2,"rochon":1}
"""
"""Ranking after it: 1 Rac, 2 Norn, 3 Rochon, 4 Aer."""
