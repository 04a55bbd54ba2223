"""Board SVG, dice histogram and health chart: figures where the view puts them, numbers drawn."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest

from arena_table.webui import svg

NS = {"s": "http://www.w3.org/2000/svg"}


def parse(doc: str) -> ET.Element:
    return ET.fromstring(doc)  # also proves the document is well-formed XML


def test_hex_board_puts_figures_at_axial_centres_with_facing():
    board = {"kind": "hex", "radius": 2, "figures": [
        {"id": "rochon", "name": "Rochon", "side": "Ann", "cell": [1, -1], "facing": 0},
        {"id": "salazar", "name": "Salazar", "side": "Bob", "cell": [0, 2], "facing": 3}]}
    root = parse(svg.board_svg(board))
    cells = root.findall("s:polygon[@class='cell']", NS)
    assert len(cells) == 19  # 3*2*2 + 3*2 + 1
    circles = root.findall(".//s:circle", NS)
    # centre of (1,-1): x = 30*sqrt(3)*(1 - 1/2) = 25.98, y = 30*1.5*(-1) = -45
    assert (circles[0].get("cx"), circles[0].get("cy")) == ("26", "-45")
    # centre of (0,2): x = 30*sqrt(3)*1 = 51.96, y = 90
    assert (circles[1].get("cx"), circles[1].get("cy")) == ("52", "90")
    arrows = root.findall(".//s:g[@class='figure']/s:polygon", NS)
    tip0 = tuple(map(float, arrows[0].get("points").split()[0].split(",")))
    assert tip0 == pytest.approx((25.98 + 28.5, -45.0), abs=0.1)  # facing 0 = east
    tip1 = tuple(map(float, arrows[1].get("points").split()[0].split(",")))
    assert tip1 == pytest.approx((51.96 - 28.5, 90.0), abs=0.1)  # facing 3 = west
    texts = [t.text for t in root.findall(".//s:g[@class='figure']/s:text", NS)]
    assert texts == ["RO", "SA"]
    fills = [c.get("fill") for c in circles]
    assert fills == ["#0072B2", "#E69F00"]  # one Okabe-Ito colour per side


def test_a_few_hexes_are_not_zoomed_to_fill_the_screen():
    root = parse(svg.board_svg({"kind": "hex", "cells": [[0, 0], [1, 0]], "figures": []}))
    width = float(root.get("viewBox").split()[2])
    assert width == pytest.approx(svg.MIN_HEXES * 30 * math.sqrt(3), abs=0.1)


def test_hex_board_with_explicit_cells_and_no_facing():
    root = parse(svg.board_svg({"kind": "hex", "cells": [[0, 0], [1, 0]],
                                "figures": [{"name": "Trapper", "side": "A", "cell": [1, 0]}]}))
    assert len(root.findall("s:polygon[@class='cell']", NS)) == 2
    assert root.findall(".//s:g[@class='figure']/s:polygon", NS) == []


def test_square_board_facing_north():
    root = parse(svg.board_svg({"kind": "square", "cols": 3, "rows": 2,
                                "figures": [{"name": "Knight", "side": "A", "cell": [2, 1], "facing": 0}]}))
    assert len(root.findall("s:rect[@class='cell']", NS)) == 6
    c = root.find(".//s:circle", NS)
    assert (c.get("cx"), c.get("cy")) == ("125", "75")
    tip = tuple(map(float, root.find(".//s:g[@class='figure']/s:polygon", NS).get("points").split()[0].split(",")))
    assert tip == pytest.approx((125, 75 - 35 * 0.95), abs=0.1)


def test_area_board_lists_figures_in_their_area():
    doc = svg.board_svg({"kind": "areas", "cells": ["Forest", "Temple"],
                         "figures": [{"name": "Ann", "side": "A", "cell": "Temple"}]})
    assert ">Forest</text>" in doc and ">Temple</text>" in doc and ">AN</text>" in doc


def test_unknown_board_kind_is_named():
    with pytest.raises(ValueError, match="unknown board kind 'triangle'"):
        svg.board_svg({"kind": "triangle"})


def test_names_are_escaped():
    doc = svg.board_svg({"kind": "hex", "radius": 0, "figures": [{"name": "<b>&", "side": "x", "cell": [0, 0]}]})
    assert "<b>" not in doc and "&lt;b&gt;" in doc
    parse(doc)


def test_histogram_bar_heights_and_fair_line():
    doc = svg.histogram_svg("d6", {"1": 10, "2": 5, "3": 0, "4": 5, "5": 5, "6": 5}, chi2=10.0, p_value=0.0752)
    root = parse(doc)
    bars = root.findall("s:rect[@class='bar']", NS)
    heights = [float(b.get("height")) for b in bars]
    assert heights == pytest.approx([136, 68, 0, 68, 68, 68])  # plot height 240 - 60 - 44 = 136 px, peak 10
    line = root.find("s:line", NS)
    assert float(line.get("y1")) == pytest.approx(60 + 136 - 136 * 5 / 10)  # 30 dice / 6 faces = 5
    assert "d6: 30 dice · χ² 10.00, p 0.075" in doc


@pytest.mark.parametrize("counts", [
    {"1": 18, "2": 16, "3": 21, "4": 25, "5": 19, "6": 21},  # the tester's chart: "18" sat on the line
    {"1": 5, "2": 5, "3": 5, "4": 5, "5": 5, "6": 5},
    {"1": 9, "2": 10, "3": 11, "4": 10, "5": 10, "6": 10},
])
def test_histogram_count_labels_keep_clear_of_the_fair_line(counts):
    root = parse(svg.histogram_svg("d6", counts))
    line = root.find("s:line", NS)
    ey, half = float(line.get("y1")), float(line.get("stroke-width")) / 2
    labels = [t for t in root.findall("s:text", NS) if t.get("font-size") == "20"]
    assert [t.text for t in labels] == [str(c) for c in counts.values()]
    above, below = (k * svg.COUNT_FONT for k in svg.TEXT_BOX)
    for t in labels:
        y = float(t.get("y"))
        assert y + below < ey - half or y - above > ey + half, (t.text, y, ey)
    # the line is drawn under the labels
    children = list(root)
    assert children.index(line) < min(children.index(t) for t in labels)


def test_histogram_face_names_do_not_run_into_each_other():
    # the Fire attack die's faces; DejaVu Sans Bold's letters average 0.65 em: "critical" at 22 px is
    # about 8 * 22 * 0.65 = 114 px wide, more than the 54 px slot of a pip die's bar
    counts = {"burn": 2, "failure": 0, "critical": 1, "2": 0, "1": 0, "-1": 0}
    root = parse(svg.histogram_svg("demigods-fire", counts))
    names = [t for t in root.findall("s:text", NS) if t.get("font-weight") == "700"]
    assert [t.text for t in names] == list(counts)
    spans = [(float(t.get("x")) - len(t.text) * 22 * 0.65 / 2, float(t.get("x")) + len(t.text) * 22 * 0.65 / 2)
             for t in names]
    assert all(right <= next_left for (_, right), (next_left, _) in zip(spans, spans[1:])), spans
    assert spans[-1][1] <= float(root.get("viewBox").split()[2])  # the last one inside the picture
    # pip dice keep their 44 px bars
    bars = parse(svg.histogram_svg("d6", {str(f): 1 for f in range(1, 7)})).findall("s:rect[@class='bar']", NS)
    assert {float(b.get("width")) for b in bars} == {44.0}


def test_histogram_of_a_face_printed_twice_dashes_each_faces_own_expectation():
    # Slashing: Enrage twice in six faces. 60 fair dice: 20 Enrage, 10 of each other face; the
    # plot is 136 px high with its peak (20) at y 60, so the dash is at 60 over Enrage, 128 elsewhere
    counts = {"enrage": 20, "critical": 10, "2": 10, "1": 10, "-1": 10}
    shares = {"enrage": 0.3333, "critical": 0.1667, "2": 0.1667, "1": 0.1667, "-1": 0.1667}
    root = parse(svg.histogram_svg("demigods-slashing", counts, shares=shares))
    dashes = root.findall("s:line", NS)
    assert [round(float(d.get("y1"))) for d in dashes] == [60, 128, 128, 128, 128]
    bars = root.findall("s:rect[@class='bar']", NS)
    assert [round(float(b.get("y"))) for b in bars] == [60, 128, 128, 128, 128]  # fair: each bar at its dash


def test_health_chart_lines_have_names_and_patterns():
    doc = svg.health_svg({"Rochon": [(0, 9), (3, 4)], "Salazar": [(0, 9), (1, 0), (3, 0)]}, {"Rochon": 9})
    root = parse(doc)
    lines = root.findall("s:polyline", NS)
    assert [line.find("s:title", NS).text for line in lines] == ["Rochon", "Salazar"]
    assert lines[0].get("stroke-dasharray") is None and lines[1].get("stroke-dasharray") == "8 4"
    first = lines[0].get("points").split()
    # plot 346 x 248 px from (44, 16): (0, 9 of 9) is its top-left; (3 of 3, 4 of 9) is y = 16 + 248*(5/9)
    assert first == ["44,16", "390,153.8"]
    assert "Rochon 4" in doc and "Salazar 0" in doc


def test_health_chart_end_labels_do_not_overlap():
    root = parse(svg.health_svg({"Ann": [(0, 9), (2, 9)], "Bo": [(0, 9), (2, 9)], "Cy": [(0, 9), (2, 0)]}))
    ys = sorted(float(t.get("y")) for t in root.findall("s:text", NS) if t.get("x") == "398")
    assert len(ys) == 3 and all(b - a >= 26 for a, b in zip(ys, ys[1:]))


def test_initials():
    assert [svg.initials(n) for n in ("Rochon", "Blood Hunter", "pan-dora", "")] == ["RO", "BH", "PD", "?"]
    assert math.isclose(svg.hex_center(0, 1, 10)[0], 10 * math.sqrt(3) / 2)
    assert re.fullmatch(r"#[0-9A-F]{6}", svg.PALETTE[0])


def test_an_area_board_lays_out_its_columns_and_labels_each_area():
    board = {"kind": "areas", "cells": [f"{r}{c}" for r in "ab" for c in "123"], "columns": 3,
             "labels": {"b2": "red dominates"},
             "figures": [{"id": "shae", "name": "Shae", "side": "purple", "cell": "b2"}]}
    out = svg.board_svg(board)
    assert 'viewBox="0 0 660 300"' in out  # 3 cards of 220 a row, 2 rows of 150
    assert ">b2<tspan font-size=\"16\" fill=\"#444\"> red dominates</tspan>" in out and out.count("<rect") == 6
