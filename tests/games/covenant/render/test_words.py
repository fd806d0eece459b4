"""Every word the pictures draw comes from the ``[picture]`` section of the catalogue, and
fits its place in every language."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import pytest

import render.covenant as render
from engine.common import Rng
from engine.covenant import Game, MoveArk, PlaceTile
from engine.covenant.players import sensible_action
from render import i18n
from render.covenant.board import PANEL_W, PHASE_SIZE, board_layout, phase_lines
from render.covenant.gallery import gallery_png
from render.i18n import catalogue, t
from render.style import font, player_names, wrap
from tests.games.covenant.render.conftest import decode
from tests.support.fit import LONG_NAMES, Pictures, record_texts

RENDER = Path(__file__).resolve().parents[4] / "render"
KEY = re.compile(r"[\"']((?:covenant|common)\.picture\.[a-z_]+)[\"']")
NAMES = ["Ruth", "Boaz", "Miriam", "Eleazar", "Zipporah"]
# Data a picture may draw as it is: square labels, numbers, and the names given to it.
DATA = re.compile(r"^(?:[▶★] )?(?:[A-Z]{1,2}|-?\d+|" + "|".join(NAMES) + ")$")


def used_keys() -> set[str]:
    return {key for path in RENDER.rglob("*.py") for key in KEY.findall(path.read_text())}


def test_every_picture_key_used_exists_and_every_one_is_used() -> None:
    messages = {
        key
        for domain in ("covenant", "common")
        for key in catalogue(domain, "en")
        if key.startswith(f"{domain}.picture.")
    }
    used = used_keys()
    assert len(used) > 25
    assert sorted(used - messages) == []
    assert sorted(messages - used) == []


def test_no_text_literal_is_drawn() -> None:
    """No ``.text(...)`` or ``draw_text(...)`` call in render/ draws a string literal or an
    f-string with words."""
    for path in RENDER.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            if isinstance(node.func, ast.Attribute) and node.func.attr == "text":
                at = 1
            elif isinstance(node.func, ast.Name) and node.func.id == "draw_text":
                at = 2
            else:
                continue
            if len(node.args) > at:
                drawn = node.args[at]
                literals = [
                    part.value
                    for part in ast.walk(drawn)
                    if isinstance(part, ast.Constant) and isinstance(part.value, str)
                ]
                words = [
                    s
                    for s in literals
                    if re.search(r"[A-Za-z]{2}", s) and not KEY.fullmatch(f'"{s}"')
                ]
                assert words == [], f"{path.name}:{node.lineno} draws {words}"


# --------------------------------------------------------------------- a made-up language


def made_up(messages: dict[str, str]) -> dict[str, str]:
    """The English catalogue with every picture message marked ‹…› and made longer."""
    return {key: f"‹{text} xx›" if ".picture." in key else text for key, text in messages.items()}


@pytest.fixture
def xx(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Language ``xx`` in the catalogue, and the list of every string drawn meanwhile."""
    render.warm_up()  # the palette sample is drawn once, before anything is recorded
    real = i18n.catalogue

    def lookup(domain: str, language: str = "en") -> dict[str, str]:
        return made_up(real(domain, "en")) if language == "xx" else real(domain, language)

    monkeypatch.setattr(i18n, "catalogue", lookup)
    drawn: list[str] = []
    record_texts(monkeypatch, lambda draw, xy, text, *_: drawn.append(text))
    yield drawn


def check(drawn: list[str]) -> None:
    # A message may be wrapped over lines: each line holds its start ‹ or its end ›.
    words = [text for text in drawn if "‹" in text or "›" in text]
    assert words, "nothing was drawn in the made-up language"
    assert [text for text in drawn if text not in words and not DATA.match(text)] == []
    # Only names may be shortened, never the end of a message.
    assert [text for text in words if "…" in text and "xx›" not in text] == []


@pytest.mark.parametrize("names", [NAMES, None])
def test_board_pictures_draw_only_catalogue_words(
    xx: list[str], mid_three: Game, full_five: Game, names: list[str] | None
) -> None:
    render.board_png(mid_three, numbered=True, names=names, language="xx")
    render.latest_png(mid_three, names=names, language="xx")
    render.squares_png(mid_three, 0, language="xx")
    render.board_png(full_five, names=names, language="xx")
    check(xx)
    assert t("covenant.picture.turn", "xx", turn=mid_three.turn) in xx


