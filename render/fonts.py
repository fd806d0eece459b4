"""Every character a Discord display name can hold, drawn: a fallback chain of fonts.

Text is cut into runs, each drawn with the first font of the chain that has its characters:

1. DejaVu Sans (Latin, Greek, Cyrillic, Armenian, Georgian, Hebrew, Arabic, many symbols);
2. Noto Sans CJK JP, subset to the common Chinese, Japanese and Korean characters (see
   ``tools/build_fonts.py`` for which and why);
3. Noto Sans for Thai, Lao, Khmer, Myanmar and the main Indic scripts (subsets);
4. colour emoji: every emoji and emoji sequence of Noto Color Emoji (ZWJ families, flags,
   skin tones, keycaps), kept as one atlas picture of 40 px glyphs and scaled to the text;
5. a faithful substitute for what no font has: the compatibility form (NFKC: "𝓰𝓻𝓪𝓬𝓲𝓮" is
   drawn "gracie", "①" is "1"), else the letter without its marks; else a middle dot, never
   a box.

Fonts, atlas and their licences are in ``data/fonts`` (all SIL Open Font License 1.1, DejaVu
its own free licence). Everything here is cached and read-only, so threads may share it.
"""

from __future__ import annotations

import json
import struct
import unicodedata
import zlib
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageFont

from engine.common.data import DATA_DIR

FONT_DIR = DATA_DIR / "fonts"
MAIN = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
CJK = "NotoSansCJKjp-Regular-subset.otf"
#: Fonts for further scripts, tried in this order after CJK.
SCRIPTS = (
    "NotoSansThai-Regular-subset.ttf",
    "NotoSansDevanagari-Regular-subset.ttf",
    "NotoSansBengali-Regular-subset.ttf",
    "NotoSansTamil-Regular-subset.ttf",
    "NotoSansGurmukhi-Regular-subset.ttf",
    "NotoSansKhmer-Regular-subset.ttf",
    "NotoSansLao-Regular-subset.ttf",
    "NotoSansMyanmar-Regular-subset.ttf",
)
EMOJI_ATLAS = "NotoColorEmoji-atlas.png"
EMOJI_INDEX = "NotoColorEmoji-atlas.json"
#: The substitute for a character no font has (a middle dot: visibly "something", no box).
MISSING = "·"

VS15, VS16, ZWJ = 0xFE0E, 0xFE0F, 0x200D
_INVISIBLE = {VS15, VS16, ZWJ, 0x200C, 0x200B, 0x2060, 0xFEFF}
# Characters drawn as emoji even without VS16 (Emoji_Presentation=Yes below U+1F000).
_EMOJI_BMP = (
    (0x231A, 0x231B), (0x23E9, 0x23EC), (0x23F0, 0x23F0), (0x23F3, 0x23F3),
    (0x25FD, 0x25FE), (0x2614, 0x2615), (0x2648, 0x2653), (0x267F, 0x267F),
    (0x2693, 0x2693), (0x26A1, 0x26A1), (0x26AA, 0x26AB), (0x26BD, 0x26BE),
    (0x26C4, 0x26C5), (0x26CE, 0x26CE), (0x26D4, 0x26D4), (0x26EA, 0x26EA),
    (0x26F2, 0x26F3), (0x26F5, 0x26F5), (0x26FA, 0x26FA), (0x26FD, 0x26FD),
    (0x2705, 0x2705), (0x270A, 0x270B), (0x2728, 0x2728), (0x274C, 0x274C),
    (0x274E, 0x274E), (0x2753, 0x2755), (0x2757, 0x2757), (0x2795, 0x2797),
    (0x27B0, 0x27B0), (0x27BF, 0x27BF), (0x2B1B, 0x2B1C), (0x2B50, 0x2B50),
    (0x2B55, 0x2B55),
)  # fmt: skip


def _emoji_by_default(cp: int) -> bool:
    return cp >= 0x1F000 or any(lo <= cp <= hi for lo, hi in _EMOJI_BMP)


# --------------------------------------------------------------------- coverage


