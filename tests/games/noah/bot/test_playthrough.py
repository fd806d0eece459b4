"""Whole games of Ark played by tapping through the in-process Discord (playthrough.py),
every public message and public picture input checked for hidden cards."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.games.noah.bot.playthrough import play
from tests.support.harness import Harness


@pytest.mark.parametrize("seed", [3, 11])
async def test_four_players_tap_through_a_card_game_and_nothing_secret_is_public(
    harness: Harness, seed: int
) -> None:
    _, game = await play(harness, None, seed=seed)
    assert game.phase == "over"


async def test_three_players_and_their_pictures(harness: Harness, tmp_path: Path) -> None:
    (tmp_path / "400").mkdir()
    _, game = await play(harness, tmp_path, seed=5, players=3)
    assert game.phase == "over"
    pictures = sorted(p.name for p in tmp_path.glob("*.png"))
    for kind in ("final-scores", "final-ark", "your-hand", "preview", "rules-key", "ark.png"):
        assert any(kind in p for p in pictures), kind
