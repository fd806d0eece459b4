"""What pictures a tapped turn of the card game uploads (issue 40.6): a two-card play sent
the board twice, once at the start and again, drawn with the first card on it, while the
second card was built, though the message already showed that ship in the first card's
preview. The second card is built on that preview, kept as it is: the board and the hand,
the first card's preview and the whole play's, four pictures, none sent twice."""

from __future__ import annotations

from pathlib import Path

from bot.client import TableBot
from bot.games import Seen, plugin
from bot.table.common import names_of
from engine.noah import PlayCards
from tests.support.bot import CHANNEL, make_bot
from tests.support.harness import Harness
from tests.support.taps import Tapper, TurnCost, plan_turn

SEED = 1


def kind(name: str) -> str:
    """A picture's file name without its digest: ``preview-3e74c922f6.png`` -> ``preview``."""
    return name.rsplit("-", 1)[0]


async def test_a_two_card_play_sends_each_picture_once(tmp_path: Path) -> None:
    bot: TableBot = await make_bot(tmp_path / "g.sqlite3")
    async with Harness(bot, channel_id=CHANNEL) as h:
        users = [h.user(41 + n, f"Player {n + 1}").id for n in range(3)]
        service = bot.service
        record = await service.lobby.create_game(
            h.guild_id, CHANNEL, users[0], "Player 1", "noah", seed=SEED, shuffle_seats=False
        )
        for n, user in enumerate(users[1:], start=2):
            await service.lobby.join(CHANNEL, user, f"Player {n}")
        await h.slash(users[0], "table start")
        tapper = Tapper(h, plugin("noah").front, record.id)
        two_cards: list[TurnCost] = []
        while len(two_cards) < 2:
            record, game = await service.play.state(record.id)
            assert record.status == "active", "the seeded game has two two-card plays"
            seat = record.seats[game.current_player]
            assert seat.user_id is not None
            seen = Seen(game, seat.index, names_of(record), record.version, record.options)
            plan = plan_turn(game, seed=SEED * 1000 + game.turn)
            cost = TurnCost("noah")
            await tapper.play(seat.user_id, seen, plan, cost)
            played = [a for a in cost.actions if isinstance(a, PlayCards)]
            if played and len(played[0].placements) == 2:
                two_cards.append(cost)
    for cost in two_cards:
        assert [kind(n) for n in cost.names] == ["board", "your-hand", "preview", "preview"]
        assert len(set(cost.names)) == 4, cost.names