def test_other_pictures_draw_only_catalogue_words(
    xx: list[str], full_two: Game, mid_three: Game
) -> None:
    render.final_png(full_two, names=NAMES[:2], language="xx")
    render.final_png(mid_three, language="xx")
    render.tile_rotations_png("T34", language="xx")
    gallery_png(language="xx")
    check(xx)
    assert t("covenant.picture.chart_axis", "xx") in xx
    assert t("covenant.picture.degrees", "xx", rotation=270) in xx


def test_english_is_the_default(full_two: Game) -> None:
    assert render.final_png(full_two) == render.final_png(full_two, language="en")
    assert player_names(2, ["Ruth"]) == ["Ruth", t("common.picture.player", number=2)]


# --------------------------------------------------------------------- the turn line


def deploying() -> Game:
    game = Game.new(players=2, seed=0, deck=["T39", "T37", "T21"])
    game.apply(game.legal_actions()[0])
    assert game.phase == "deploy"
    return game


@pytest.mark.parametrize("name", ["Boaz", "Eleazar the Priest", "W" * 32])
def test_the_turn_line_keeps_its_words(name: str) -> None:
    """The words are never cut off: only a very long name is shortened."""
    game = deploying()
    names = [name, "Ruth"]
    lines = phase_lines(game, names, "en", PANEL_W - 8, 2)
    face = font(PHASE_SIZE)
    assert all(face.getlength(line) <= PANEL_W - 8 for line in lines)
    text = " ".join(lines)
    tail = t("covenant.picture.deploying", player="", you="no").strip()
    assert text.endswith(tail)
    assert text.startswith(name) or "…" in text.split(tail)[0]
    if len(name) < 20:
        assert text == t("covenant.picture.deploying", player=name, you="no")


def test_winners_are_one_or_many(full_two: Game, full_five: Game) -> None:
    over = [g for g in (full_two, full_five) if g.phase == "over"]
    assert over
    game = over[0]
    names = NAMES[: game.players]
    text = " ".join(phase_lines(game, names, "en", 2000, 1))
    if len(game.winners) == 1:
        assert text == t("covenant.picture.over_one", winners=names[game.winners[0]])
    assert t("covenant.picture.over_one", winners="Boaz") == "Game over · Boaz wins"
    assert t("covenant.picture.over_many", winners="Ruth & Boaz") == "Game over · Ruth & Boaz win"
    assert t("covenant.picture.winner_many", winners="Ruth & Boaz", points=40).startswith(
        "Ruth & Boaz share"
    )


def test_wrap_breaks_at_spaces_or_gives_up() -> None:
    face = font(22)
    assert wrap("a b c", face, 1000, 1) == ["a b c"]
    lines = wrap("Boaz may put out a follower, move the Ark or pass", face, 360, 2)
    assert lines is not None and len(lines) == 2
    assert wrap("Boaz may put out a follower, move the Ark or pass", face, 100, 2) is None


# --------------------------------------------------------------------- every language


def ark_paths(game: Game) -> list[str]:
    return [a.path for a in game.legal_actions() if isinstance(a, MoveArk)]


def until(players: int, seed: int, done: Callable[[Game], bool]) -> Game:
    game, rng = Game.new(players=players, seed=seed), Rng(seed)
    while game.phase != "over" and not done(game):
        game.apply(sensible_action(game, rng))
    return game


@pytest.fixture(scope="module")
def games() -> dict[str, Game]:
    """A board early, mid-game and at the end; one in each step of a turn; the Ark free."""
    return {
        "early": until(3, 5, lambda g: g.turn > 3 and g.phase == "place_tile"),
        "mid": until(3, 5, lambda g: g.turn > 20 and g.phase == "place_tile"),
        "late": until(5, 3, lambda g: False),
        "deploy": until(4, 2, lambda g: g.turn > 12 and g.phase == "deploy"),
        "place_ark": until(3, 9, lambda g: g.phase == "place_ark"),
        "ark": until(2, 4, lambda g: g.phase == "deploy" and g.ark is not None and g.turn > 30),
        "narrow_ark": until(2, 19, lambda g: g.phase == "deploy" and g.ark is not None),
    }