def cmap_coverage(path: Path) -> frozenset[int]:
    """The code points a TrueType/OpenType font maps to glyphs (its ``cmap`` table, formats
    4 and 12), read without any font library."""
    data = path.read_bytes()
    tables = struct.unpack_from(">H", data, 4)[0]
    offset = None
    for i in range(tables):
        tag, _, start, _ = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"cmap":
            offset = start
    if offset is None:
        return frozenset()
    found: set[int] = set()
    count = struct.unpack_from(">H", data, offset + 2)[0]
    for i in range(count):
        platform, _, sub = struct.unpack_from(">HHI", data, offset + 4 + 8 * i)
        if platform != 3 and platform != 0:
            continue
        at = offset + sub
        kind = struct.unpack_from(">H", data, at)[0]
        if kind == 4:
            segments = struct.unpack_from(">H", data, at + 6)[0] // 2
            ends = struct.unpack_from(f">{segments}H", data, at + 14)
            starts = struct.unpack_from(f">{segments}H", data, at + 16 + 2 * segments)
            deltas = struct.unpack_from(f">{segments}h", data, at + 16 + 4 * segments)
            ranges_at = at + 16 + 6 * segments
            ranges = struct.unpack_from(f">{segments}H", data, ranges_at)
            for k, (lo, hi) in enumerate(zip(starts, ends, strict=True)):
                for cp in range(lo, hi + 1):
                    if cp == 0xFFFF:
                        continue
                    if ranges[k] == 0:
                        glyph = (cp + deltas[k]) & 0xFFFF
                    else:
                        where = ranges_at + 2 * k + ranges[k] + 2 * (cp - lo)
                        glyph = struct.unpack_from(">H", data, where)[0]
                        if glyph:
                            glyph = (glyph + deltas[k]) & 0xFFFF
                    if glyph:
                        found.add(cp)
        elif kind == 12:
            groups = struct.unpack_from(">I", data, at + 12)[0]
            for g in range(groups):
                lo, hi, glyph = struct.unpack_from(">III", data, at + 16 + 12 * g)
                found.update(range(lo, hi + 1) if glyph else range(lo + 1, hi + 1))
    return frozenset(found)


@cache
def coverage(name: str) -> frozenset[int]:
    path = FONT_DIR / name
    return cmap_coverage(path) if path.is_file() else frozenset()


@cache
def _chain() -> tuple[str, ...]:
    """The text fonts in order (those that are there)."""
    names = (MAIN[False], CJK, *SCRIPTS)
    return tuple(n for n in names if (FONT_DIR / n).is_file())


@dataclass(frozen=True, slots=True)
class EmojiSet:
    cells: dict[tuple[int, ...], int]
    longest: int
    cell: int
    columns: int


@cache
def emoji_set() -> EmojiSet:
    """The emoji sequences of the atlas (VS16 left out of every key) and where each is."""
    path = FONT_DIR / EMOJI_INDEX
    if not path.is_file():
        return EmojiSet({}, 0, 1, 1)
    raw = json.loads(path.read_text())
    cells = {
        tuple(int(part, 16) for part in key.split("-")): index
        for key, index in raw["sequences"].items()
    }
    return EmojiSet(cells, max(map(len, cells), default=0), raw["cell"], raw["columns"])


@cache
def _atlas_rows() -> tuple[tuple[int, int], list[bytes]]:
    """The atlas as (its width and row height, each row of cells as compressed RGBA bytes):
    decoded it takes 25 MB, kept whole for the few emoji a picture ever shows; a row is
    unpacked (400 KB, a millisecond) when one of its emoji is first drawn at a size."""
    with Image.open(FONT_DIR / EMOJI_ATLAS) as atlas:
        image = atlas.convert("RGBA")
    cell = emoji_set().cell
    rows = [
        zlib.compress(image.crop((0, top, image.width, top + cell)).tobytes(), 1)
        for top in range(0, image.height, cell)
    ]
    return (image.width, cell), rows


