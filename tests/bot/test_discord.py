"""The bot through discord.py's own objects: commands, clicks, refusals, restarts.

A two-player game on a scripted deck: T21 (a one-edge city) then T39 (a straight road).
Ruth closes the start tile's city with her follower on it (4 points) and places the Ark;
Boaz lays a road and passes; the deck is used up and the game ends 4-0.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.client import TableBot
from bot.games.covenant.choices import square_choices
from engine.common import Rng
from engine.covenant.players import sensible_action
from tests.support.bot import BOAZ, CHANNEL, LEADER, RUTH, STRANGER, make_bot
from tests.support.harness import Harness, Sent


async def scripted_lobby(h: Harness, deck: list[str]) -> int:
    """Ruth opens a lobby with a scripted deck (the service's test option); Boaz joins."""
    bot: TableBot = h.bot  # type: ignore[assignment]
    h.user(RUTH, "Ruth")
    h.user(BOAZ, "Boaz")
    h.user(STRANGER, "Stranger")
    h.user(LEADER, "Leader", moderator=True)
    record = await bot.service.lobby.create_game(
        h.guild_id, CHANNEL, RUTH, "Ruth", "covenant", options={"deck": deck}, shuffle_seats=False
    )
    joined = await h.slash(BOAZ, "table join")
    assert joined.last.ephemeral and "You joined" in joined.last.content
    assert "Boaz" in joined.text  # the lobby message shows him
    return record.id


async def start(h: Harness) -> Sent:
    started = await h.slash(RUTH, "table start")
    board = [s for s in started if s.kind == "channel_message" and s.images][-1]
    assert not board.ephemeral
    assert board.images and board.images[0].format == "PNG"
    assert f"<@{RUTH}>" in board.content
    return board


async def ruth_places_and_closes_the_city(h: Harness, board: Sent, game_id: int) -> Sent:
    opened = await h.click(RUTH, board, f"ob:{game_id}:1")
    panel = opened.last
    assert panel.ephemeral
    # The tile said in words, never by its id; the numbered squares in the panel itself,
    # one picture (two would share a phone's width).
    assert "a city on 1 side" in panel.content and "T21" not in panel.content
    assert len(panel.images) == 1
    squares = [c for c in panel.custom_ids if ":sq:" in c]
    assert squares == [f"tb:{game_id}:0:sq:0:-1", f"tb:{game_id}:0:sq:0:1"]
    chosen = (await h.click(RUTH, panel, squares[0])).last
    assert "M12" in chosen.content and "180" in chosen.content
    assert "fits only this way" in chosen.content and not [
        c for c in chosen.custom_ids if ":rot:" in c
    ]
    labels = [c.label for c in chosen.components if c.custom_id and ":put:" in c.custom_id]
    assert labels == ["A · field", "B · city", "B · Prophet"]
    assert "B · city to the south" in chosen.content  # the letters said in full
    # Another square and back: nothing is played until a letter (or ✅) is tapped.
    back = (await h.click(RUTH, chosen, f"tb:{game_id}:0:page:0")).last
    chosen = (await h.click(RUTH, back, squares[0])).last
    bot: TableBot = h.bot  # type: ignore[assignment]
    assert (await bot.service.play.get_game(game_id)).version == 0
    put_ark = (await h.click(RUTH, chosen, f"tb:{game_id}:0:put:0:-1:180:SSE:0")).last
    assert "first city" in put_ark.content
    assert (await bot.service.play.get_game(game_id)).version == 2  # placed, and the follower
    finished = await h.click(RUTH, put_ark, f"tb:{game_id}:2:putark:0:-1")
    assert "You scored 4" in finished[-2].content or "You scored 4" in finished.text
    post = [s for s in finished if s.kind == "channel_message"][-1]
    return post


async def test_a_whole_scripted_game_through_commands_and_clicks(harness: Harness) -> None:
    h = harness
    game_id = await scripted_lobby(h, ["T21", "T39"])
    board = await start(h)
    post = await ruth_places_and_closes_the_city(h, board, game_id)
    assert "Ruth placed a tile on M12." in post.content
    assert "A 2-tile city was completed: Ruth +4." in post.content
    assert "Scores: Ruth 4, Boaz 0" in post.content
    assert f"<@{BOAZ}>" in post.content and "shows a road" in post.content
    assert "T39" not in post.content
    assert post.images[0].format == "PNG"
    # Boaz types his turn instead of tapping.
    choices = await h.autocomplete(BOAZ, "covenant place", focused="square", value="")
    values = [c.value for c in choices]
    assert "N13" in values and len(values) == len(set(values)) >= 4
    assert choices[values.index("N13")].name.endswith("N13 (2 ways)")
    placed = await h.slash(BOAZ, "covenant place", square="N13", rotation=0)
    assert placed.last.ephemeral and "Your tile is on **N13**." in placed.last.content
    ended = await h.slash(BOAZ, "covenant pass")
    (final,) = [s for s in ended if s.kind == "channel_message" and " won " in s.content]
    assert "Ruth** won with 4 points" in final.content
    assert final.images[0].format == "PNG"
    bot: TableBot = h.bot  # type: ignore[assignment]
    record = await bot.service.play.get_game(game_id)
    assert record.status == "finished" and record.scores == (4, 0)
    # Two players: the winner takes K/2 = 16 rating points from the loser.
    stats = await h.slash(RUTH, "table stats")
    assert "1. Ruth: 1016 (1 game, 1 win)" in stats.last.content
    assert "2. Boaz: 984 (1 game, 0 wins)" in stats.last.content
    assert stats.last.ephemeral and stats.last.images[0].format == "PNG"


async def test_strangers_and_players_out_of_turn_are_refused_privately(harness: Harness) -> None:
    h = harness
    game_id = await scripted_lobby(h, ["T21", "T39"])
    board = await start(h)
    bot: TableBot = h.bot  # type: ignore[assignment]
    before = (await bot.service.play.get_game(game_id)).version
    stranger = await h.click(STRANGER, board, f"ob:{game_id}:1")
    assert stranger.last.ephemeral and "not playing in this game" in stranger.last.content
    early = await h.click(BOAZ, board, f"ob:{game_id}:1")
    assert early.last.ephemeral and "It is Ruth's turn" in early.last.content
    typed = await h.slash(BOAZ, "covenant place", square="M12", rotation=180)
    assert typed.last.ephemeral and "It is Ruth's turn" in typed.last.content
    assert (await bot.service.play.get_game(game_id)).version == before
    assert not [r for s in (stranger, early, typed) for r in s.errors]


async def test_a_double_click_counts_once(harness: Harness) -> None:
    h = harness
    game_id = await scripted_lobby(h, ["T21", "T39"])
    board = await start(h)
    panel = (await h.click(RUTH, board, f"ob:{game_id}:1")).last
    preview = (await h.click(RUTH, panel, f"tb:{game_id}:0:sq:0:-1")).last
    place = f"tb:{game_id}:0:put:0:-1:180:SSE:0"
    first, second = await asyncio.gather(
        h.click(RUTH, preview, place), h.click(RUTH, preview, place)
    )
    texts = [first.text, second.text]
    assert sum("already played" in text for text in texts) == 1
    bot: TableBot = h.bot  # type: ignore[assignment]
    assert (await bot.service.play.get_game(game_id)).version == 2  # the tile and the follower


async def test_an_illegal_typed_move_explains_and_changes_nothing(harness: Harness) -> None:
    h = harness
    game_id = await scripted_lobby(h, ["T21", "T39"])
    await start(h)
    wrong = await h.slash(RUTH, "covenant place", square="M12", rotation=0)
    assert wrong.last.ephemeral and "fits turned 180°" in wrong.last.content
    nowhere = await h.slash(RUTH, "covenant place", square="Z9", rotation=0)
    assert "cannot go on Z9" in nowhere.last.content
    bot: TableBot = h.bot  # type: ignore[assignment]
    assert (await bot.service.play.get_game(game_id)).version == 0


async def test_only_moderators_end_a_game(harness: Harness) -> None:
    h = harness
    game_id = await scripted_lobby(h, ["T21", "T39"])
    board = await start(h)
    refused = await h.slash(BOAZ, "moderate end")
    assert refused.last.ephemeral and "Only moderators" in refused.last.content
    ended = await h.slash(LEADER, "moderate end", reason="bedtime")
    assert "ended by Leader" in ended.text and "bedtime" in ended.text
    # The standings and the board as they were are posted for everyone.
    final = [s for s in ended if s.kind == "channel_message"][-1]
    assert not final.ephemeral and "Scores: Ruth 0, Boaz 0" in final.content
    assert "ended by a moderator" in final.content and len(final.images) == 2
    # The last board's buttons are gone, and status says what became of the game.
    assert h.message(board)["components"] == []
    status = await h.slash(BOAZ, "table status")
    assert status.last.ephemeral and "ended by a moderator" in status.last.content
    bot: TableBot = h.bot  # type: ignore[assignment]
    assert (await bot.service.play.get_game(game_id)).status == "ended"
    log = await h.slash(LEADER, "moderate log")
    assert "ended a game" in log.last.content


async def test_buttons_keep_working_after_a_restart(harness: Harness, db_path: Path) -> None:
    h = harness
    game_id = await scripted_lobby(h, ["T21", "T39"])
    board = await start(h)
    panel = (await h.click(RUTH, board, f"ob:{game_id}:1")).last
    chosen = (await h.click(RUTH, panel, f"tb:{game_id}:0:sq:0:-1")).last
    await h.restart(await make_bot(db_path))
    # The private panel from before the restart still works: the ids name game and version.
    put_ark = (await h.click(RUTH, chosen, f"tb:{game_id}:0:put:0:-1:180:SSE:0")).last
    assert "first city" in put_ark.content
    finished = await h.click(RUTH, put_ark, f"tb:{game_id}:2:putark:0:-1")
    assert any(s.kind == "channel_message" for s in finished)
    # The first turn's board lost its button when the next board was posted; a client that
    # still shows it (the edit missed) is told that turn was played.
    assert h.message(board)["components"] == []
    for user in (RUTH, BOAZ):
        old = await h.forge(user, board, f"ob:{game_id}:1")
        assert old.last.ephemeral and "already played" in old.last.content
    bot: TableBot = h.bot  # type: ignore[assignment]
    assert (await bot.service.play.get_game(game_id)).version == 3  # place, deploy, put the Ark


async def test_lobby_buttons_and_commands(harness: Harness) -> None:
    h = harness
    h.user(RUTH, "Ruth")
    h.user(BOAZ, "Boaz")
    opened = await h.slash(RUTH, "table new")
    # Deferred privately at once, the lobby posted as a message of its own, the private
    # "thinking..." removed: nothing waits on the database before Discord's deadline.
    assert opened[0].kind == 5 and opened[0].ephemeral
    (lobby,) = [s for s in opened if s.kind == "channel_message"]
    assert not lobby.ephemeral and "Ruth" in lobby.content
    join = next(c for c in lobby.custom_ids if c.startswith("lb:") and c.endswith(":join"))
    start_id = next(c for c in lobby.custom_ids if c.startswith("lb:") and c.endswith(":start"))
    alone = await h.click(RUTH, lobby, start_id)
    assert alone.last.ephemeral and "at least 2 players" in alone.last.content
    joined = await h.click(BOAZ, lobby, join)
    assert "Boaz" in h.message(lobby)["content"]
    again = await h.click(BOAZ, lobby, join)
    assert again.last.ephemeral and "already joined" in again.last.content
    assert joined.callback is not None
    refused = await h.click(BOAZ, lobby, start_id)
    assert "Only Ruth, who opened this game" in refused.last.content
    started = await h.click(RUTH, lobby, start_id)
    assert any(s.kind == "channel_message" and s.images for s in started)
    busy = await h.slash(BOAZ, "table new")
    assert busy.last.ephemeral and "already a game" in busy.last.content
    late = await h.slash(BOAZ, "table join")
    assert late.last.ephemeral


async def test_a_typed_join_updates_the_lobby_in_place(harness: Harness) -> None:
    h = harness
    h.user(RUTH, "Ruth")
    h.user(BOAZ, "Boaz")
    opened = await h.slash(RUTH, "table new")
    (lobby,) = [s for s in opened if s.kind == "channel_message"]
    joined = await h.slash(BOAZ, "table join")
    assert [s for s in joined if s.kind == "channel_message"] == []  # no second lobby post
    assert "Boaz" in h.message(lobby)["content"]
    assert joined.last.ephemeral and "You joined the table." in joined.last.content


async def test_rules_and_status_are_private(harness: Harness) -> None:
    h = harness
    game_id = await scripted_lobby(h, ["T21", "T39"])
    rules = await h.slash(STRANGER, "table rules")
    assert rules.last.ephemeral and rules.last.images and "land tile" in rules.last.content
    await start(h)
    status = await h.slash(STRANGER, "table status")
    assert status.last.ephemeral and "Turn 1: Ruth is playing." in status.last.content
    assert game_id


async def test_moving_the_ark_to_a_square_of_a_menu_shows_who_scores(harness: Harness) -> None:
    h = harness
    game_id = await scripted_lobby(h, ["T21", "T39", "T39", "T39"])
    board = await start(h)
    await ruth_places_and_closes_the_city(h, board, game_id)  # the Ark goes on M12 (0, -1)
    await h.slash(BOAZ, "covenant place", square="N13", rotation=0)  # the road east of the start
    spots = await h.autocomplete(BOAZ, "covenant follower", focused="spot", value="road")
    assert [(c.name, c.value) for c in spots] == [("B · road from east to west", "B")]
    deployed = await h.slash(BOAZ, "covenant follower", spot="B")  # the letter on the picture
    assert "Boaz put a follower on the road at N13." in deployed.text
    panel = (await h.slash(RUTH, "covenant place", square="L13", rotation=0)).last
    # From M12 the Ark can reach L13, the start tile M13, and N13 with Boaz's follower.
    menu = panel.component(f"tm:{game_id}:6:ark:0")
    assert [(o["label"], o["value"]) for o in menu.options] == [
        ("L13 · nobody scores", "SW"),
        ("M13 · nobody scores", "S"),
        ("N13 · Boaz +1", "SE"),
    ]
    route = (await h.select(RUTH, panel, f"tm:{game_id}:6:ark:0", ["SE"])).last
    assert "The Ark would go from M12 to **N13** by SE: Boaz +1." in route.content
    # Not blind: the board around the Ark, with the route, is in the panel.
    assert [name.split("-")[0:2] for name, _ in route.files] == [["the", "ark"]]
    paths = await h.autocomplete(RUTH, "covenant ark", focused="path", value="S")
    assert ("SE: Boaz +1", "SE") in [(c.name, c.value) for c in paths]
    moved = await h.click(RUTH, route, f"tb:{game_id}:6:go:SE")
    post = [s for s in moved if s.kind == "channel_message"][-1]
    assert "Ruth moved the Ark 2 steps to N13: Boaz +1." in post.content
    assert "Scores: Ruth 4, Boaz 1" in post.content


async def test_moderators_remove_and_replace_players(harness: Harness) -> None:
    h = harness
    game_id = await scripted_lobby(h, ["T21", "T39", "T39", "T39"])
    await start(h)
    refused = await h.slash(RUTH, "moderate remove", player=BOAZ)
    assert refused.last.ephemeral and "Only moderators" in refused.last.content
    handed = await h.slash(LEADER, "moderate replace", player=RUTH, newcomer=STRANGER)
    assert f"<@{STRANGER}> takes over Ruth's seat" in handed.last.content
    bot: TableBot = h.bot  # type: ignore[assignment]
    record = await bot.service.play.get_game(game_id)
    assert record.seats[0].user_id == STRANGER
    # Ruth no longer plays; the newcomer does.
    gone = await h.slash(RUTH, "covenant tile")
    assert "not playing in this game" in gone.last.content
    mine = await h.slash(STRANGER, "covenant tile")
    assert mine.last.ephemeral and "a city on 1 side" in mine.last.content
    removed = await h.slash(LEADER, "moderate remove", player=BOAZ)
    assert "a computer player takes over the seat" in removed.text
    record = await bot.service.play.get_game(game_id)
    assert record.seats[1].is_bot and record.seats[1].user_id is None


async def test_more_than_25_squares_are_shown_a_part_of_the_board_at_a_time(
    harness: Harness,
) -> None:
    h = harness
    h.user(RUTH, "Ruth")
    h.user(BOAZ, "Boaz")
    bot: TableBot = h.bot  # type: ignore[assignment]
    record = await bot.service.lobby.create_game(
        h.guild_id, CHANNEL, RUTH, "Ruth", "covenant", seed=3
    )
    await bot.service.lobby.join(CHANNEL, BOAZ, "Boaz")
    await bot.service.lobby.start(CHANNEL, RUTH)
    rng = Rng(3)
    # Play on through the service until the tile in hand fits on more than 25 squares.
    while True:
        record, game = await bot.service.play.state(record.id)
        if game.phase == "place_tile" and len(game.placements()) > 25:
            break
        user = record.seats[game.current_player].user_id
        await bot.service.play.act(record.id, user, sensible_action(game, rng))
    squares = square_choices(game)
    user = record.seats[game.current_player].user_id
    panel = (await h.slash(user, "covenant tile")).last
    g, v = record.id, record.version

    def numbered(message: Sent) -> list[tuple[str, str]]:
        return [
            (c.label or "", c.custom_id or "")
            for c in message.components
            if ":sq:" in (c.custom_id or "")
        ]

    first = numbered(panel)
    assert 0 < len(first) <= 20 and "part 1 of 2" in panel.content
    assert panel.component(f"tb:{g}:{v}:page:0").disabled  # the part shown
    second = (await h.click(user, panel, f"tb:{g}:{v}:page:1")).last
    assert "part 2 of 2" in second.content
    both = first + numbered(second)
    # Numbered on from one part to the next, as the pictures and typed numbers say.
    assert [label for label, _ in both] == [str(s.number) for s in squares]
    assert [cid for _, cid in both] == [f"tb:{g}:{v}:sq:{s.x}:{s.y}" for s in squares]
    assert len(panel.images) == len(second.images) == 1


async def test_the_edition_is_chosen_in_the_lobby_and_shown_in_status_and_rules(
    harness: Harness,
) -> None:
    h = harness
    h.user(RUTH, "Ruth")
    h.user(BOAZ, "Boaz")
    bot: TableBot = h.bot  # type: ignore[assignment]
    opened = await h.slash(RUTH, "table new", game="covenant")
    (lobby,) = [s for s in opened if s.kind == "channel_message"]
    assert "English, second edition (2005)" in lobby.content  # the default
    game_id = int(lobby.custom_ids[0].split(":")[1])
    menu = f"lm:{game_id}:edition"
    assert lobby.component(menu).option_values == ["en2", "en1", "de"]
    # Only the creator chooses: a player who joined is refused, privately.
    await h.click(BOAZ, lobby, f"lb:{game_id}:join")
    refused = await h.select(BOAZ, lobby, menu, ["de"])
    assert refused.last.ephemeral and "Only Ruth" in refused.last.content
    await h.select(RUTH, lobby, menu, ["de"])
    assert "Die Baumeister des Königs" in h.message(lobby)["content"]
    record = await bot.service.play.get_game(game_id)
    assert record.options == {"edition": "de"}
    rules = await h.slash(BOAZ, "table rules")
    # The German edition's rules take two messages (Discord takes 2,000 characters in one).
    assert all(s.ephemeral for s in rules.messages) and len(rules.messages) == 2
    assert "Who places a temple tile may put a follower on the temple itself." in rules.text
    await h.click(RUTH, lobby, f"lb:{game_id}:start")
    _, game = await bot.service.play.state(game_id)
    assert game.edition == "de"  # the engine plays that edition
    status = await h.slash(BOAZ, "table status")
    assert "Rules: Die Baumeister des Königs (German, 2004)." in status.last.content


async def test_a_dutch_player_reads_and_types_the_arks_route_in_dutch_letters(
    harness: Harness,
) -> None:
    """Issue 42.1: Dutch says N, O, Z, W. Ruth's Discord speaks Dutch: the route is offered
    as "ZO" and her typed "zo" moves the Ark south-east (so would "se")."""
    h = harness
    game_id = await scripted_lobby(h, ["T21", "T39", "T39", "T39"])
    board = await start(h)
    await ruth_places_and_closes_the_city(h, board, game_id)
    await h.slash(BOAZ, "covenant place", square="N13", rotation=0)
    await h.slash(BOAZ, "covenant follower", spot="B")
    h.locales[RUTH] = "nl"
    await h.slash(RUTH, "covenant place", square="L13", rotation=0)
    paths = await h.autocomplete(RUTH, "covenant ark", focused="path", value="z")
    assert ("ZO: Boaz +1", "ZO") in [(c.name, c.value) for c in paths]
    moved = await h.slash(RUTH, "covenant ark", path="zo")
    assert "Ruth moved the Ark 2 steps to N13: Boaz +1." in moved.text
