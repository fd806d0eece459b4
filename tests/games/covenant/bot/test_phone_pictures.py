"""The Covenant's pictures readable on a phone, about 400 px wide (issue 40.10): the
``/table status`` board was the whole board with its players' panel beside or under it
(1,320-1,560 px wide: the panel's words about 5 px there), and the final board carried the
same panel (1,680 px) under the final scores, which say it all readably. The status is now
the board post's close-up with the standings in words and the whole board a tap away; the
final board is the board alone."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

import render.covenant
from bot.client import TableBot
from bot.games import plugin
from engine.common import Rng
from engine.covenant import Game
from render.covenant.board import draw_board
from tests.support.bot import BOAZ, CHANNEL, RUTH, make_bot
from tests.support.harness import Harness

COVENANT = plugin("covenant")
NAMES = ["Ruth", "Boaz"]
#: The board post's close-up, drawn for a phone (its widest picture).
CLOSE_UP_WIDTH = 840


async def test_the_status_is_the_board_posts_close_up_with_the_whole_board_a_tap_away(
    tmp_path: Path,
) -> None:
    bot: TableBot = await make_bot(tmp_path / "g.sqlite3")
    async with Harness(bot, channel_id=CHANNEL, timeout=60) as h:
        h.user(RUTH, "Ruth")
        h.user(BOAZ, "Boaz")
        await bot.service.lobby.create_game(
            h.guild_id, CHANNEL, RUTH, "Ruth", "covenant", seed=3, shuffle_seats=False
        )
        await bot.service.lobby.join(CHANNEL, BOAZ, "Boaz")
        started = await h.slash(RUTH, "table start")
        post = [s for s in started if s.kind == "channel_message" and s.images][-1]
        status = (await h.slash(BOAZ, "table status")).last
        assert status.ephemeral
        assert "\nScores: Ruth 0, Boaz 0\n" in status.content  # the standings in words
        # The very picture of the board post, as wide as it is.
        ((_, shown),) = status.files
        assert shown == post.files[0][1]
        assert status.images[0].width == CLOSE_UP_WIDTH
        whole = await h.click(BOAZ, status, status.component(label="Whole board").custom_id)
        assert whole.last.ephemeral and whole.last.images
        assert "The whole board, as large as it has grown" in whole.last.content


def test_the_final_board_is_the_board_alone_beside_the_final_scores() -> None:
    game, rng = Game.new(players=2, seed=3), Rng(3)
    while game.phase != "over":
        game.apply(game.sample_action(rng))
    view = game.view(None)
    scores, board = COVENANT.front.final_post(view, NAMES, ended_early=False).pictures
    assert scores.function == "render.covenant:final"
    assert board.function == "render.covenant:board"
    alone = Image.open(io.BytesIO(render.covenant.board(*board.args))).convert("RGB")
    drawn = render.covenant.board(view.to_json(), False, NAMES)  # as the status drew it
    with_panel = Image.open(io.BytesIO(drawn)).convert("RGB")
    _, layout = draw_board(view, names=NAMES)
    left, top, _, _ = layout.panel
    # The board part of the picture with the panel, pixel for pixel, and nothing else.
    if layout.panel_side == "bottom":
        box = (0, 0, with_panel.width, top)
    else:
        box = (0, 0, left, with_panel.height)
    assert alone.size == (box[2], box[3])
    assert alone.tobytes() == with_panel.crop(box).tobytes()
