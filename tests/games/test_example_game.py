"""The example game of ``examples/tictactoe``, installed as any game from outside would be:
the registry finds all its parts, its computers play it at every level, and in the bot's
worker processes it thinks and is drawn in the reader's language (issue 26's "Done when")."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import engine.ai
from bot.games import Seen, TurnRecord, plugin
from bot.panels import Button, Play
from bot.pictures import Pictures, draw
from bot.service import GameService
from bot.settings import Settings
from engine import protocol, registry
from engine.common import Rng
from engine.errors import IllegalAction
from tests.support.bot import make_bot
from tests.support.harness import Harness
from tests.support.installed import installed

DISTRIBUTION = Path(__file__).resolve().parents[2] / "examples" / "tictactoe"
GUILD, CHANNEL, RUTH = 1000, 2000, 11
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module", autouse=True)
def tictactoe() -> Iterator[None]:
    with installed(DISTRIBUTION):
        yield


def new_game(*squares: int) -> Any:
    """A game with marks put on ``squares`` in turn (X first)."""
    from arkbot_tictactoe.engine import Mark

    game = registry.game_class("tictactoe").new(2, 0)
    for square in squares:
        game.apply(Mark(square))
    return game


def test_the_registry_finds_every_part_of_the_installed_game() -> None:
    found = registry.game("tictactoe")
    assert found.engine == "arkbot_tictactoe.engine"
    assert found.has_computers and found.pictures == "arkbot_tictactoe.render"
    assert found.front == "arkbot_tictactoe.front"
    assert found.languages == ("en", "es", "nl") and not found.hidden_information
    assert {"covenant", "noah"} < set(registry.games())
    game = found.game_class().new(2, 0)
    assert isinstance(game, protocol.Game) and registry.name_of(game) == "tictactoe"
    front = plugin("tictactoe")
    assert front.name == front.front.name == front.rules.name == "tictactoe"
    assert front.has_computers and front.front.title().key == "tictactoe.title"


def test_the_engine_keeps_the_protocol() -> None:
    from arkbot_tictactoe.engine import Drawn, Mark, Marked, Won, action_from_dict

    game = new_game()
    assert (game.players, game.phase, game.current_player, game.turn) == (2, "play", 0, 1)
    assert len(game.legal_actions()) == 9 and game.scores == (0, 0) and game.winners == ()
    assert action_from_dict(Mark(4).to_dict()) == Mark(4)
    copy = game.copy()
    assert game.apply(Mark(4), seat=0) == (Marked(0, 4),)
    assert copy.board == (None,) * 9  # the copy is its own
    again = type(game).from_json(game.to_json())
    assert again.to_json() == game.to_json() and json.loads(json.dumps(game.view(None)))
    assert game.view(0) == game.view(None) == game.determinise(1, Rng(3)).view(1)
    assert game.sample_action(Rng(1)) in game.legal_actions()
    refusals = [(Mark(4), None, "taken"), (Mark(9), None, "not_a_square"), (Mark(0), 0, "")]
    for action, seat, code in refusals:
        with pytest.raises(IllegalAction) as refused:
            game.apply(action, seat=seat)
        assert refused.value.code == (code or "not_your_turn")
    assert game.to_json() == again.to_json()  # a refusal changes nothing
    for square in (0, 2, 8, 6):
        events = game.apply(Mark(square))
    assert events == (Marked(0, 6), Won(0, (2, 4, 6)))
    assert (game.phase, game.current_player, game.winners, game.scores) == (
        "over",
        None,
        (0,),
        (1, 0),
    )
    assert game.legal_actions() == []
    drawn = new_game(0, 4, 8, 1, 7, 6, 2, 5)
    assert drawn.apply(Mark(3))[-1] == Drawn() and drawn.winners == (0, 1)


@pytest.mark.parametrize("level", engine.ai.LEVELS)
def test_computers_play_a_whole_game_at_every_level(level: str) -> None:
    for seed in range(3):
        game = new_game()
        while game.phase != "over":
            mover = level if game.current_player == seed % 2 else "easy"
            game.apply(engine.ai.choose(game, mover, seed=seed + game.turn, iterations=64))
        assert game.winners
        if level != "easy":  # normal and strong never lose to a beginner
            assert seed % 2 in game.winners


def test_a_hint_says_why_in_words_of_the_catalogues() -> None:
    from arkbot_tictactoe.engine.ai import COMPUTER

    # X has the top left and the top middle: O must block the top right corner.
    hint = engine.ai.hint(new_game(0, 4, 1), iterations=32)
    assert hint.reason == ("hint.blocks", {"square": 2})
    assert hint.reason[0] in COMPUTER.reasons == engine.ai.reasons("tictactoe")
    assert engine.ai.hint(new_game(0, 4, 1, 2), iterations=32).reason[0] == "hint.blocks"
    assert engine.ai.hint(new_game(), iterations=32).reason == ("hint.takes_centre", {})
    winning = engine.ai.hint(new_game(0, 3, 1, 4), iterations=32)
    assert winning.reason == ("hint.wins", {"square": 2})
    front = plugin("tictactoe").front
    seen = Seen(new_game(0, 3, 1, 4), 0, ("Ruth", "Boaz"), 4, {})
    (said,) = front.hint_text(seen, winning.action.to_dict(), *winning.reason)
    assert said.key == "tictactoe.hint.wins" and said.params["square"].key == "tictactoe.square.2"


def test_the_front_offers_the_free_squares_and_takes_a_typed_square() -> None:
    from arkbot_tictactoe.engine import Mark

    front = plugin("tictactoe").front
    game = new_game(4)
    seen = Seen(game, 1, ("Ruth", "Boaz"), 1, {})
    buttons = [c for c in front.panel(seen).controls if isinstance(c, Button)]
    assert [b.disabled for b in buttons] == [square == 4 for square in range(9)]
    assert [b.row for b in buttons] == [s // 3 for s in range(9)]
    assert front.on_control(seen, "mark", buttons[8].args, ()) == Play(Mark(8))
    assert front.on_command(seen, "mark", {"square": 1}) == Play(Mark(0))
    waiting = front.panel(Seen(game, 0, ("Ruth", "Boaz"), 1, {}))
    assert all(isinstance(c, Button) and c.disabled for c in waiting.controls)
    story = front.story([_turn(game.copy(), 0)], ("Ruth", "Boaz"))
    assert [line.key for line in story] == ["tictactoe.story.marked"]


def _turn(game: Any, square: int) -> Any:
    from arkbot_tictactoe.engine import Mark

    seat = game.current_player
    return TurnRecord(seat, game.turn, ("player",), game.apply(Mark(square)), True, (0, 0))


async def test_it_thinks_and_is_drawn_in_the_worker_processes(tmp_path: Path) -> None:
    """The service's computer thinks in a spawned worker, and a spawned painter draws the
    board with its title from the Dutch catalogue: the game is found there as here."""
    settings = Settings(think_workers=1, think_iterations=16, render_workers=1, poll_seconds=0)
    service = await GameService.open(tmp_path / "arkbot.sqlite3", settings=settings)
    pictures = Pictures(workers=1)
    try:
        await service.lobby.create_game(
            GUILD, CHANNEL, RUTH, "Ruth", game_name="tictactoe", shuffle_seats=False, seed=1
        )
        await service.lobby.add_computer(CHANNEL, RUTH, "strong")
        record = await service.lobby.start(CHANNEL, RUTH)
        await service.play.act(record.id, RUTH, {"type": "mark", "square": 0})
        await service.computers.settle()  # the computer's turn, thought in the worker
        record, game = await service.play.state(record.id)
        history = await service.history.actions(record.id)
        assert [(a.seat, a.source) for a in history] == [(0, "player"), (1, "bot")]
        assert record.version == 2 and game.current_player == 0
        assert game.board.count(None) == 7  # the computer marked a square
        _, hint = await service.computers.hint(record.id, RUTH)  # thought in the worker too
        assert hint.key in engine.ai.reasons("tictactoe")

        names = ("Ruth", "🤖 Miriam")
        picture = plugin("tictactoe").front.board_post(game.view(None), names).pictures[0]
        drawn = await pictures.draw(picture, "nl")
        assert drawn.startswith(PNG) and Image.open(io.BytesIO(drawn)).size[0] == 400
        assert drawn == draw(picture.function, picture.args, "nl")
        assert drawn != draw(picture.function, picture.args, "en")
    finally:
        pictures.close()
        await service.close()


async def test_it_is_played_at_the_real_table(tmp_path: Path) -> None:
    """Its typed command reaches Discord in every language, and a game is played by taps
    and typing, as any game is."""
    boaz = RUTH + 1
    async with Harness(await make_bot(tmp_path / "table.sqlite3"), channel_id=CHANNEL) as h:
        h.user(RUTH, "Ruth")
        h.user(boaz, "Boaz")
        lobby = (await h.slash(RUTH, "table new", game="tictactoe", seats="kept")).last
        assert "Tic-tac-toe" in lobby.content and "add_computer" in lobby.custom_ids[-1]
        game_id = int(lobby.custom_ids[0].split(":")[1])
        await h.click(boaz, lobby, f"lb:{game_id}:join")
        board = _public(await h.click(RUTH, lobby, f"lb:{game_id}:start"))
        assert "Ruth (X) plays next." in board.content and board.images[0].width == 400
        panel = (await h.click(RUTH, board, f"ob:{game_id}:1")).last
        assert panel.ephemeral and len(panel.custom_ids) == 9
        board = _public(await h.click(RUTH, panel, f"tb:{game_id}:0:mark:4"))
        assert "Ruth put X in the centre." in board.content
        taken = await h.slash(boaz, "tictactoe mark", square=5)
        assert taken.last.ephemeral and "taken already" in taken.last.content
        for user, square in ((boaz, 1), (RUTH, 2), (boaz, 3), (RUTH, 8)):
            reply = await h.slash(user, "tictactoe mark", square=square)
        assert "🏆 **Ruth** (X) wins with three in a row!" in _public(reply).content


def _public(reply: Any) -> Any:
    """The last public post of ``reply``."""
    return [s for s in reply if s.kind == "channel_message" and not s.ephemeral][-1]