@lru_cache(maxsize=1024)
def emoji_image(index: int, size: int) -> Image.Image:
    """Emoji ``index`` of the atlas as a ``size`` px square (never modify it)."""
    found = emoji_set()
    (width, height), rows = _atlas_rows()
    row = Image.frombytes("RGBA", (width, height), zlib.decompress(rows[index // found.columns]))
    x = (index % found.columns) * found.cell
    glyph = row.crop((x, 0, x + found.cell, found.cell))
    return glyph.resize((max(1, size), max(1, size)), Image.Resampling.LANCZOS)


# --------------------------------------------------------------------- runs


@dataclass(frozen=True, slots=True)
class Run:
    """A piece of text drawn with one font: ``font`` names it (a file of the chain), or is
    ``"emoji"`` with ``emoji`` the atlas index."""

    font: str
    text: str = ""
    emoji: int = -1


def _font_for(cp: int) -> str | None:
    for name in _chain():
        if cp in coverage(name):
            return name
    return None


def _match_emoji(text: str, i: int) -> tuple[int, int] | None:
    """The longest emoji sequence starting at ``text[i]``: (atlas index, end), or None."""
    found = emoji_set()
    if not found.cells:
        return None
    cps: list[int] = []
    ends: list[int] = []
    j = i
    while j < len(text) and len(cps) < found.longest:
        cp = ord(text[j])
        j += 1
        if cp == VS16:
            if ends:
                ends[-1] = j
            continue
        cps.append(cp)
        ends.append(j)
    for k in range(len(cps), 0, -1):
        index = found.cells.get(tuple(cps[:k]))
        if index is None:
            continue
        end = ends[k - 1]
        if k == 1:
            # One code point: an emoji if it is one by default, if VS16 asks for it, or if
            # no text font has it; "1" or "©" alone stay text.
            cp = cps[0]
            asked = end > i + 1 and ord(text[end - 1]) == VS16
            if not (_emoji_by_default(cp) or asked or _font_for(cp) is None):
                return None
            if i + 1 < len(text) and ord(text[i + 1]) == VS15:
                return None
        return index, end
    return None


def _substitute(char: str) -> str:
    """What to draw for a character no font has."""
    for form in (unicodedata.normalize("NFKC", char), unicodedata.normalize("NFKD", char)):
        if form != char:
            kept = "".join(
                c for c in form if _font_for(ord(c)) is not None and not unicodedata.combining(c)
            )
            if kept and len(kept) <= 4:
                return kept
    return MISSING


@lru_cache(maxsize=4096)
def runs(text: str) -> tuple[Run, ...]:
    """``text`` cut into runs of one font each (see the module docstring for the chain)."""
    main = MAIN[False]
    out: list[Run] = []

    def add(font: str, piece: str) -> None:
        if out and out[-1].font == font and font != "emoji":
            out[-1] = Run(font, out[-1].text + piece)
        else:
            out.append(Run(font, piece))

    i = 0
    while i < len(text):
        emoji = _match_emoji(text, i)
        if emoji is not None:
            out.append(Run("emoji", text[i : emoji[1]], emoji[0]))
            i = emoji[1]
            continue
        char = text[i]
        i += 1
        cp = ord(char)
        font = _font_for(cp)
        if font is not None:
            add(font, char)
        elif cp in _INVISIBLE or unicodedata.category(char) in ("Mn", "Me", "Cf"):
            continue  # a selector or joiner left over, or a mark no font has: nothing to see
        else:
            for sub in _substitute(char):
                add(_font_for(ord(sub)) or main, sub)
    return tuple(out)


@lru_cache(maxsize=4096)
def simple(text: str) -> bool:
    """Whether ``text`` is drawn by the main font alone (the quick, common case): no emoji,
    nothing the main font lacks."""
    cover = coverage(MAIN[False])
    return all(
        (cp := ord(c)) in cover and cp != VS16 and cp != ZWJ and not _emoji_by_default(cp)
        for c in text
    )


@lru_cache(maxsize=128)
def face(name: str, size: int) -> ImageFont.FreeTypeFont:
    """Font file ``name`` of the chain at ``size`` px."""
    return ImageFont.truetype(str(FONT_DIR / name), max(6, size))
