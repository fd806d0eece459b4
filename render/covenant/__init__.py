"""Pictures of The Ark of the Covenant: the board, the tile in hand, previews, final scores.

Every function here is a pure function from engine state to PNG bytes: it reads the game
and never changes it, and shares only caches of immutable sprites and fonts, so it is safe
to call from worker threads (e.g. ``asyncio.to_thread``).

Every word drawn comes from the ``[picture]`` section of the message catalogue in
``language`` (default English); names of players, tile ids and square names are data.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence

from engine.covenant.game import Game
from engine.covenant.geometry import Pos
from engine.covenant.tiles import TILES
from render.covenant.board import BoardLayout, board_layout, draw_board_indexed
from render.covenant.closeups import ark_image, placed_image, put_ark_image, squares_image
from render.covenant.latest import latest_image
from render.covenant.palette import shared_palette, to_png
from render.covenant.pictures import final_image, key_image, rotations_image
from render.covenant.tileart import anchors, master
from render.covenant.timelapse import replay_steps
from render.covenant.window import numbered_squares, squares_pages
from render.i18n import DEFAULT_LANGUAGE

__all__ = [
    "BoardLayout",
    "ark_png",
    "board_layout",
    "board_png",
    "final_png",
    "key_png",
    "latest_png",
    "numbered_squares",
    "placed_png",
    "put_ark_png",
    "squares_pages",
    "squares_png",
    "tile_rotations_png",
    "warm_up",
]


def board_png(
    game: Game,
    *,
    numbered: bool = False,
    names: list[str] | None = None,
    language: str = DEFAULT_LANGUAGE,
    viewer: int | None = None,
    panel: bool = True,
) -> bytes:
    """The board with labels, pieces, the last tile highlighted and the players' panel.

    With ``numbered`` the squares where the tile in hand fits are numbered 1..n as
    :func:`render.covenant.window.squares_pages` numbers them. ``names`` are display names per
    seat (default "Player 1"...). ``viewer``: the seat of the one it is drawn for, privately
    (told "you" when it is their turn); None for everyone. Without ``panel``, the board
    alone: where the standings are a picture of their own (the final scores), so that
    neither is shrunk to fit the other on a phone.
    """
    image = draw_board_indexed(
        game, numbered=numbered, names=names, language=language, viewer=viewer, panel=panel
    )
    return to_png(image)


def latest_png(
    game: Game, *, names: list[str] | None = None, language: str = DEFAULT_LANGUAGE
) -> bytes:
    """The board post's picture: the latest moves, large, and how the players stand (see
    :mod:`render.covenant.latest`)."""
    return to_png(latest_image(game, names, language))


def squares_png(
    game: Game,
    page: int = 0,
    *,
    language: str = DEFAULT_LANGUAGE,
    focus: Sequence[Pos] = (),
) -> bytes:
    """Part ``page`` of the board where the tile in hand fits, its squares numbered, with the
    tile in hand (see :func:`render.covenant.board.squares_pages`); the squares of ``focus``
    ringed (a lesson's picture)."""
    return to_png(squares_image(game, page, language, focus))


def placed_png(game: Game) -> bytes:
    """The tile just placed (``game`` in its ``deploy`` phase: the game as it is, or as it
    would be with the tile placed) and its eight neighbours, large, with the spots a piece
    may take lettered A, B, ... in the order of
    :func:`render.covenant.board.deploy_ports`."""
    return to_png(placed_image(game))


def put_ark_png(game: Game, *, language: str = DEFAULT_LANGUAGE) -> bytes:
    """The city just completed, its tiles (where the Ark may be put) numbered."""
    return to_png(put_ark_image(game, language))


def ark_png(
    game: Game,
    path: str = "",
    *,
    names: list[str] | None = None,
    language: str = DEFAULT_LANGUAGE,
) -> bytes:
    """The board around the Ark: where it can go this turn, the path so far, the points."""
    return to_png(ark_image(game, path, names, language))


def key_png(*, language: str = DEFAULT_LANGUAGE) -> bytes:
    """The key of the pictures' icons and of the square names."""
    return to_png(key_image(language))


def tile_rotations_png(tile_id: str, *, language: str = DEFAULT_LANGUAGE) -> bytes:
    """Tile ``tile_id`` in its four rotations (0°, 90°, 180°, 270° clockwise), labelled."""
    return to_png(rotations_image(tile_id, language))


def final_png(
    game: Game, *, names: list[str] | None = None, language: str = DEFAULT_LANGUAGE
) -> bytes:
    """The final scoring: points per player by roads, cities, temples, fields and Ark, and
    the score over the turns (works mid-game too, titled with the turn)."""
    return to_png(final_image(game, names, language))


def warm_up() -> None:
    """Build the shared palette and the tile masters now (about a second), e.g. at bot start,
    so the first picture of a game is as quick as the others."""
    shared_palette()
    for tile_id in TILES:
        master(tile_id)
        anchors(tile_id)


# ---------------------------------------------------------------- from saved views
# The bot's painter calls these by name, in worker processes, with JSON-ready arguments
# (``Game.view(...).to_json()``): what they get is all a picture can show.


def board(
    save: str,
    numbered: bool,
    names: list[str],
    viewer: int | None = None,
    panel: bool = True,
    *,
    language: str = DEFAULT_LANGUAGE,
) -> bytes:
    game = Game.from_json(save)
    return board_png(
        game, numbered=numbered, names=names, language=language, viewer=viewer, panel=panel
    )


def latest(save: str, names: list[str], *, language: str = DEFAULT_LANGUAGE) -> bytes:
    return latest_png(Game.from_json(save), names=names, language=language)


def squares(
    save: str,
    page: int,
    focus: list[list[int]] | None = None,
    *,
    language: str = DEFAULT_LANGUAGE,
) -> bytes:
    # ``focus``: squares as [x, y] pairs (JSON has no tuples); none for the turn's panel.
    ringed = [(x, y) for x, y in focus or ()]
    return squares_png(Game.from_json(save), page, language=language, focus=ringed)


def placed(save: str, *, language: str = DEFAULT_LANGUAGE) -> bytes:
    return placed_png(Game.from_json(save))


def put_ark(save: str, *, language: str = DEFAULT_LANGUAGE) -> bytes:
    return put_ark_png(Game.from_json(save), language=language)


def ark(save: str, path: str, names: list[str], *, language: str = DEFAULT_LANGUAGE) -> bytes:
    return ark_png(Game.from_json(save), path, names=names, language=language)


def rules_key(*, language: str = DEFAULT_LANGUAGE) -> bytes:
    return key_png(language=language)


def final(save: str, names: list[str], *, language: str = DEFAULT_LANGUAGE) -> bytes:
    return final_png(Game.from_json(save), names=names, language=language)


def rotations(tile_id: str, *, language: str = DEFAULT_LANGUAGE) -> bytes:
    return tile_rotations_png(tile_id, language=language)


def rules_board(*, language: str = DEFAULT_LANGUAGE) -> bytes:
    """A small board after a few turns, to show what the game looks like."""
    from engine.covenant import Deploy, Pass, PlaceArk, PlaceTile

    game = Game.new(players=2, seed=0, deck=["T21", "T39", "T48", "T37", "T39", "T12"])
    for action in (
        PlaceTile(0, -1, 180),
        Deploy("S"),
        PlaceArk(0, -1),
        PlaceTile(1, 0, 0),
        Deploy("E"),
        PlaceTile(0, 1, 0),
        Deploy("NNW"),
        PlaceTile(-1, 0, 180),
        Pass(),
    ):
        game.apply(action)
    # A made-up game: no "tiles left" (the bag of a real game holds 71 tiles). Drawn as
    # the board post draws a board, the squares where the tile fits numbered as the
    # player's panel numbers them.
    image = latest_image(game.view(None), ["Ruth", "Boaz"], language, numbered=True, bag=False)
    return to_png(image)


def replay(
    saves: list[str], names: list[str], *, language: str = DEFAULT_LANGUAGE
) -> Generator[None, None, bytes]:
    """The whole game as an animated GIF, from the views at each turn (see
    :mod:`render.covenant.timelapse`), drawn in steps: a generator that yields after each
    frame and returns the bytes (the bot's painter draws other pictures in between)."""
    return replay_steps(saves, names, language=language)
