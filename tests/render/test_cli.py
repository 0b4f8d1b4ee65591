"""`judge map` (judge/render/cli.py): inputs and outputs of `judge adjudicate` to SVG or PNG."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from judge.engine.map import load_map
from judge.engine.notation import position_to_data
from judge.engine.position import Position
from judge.games.payola.cli import adjudicate_data
from judge.render.cli import main

EXAMPLE = Path(__file__).parent.parent / "engine" / "examples" / "s1901m.json"


def test_input_is_adjudicated_and_drawn_with_its_orders(tmp_path: Path) -> None:
    out = tmp_path / "map.svg"
    assert main([str(EXAMPLE), "-o", str(out), "--title", "Example"]) == 0
    root = ET.fromstring(out.read_text("utf-8"))
    orders = [e for e in root.iter() if "order" in e.get("class", "").split()]
    assert orders and any("failed" in e.get("class", "") for e in orders)


def test_output_is_drawn_as_the_position_after_the_phase(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    output = adjudicate_data(json.loads(EXAMPLE.read_text("utf-8")))
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(output)))
    assert main([]) == 0
    svg = capsysbinary.readouterr().out.decode("utf-8")
    root = ET.fromstring(svg)
    units = sorted(e.get("data-location", "") for e in root.iter() if "unit" in e.get("class", "").split())
    expected = sorted(u.split()[1] for items in output["units"].values() for u in items)
    assert units == expected
    assert "Fall 1901 movement" in svg
    assert not [e for e in root.iter() if "order" in e.get("class", "").split()]


def test_png(tmp_path: Path) -> None:
    out = tmp_path / "map.png"
    assert main([str(EXAMPLE), "--png", "--width", "640", "-o", str(out)]) == 0
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(data[16:20], "big") == 640


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "malformed JSON"),
        ('{"phase": "X1901M"}', "bad phase"),
        ('{"phase": "S1901M", "variant": "nope"}', "unknown variant"),
    ],
)
def test_bad_input_is_refused_plainly(
    text: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.json"
    source.write_text(text, "utf-8")
    assert main([str(source)]) == 1
    assert message in capsys.readouterr().err


def test_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["/nonexistent/file.json"]) == 1
    assert "cannot read" in capsys.readouterr().err


@pytest.mark.parametrize("variant", ["ancmed", "modern", "loeb9", "void"])
def test_a_variant_is_drawn_on_its_own_board(variant: str, tmp_path: Path) -> None:
    """An input naming its variant is drawn on that board: its provinces, its units, its orders."""
    data = position_to_data(Position.initial(load_map(variant)))
    power, units = next(iter(data["units"].items()))
    data["orders"] = {power: [f"{units[0]} H"]}
    source, out = tmp_path / "in.json", tmp_path / "map.svg"
    source.write_text(json.dumps(data), "utf-8")
    assert main([str(source), "-o", str(out)]) == 0
    root = ET.fromstring(out.read_text("utf-8"))
    provinces = {e.get("data-province") for e in root.iter() if "province" in e.get("class", "").split()}
    assert provinces and provinces <= set(load_map(variant).provinces)
    drawn = sorted(e.get("data-location", "") for e in root.iter() if "unit" in e.get("class", "").split())
    assert drawn == sorted(u.split()[1] for items in data["units"].values() for u in items)
