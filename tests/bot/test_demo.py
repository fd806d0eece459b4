"""The offline demo: a whole game through the service, told turn by turn, with pictures."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import engine.ai
from bot.demo import play
from engine.covenant import Game


async def test_the_demo_tells_each_turn_once_and_writes_the_pictures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = await play(3, 2, tmp_path)
    lines = capsys.readouterr().out.splitlines()
    turns = [int(m.group(1)) for line in lines if (m := re.match(r"Turn (\d+): ", line))]
    assert turns == list(range(1, game.turn + 1))
    placed = [line for line in lines if " placed a tile on " in line]
    assert len(placed) == game.turn  # one sentence per tile, never twice
    winner = next(line for line in lines if line.startswith("🏆"))
    assert f"with {max(game.scores)} points" in winner
    assert lines[-1].startswith("Pictures written to ")
    pictures = sorted(p.name for p in tmp_path.glob("*.png"))
    assert len(pictures) == game.turn + 2
    assert {"final-scores.png", "final-board.png", "turn-01.png"} <= set(pictures)
    # The same seed and the same (normal) computer players, straight on the engine.
    direct, version = Game.new(players=3, seed=2), 0
    while direct.phase != "over":
        direct.apply(engine.ai.choose(direct, "normal", seed=2 + version))
        version += 1
    assert game.scores == direct.scores
