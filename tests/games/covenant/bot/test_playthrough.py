"""A short game played by tapping, as three people would (the whole game: playthrough.py)."""

from __future__ import annotations

from pathlib import Path

from tests.games.covenant.bot.playthrough import play
from tests.support.harness import Harness


async def test_three_players_tap_through_a_game_to_the_end(
    harness: Harness, tmp_path: Path
) -> None:
    (tmp_path / "400").mkdir()
    await play(harness, tmp_path, seed=7, tiles=12)  # checks that the game finished
    pictures = sorted(p.name for p in tmp_path.glob("*.png"))
    for kind in ("final-scores", "final-board", "board-turn", "squares", "your-tile", "the-city"):
        assert any(kind in p for p in pictures), kind
    assert len(list((tmp_path / "400").glob("*.png"))) == len(pictures)
