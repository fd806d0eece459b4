"""render.png: palette pictures written as PNG files by our own writer."""

from __future__ import annotations

import io
import zlib

import pytest
from PIL import Image

from render import png
from render.style import encode_png


def _picture() -> Image.Image:
    """A small palette picture of 5 colours in stripes and a diagonal, 37 x 23 (an odd width,
    so every row's filter byte lands on a different alignment)."""
    image = Image.new("P", (37, 23), 2)
    image.putpalette([10, 20, 30, 200, 100, 0, 241, 228, 196, 0, 0, 0, 255, 255, 255])
    for y in range(23):
        image.putpixel((y, y), 4)
        image.putpixel((36, y), y % 4)
    return image


def _decoded(data: bytes) -> Image.Image:
    back = Image.open(io.BytesIO(data))
    back.load()
    return back


def test_a_palette_picture_reads_back_pixel_for_pixel() -> None:
    image = _picture()
    data = png.palette_png(image)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    back = _decoded(data)
    assert (back.mode, back.size) == ("P", (37, 23))
    assert back.tobytes() == image.tobytes()
    assert back.getpalette()[:15] == image.getpalette()[:15]
    assert len(back.getpalette()) == 256 * 3  # padded as Pillow pads it
    assert back.convert("RGB").getpixel((5, 5)) == (255, 255, 255)
    assert back.convert("RGB").getpixel((36, 1)) == (200, 100, 0)


def test_every_chunk_carries_its_crc() -> None:
    data = png.palette_png(_picture())
    kinds, at = [], 8
    while at < len(data):
        length = int.from_bytes(data[at : at + 4], "big")
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        crc = int.from_bytes(data[at + 8 + length : at + 12 + length], "big")
        assert crc == zlib.crc32(kind + body)
        kinds.append(kind)
        at += 12 + length
    assert kinds == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    # Each row starts with filter type 0; the rows are the picture's indices.
    idat = data[data.index(b"IDAT") + 4 :]
    rows = zlib.decompressobj().decompress(idat)
    assert len(rows) == 23 * 38
    assert all(rows[y * 38] == 0 for y in range(23))


def test_the_standard_librarys_deflate_writes_the_same_picture(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    image = _picture()
    monkeypatch.setattr(png, "_compressor", zlib)
    assert _decoded(png.palette_png(image)).tobytes() == image.tobytes()


def test_other_pictures_are_left_to_pillow() -> None:
    rgb = Image.new("RGB", (4, 4), (1, 2, 3))
    see_through = _picture()
    see_through.info["transparency"] = 0
    assert not png.writes(rgb)
    assert not png.writes(see_through)
    with pytest.raises(ValueError):
        png.palette_png(rgb)
    # encode_png still writes both, through Pillow: the transparent colour kept.
    assert _decoded(encode_png(see_through)).info["transparency"] == 0
    assert _decoded(encode_png(rgb)).getpixel((0, 0)) == (1, 2, 3)


def test_a_games_picture_is_written_by_the_fast_writer() -> None:
    """encode_png with a palette goes through render.png (the same pixels as Pillow's
    own PNG of the reduced picture)."""
    palette = _picture()
    rgb = Image.new("RGB", (30, 10), (241, 228, 196))
    rgb.paste((200, 100, 0), (0, 0, 15, 10))
    data = encode_png(rgb, palette)
    reduced = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    pillows = io.BytesIO()
    reduced.save(pillows, format="PNG")
    assert data == png.palette_png(reduced)
    assert (
        _decoded(data).convert("RGB").tobytes()
        == _decoded(pillows.getvalue()).convert("RGB").tobytes()
    )


def test_a_palette_with_alpha_keeps_it_through_pillow() -> None:
    """A palette of RGBA colours is not written without its alpha: Pillow writes it, with
    its tRNS chunk, and the colours read back as they were."""
    image = Image.new("P", (3, 2), 1)
    image.putpalette([10, 20, 30, 0, 200, 100, 0, 128] + [0, 0, 0, 255] * 254, "RGBA")
    assert not png.writes(image)
    with pytest.raises(ValueError):
        png.palette_png(image)
    back = _decoded(encode_png(image)).convert("RGBA")
    assert back.getpixel((2, 1)) == (200, 100, 0, 128)


def test_a_picture_without_pixels_is_refused_not_written() -> None:
    for size in ((0, 0), (0, 5), (5, 0)):
        empty = Image.new("P", size)
        empty.putpalette([1, 2, 3])
        assert not png.writes(empty), size
        with pytest.raises(ValueError):
            png.palette_png(empty)
        with pytest.raises(ValueError):
            encode_png(empty)
