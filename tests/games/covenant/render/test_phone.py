"""Issue 27.4: every picture a player is sent reads on a phone, the whole game long.

Scaled to 400 px wide (as a phone shows it), the smallest text of a picture is at least 9 px
(a font's size) and a square where the action is (the latest moves, the squares where the
tile in hand fits, the Ark's reach, the city that gets the Ark) at least 24 px. Measured on
the pictures of games played by the normal computer near their end, where the board is
largest: the text from every
``ImageDraw.text`` call (whatever draws it), the squares from the layout each picture is
drawn with. The whole board (the status, the "Whole board" button, the end) is the one
picture left as large as the board has grown: an overview to zoom into.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pytest

import engine.ai
import render.covenant as render
from engine.covenant import Game, MoveArk, PlaceTile
from render.covenant.closeups import ark_window, put_ark_window, squares_window
from render.covenant.latest import latest_window
from render.covenant.window import Window
from render.style import PHONE_SQUARE, PHONE_TEXT, PHONE_WIDTH
from tests.support.fit import LONG_NAMES, on_phone

LANGUAGES = ("en", "nl", "es", "es-419")


def played(players: int, seed: int, stops: dict[str, Callable[[Game], bool]]) -> dict[str, Game]:
    """A game played by the normal computer (its boards spread as people's do), and a copy
    of it at the first moment each of ``stops`` holds."""
    game, found, moves = Game.new(players=players, seed=seed), {}, 0
    while len(found) < len(stops):
        for name, stop in stops.items():
            if name not in found and stop(game):
                found[name] = game.copy()
        if game.phase == "over":
            break
        game.apply(engine.ai.choose(game, "normal", seed=seed + moves))
        moves += 1
    assert len(found) == len(stops), sorted(set(stops) - set(found))
    return found


@pytest.fixture(scope="module")
def late() -> dict[str, Game]:
    """Near the end of games (the boards at their largest), in each step of a turn."""
    return {
        **played(
            5,
            3,
            {
                "place_ark": lambda g: g.phase == "place_ark",
                "tile": lambda g: g.turn >= 66 and g.phase == "place_tile",
                "over": lambda g: g.phase == "over",
            },
        ),
        **played(
            3,
            2,
            {
                "ark": lambda g: g.turn >= 60 and g.phase == "deploy" and g.ark is not None,
                "tile3": lambda g: g.turn >= 66 and g.phase == "place_tile",
            },
        ),
    }


def pictures(
    late: dict[str, Game], language: str
) -> dict[str, tuple[Callable[[], bytes], Window | None]]:
    """Every picture a player is sent but the whole board, with the window of the squares
    where its action is."""
    drawn: dict[str, tuple[Callable[[], bytes], Window | None]] = {}
    for name in ("tile", "tile3", "over"):
        game = late[name]
        names = LONG_NAMES[: game.players]
        drawn[f"latest {name}"] = (
            partial(render.latest_png, game, names=names, language=language),
            latest_window(game),
        )
    for name in ("tile", "tile3"):
        game = late[name]
        for page in range(len(render.squares_pages(game))):
            drawn[f"squares {name} {page}"] = (
                partial(render.squares_png, game, page, language=language),
                squares_window(game, page),
            )
        (x, y), rotations = next(iter(game.placements().items()))
        placed = game.copy()
        placed.apply(PlaceTile(x, y, rotations[0]))
        drawn[f"placed {name}"] = (
            partial(render.placed_png, placed),
            Window.around([(x, y)]),
        )
    ark = late["ark"]
    longest = max((a.path for a in ark.legal_actions() if isinstance(a, MoveArk)), key=len)
    drawn["ark route"] = (
        partial(render.ark_png, ark, longest, names=LONG_NAMES[:3], language=language),
        ark_window(ark),
    )
    drawn["put the ark"] = (
        partial(render.put_ark_png, late["place_ark"], language=language),
        put_ark_window(late["place_ark"]),
    )
    drawn["final scores"] = (
        partial(render.final_png, late["over"], names=LONG_NAMES[:5], language=language),
        None,
    )
    drawn["rules board"] = (partial(render.rules_board, language=language), None)
    drawn["rules key"] = (partial(render.key_png, language=language), None)
    return drawn


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_picture_reads_on_a_phone_the_whole_game_long(
    late: dict[str, Game], language: str
) -> None:
    render.warm_up()  # the palette's sample is drawn once, before anything is measured
    small: dict[str, float] = {}
    tiles: dict[str, float] = {}
    for name, (draw, window) in pictures(late, language).items():
        small[name], width = on_phone(draw)
        if window is not None:
            assert window.size[0] <= width, name  # the layout it was drawn with
            tiles[name] = window.tile * PHONE_WIDTH / width
    assert {k: round(v, 1) for k, v in small.items() if v < PHONE_TEXT} == {}
    assert {k: round(v, 1) for k, v in tiles.items() if v < PHONE_SQUARE} == {}


def test_the_board_post_shows_the_latest_moves_however_large_the_board(
    late: dict[str, Game],
) -> None:
    """The board post's window holds the last round's tiles; the whole board does not fit
    at the end of a game (else the post would show it whole)."""
    from render.covenant.latest import latest_squares

    game = late["tile"]
    window = latest_window(game)
    latest = latest_squares(game)
    assert latest == list(game.board)[-len(latest) :] and latest[-1] == game.last_placed
    assert all(window.contains(pos) for pos in latest)
    assert not all(window.contains(pos) for pos in game.board)
