"""Make the fallback fonts of :mod:`render.fonts` from Debian's Noto packages (run by hand).

    apt-get install fonts-noto-cjk fonts-noto-color-emoji fonts-noto-core
    python3 -m pip install fonttools
    python3 -m render.build_fonts            # writes data/fonts/Noto*

Not needed to run or test the bot: the results are committed. What is kept, and why:

- **CJK**: Noto Sans CJK JP (one weight; bold is drawn thicker), subset to the characters
  names plausibly use, taken from the national standards' common sets (through Python's own
  codecs, no word list needed): GB 2312 level 1 (3,755 most used simplified hanzi), JIS X
  0208 level 1 (2,965 kanji), Big5's common set (5,401 traditional hanzi), together 7,174
  ideographs; KS X 1001's 2,350 Hangul syllables (nearly all Korean text); kana, bopomofo,
  Hangul jamo, CJK punctuation and full-width forms. No OpenType layout tables (horizontal
  names need none; they were half the size). All of CJK would be 16 MB; this is under 2 MB.
- **Other scripts**: Noto Sans Thai, Devanagari, Bengali, Tamil, Gurmukhi, Khmer, Lao and
  Myanmar, unhinted, layout kept (they need shaping). DejaVu already has Latin, Greek,
  Cyrillic, Armenian, Georgian, Hebrew and Arabic.
- **Emoji**: every glyph of Noto Color Emoji (single emoji and sequences: ZWJ families,
  flags, skin tones, keycaps), taken from its CBDT bitmaps, shrunk to 40 px cells in one
  palette PNG atlas, with the code-point sequence of each cell in a JSON index. The font
  itself is 11 MB of 136 px bitmaps; names are drawn at 14 to 30 px, so 40 px is plenty.
"""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

from PIL import Image

from render import fonts

CJK_SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
EMOJI_SOURCE = Path("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf")
NOTO_DIR = Path("/usr/share/fonts/truetype/noto")
CELL = 40
COLUMNS = 64


def _decoded(codec: str, rows: range, cells: list[int]) -> set[str]:
    found = set()
    for a in rows:
        for b in cells:
            try:
                char = bytes([a, b]).decode(codec)
            except UnicodeDecodeError:
                continue
            if len(char) == 1:
                found.add(char)
    return found


def cjk_characters() -> set[str]:
    """The characters kept in the CJK subset (see the module docstring)."""
    high = list(range(0xA1, 0xFF))

    def han(chars: set[str]) -> set[str]:
        return {c for c in chars if 0x4E00 <= ord(c) <= 0x9FFF}

    chars = han(_decoded("gb2312", range(0xB0, 0xD8), high))
    chars |= han(_decoded("euc_jp", range(0xB0, 0xD0), high))
    chars |= han(_decoded("big5", range(0xA4, 0xC7), [*range(0x40, 0x7F), *high]))
    chars |= _decoded("euc_kr", range(0xB0, 0xC9), high)  # KS X 1001 Hangul syllables
    for lo, hi in (
        (0x1100, 0x11FF),  # Hangul jamo
        (0x3000, 0x303F),  # CJK punctuation
        (0x3040, 0x30FF),  # hiragana, katakana
        (0x3100, 0x312F),  # bopomofo
        (0x3130, 0x318F),  # Hangul compatibility jamo
        (0x31F0, 0x31FF),  # katakana extensions
        (0xFF00, 0xFFEF),  # full-width and half-width forms
    ):
        chars |= {chr(c) for c in range(lo, hi + 1)}
    return chars


def _subset(source: Path, out: Path, chars: set[int] | None, layout: bool, number: int = 0) -> None:
    from fontTools import subset

    options = subset.Options()
    options.font_number = number
    options.layout_features = ["*"] if layout else []
    options.hinting = False
    options.notdef_outline = True
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    font = subset.load_font(str(source), options)
    wanted = chars if chars is not None else set(font.getBestCmap())
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(wanted))
    subsetter.subset(font)
    subset.save_font(font, str(out), options)


