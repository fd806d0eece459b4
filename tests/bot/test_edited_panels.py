"""A private panel edited by a tap sends again only the pictures whose drawing changed."""

from __future__ import annotations

from bot.client import TableBot
from tests.support.bot import BOAZ, CHANNEL, RUTH, STRANGER
from tests.support.harness import Harness


async def test_an_edited_panel_sends_again_only_the_pictures_that_changed(
    harness: Harness,
) -> None:
    """Issue 27.3: a private panel edited by a tap keeps the pictures that show the same
    (the card game's table while a play is built) and uploads only what changed."""
    h = harness
    bot: TableBot = h.bot  # type: ignore[assignment]
    users = [(RUTH, "Ruth"), (BOAZ, "Boaz"), (STRANGER, "Naomi")]
    for user, name in users:
        h.user(user, name)
    record = await bot.service.lobby.create_game(
        h.guild_id, CHANNEL, RUTH, "Ruth", "noah", seed=3, shuffle_seats=False
    )
    for user, name in users[1:]:
        await bot.service.lobby.join(CHANNEL, user, name)
    started = await h.slash(RUTH, "table start")
    board = [s for s in started if s.kind == "channel_message" and s.images][-1]
    opened = (await h.click(RUTH, board, f"ob:{record.id}:1")).last
    names = [name for name, _ in opened.files]
    assert len(names) == 2 and names[0].startswith("board-")  # the table, and Ruth's hand
    pick = next(c for c in opened.custom_ids if ":pick" in c)
    card = opened.component(pick).option_values[0]
    step = await h.select(RUTH, opened, pick, [card])
    # The table is the same until a card is played: kept, not uploaded again.
    uploaded = [name for r in step.requests for name, _ in r.files]
    assert uploaded == []
    assert [name for name, _ in step.last.files] == names[:1]
    assert step.last.files[0][1] == opened.files[0][1]
