"""The catalogue, spot names, turn choices and the story, without Discord."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from bot.cogs.play import NAME_LIMIT, clip
from bot.errors import Refusal, error_text
from bot.i18n import catalogue, t
from bot.service import ServiceError
from bot.spots import spot_name
from bot.story import tell, turn_story
from bot.turns import (
    ark_choices,
    ark_next_letters,
    deploy_choices,
    find_spot,
    parse_deploy,
    spot_choices,
)
from engine.covenant import TILES, Deploy, Game, MoveArk, Pass, PlaceArk, PlaceTile
from engine.covenant.notation import Grid

BOT = Path(__file__).resolve().parents[2] / "bot"
KEY = re.compile(r"[\"']((?:%s)\.[a-z_]+)[\"']")


def test_every_message_key_used_in_the_bot_exists() -> None:
    messages = catalogue("en")
    sections = sorted({key.split(".")[0] for key in messages})
    pattern = re.compile(r"[\"']((?:{})\.[a-z_]+)[\"']".format("|".join(sections)))
    used = {
        key
        for path in BOT.rglob("*.py")
        for key in pattern.findall(path.read_text())
        if not key.endswith(".png")
    }
    assert len(used) > 60
    assert sorted(used - messages.keys()) == []


def test_every_error_code_of_the_service_and_engine_has_a_message() -> None:
    messages = catalogue("en")
    sources = (BOT / "service" / "service.py").read_text()
    codes = set(re.findall(r'ServiceError\(\s*"([a-z_]+)"', sources)) - {"illegal"}
    assert len(codes) > 15
    assert sorted(f"error.{c}" for c in codes if f"error.{c}" not in messages) == []
    tree = ast.parse((BOT.parent / "engine" / "covenant" / "game.py").read_text())
    engine_codes = {
        node.args[1].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", None) == "IllegalAction"
        and len(node.args) > 1
        and isinstance(node.args[1], ast.Constant)
    }
    assert {"taken", "edge_mismatch", "ark_revisit", "no_followers"} <= engine_codes
    assert sorted(f"illegal.{c}" for c in engine_codes if f"illegal.{c}" not in messages) == []


def test_placeholders_are_well_formed() -> None:
    for key, text in catalogue("en").items():
        for _, name, _spec, _ in string.Formatter().parse(text):
            assert name is None or name.isidentifier(), key


def test_refusals_and_service_errors_become_catalogue_sentences() -> None:
    assert error_text(Refusal("turn.not_yours", player="Ruth")) == t(
        "turn.not_yours", player="Ruth"
    )
    stale = ServiceError("stale", "That turn was already played.")
    assert error_text(stale) == t("error.stale")
    illegal = ServiceError("illegal", "x", engine_code="taken", feature="road")
    assert (
        error_text(illegal) == "Someone already has a piece on that road (or on one joined to it)."
    )
    # A message needing a value the error lacks falls back to the service's own sentence.
    full = ServiceError("lobby_full", "This game is full (5 players).")
    assert error_text(full) == "This game is full (5 players)."
    assert error_text(RuntimeError("boom")) == t("error.unexpected")


@pytest.mark.parametrize(
    ("tile", "rotation", "expected"),
    [
        (
            "T27",
            0,
            ["city to the north", "road east–west", "field to the north", "field to the south"],
        ),
        (
            "T57",
            0,
            [
                "road to the north",
                "road to the east",
                "road to the south",
                "road to the west",
                "field to the north-east",
                "field to the south-east",
                "field to the south-west",
                "field to the north-west",
            ],
        ),
        ("T10", 180, ["city to the south", "city to the west", "field to the north-east"]),
        ("T01", 0, ["city in the middle"]),
    ],
)
def test_spots_are_named_in_words(tile: str, rotation: int, expected: list[str]) -> None:
    view = TILES[tile].rotated(rotation)
    assert [spot_name(s) for s in view.segments] == expected


def test_turn_choices_follow_the_engine() -> None:
    game = Game.new(players=2, seed=0, deck=["T21", "T39", "T39"])
    spots = spot_choices(game)
    assert [(s.number, s.square, s.rotations) for s in spots] == [
        (1, "B1", (180,)),  # the city edge must face the start tile's city
        (2, "B3", (90, 180, 270)),  # any field edge against the start tile's field
    ]
    assert find_spot(game, "b3") == spots[1] and find_spot(game, "1") == spots[0]
    assert find_spot(game, "Z9") is None
    game.apply(PlaceTile(0, -1, 180))
    choices = deploy_choices(game)
    assert [(c.label, c.value) for c in choices] == [
        ("A · field to the north", "NNW:0"),
        ("B · city to the south", "SSE:0"),
        ("B · Prophet: city to the south", "SSE:1"),
    ]
    assert parse_deploy("SSE:1") == Deploy("SSE", prophet=True)
    game.apply(Pass())
    game.apply(PlaceArk(0, 0))
    game.apply(PlaceTile(1, 0, 0))
    game.apply(Deploy("E"))
    game.apply(PlaceTile(-1, 0, 0))
    assert ark_next_letters(game, "") == {"N", "E", "W"}
    assert ark_next_letters(game, "E") == set()
    # Seat 1's follower stands on (1, 0): going east helps only seat 1, so for seat 0 the
    # paths that give nobody anything come first.
    choices = {c.path: c.points for c in ark_choices(game)}
    assert choices == {"N": (0, 0), "E": (0, 1), "W": (0, 0)}
    assert ark_choices(game)[0].path == "N"


def test_the_story_of_a_turn_names_squares_as_the_player_saw_them() -> None:
    game = Game.new(players=2, seed=0, deck=["T21", "T39"])
    game.apply(PlaceTile(0, -1, 180))
    before = Game.from_json(game.to_json())
    events = game.apply(Deploy("S"))
    lines = turn_story(["Ruth", "Boaz"], before, events)
    assert lines == [
        "Ruth placed a tile on B1.",
        "Ruth put a follower on the city at B1.",
        "A 2-tile city was completed: Ruth +4.",
    ]
    more = tell(game.apply(PlaceArk(0, -1)), ["Ruth", "Boaz"], Grid.around(game.board))
    assert more[0] == "Ruth placed the Ark on B2."
    assert MoveArk("N") not in game.legal_actions()


def test_autocomplete_names_are_clipped_to_discords_limit() -> None:
    assert clip("NE: Ruth +1") == "NE: Ruth +1"
    long = "NNESW: " + ", ".join(f"Deborah-Elisabeth the {i}th +3" for i in range(5))
    assert len(clip(long)) == NAME_LIMIT and clip(long).endswith("…")
