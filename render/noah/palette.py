"""The one PNG palette Ark's pictures share, learnt from a sample of them.

Reducing each picture to its own 256 colours (an octree over all its pixels) took a third
of the table's time; the pictures are drawn from the same flat colours and their
anti-aliased blends, so one palette learnt once does as well (compared at full size on
tables, hands and final scorings: no difference to see).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from render.noah.cards import (
    COLD,
    COLD_DARK,
    DISC_ORANGE,
    HIGHLIGHT,
    HOT,
    HOT_DARK,
    SPECIAL_RED,
    TILT_YELLOW,
)
from render.noah.pictures import (
    HULL,
    HULL_LIGHT,
    WATER,
    W,
    board_image,
    example_view,
    final_image,
    hand_image,
    key_image,
)
from render.style import (
    GOLD,
    INK,
    INK_SOFT,
    PARCHMENT,
    PARCHMENT_DARK,
    PLAYERS,
    RGB,
    WHITE,
    encode_png,
    learnt_palette,
)

#: Colours that must come out exactly (besides the sample's commonest ones).
KEY_COLOURS: tuple[RGB, ...] = (
    *(p.colour for p in PLAYERS),
    *(p.mark_colour for p in PLAYERS),
    PARCHMENT,
    PARCHMENT_DARK,
    INK,
    INK_SOFT,
    GOLD,
    WHITE,
    HULL,
    HULL_LIGHT,
    WATER,
    HOT,
    COLD,
    HOT_DARK,
    COLD_DARK,
    SPECIAL_RED,
    HIGHLIGHT,
    DISC_ORANGE,
    TILT_YELLOW,
)
#: How many of the sample's commonest colours are kept exactly too (its flat areas).
COMMON = 48
#: Room for the sample's pictures, one above the other (they are W wide).
SAMPLE_HEIGHT = 6000


def palette_sample() -> Image.Image:
    """Every kind of picture, one above the other: tables of three and five (with emoji in
    names), a hand in play, a final scoring, the key."""
    from engine.common import Rng
    from engine.noah import Game

    game, rng = Game.new(players=5, seed=3), Rng(3)
    while game.turn < 20:
        game.apply(game.sample_action(rng))
    middle, hand = game.view(None), list(game.hand(0))
    while game.phase != "over":
        game.apply(game.sample_action(rng))
    names = ["Ruth 🐑", "Boaz", "Naomi 🌾", "Obed", "Miriam"]
    marks = {str(card): n % 2 == 0 for n, card in enumerate(hand)}
    drawings = (
        lambda: board_image(example_view(), names[:3]),
        lambda: board_image(middle, names),
        lambda: hand_image(hand, marks, None, "play"),
        lambda: final_image(game.view(None), names),
        key_image,
    )
    # Each picture is pasted as soon as it is drawn, and let go: a worker's peak memory is
    # the sample's, not five pictures' as well.
    sample = Image.new("RGB", (W, SAMPLE_HEIGHT), PARCHMENT)
    top = 0
    for drawing in drawings:
        picture = drawing()
        sample.paste(picture, (0, top))
        top += picture.height
    return sample.crop((0, 0, W, top))


@lru_cache(maxsize=1)
def shared_palette() -> Image.Image:
    """One 256-colour palette for every picture of Ark, learnt once from the sample."""
    sample = palette_sample()
    counted: list[tuple[int, RGB]] = sample.getcolors(1 << 16) or []  # type: ignore[assignment]
    common = [rgb for _, rgb in sorted(counted, reverse=True)[:COMMON]]
    return learnt_palette(sample, list(dict.fromkeys([*KEY_COLOURS, *common])))


def to_png(image: Image.Image) -> bytes:
    """``image`` as a palette PNG in the colours of :func:`shared_palette`."""
    return encode_png(image, shared_palette())
