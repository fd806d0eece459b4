"""Ark, the card game, end to end: the unmodified bot process (``python -m bot``) against the
fake Discord, a whole 4-player game. Alice and Bob tap through their turns (take a card, or
play one built step by step; choose a pet or none; pass or play in the endgame); two
computer players, added with the lobby's menu, fill the other seats. The bot is killed
(SIGKILL) in the middle and started again; the game goes on, and the final scores are the
engine's own for the stored actions."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path

from bot.service import GameService
from engine.noah import RULES, Game
from tests.support.e2e import Arkbot
from tests.support.fake_discord import FakeDiscord, FakeMessage, pngs
from tests.support.players import WAIT, BotSaidNo, channel_posts, select_values, wait_until_up

#: How long a board may take after a computer's turn (see the wait below).
BOARD_WAIT = 60.0


async def state(db_path: Path, game_id: int) -> tuple[object, Game]:
    service = await GameService.open(db_path)
    try:
        return await service.play.state(game_id)
    finally:
        await service.close()


def ids(message: FakeMessage, part: str) -> list[str]:
    return [c for c in message.custom_ids if part in c]


async def test_a_whole_card_game_with_two_people_two_computers_and_a_restart(
    fake_discord: FakeDiscord, arkbot: Arkbot, db_path: Path
) -> None:
    fake, rec = fake_discord, fake_discord.recorder
    channel = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    proc = await arkbot()
    rng = random.Random(4)

    async def ask(iid: int) -> FakeMessage:
        return await rec.wait_for_reply(iid, timeout=WAIT)

    await fake.slash(alice, channel, "table", {"game": "noah"}, subcommand="new")
    # The lobby post, with its menu for computer players.
    lobby = await rec.wait_until(
        lambda: next(
            (
                m
                for m in rec.messages.values()
                if m.channel_id == channel.id and any(":add_computer" in c for c in m.custom_ids)
            ),
            None,
        ),
        WAIT,
        "the lobby",
    )
    game_id = int(next(c for c in lobby.custom_ids if ":add_computer" in c).split(":")[1])
    await ask(await fake.slash(bob, channel, "table", {}, subcommand="join"))
    for _ in range(2):
        await ask(
            await fake.select(alice, channel, lobby.id, f"lm:{game_id}:add_computer", ["easy"])
        )
    started = await ask(await fake.slash(alice, channel, "table", {}, subcommand="start"))
    assert "The game is on" in started.content, started.content
    posts = channel_posts(rec)
    humans = {alice.id: alice, bob.id: bob}
    restarted = False
    turns_played = 0
    for _ in range(400):
        record, game = await state(db_path, game_id)
        if record.status != "active":  # type: ignore[attr-defined]
            break
        seat = record.seats[game.current_player]  # type: ignore[attr-defined]
        user = humans.get(seat.user_id)
        if user is None:
            # A computer's turn: it plays in the background; wait for the game to move on.
            turn = game.turn
            for _ in range(200):
                _, now = await state(db_path, game_id)
                if now.turn != turn or now.phase == "over":
                    break
                await asyncio.sleep(0.05)
            continue
        if turns_played == 6 and not restarted:
            await proc.kill()
            await proc.start()
            await wait_until_up(fake, proc)
            restarted = True
        wanted = f"ob:{game_id}:{game.turn}"
        board = await rec.wait_until(
            lambda wanted=wanted: next(
                (m for m in reversed(posts.of(channel.id)) if wanted in m.custom_ids),
                None,
            ),
            # After a computer's turn the board waits for its thinking worker to start
            # (the first time a computer moves) and to think: seconds on a busy machine.
            BOARD_WAIT,
            f"the board of turn {game.turn}",
        )
        assert ids(board, ":hand"), board.custom_ids  # Show my hand on every turn post
        panel = await ask(await fake.click(user, channel, board.id, f"ob:{game_id}:{game.turn}"))
        assert panel.ephemeral
        for _ in range(12):
            if "Done" in (panel.content or ""):
                break
            petok = ids(panel, ":petok:")
            pick = ids(panel, ":pick")
            take = ids(panel, ":take:")
            play = [c for c in panel.custom_ids if re.search(r":play(:|$)", c)]
            if petok:
                panel = await ask(await fake.click(user, channel, panel.id, petok[0]))
            elif ids(panel, ":nopet"):
                pets = ids(panel, ":pet")
                menu = [c for c in pets if c.endswith(":pet")]
                if menu and rng.random() < 0.6:
                    value = select_values(panel, menu[0])[0]
                    panel = await ask(await fake.select(user, channel, panel.id, menu[0], [value]))
                else:
                    panel = await ask(
                        await fake.click(user, channel, panel.id, ids(panel, ":nopet")[0])
                    )
            elif play and (not pick or rng.random() < 0.6):
                panel = await ask(await fake.click(user, channel, panel.id, play[0]))
            elif take and (not pick or rng.random() < 0.5):
                panel = await ask(await fake.click(user, channel, panel.id, rng.choice(take)))
            elif pick:
                values = select_values(panel, pick[0])
                panel = await ask(
                    await fake.select(user, channel, panel.id, pick[0], [rng.choice(values)])
                )
            elif ids(panel, ":pass"):
                panel = await ask(await fake.click(user, channel, panel.id, ids(panel, ":pass")[0]))
            else:
                raise BotSaidNo(panel.text())
        turns_played += 1
    assert restarted
    record, game = await state(db_path, game_id)
    assert record.status == "finished"  # type: ignore[attr-defined]
    # The engine's own scores for the stored actions.
    service = await GameService.open(db_path)
    try:
        actions = await service.history.actions(game_id)
    finally:
        await service.close()
    rules = RULES
    replay = Game.new(players=4, seed=record.seed)  # type: ignore[attr-defined]
    for row in actions:
        replay.apply(rules.parse_action(row.action))
    assert replay.phase == "over" and replay.scores == game.scores
    final = await rec.wait_until(
        lambda: next(
            (
                m
                for m in reversed(posts.of(channel.id))
                if "final-scores.png" in [a.filename for a in m.attachments]
            ),
            None,
        ),
        WAIT,
        "the final post",
    )
    assert all(i.format == "PNG" for i in pngs(final))
    best = max(replay.scores)
    assert f"{best} points" in "\n".join(
        m.content or "" for m in rec.messages.values() if m.channel_id == channel.id
    )
