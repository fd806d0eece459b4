"""A short game of The Ark of the Covenant through the service (issue 27): computer players
of every level, a hint, the replay from the log, and the ratings."""

from __future__ import annotations

from bot.service import GameService
from engine.common import Rng
from engine.covenant import Game, action_from_dict
from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD, play_one


async def test_a_short_game_with_computers_a_hint_a_replay_and_ratings(
    service: GameService,
) -> None:
    await service.lobby.create_game(
        GUILD, CHANNEL, ALICE, "Alice", "covenant", options={"length": "short"},
        shuffle_seats=False, seed=9,
    )  # fmt: skip
    await service.lobby.join(CHANNEL, BOB, "Bob")
    await service.lobby.add_computer(CHANNEL, ALICE, "easy")
    await service.lobby.add_computer(CHANNEL, ALICE, "strong")
    record = await service.lobby.start(CHANNEL, ALICE)
    _, game = await service.play.state(record.id)
    assert (game.length, game.tiles_left) == ("short", 34)
    # A hint for the first player: a legal move of this game.
    _, hint = await service.computers.hint(record.id, ALICE)
    assert action_from_dict(hint.action) in game.legal_actions()
    rng = Rng(9)
    while record.status == "active":
        await play_one(service, record.id, policy="sensible", rng=rng)
        await service.computers.settle()
        record = await service.play.get_game(record.id)
    assert record.status == "finished"
    # The replay deals the same short game again from the seed and the log.
    _, turns, end = await service.history.replay_turns(record.id)
    assert isinstance(end, Game) and end.length == "short" and end.phase == "over"
    assert all(view.length == "short" for view, _ in turns)
    assert len(end.board) == 36 - sum(
        1 for _, turn in turns for e in turn.events if type(e).__name__ == "TileDiscarded"
    )
    assert record.scores == end.scores
    ratings = {r.user_id: r.games for r in await service.history.ratings(GUILD, "covenant")}
    assert ratings == {ALICE: 1, BOB: 1}  # people only, and a short game counts like any
