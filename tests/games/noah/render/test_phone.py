"""Issue 27.4: Ark's pictures read on a phone, and the table stays under 1,600 px tall.

The table picture (the ship and everything around it) is sent at every turn: it grew with
the ship, up to 3,324 px tall, four phone screens. Now its rows fold, what matters least
first, so it stays under 1,600 px at its width whatever the game. And on every picture a
player is sent, the smallest text is at least 9 px (a font's size) when the picture is
shown 400 px wide.
"""

from __future__ import annotations

import pytest

import render.noah as render
from engine.common import Rng
from engine.noah import CARDS, Game, PlayCards
from render.noah.pictures import MOST_HEIGHT, W, _rows, board_image
from render.style import PHONE_TEXT
from tests.support.fit import LONG_NAMES, on_phone

#: Every card that goes on the ship, once.
SHIP = [c.id for c in CARDS if c.kind != "rain"]


def worst(per_cabin: int, players: int = 5) -> Game:
    """Every card on the ship, ``per_cabin`` to a cabin, the cabins shared by both sides."""
    cabins = [SHIP[i : i + per_cabin] for i in range(0, len(SHIP), per_cabin)]
    return Game.arranged(players, port=cabins[0::2], starboard=cabins[1::2])


@pytest.mark.parametrize("per_cabin", [1, 2, 3])
def test_the_table_stays_under_1600_px_whatever_the_game(per_cabin: int) -> None:
    view = worst(per_cabin).view(None)
    rows = max(len(view["ship"]["port"]), len(view["ship"]["starboard"]))
    assert rows >= 10
    for preview in (False, True):
        image = board_image(view, LONG_NAMES, "es", preview=preview)
        assert image.width == W and image.height < 1600
    over = {**view, "phase": "over", "winners": [0]}
    assert board_image(over, LONG_NAMES, "nl").height <= MOST_HEIGHT


def test_what_matters_least_folds_first() -> None:
    """Full cabins near the bow fold before cabins with a free place; the cards just played
    stay in full; the places of the next cabins stay."""
    port = [["Sheep", "Cat", "Cow"], ["Camel"], ["Goat", "Dog", "Horse"], ["Mouse"]]
    starboard = [["Fish", "Penguin", "Seal"], ["Lion"], ["Zebra", "Deer", "Moose"], ["Fox"]]
    game = Game.arranged(3, port=port, starboard=starboard)
    view = game.view(None)
    view["last_played"] = [CARDS.index(next(c for c in CARDS if c.name == "Zebra"))]
    full = [r.height for r in _rows(view, True, 10_000, "en")]
    # Room for all but a little: the first full row (near the bow) folds, and that is all.
    kinds = [r.kind for r in _rows(view, True, sum(full) + 10 * len(full) + 24 - 1, "en")]
    assert kinds == ["chips", "full", "full", "full", "new"]
    # Less room: the cabins with a free place fold next; the Zebra's row (just played) last.
    kinds = [r.kind for r in _rows(view, True, 600, "en")]
    assert kinds == ["chips", "chips", "full", "chips", "new"]
    kinds = [r.kind for r in _rows(view, True, 100, "en")]
    assert kinds[0] == "band" and kinds[-1] == "new"


def played(players: int, seed: int) -> Game:
    game, rng = Game.new(players=players, seed=seed), Rng(seed)
    while game.phase != "over":
        game.apply(game.sample_action(rng))
    return game


@pytest.mark.parametrize("language", ["en", "nl", "es", "es-419"])
def test_every_picture_reads_on_a_phone(language: str) -> None:
    over = played(5, 5)
    mid, rng = Game.new(players=4, seed=2), Rng(2)
    while mid.turn < 20 or mid.phase != "play":
        mid.apply(mid.sample_action(rng))
    plays = [a for a in mid.legal_actions() if isinstance(a, PlayCards)]
    shown = mid.preview(max(plays, key=lambda a: len(a.placements)).placements)
    seat = mid.current_player
    hand = list(mid.hand(seat))
    pictures = {
        "table": lambda: render.board(mid.view(None), LONG_NAMES[:4], language=language),
        "worst table": lambda: render.board(worst(1).view(None), LONG_NAMES, language=language),
        "preview": lambda: render.preview(shown.view(None), LONG_NAMES[:4], language=language),
        "hand": lambda: render.hand(hand, {}, None, mid.phase, language=language),
        "final": lambda: render.final(over.view_at_end(), LONG_NAMES, language=language),
        "rules board": lambda: render.rules_board(language=language),
        "rules key": lambda: render.rules_key(language=language),
    }
    small = {name: on_phone(draw)[0] for name, draw in pictures.items()}
    assert {k: round(v, 1) for k, v in small.items() if v < PHONE_TEXT} == {}
