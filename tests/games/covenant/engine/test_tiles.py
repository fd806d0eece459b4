"""The tile set: loaded from data/, equal to the reference copy, validated on load."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

import pytest

from engine.common.data import DATA_DIR
from engine.covenant import TILES
from engine.covenant.tiles import TILE_FILE, TileDataError, load_tiles

SHARED = Path(__file__).resolve().parents[5] / "shared" / "covenant-tiles.toml"


def _raw() -> dict:
    with (DATA_DIR / TILE_FILE).open("rb") as handle:
        return tomllib.load(handle)


def test_the_set_has_72_tiles_in_61_designs() -> None:
    assert len(TILES) == 61
    assert sum(t.count for t in TILES.values()) == 72
    assert TILES["T27"].count == 1 and TILES["T27"].start
    assert sum(t.temple for t in TILES.values()) == 6


@pytest.mark.skipif(not SHARED.exists(), reason="no shared/ folder beside the repository")
def test_data_copy_equals_the_reference_set() -> None:
    assert (DATA_DIR / TILE_FILE).read_bytes() == SHARED.read_bytes()


def test_rotation_turns_edges_and_ports_clockwise() -> None:
    start = TILES["T27"]  # city N, road E-W, field S
    assert start.rotated(0).edges == ("C", "R", "F", "R")
    assert start.rotated(90).edges == ("R", "C", "R", "F")
    assert start.rotated(180).edges == ("F", "R", "C", "R")
    assert start.rotated(270).edges == ("R", "F", "R", "C")
    city = start.rotated(90).segment_at("E")
    assert (city.kind, city.port_names) == ("city", ("ENE", "E", "ESE"))
    road = start.rotated(90).segment_at("N")
    assert (road.kind, road.port_names) == ("road", ("N", "S"))


def test_a_port_in_two_segments_is_refused() -> None:
    raw = copy.deepcopy(_raw())
    tile = next(t for t in raw["tile"] if t["id"] == "T21")
    tile["fields"][0]["ports"].append("N")
    with pytest.raises(TileDataError, match="in two segments"):
        load_tiles(raw)


def test_a_port_in_no_segment_is_refused() -> None:
    raw = copy.deepcopy(_raw())
    tile = next(t for t in raw["tile"] if t["id"] == "T21")
    tile["fields"][0]["ports"].remove("E")
    with pytest.raises(TileDataError, match="belong to no segment"):
        load_tiles(raw)


def test_edges_must_agree_with_segments() -> None:
    raw = copy.deepcopy(_raw())
    tile = next(t for t in raw["tile"] if t["id"] == "T21")
    tile["edges"] = "CRFF"
    with pytest.raises(TileDataError, match="side E is R"):
        load_tiles(raw)


def test_the_set_size_is_checked() -> None:
    raw = copy.deepcopy(_raw())
    raw["tile"][0]["count"] += 1
    with pytest.raises(TileDataError, match="73 tiles"):
        load_tiles(raw)