def emoji_sequences() -> dict[str, set[tuple[int, ...]]]:
    """Each glyph of Noto Color Emoji and every code-point sequence that draws it (VS16 left
    out). The font has each ligature twice, in reading order and reversed (for right-to-left
    runs): both are kept, the reversed ones simply never match a name."""
    from fontTools.ttLib import TTFont

    font = TTFont(str(EMOJI_SOURCE))
    cmap = font.getBestCmap()
    first: dict[str, int] = {}
    for cp, glyph in sorted(cmap.items()):
        first.setdefault(glyph, cp)
    found: dict[str, set[tuple[int, ...]]] = {}
    for cp, glyph in cmap.items():
        found.setdefault(glyph, set()).add((cp,))
    for lookup in font["GSUB"].table.LookupList.Lookup:
        for table in lookup.SubTable:
            if table.LookupType != 4:
                continue
            for start, ligatures in table.ligatures.items():
                for ligature in ligatures:
                    parts = [start, *ligature.Component]
                    if all(p in first for p in parts):
                        found.setdefault(ligature.LigGlyph, set()).add(
                            tuple(first[p] for p in parts)
                        )
    return {
        glyph: {tuple(cp for cp in cps if cp != fonts.VS16) for cps in sequences} - {()}
        for glyph, sequences in found.items()
    }


def build_emoji(out_dir: Path) -> None:
    from fontTools.ttLib import TTFont

    font = TTFont(str(EMOJI_SOURCE))
    strike = font["CBDT"].strikeData[0]
    keys: dict[str, int] = {}
    glyphs: list[Image.Image] = []
    for glyph, sequences in sorted(emoji_sequences().items(), key=lambda i: min(i[1])):
        if glyph not in strike or not sequences:
            continue
        picture = Image.open(io.BytesIO(strike[glyph].imageData)).convert("RGBA")
        scale = CELL / max(picture.size)
        small = picture.resize(
            (max(1, round(picture.width * scale)), max(1, round(picture.height * scale))),
            Image.Resampling.LANCZOS,
        )
        cell = Image.new("RGBA", (CELL, CELL), (0, 0, 0, 0))
        cell.paste(small, ((CELL - small.width) // 2, (CELL - small.height) // 2))
        for cps in sequences:
            keys.setdefault("-".join(f"{cp:x}" for cp in cps), len(glyphs))
        glyphs.append(cell)
    rows = math.ceil(len(glyphs) / COLUMNS)
    atlas = Image.new("RGBA", (COLUMNS * CELL, rows * CELL), (0, 0, 0, 0))
    for index, cell in enumerate(glyphs):
        atlas.paste(cell, ((index % COLUMNS) * CELL, (index // COLUMNS) * CELL))
    atlas.quantize(256, method=Image.Quantize.FASTOCTREE).save(
        out_dir / fonts.EMOJI_ATLAS, optimize=True
    )
    lookup = {"cell": CELL, "columns": COLUMNS, "sequences": dict(sorted(keys.items()))}
    (out_dir / fonts.EMOJI_INDEX).write_text(json.dumps(lookup, separators=(",", ":")) + "\n")


LICENCE_SOURCE = Path("/usr/share/doc/fonts-noto-cjk/copyright")


def write_licence(out: Path) -> None:
    """The SIL Open Font License 1.1 (as Debian ships it) for every Noto file made here."""
    lines = LICENCE_SOURCE.read_text().splitlines()
    start = max(i for i, line in enumerate(lines) if line.startswith("License: SIL-1.1")) + 1
    body = []
    for line in lines[start:]:
        if line and not line.startswith(" "):
            break
        body.append("" if line.strip() == "." else line[1:])
    made = ", ".join([fonts.CJK, *fonts.SCRIPTS, fonts.EMOJI_ATLAS, fonts.EMOJI_INDEX])
    out.write_text(
        "Noto fonts, subset and converted for arkbot by render/build_fonts.py:\n"
        f"{made}.\n\n"
        "Noto Sans CJK: Copyright 2014-2021 Adobe (http://www.adobe.com/), with Reserved Font\n"
        "Name 'Source'. Noto Sans Thai, Devanagari, Bengali, Tamil, Gurmukhi, Khmer, Lao,\n"
        "Myanmar: Copyright 2010-2020 Google Inc., 2015-2020 Google LLC. Noto Color Emoji:\n"
        "Copyright 2013-2017 Google Inc., Arjen Nienhuis.\n\n"
        "This Font Software is licensed under the SIL Open Font License, Version 1.1.\n\n"
        + "\n".join(body).strip()
        + "\n"
    )


def main(out_dir: Path = fonts.FONT_DIR) -> None:
    _subset(CJK_SOURCE, out_dir / fonts.CJK, {ord(c) for c in cjk_characters()}, layout=False)
    for name in fonts.SCRIPTS:
        source = NOTO_DIR / name.replace("-subset", "")
        _subset(source, out_dir / name, None, layout=True)
    build_emoji(out_dir)
    write_licence(out_dir / "LICENSE-Noto.txt")
    for path in sorted(out_dir.glob("Noto*")):
        print(f"{path.name}: {path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
