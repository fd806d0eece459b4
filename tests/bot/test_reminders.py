"""Reminders and time-outs through the bot's background task, with a fake clock."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.client import TableBot
from bot.cogs.reminders import Reminders
from bot.service import DueTurn, FakeClock
from tests.bot.test_discord import BOAZ, LEADER, RUTH, scripted_lobby, start
from tests.support.bot import CHANNEL, make_bot
from tests.support.harness import Harness


def reminders(h: Harness) -> Reminders:
    cog = h.bot.get_cog("Reminders")
    assert isinstance(cog, Reminders)
    return cog


async def test_a_reminder_mentions_the_player_once(db_path: Path) -> None:
    clock = FakeClock()
    async with Harness(await make_bot(db_path, clock), channel_id=CHANNEL) as h:
        await scripted_lobby(h, ["T21", "T39", "T39"])
        await start(h)
        # The normal pace: a three-day bank, reminded when half of it is used (36 h).
        clock.advance(hours=35)
        async with h.capture() as early:
            assert await reminders(h).run_once() == 0
        assert list(early) == []
        clock.advance(hours=2)
        async with h.capture() as sent:
            assert await reminders(h).run_once() == 1
        (message,) = sent.messages
        assert message.kind == "channel_message" and f"<@{RUTH}>" in message.content
        deadline = int(clock.now().timestamp()) - 37 * 3600 + 72 * 3600
        assert f"<t:{deadline}:R>" in message.content
        async with h.capture() as again:
            assert await reminders(h).run_once() == 0
        assert list(again) == []


async def test_dm_reminders_for_those_who_ask(db_path: Path) -> None:
    clock = FakeClock()
    async with Harness(await make_bot(db_path, clock), channel_id=CHANNEL) as h:
        await scripted_lobby(h, ["T21", "T39", "T39"])
        opted = await h.slash(RUTH, "table pings", where="both")
        assert opted.last.ephemeral and "direct message" in opted.last.content
        await start(h)
        clock.advance(hours=37)
        async with h.capture() as sent:
            await reminders(h).run_once()
        # The game is played in a thread of the channel; the DM links to it.
        (thread,) = h.thread_ids()
        (in_thread,) = [s for s in sent.messages if s.channel_id == thread]
        assert f"<@{RUTH}>" in in_thread.content
        (dm,) = [s for s in sent.messages if s.channel_id != thread]
        assert f"<#{thread}>" in dm.content and "your time runs out <t:" in dm.content


@asynccontextmanager
async def ruths_time_is_up(db_path: Path) -> AsyncIterator[tuple[Harness, int]]:
    """The bot with a started game (its id) whose first player, Ruth, was reminded and then
    let her time run out: the next round plays her time-out."""
    clock = FakeClock()
    async with Harness(await make_bot(db_path, clock), channel_id=CHANNEL) as h:
        game_id = await scripted_lobby(h, ["T21", "T39", "T39"])
        await start(h)
        clock.advance(hours=37)
        await reminders(h).run_once()  # half the bank: Ruth is reminded
        clock.advance(hours=36)
        yield h, game_id


async def test_a_time_out_lets_a_computer_play_the_turn(db_path: Path) -> None:
    async with ruths_time_is_up(db_path) as (h, game_id):
        async with h.capture() as sent:
            await reminders(h).run_once()
        board = [s for s in sent.messages if s.images and s.kind == "channel_message"]
        assert len(board) == 1
        assert "Ruth took too long" in board[0].content
        assert f"<@{BOAZ}>" in board[0].content
        bot: TableBot = h.bot  # type: ignore[assignment]
        record = await bot.service.play.get_game(game_id)
        assert record.current_seat == 1 and record.version >= 2


async def test_a_time_out_can_only_tell_the_moderators(db_path: Path) -> None:
    clock = FakeClock()
    async with Harness(await make_bot(db_path, clock), channel_id=CHANNEL) as h:
        game_id = await scripted_lobby(h, ["T21", "T39", "T39"])
        set_up = await h.slash(
            LEADER, "moderate settings", timeout_action="notify", moderator_role=h.moderator_role
        )
        assert "When time runs out: the moderators and the creator are told" in set_up.last.content
        refused = await h.slash(BOAZ, "moderate settings", pace="fast")
        assert "Only moderators" in refused.last.content
        await start(h)
        clock.advance(hours=37)
        await reminders(h).run_once()  # half the bank: Ruth is reminded
        clock.advance(hours=43)
        async with h.capture() as sent:
            await reminders(h).run_once()
        texts = [s.content for s in sent.messages]
        assert any("Ruth has not played" in text for text in texts)
        bot: TableBot = h.bot  # type: ignore[assignment]
        assert (await bot.service.play.get_game(game_id)).version == 0


async def test_after_downtime_the_task_catches_up(db_path: Path) -> None:
    clock = FakeClock()
    async with Harness(await make_bot(db_path, clock), channel_id=CHANNEL) as h:
        game_id = await scripted_lobby(h, ["T21", "T39", "T39"])
        await start(h)
        # The bot is down for four days; a new process starts on the same database, at
        # 9:00 in New York (the server's likeliest time zone: its quiet hours are over).
        clock.advance(days=4, hours=2)
        await h.restart(await make_bot(db_path, clock))
        async with h.capture() as sent:
            handled = await reminders(h).run_once()
        assert handled >= 1
        bot: TableBot = h.bot  # type: ignore[assignment]
        # Ruth was never reminded while the bot was down: she is now, with a last stretch
        # of a tenth of her bank, rather than timed out unwarned.
        (late,) = [s for s in sent.messages if f"<@{RUTH}>" in (s.content or "")]
        assert "Your time runs out <t:" in late.content
        assert (await bot.service.play.get_game(game_id)).current_seat == 0
        clock.advance(hours=7.3)
        await reminders(h).run_once()
        record = await bot.service.play.get_game(game_id)
        assert record.current_seat == 1  # the overdue turn was played by a computer


async def test_a_turn_stored_just_before_a_crash_is_still_announced(db_path: Path) -> None:
    clock = FakeClock()
    async with Harness(await make_bot(db_path, clock), channel_id=CHANNEL) as h:
        game_id = await scripted_lobby(h, ["T21", "T39", "T39"])
        await start(h)
        bot: TableBot = h.bot  # type: ignore[assignment]
        # Ruth's whole turn reaches the database, but the bot dies before posting it.
        for action in (
            {"type": "place_tile", "x": 0, "y": -1, "rotation": 180},
            {"type": "deploy", "port": "S", "prophet": False},
            {"type": "place_ark", "x": 0, "y": -1},
        ):
            await bot.service.play.act(game_id, RUTH, action)
        await h.restart(await make_bot(db_path, clock))
        async with h.capture() as soon:
            await reminders(h).run_once()
        assert list(soon) == []  # within the grace period it may still be on its way
        clock.advance(minutes=3)
        async with h.capture() as sent:
            assert await reminders(h).run_once() == 1
        (board,) = [s for s in sent.messages if s.images and s.kind == "channel_message"]
        assert "not shown because the bot was restarting" in board.content
        assert f"<@{BOAZ}>" in board.content and "Scores: Ruth 4, Boaz 0" in board.content
        # The whole stored turn is told, from its first step.
        assert "Ruth placed a tile on M12." in board.content
        assert "A 2-tile city was completed: Ruth +4." in board.content
        async with h.capture() as again:
            assert await reminders(h).run_once() == 0
        assert list(again) == []
        bot = h.bot  # type: ignore[assignment]
        assert (await bot.service.play.get_game(game_id)).version == 3


async def test_a_move_that_lands_during_its_time_out_is_no_error(
    db_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A race the bot expects is logged as what it is: a line of information, not an error
    with a traceback. The time-out then plays nothing: Ruth's move stands."""
    async with ruths_time_is_up(db_path) as (h, game_id):
        bot: TableBot = h.bot  # type: ignore[assignment]
        service = bot.service
        claim = service.notices.claim

        async def claimed_then_ruth_moves(due: DueTurn) -> bool:
            # Ruth places her tile just after her time-out was claimed (while a computer
            # thinks for her turn, say).
            claimed = await claim(due)
            record, game = await service.play.state(game_id)
            await service.play.act(game_id, RUTH, game.legal_actions()[0], record.version)
            return claimed

        monkeypatch.setattr(service.notices, "claim", claimed_then_ruth_moves)
        with caplog.at_level(logging.INFO, logger="arkbot"):
            await reminders(h).run_once()
        ours = [r for r in caplog.records if r.name.startswith("arkbot")]
        assert [r.getMessage() for r in ours if r.levelno >= logging.WARNING] == []
        (told,) = [r for r in ours if f"game {game_id}" in r.getMessage()]
        assert told.levelno == logging.INFO and told.exc_info is None
        assert "moved on" in told.getMessage()
        log = await service.history.actions(game_id)
        assert [(a.seat, a.source) for a in log] == [(0, "player")]  # her move, no time-out