def every_picture(games: dict[str, Game], names: list[str], language: str) -> dict[str, Callable]:
    """Every Covenant picture, drawn in ``language`` for players called ``names``."""
    mid, ark = games["mid"], games["ark"]
    (x, y), rotations = next(iter(mid.placements().items()))
    best = max(ark_paths(ark), key=lambda p: (sum(ark.ark_gain(p)), p))
    drawn: dict[str, Callable] = {
        f"board {name}": partial(
            render.board_png, game, numbered=True, names=names[: game.players], language=language
        )
        for name, game in games.items()
    }
    drawn |= {
        f"latest {name}": partial(
            render.latest_png, game, names=names[: game.players], language=language
        )
        for name, game in games.items()
    }
    drawn |= {
        f"squares {name} {page}": partial(render.squares_png, game, page, language=language)
        for name, game in games.items()
        for page in range(len(render.squares_pages(game)))
    }
    placed = mid.copy()
    placed.apply(PlaceTile(x, y, rotations[-1]))
    drawn |= {
        "tile placed": partial(render.placed_png, placed),
        "follower spots": partial(render.placed_png, games["deploy"]),
        "put the ark": partial(render.put_ark_png, games["place_ark"], language=language),
        "ark": partial(render.ark_png, ark, names=names[:2], language=language),
        "ark path": partial(render.ark_png, ark, best, names=names[:2], language=language),
        "narrow ark": partial(
            render.ark_png, games["narrow_ark"], names=names[:2], language=language
        ),
        "narrow ark path": partial(
            render.ark_png,
            games["narrow_ark"],
            ark_paths(games["narrow_ark"])[-1],
            names=names[:2],
            language=language,
        ),
        "final": partial(render.final_png, games["late"], names=names, language=language),
        "scores mid-game": partial(render.final_png, mid, names=names[:3], language=language),
        "rules board": partial(render.rules_board, language=language),
        "rules key": partial(render.key_png, language=language),
        "gallery": partial(gallery_png, language=language),
    }
    for tile in ("T01", "T34", "T61"):
        drawn[f"rotations {tile}"] = partial(render.tile_rotations_png, tile, language=language)
    return drawn


@pytest.mark.parametrize("language", ["en", "nl", "es", "es-419"])
def test_every_picture_keeps_its_words_in_every_language(
    pictures: Pictures, games: dict[str, Game], language: str
) -> None:
    """Long names and the longest words of each language: nothing cut but names, nothing
    outside its picture, no text over another."""
    pictures.check_all(lambda names: every_picture(games, names, language), language)


def test_the_board_panel_keeps_its_words_inside(pictures: Pictures, games: dict[str, Game]) -> None:
    """What the panel says stays in the panel, in every language."""
    for language in ("en", "nl", "es"):
        for game in games.values():
            pictures.problems(
                partial(
                    render.board_png, game, names=LONG_NAMES[: game.players], language=language
                ),
                LONG_NAMES,
            )
            x0, y0, x1, y1 = board_layout(game).panel
            beside = [
                (text, box)
                for _, _, text, box in pictures.texts
                if box[0] >= x0 - 1 and box[1] >= y0 - 1
            ]
            assert beside
            assert [text for text, b in beside if b[2] > x1 or b[3] > y1] == []


def test_the_checks_see_a_message_that_does_not_fit(
    pictures: Pictures, games: dict[str, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A made-up language whose words are far too long is caught."""
    real = i18n.catalogue

    def lookup(domain: str, language: str = "en") -> dict[str, str]:
        found = dict(real(domain, "en" if language == "yy" else language))
        if language == "yy" and domain == "covenant":
            found["covenant.picture.in_hand"] = "Hand " * 30
            found["covenant.picture.column_city"] = "Metropolitanregionen"
            found["covenant.picture.chart_axis"] = "turn " * 60
        return found

    monkeypatch.setattr(i18n, "catalogue", lookup)
    found = pictures.problems(partial(render.board_png, games["mid"], language="yy"), [])
    assert any(p.startswith("cut: 'Hand Hand") for p in found)
    found = pictures.problems(partial(render.final_png, games["late"], language="yy"), [])
    assert any("Metropolitanregionen" in p for p in found)
    assert any(p.startswith("outside its 840x") and "turn turn" in p for p in found)


def test_a_narrow_reach_of_the_ark_is_widened_for_its_caption(games: dict[str, Game]) -> None:
    """One column of squares is 238 px: the caption would not fit even in English."""
    from render.covenant.closeups import ark_reach
    from render.covenant.window import WIDTH

    narrow = games["narrow_ark"]
    assert len({x for x, _ in (*ark_reach(narrow), narrow.ark)}) == 1
    assert decode(render.ark_png(narrow, language="es")).width == WIDTH * 2 // 3
