"""PNG files of palette pictures, written here rather than by Pillow, because it is cheaper.

Nearly every picture the bot sends is a palette ("P") image: a byte a pixel, 3 MB for a
72-tile board. Pillow's PNG encoder compresses those bytes with zlib at some 350 MB/s, about
half of what a board costs to make. ISA-L (the ``isal`` package: Intel's deflate, with
wheels for x86-64 and 64-bit ARM) does the same work several times faster and, at its
level 1, smaller than zlib's level 1. Where ``isal`` is not installed (a 32-bit Raspberry
Pi, say) the standard library's zlib writes the same file format, as Pillow would.

A PNG file is its signature and chunks (length, type, data, CRC-32): here IHDR (size, 8 bits
a pixel, colour type 3: indexed), PLTE (the palette), one IDAT (the rows, each after its
filter-type byte, compressed as one zlib stream) and IEND. Every row uses filter type 0
(none): a palette image's indices are not numbers whose differences a filter could make
small, so Pillow also filters them that way.
"""

from __future__ import annotations

import struct
import zlib
from types import ModuleType

from PIL import Image

_compressor: ModuleType
try:  # the faster deflate, where it has a wheel
    from isal import isal_zlib as _compressor
except ImportError:  # pragma: no cover - depends on the platform's wheels
    _compressor = zlib

#: Level 1 (of ISA-L's 0-3, of zlib's 0-9): a board's 3 MB in about 1.4 ms and 192 KB with
#: ISA-L (zlib: 8 ms).
LEVEL = 1

#: Which deflate writes the pictures (for the benches' notes).
DEFLATE = _compressor.__name__.rpartition(".")[2]

SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: IHDR's colour type for an indexed (palette) picture.
INDEXED = 3


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data))
        + kind
        + data
        + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))
    )


def writes(image: Image.Image) -> bool:
    """Whether :func:`palette_png` writes ``image`` as it is: a palette image, 8 bits a
    pixel, of at least one pixel, whose colours are opaque: no transparent colour, no alpha in
    the palette (PLTE holds red, green and blue; others are left to Pillow, which writes a
    tRNS chunk, or refuses a picture without pixels, as a PNG has none)."""
    return (
        image.mode == "P"
        and image.width > 0
        and image.height > 0
        and "transparency" not in image.info
        and image.palette is not None
        and "A" not in image.palette.mode
    )


def palette_png(image: Image.Image) -> bytes:
    """``image``, a palette image (see :func:`writes`), as the bytes of a PNG file."""
    if not writes(image):
        raise ValueError(f"not an opaque palette picture with pixels: {image.mode} {image.size}")
    width, height = image.size
    mode, colours = image.palette.getdata()  # type: ignore[union-attr]
    if mode != "RGB":
        # A palette kept as BGR;16 etc.: Pillow's own conversion says it as RGB.
        colours = bytes(image.getpalette("RGB") or [])
    # All 256 entries, as Pillow writes them: a pixel whose index lies past a short palette
    # would be an error to some decoders.
    colours = colours[: 256 * 3].ljust(256 * 3, b"\0")
    # The rows, each after its filter byte 0: the picture pasted one pixel in, beside a
    # column of zeros, and read out as a whole (copies in C, not a Python loop over 1,700
    # rows). Not filled first: every byte but the first column's is the picture's.
    rows = Image.new("P", (width + 1, height), None)
    rows.paste(0, (0, 0, 1, height))
    rows.paste(image, (1, 0))
    compressed = _compressor.compress(rows.tobytes(), LEVEL)
    header = struct.pack(">IIBBBBB", width, height, 8, INDEXED, 0, 0, 0)
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", colours),
            _chunk(b"IDAT", compressed),
            _chunk(b"IEND", b""),
        )
    )
