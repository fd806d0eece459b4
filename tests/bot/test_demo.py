"""The offline demo: a whole game through the service, told turn by turn, with pictures."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import bot.demo
import engine.ai
from bot.demo import play
from engine.covenant import Game
from tests.support.installed import installed

#: A game installed from outside the tree, which the demo must know without naming it.
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "tictactoe"


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


def _chosen(monkeypatch: pytest.MonkeyPatch, *argv: str) -> tuple[str, int]:
    """The game and the number of players ``python -m bot demo ARGV`` would play."""
    chosen: list[tuple[str, int]] = []

    async def recorded(
        players: int,
        seed: int,
        out: Path | None,
        game: str | None = None,
        language: str = "en",
        length: str | None = None,
    ) -> None:
        chosen.append((game or "", players))

    monkeypatch.setattr(bot.demo, "play", recorded)
    assert bot.demo.main(list(argv)) == 0
    (found,) = chosen
    return found


def test_the_demo_knows_a_game_by_the_names_players_see(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Its command group (typed as "/ark ..." in Discord) and its English title, in any case.
    assert _chosen(monkeypatch, "--game", "ark") == ("noah", 3)
    assert _chosen(monkeypatch, "--game", "/ark") == ("noah", 3)
    assert _chosen(monkeypatch, "--game", "The Ark of the Covenant") == ("covenant", 3)
    assert _chosen(monkeypatch, "--game", "NOAH", "--players", "5") == ("noah", 5)
    assert _chosen(monkeypatch) == ("covenant", 3)


def test_the_card_game_demo_plays_under_the_name_players_see(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert bot.demo.main(["--game", "ark", "--seed", "3", "--out", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "A demo game of Ark for 3 computer players (seed 3)."
    assert {"turn-01.png", "final-ark.png", "final-scores.png"} <= {
        p.name for p in tmp_path.iterdir()
    }


def test_the_demo_help_lists_every_game_with_the_names_players_see(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exited:
        bot.demo.main(["--help"])
    assert exited.value.code == 0
    listed = capsys.readouterr().out
    assert "covenant   The Ark of the Covenant (/covenant), 2 to 5 players" in listed
    assert "noah       Ark (/ark), 3 to 5 players" in listed


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--game", "ark", "--players", "2"], "Ark is played by 3 to 5 players, not 2"),
        # Every game installed is named (the built-in ones first).
        (["--game", "chess"], "no game is called 'chess' (choose: covenant, noah"),
        (["--length", "long"], "The Ark of the Covenant has no length 'long' (full, medium"),
        (["--game", "ark", "--length", "short"], "Ark has no length 'short' (none: it has one"),
    ],
)
def test_the_demo_refuses_a_table_it_cannot_set_in_a_sentence(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        bot.demo.main(argv)
    assert exited.value.code == 2  # argparse's usage error, not a traceback
    assert said in capsys.readouterr().err


def test_a_game_installed_from_outside_is_named_and_seated_as_it_allows(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with installed(EXAMPLE):
        # Tic-tac-toe is for two: the demo seats two unless told otherwise.
        assert _chosen(monkeypatch, "--game", "Tic-tac-toe") == ("tictactoe", 2)
        with pytest.raises(SystemExit):
            bot.demo.main(["--help"])
        assert "tictactoe  Tic-tac-toe (/tictactoe), 2 players" in capsys.readouterr().out


async def test_the_demo_plays_the_short_game(tmp_path: Path) -> None:
    """Issue 40: the quick start showed the full game only. ``--length short`` plays the
    36-tile game: its board holds 36 tiles at most (one that fits nowhere is put aside)."""
    game = await play(3, 2, None, "covenant", "en", "short")
    assert game.phase == "over" and 30 <= len(game.board) <= 36
