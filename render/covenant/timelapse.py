"""The replay: an animated GIF time-lapse of a whole game, one frame per turn.

Every frame is drawn on the layout of the final board, so the squares stand still while the
land grows, and a GIF frame only stores what changed since the one before (Pillow crops each
frame to its difference): a 72-tile game stays far below Discord's 8 MB, so Discord plays it
inline. The last board is held longer, then the final scores.

A frame is the board drawn as always and then made smaller by a whole factor (each k by k
block of pixels averaged: :meth:`PIL.Image.Image.reduce`), to at most :data:`WIDTH` px wide.
A resampling filter to exactly 720 px cost five times as much, half of a replay's CPU, and
at a phone's 400 px the two look alike.
"""

from __future__ import annotations

import io
from collections.abc import Generator, Iterator, Sequence

from PIL import Image

from engine.covenant.game import Game
from render.covenant.board import board_layout, draw_board
from render.covenant.palette import shared_palette
from render.covenant.pictures import final_image
from render.i18n import DEFAULT_LANGUAGE

#: The widest a frame may be (a phone shows it whole; 72 frames stay small). Frames are
#: between half this and this wide (see :func:`reduction`).
WIDTH = 720
FRAME_MS = 450
LAST_BOARD_MS = 2500
SCORES_MS = 5000


def _fit(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """``image`` scaled to fit ``size``, centred on parchment-coloured ground."""
    scale = min(size[0] / image.width, size[1] / image.height)
    shown = image.resize(
        (max(1, round(image.width * scale)), max(1, round(image.height * scale))),
        Image.Resampling.LANCZOS,
        # Halve by whole pixels first, then filter: a 2,000 px board comes down to 720 px
        # five times faster and looks the same (Pillow's reducing_gap).
        reducing_gap=1.1,
    )
    canvas = Image.new("RGB", size, image.getpixel((0, 0)))
    canvas.paste(shown, ((size[0] - shown.width) // 2, (size[1] - shown.height) // 2))
    return canvas


def replay_image_frames(
    saves: Sequence[str], names: list[str] | None, language: str = DEFAULT_LANGUAGE
) -> Iterator[tuple[Image.Image, int]]:
    """(frame, milliseconds) for each state in ``saves`` (views of the game, the last one its
    end), then the final scores, one after the other."""
    games = [Game.from_json(save) for save in saves]
    layout = board_layout(games[-1])
    factor = reduction(layout.width)
    # Image.reduce rounds up: a partial block at the edge makes a pixel of its own.
    size = (-(-layout.width // factor), -(-layout.height // factor))
    for number, game in enumerate(games):
        image, _ = draw_board(game, names=names, language=language, layout=layout)
        last = number == len(games) - 1
        yield image.reduce(factor) if factor > 1 else image, LAST_BOARD_MS if last else FRAME_MS
    yield _fit(final_image(games[-1], names, language), size), SCORES_MS


def reduction(width: int) -> int:
    """By how much a board ``width`` px wide is made smaller for the replay: the least whole
    factor that brings it to :data:`WIDTH` or less."""
    return max(1, -(-width // WIDTH))


def replay_steps(
    saves: Sequence[str], names: list[str] | None, *, language: str = DEFAULT_LANGUAGE
) -> Generator[None, None, bytes]:
    """The GIF bytes of the replay (see the module docstring), drawn a frame at a time: it
    yields after each frame, so whoever draws it can draw something more urgent in between,
    and returns the bytes. Each frame is kept in the palette's colours only (a quarter of
    its full-colour size: a whole game is 73 frames)."""
    palette = shared_palette()
    images: list[Image.Image] = []
    durations: list[int] = []
    for frame, ms in replay_image_frames(saves, names, language):
        images.append(frame.quantize(palette=palette, dither=Image.Dither.NONE))
        durations.append(ms)
        yield
    buffer = io.BytesIO()
    images[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=images[1:],
        duration=durations,
        loop=0,
        optimize=False,
        disposal=1,
    )
    return buffer.getvalue()
