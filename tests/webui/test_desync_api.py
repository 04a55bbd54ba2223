"""A sensed move the rules refuse reaches the screens as "check the table" and is settled from the
control page (``figure-override``/``figure-confirm``), through the same API as every event."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from webhelpers import settle

sys.path.insert(0, str(Path(__file__).parents[1] / "rules" / "theosis"))
from th_helpers import ARENA, fast_blitz, lines_of  # noqa: E402 - the Theosis tests' set-up

SPEEDS = '"speeds":{"rac":3,"aer":3,"norn":3,"rochon":3}'
ANN = ["fiery-purge", "fireball", "bloodthirst", "tactics", "pain-spike", "blazing-sun"]
BO = ["warcraft", "nova", "despair", "valor", "lifeswap", "last-stand"]


def test_check_the_table_until_the_control_page_settles_it(app, client, ctl, table):
    lines = lines_of(fast_blitz(ANN, BO, extra_options=SPEEDS)) + lines_of(ARENA) + [
        "figure-moved figure=rac to_cell=[0,3] source=camera:0",
        "figure-moved figure=norn to_cell=[3,-3] source=camera:0",
        "figure-moved figure=rac from_cell=[0,3] to_cell=[0,-1] source=camera:0"]
    for line in lines:
        assert ctl("/api/events", {"notation": line}).status_code == 201, line
    settle(app, len(lines))
    state = client.get("/api/state").get_json()["state"]
    assert [d["message"] for d in state["desync"]] == [
        "check the table: Rac cannot reach that hex (4 hexes away; 3 hexes of movement left)"]
    assert 'id="desync"' in client.get("/").get_data(as_text=True)  # the spectator page shows them
    assert ctl("/api/events", {"notation": "figure-override figure=rac"}).status_code == 201
    settle(app, len(lines) + 1)
    state = client.get("/api/state").get_json()["state"]
    assert state["desync"] == [] and state["log"][-1]["text"] == "Rac stays on [0, 3] (the camera was overridden)"
    refused = ctl("/api/events", {"notation": "figure-confirm figure=rac"})
    assert refused.status_code == 422 and "nothing to confirm" in json.dumps(refused.get_json())
