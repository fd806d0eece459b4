"""arkbot itself (``python -m bot``, unmodified) against the loopback fake Discord.

Each scenario runs the bot as its own process on its own SQLite file and plays through
``/`` commands, buttons and menus as simulated users would (see ``tests/support/players.py``).

The game is scripted: three players, the deck below, and the moves listed in ``PLAN``
(found with the engine's "sensible" computer player, then written out). Alice (seat 0)
closes a city with her follower on it, Bob puts the Ark on the start tile, Carol puts her
Prophet in a city, the Ark moves twice, and the final scoring gives 15 / 13 / 2.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from engine.covenant import Deploy, Game, MoveArk, Pass, PlaceArk, PlaceTile
from engine.covenant.notation import square_name
from tests.support.e2e import Arkbot
from tests.support.fake_discord import FakeDiscord, FakeMessage, pngs
from tests.support.players import (
    WAIT,
    Table,
    display_name,
    open_lobby,
    process_family,
    split_turns,
    stored_game,
    wait_until_up,
)

DECK = ["T36", "T22", "T21", "T09", "T25", "T23", "T37", "T07", "T01"]
PLAN = [
    PlaceTile(1, 0, 180),  # turn 1, Alice
    Deploy("SSE"),
    PlaceTile(0, -1, 180),  # turn 2, Bob: closes a city, puts the Ark on the start tile
    Pass(),
    PlaceArk(0, 0),
    PlaceTile(-1, -1, 180),  # turn 3, Carol: her Prophet
    Deploy("SSE", prophet=True),
    PlaceTile(0, 1, 90),  # turn 4, Alice moves the Ark one step
    MoveArk("E"),
    PlaceTile(0, 2, 0),  # turn 5, Bob
    Deploy("NNW"),
    PlaceTile(-1, 1, 0),  # turn 6, Carol
    Deploy("NNW"),
    PlaceTile(1, -1, 270),  # turn 7, Alice
    Deploy("E"),
    PlaceTile(1, 1, 270),  # turn 8, Bob moves the Ark three steps; the bag is empty
    MoveArk("SWS"),
]
TURNS = split_turns(Game.new(players=3, seed=0, deck=DECK), PLAN)
PLAYERS = ("alice", "bob", "carol")


async def table_for(
    fake: FakeDiscord, db_path: Path, *, seated: int = 3, channel: str = "games"
) -> Table:
    """A lobby with the scripted deck, Alice first and ``seated`` players already in it."""
    ch = fake.channel(channel)
    users = [fake.user(name) for name in PLAYERS]
    game_id = await open_lobby(db_path, fake, ch, users[:seated], DECK)
    return Table.scripted(fake, ch, game_id, users, DECK)


def assert_board(message: FakeMessage, *filenames: str) -> None:
    """A public turn message with exactly these PNGs, which decode."""
    assert not message.ephemeral
    assert [a.filename for a in message.attachments] == list(filenames)
    images = pngs(message)
    assert len(images) == len(filenames)
    assert all(i.format == "PNG" and i.width > 100 and i.height > 100 for i in images)


def all_answered(fake: FakeDiscord, but: frozenset[int] = frozenset()) -> None:
    """Every interaction got its first answer in time, and no answer was refused."""
    for ix in fake.recorder.interactions.values():
        if ix.id in but:
            continue
        assert ix.responded_at is not None, f"interaction {ix.id} was never answered"
        assert ix.rejected == [], ix.rejected
        assert ix.first_response_s is not None and ix.first_response_s < 3.0


# ----------------------------------------------------------------------------- scenarios


async def test_three_players_play_a_whole_scripted_game(
    fake_discord: FakeDiscord, arkbot: Arkbot, db_path: Path
) -> None:
    fake, rec = fake_discord, fake_discord.recorder
    table = await table_for(fake, db_path, seated=1)
    await arkbot()
    alice, bob, carol = table.seats
    for user in (bob, carol):
        _, joined = await table.slash(user, "table", "join")
        assert joined.ephemeral and "You joined" in joined.content
    lobby = [m for m in fake.recorder.messages_in(table.channel.id) if m.source == "channel"]
    assert display_name(carol) in lobby[0].content  # the lobby's own message, updated
    first = await table.start(alice)
    assert_board(first, "board-turn-1.png")
    assert f"<@{alice.id}>" in first.content and "3 roads that meet on it" in first.content
    assert "T36" not in first.content

    for n, plan in enumerate(TURNS, start=1):
        player = table.current
        typed = n in (3, 5, 7)
        if n == 3:  # Carol types; autocomplete offers the square she means
            square = square_name((plan[0].x, plan[0].y))
            ac = await fake.autocomplete(
                player, table.channel, "covenant", {"square": square[0]}, "square", "place"
            )
            choices = (await rec.wait_for_response(ac, timeout=WAIT)).choices
            assert square in [c["value"] for c in choices]
        board = await table.play_turn(plan, typed=typed)
        if table.game.phase != "over":
            assert_board(board, f"board-turn-{n + 1}.png")
            assert f"<@{table.current.id}>" in board.content
            assert display_name(player) in board.content  # the story of the turn
        else:
            assert_board(board, "final-scores.png", "final-board.png")

    # The final scores as the engine computes them from the same moves.
    engine = Game.new(players=3, seed=0, deck=DECK)
    for action in PLAN:
        engine.apply(action)
    assert engine.phase == "over" and engine.scores == (15, 13, 2)
    final = table.boards[-1].content
    assert f"**Alice** won with {engine.scores[0]} points" in final
    for seat, user in enumerate(table.seats):
        b = engine.breakdown(seat)
        assert (
            f"{display_name(user)}: {engine.scores[seat]} (roads {b['road']}, "
            f"cities {b['city']}, temples {b['temple']}, fields {b['field']}, Ark {b['ark']})"
        ) in final
    record, logged = await stored_game(db_path, table.game_id)
    assert record.status == "finished" and record.scores == engine.scores
    assert record.version == logged == len(PLAN)
    # One board per turn plus the first one, each with its picture; nothing else public.
    assert table.public_boards() == table.boards and len(table.boards) == len(TURNS) + 1
    all_answered(fake)


async def test_sigkill_mid_game_and_restart_loses_nothing_and_doubles_nothing(
    fake_discord: FakeDiscord, arkbot: Arkbot, db_path: Path
) -> None:
    fake, rec = fake_discord, fake_discord.recorder
    table = await table_for(fake, db_path)
    proc = await arkbot()
    alice, bob, _ = table.seats
    await table.start()
    await table.play_turn(TURNS[0])
    # Bob places his tile and passes; it closed a city: his panel offers its tiles for the Ark.
    _, panel = await table.open_panel()
    panel, closed = await table.clicks(panel, TURNS[1][:2])
    assert not closed and table.version == 4

    await proc.kill()  # SIGKILL: no goodbye, no flush
    assert proc.proc is not None and proc.proc.returncode == -9
    record, logged = await stored_game(db_path, table.game_id)
    assert record.version == logged == 4
    await proc.start()
    await wait_until_up(fake, proc)

    # Turn 1's board lost its button when turn 2's was posted.
    assert table.boards[0].components == [] and table.boards[1].components
    # Turn 2's public button still works: Bob gets his panel back where he left it.
    _, again = await table.open_panel(bob)
    putark = f"tb:{table.game_id}:4:putark:0:0"
    assert again.ephemeral and putark in again.custom_ids
    # Bob finishes with the panel he had before the kill: he puts the Ark.
    board = await table.finish_by_clicks(panel, TURNS[1][2:])
    assert_board(board, "board-turn-3.png")
    # The second panel is now one step behind, and says so.
    _, stale = await table.click(bob, again, putark)
    assert stale.ephemeral and "already played" in stale.content
    await table.play_turn(TURNS[2], typed=True)  # Carol

    # Killed before the move is stored: the first answer to Alice's /covenant place is held up
    # by a long 429. She types it again after the restart, and it is played once.
    version = table.version
    sub, options = table.typed_command(TURNS[3][0])
    held = fake.rate_limit(r"^POST /interactions/", retry_after=30)
    lost = await fake.slash(alice, table.channel, "covenant", options, subcommand=sub)
    await rec.wait_until(lambda: held.hits, WAIT, "the held-up answer")
    await proc.kill()
    assert (await stored_game(db_path, table.game_id))[0].version == version
    await proc.start()
    await wait_until_up(fake, proc)
    assert_board(await table.play_turn(TURNS[3], typed=True), "board-turn-5.png")

    # Killed after the move is stored, before the player hears of it: Bob's tile is down,
    # and typing the move again says so instead of playing it twice.
    version = table.version
    sub, options = table.typed_command(TURNS[4][0])
    held = fake.rate_limit(r"^POST /webhooks/", retry_after=30)
    await fake.slash(bob, table.channel, "covenant", options, subcommand=sub)
    await rec.wait_until(lambda: held.hits, WAIT, "the held-up follow-up")
    await proc.kill()
    assert (await stored_game(db_path, table.game_id))[0].version == version + 1
    await proc.start()
    await wait_until_up(fake, proc)
    _, said = await table.slash(bob, "covenant", sub, options)
    assert said.ephemeral and "already placed" in said.content
    table.record_played(TURNS[4][0])
    board, closed = await table.typed(TURNS[4][1:])
    assert closed
    assert_board(board, "board-turn-6.png")

    record, logged = await stored_game(db_path, table.game_id)
    played = sum(len(t) for t in TURNS[:5])
    assert record.status == "active" and record.version == logged == played == table.version
    service_log = await _history(db_path, table.game_id)
    assert service_log == [a.to_dict() for a in PLAN[:played]]
    names = [m.attachments[0].filename for m in table.public_boards()]
    assert names == [f"board-turn-{n}.png" for n in range(1, 7)]  # no turn posted twice
    all_answered(fake, but=frozenset({lost}))


async def _history(db_path: Path, game_id: int) -> list[dict]:
    from bot.service import GameService

    service = await GameService.open(db_path)
    try:
        return [entry.action for entry in await service.history.actions(game_id)]
    finally:
        await service.close()


async def test_strangers_out_of_turn_and_double_clicks_are_refused_and_a_moderator_ends(
    fake_discord: FakeDiscord, arkbot: Arkbot, db_path: Path
) -> None:
    fake = fake_discord
    table = await table_for(fake, db_path)
    await arkbot()
    alice, bob, _ = table.seats
    dave, mod = fake.user("dave"), fake.user("mod")
    board = await table.start()
    turn = f"ob:{table.game_id}:1"

    _, stranger = await table.click(dave, board, turn)
    assert stranger.ephemeral and "not playing in this game" in stranger.content
    _, early = await table.click(bob, board, turn)
    assert early.ephemeral and "It is Alice's turn" in early.content
    _, typed = await table.slash(bob, "covenant", "pass")
    assert typed.ephemeral and "It is Alice's turn" in typed.content

    # Alice double-clicks her follower's spot (which places the tile too): one click plays,
    # the other is told it came late.
    _, panel = await table.open_panel()
    place, deploy = TURNS[0]
    preview = await table.preview(panel, place)
    at = f"{place.x}:{place.y}:{place.rotation}"
    cid = f"tb:{table.game_id}:0:put:{at}:{deploy.port}:0"
    ids = await asyncio.gather(*(fake.click(alice, table.channel, preview.id, cid) for _ in "12"))
    answers = [await table.answer(i) for i in ids]
    stale = [a for a in answers if "already played" in a.content]
    assert len(stale) == 1 and stale[0].ephemeral
    record, logged = await stored_game(db_path, table.game_id)
    assert record.version == logged == 2
    for action in (place, deploy):
        table.record_played(action)
    await table.wait_board()
    _, panel = await table.open_panel(bob)
    square = next(c for c in panel.custom_ids if ":sq:" in c)

    _, refused = await table.slash(bob, "moderate", "end")
    assert refused.ephemeral and "Only moderators" in refused.content
    _, ended = await table.slash(mod, "moderate", "end", {"reason": "bedtime"})
    assert not ended.ephemeral and "ended by Mod" in ended.content and "bedtime" in ended.content
    record, _ = await stored_game(db_path, table.game_id)
    assert record.status == "ended"
    # Bob's panel, opened before, is told the game is over.
    _, over = await table.click(bob, panel, square)
    assert over.ephemeral and "is over" in over.content
    all_answered(fake)


async def test_rate_limited_requests_are_retried_and_no_turn_is_lost(
    fake_discord: FakeDiscord, arkbot: Arkbot, db_path: Path
) -> None:
    fake, rec = fake_discord, fake_discord.recorder
    table = await table_for(fake, db_path)
    await arkbot()
    board_post = r"^POST /channels/\d+/messages$"
    rules = [fake.rate_limit(board_post, times=1, retry_after=0.5)]
    await table.start()  # its board is posted on the second try
    rules += [
        fake.rate_limit(r"^POST /interactions/\d+/[^/]+/callback$", times=2, retry_after=0.4),
        fake.rate_limit(r"^PATCH /webhooks/", times=1, retry_after=0.3),
        fake.rate_limit(board_post, times=1, retry_after=0.3, is_global=True),
    ]
    await table.play_turn(TURNS[0])  # Alice clicks
    rules.append(fake.rate_limit(r"^POST /webhooks/", times=1, retry_after=0.3))
    rules.append(fake.rate_limit(board_post, times=1, retry_after=0.5))
    await table.play_turn(TURNS[1], typed=True)  # Bob types

    for rule in rules:
        assert rule.remaining == 0 and rule.hits, "every 429 was served"
        for hit in rule.hits:  # ... and the same request came again and went through
            retried = [
                r
                for r in rec.requests
                if r.at > hit.at and r.method == hit.method and r.path == hit.path
            ]
            assert any(r.status < 300 for r in retried), f"{hit.method} {hit.path} not retried"
    record, logged = await stored_game(db_path, table.game_id)
    played = len(TURNS[0]) + len(TURNS[1])
    assert record.version == logged == played == table.version
    names = [m.attachments[0].filename for m in table.public_boards()]
    assert names == ["board-turn-1.png", "board-turn-2.png", "board-turn-3.png"]
    all_answered(fake)


async def test_with_no_game_open_the_bot_holds_no_picture_worker_until_a_table_opens(
    fake_discord: FakeDiscord, arkbot: Arkbot
) -> None:
    fake = fake_discord
    proc = await arkbot()
    pid = proc.proc.pid
    assert "no game open: the picture workers start when a table opens" in proc.output(tail=None)
    assert process_family(pid) == [pid]  # no worker, no multiprocessing helper either
    channel = fake.channel("games")
    await fake.slash(fake.user("alice"), channel, "table", {"game": "covenant"}, subcommand="new")
    await fake.recorder.wait_until(
        lambda: any("covenant" in m.content.lower() or m.components
                    for m in fake.recorder.messages_in(channel.id)),
        WAIT, "the lobby",
    )  # fmt: skip
    # Its first board is a start away: a worker is warming up already.
    await fake.recorder.wait_until(lambda: len(process_family(pid)) > 1, WAIT, "a worker")
