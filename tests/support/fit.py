"""Whether a picture's words fit: every text drawn, with its box, checked for being cut (only
names may be shortened), outside its picture, or over another text. Shared by the tests of
every game's pictures (the ``pictures`` fixture of ``tests/games/conftest.py``)."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from importlib import import_module
from typing import Any

import pytest
from PIL import Image, ImageDraw

from render import style
from render.style import PHONE_WIDTH, player_names

#: Display names as long as Discord allows (32 characters).
LONG_NAMES = [
    "Maximiliaan van Oranje-Nassau II",
    "Guadalupe Fernández de Córdoba",
    "Bartholomeus Zacharias Jansen",
    "Wolfgang Amadeus Mozartsson",
    "Zipporah Bat-Jethro of Midian 3",
]
Box = tuple[float, float, float, float]
#: The modules that draw pictures, imported before their ``clip`` is watched.
DRAWING = (
    "render.covenant.board",
    "render.covenant.pictures",
    "render.covenant.gallery",
    "render.covenant.closeups",
    "render.noah.cards",
    "render.noah.pictures",
)


class Pictures:
    """What the pictures drew while recording: each text with its box, per image, and every
    text :func:`render.style.clip` had to shorten."""

    def __init__(self) -> None:
        self.texts: list[tuple[object, tuple[int, int], str, Box]] = []
        self.images: list[object] = []  # kept alive, so no two share an id
        self.clipped: list[tuple[str, str]] = []
        self.checked = 0  # texts checked so far

    def problems(self, draw: Callable[[], object], names: list[str]) -> list[str]:
        """Draw, then say what does not fit: a message cut (only a name may be shortened),
        a text outside its picture, two texts over each other."""
        self.texts.clear()
        self.clipped.clear()
        draw()
        self.checked += len(self.texts)
        allowed = {f"{mark}{name}" for name in names for mark in ("", "▶ ", "★ ")}
        found = [
            f"cut: {whole!r} -> {cut!r}" for whole, cut in self.clipped if whole not in allowed
        ]
        by_image: dict[int, list[tuple[str, Box]]] = {}
        for image, (width, height), text, (x0, y0, x1, y1) in self.texts:
            if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
                found.append(f"outside its {width}x{height} picture: {text!r}")
            by_image.setdefault(id(image), []).append((text, (x0, y0, x1, y1)))
        for texts in by_image.values():
            for i, (one, a) in enumerate(texts):
                for other, b in texts[i + 1 :]:
                    if (
                        min(a[2], b[2]) - max(a[0], b[0]) > 1
                        and min(a[3], b[3]) - max(a[1], b[1]) > 1
                    ):
                        found.append(f"over each other: {one!r} and {other!r}")
        return found

    def check_all(
        self, every_picture: Callable[[list[str]], dict[str, Callable[[], object]]], language: str
    ) -> None:
        """Every picture ``every_picture(names)`` gives, with long names and with the
        default names of ``language``: nothing cut but names, nothing outside its picture,
        no text over another."""
        for names in (LONG_NAMES, player_names(5, None, language)):
            for name, draw in every_picture(names).items():
                assert self.problems(draw, names) == [], name
        assert self.checked > 500


#: ``seen(draw, xy, text, font, anchor, stroke_width)`` is told of a text about to be drawn.
Seen = Callable[[ImageDraw.ImageDraw, tuple[float, float], str, Any, Any, float], None]


def record_texts(monkeypatch: pytest.MonkeyPatch, seen: Seen) -> None:
    """Tell ``seen`` of every text drawn from now on (for this test), whichever way: by
    ``ImageDraw.text``, or from a remembered mask (plain text, :func:`render.style._stamp`)."""
    original = ImageDraw.ImageDraw.text

    def text(self, xy, text, fill=None, font=None, anchor=None, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen(self, xy, text, font, anchor, kwargs.get("stroke_width", 0))
        return original(self, xy, text, fill, font, anchor, *args, **kwargs)

    stamp = style._stamp

    def stamped(draw, xy, text, face, fill, anchor):  # type: ignore[no-untyped-def]
        seen(draw, xy, text, face, anchor, 0)
        stamp(draw, xy, text, face, fill, anchor)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    monkeypatch.setattr(style, "_stamp", stamped)


def watch(monkeypatch: pytest.MonkeyPatch) -> Pictures:
    """Record every text drawn and every text clipped from now on (for this test)."""
    seen = Pictures()

    def record(draw, xy, text, face, anchor, stroke_width):  # type: ignore[no-untyped-def]
        image = draw._image
        box = draw.textbbox(xy, text, font=face, anchor=anchor, stroke_width=stroke_width)
        seen.images.append(image)
        seen.texts.append((image, image.size, text, box))

    record_texts(monkeypatch, record)
    real_clip = style.clip

    def clip(text: str, face, width: float) -> str:  # type: ignore[no-untyped-def]
        cut = real_clip(text, face, width)
        if cut != text:
            seen.clipped.append((text, cut))
        return cut

    # Each module has its own name for clip (render.covenant.board is also a function).
    for name in DRAWING:
        import_module(name)
    for name, module in list(sys.modules.items()):
        if name.startswith("render.") and getattr(module, "clip", None) is real_clip:
            monkeypatch.setattr(module, "clip", clip)
    return seen


def on_phone(draw: Callable[[], bytes]) -> tuple[float, int]:
    """The smallest text the picture ``draw`` draws (a font's size, whatever draws it), in
    px on a phone that shows the picture 400 px wide; and the picture's width."""
    sizes: list[float] = []

    def record(draw, xy, text, face, anchor, stroke_width):  # type: ignore[no-untyped-def]
        if face is not None and str(text).strip():
            sizes.append(face.size)

    with pytest.MonkeyPatch.context() as patch:
        record_texts(patch, record)
        width = Image.open(io.BytesIO(draw())).width
    assert sizes, "no text was drawn"
    return min(sizes) * PHONE_WIDTH / width, width
