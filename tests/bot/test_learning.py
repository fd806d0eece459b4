"""Practice games (``/table learn``), through discord.py's own objects: a learner against two
easy computers in a thread of its own, lessons above the turn's panel, what each move did,
and at the end what was learnt and a real table; never rated, one at a time, stopped with
``/table leave``; in the learner's language."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

import bot.table.learning
from bot.client import TableBot
from bot.games import Seen, plugin
from bot.i18n import Text
from bot.panels import Button
from bot.service import FakeClock, Seat, TurnResult
from bot.table.common import names_of
from tests.support.bot import CHANNEL, make_bot
from tests.support.harness import Harness, Sent
from tests.support.taps import Tapper, TurnCost, plan_turn

LEARNER = 41
FRIEND = 42
#: What the learner sees in their first turn's panel and under the game's last post, in each
#: language: the line between the lesson and the turn, the summary's title, the button.
SAID = {
    "en-US": ("──────────", "What you learnt in this game", "Open a real table"),
    "nl": ("──────────", "Wat je in dit spel hebt geleerd", "Echte tafel openen"),
    "es-ES": ("──────────", "Lo que has aprendido en esta partida", "Abrir una mesa de verdad"),
}
FIRST_LESSON = {
    ("covenant", "en-US"): "every edge matches its neighbour",
    ("covenant", "nl"): "elke rand",
    ("covenant", "es-ES"): "cada borde",
    ("noah", "en-US"): "take cards or play cards",
    ("noah", "nl"): "kaarten",
    ("noah", "es-ES"): "cartas",
}


def bot_of(h: Harness) -> TableBot:
    return h.bot  # type: ignore[return-value]


@pytest.fixture(autouse=True)
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Practice games dealt from a known seed, so each test plays the same game."""
    monkeypatch.setattr(bot.table.learning.secrets, "randbits", lambda bits: 12345)


async def learn(h: Harness, game: str) -> tuple[int, int, Sent]:
    """``/table learn`` as the learner: the practice game's id, its thread, the answer."""
    reply = await h.slash(LEARNER, "table learn", game=game)
    assert reply.last.ephemeral, reply.text
    thread = h.thread_ids()[-1]
    record = await bot_of(h).service.play.game_in(thread)
    assert record is not None and record.practice is not None
    return record.id, thread, reply.last


async def play_through(h: Harness, game_id: int) -> list[list[Sent]]:
    """Every turn of the learner tapped, as a sensible player would, to the end; the
    private panels each turn showed, as they were last edited."""
    service = bot_of(h).service
    record = await service.play.get_game(game_id)
    tapper = Tapper(h, plugin(record.game_name).front, game_id)
    turns: list[list[Sent]] = []
    while True:
        record, game = await service.play.state(game_id)
        if record.status != "active":
            return turns
        seat = record.seats[game.current_player]
        assert seat.user_id == LEARNER, "the computers play at once"
        seen = Seen(game, seat.index, names_of(record), record.version, record.options)
        plan = plan_turn(game, seed=game.turn)
        turns.append(await tapper.play(LEARNER, seen, plan, TurnCost(record.game_name)))


def last_words(h: Harness, panels: list[Sent]) -> str:
    """What the turn's private panel said last (the move's story and "Done!")."""
    private = [p for p in panels if p.ephemeral]
    return str(h.message(private[-1].message_id)["content"])


#: "Lesson 3 of 15" in each language, as a pattern.
PROGRESS = {
    "en-US": r"Lessons? (?:\d+–)?(\d+) of (\d+)",
    "nl": r"Les (?:\d+–)?(\d+) van (\d+)",
    "es-ES": r"Lecci(?:ón|ones) (?:\d+–)?(\d+) de (\d+)",
}


@pytest.mark.parametrize("locale", ["en-US", "nl", "es-ES"])
async def test_a_card_game_practice_teaches_every_rule_once_in_the_rule_books_order(
    tmp_path: Path, locale: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every rule of bot/games/noah/lessons.py's RULES, through its lesson, shown exactly
    once in a whole practice game, in the teacher's order, each turn's lessons under its
    progress line, in the learner's language."""
    from bot.games.noah.lessons import RULES
    from bot.service.learning import Learning as Service

    shown: list[str] = []
    record_taught = Service.taught

    async def logged(self: Service, game_id: int, turn: int, keys: Sequence[str]) -> object:
        record = await self.going(LEARNER)
        if record is not None and record.practice is not None and record.practice.turn != turn:
            shown.extend(keys)  # a panel opened again in its turn shows its lessons again
        elif record is not None and record.practice is not None:
            shown.extend(k for k in keys if k not in record.practice.shown)
        return await record_taught(self, game_id, turn, keys)

    monkeypatch.setattr(Service, "taught", logged)
    async with Harness(await make_bot(tmp_path / "g.sqlite3"), channel_id=CHANNEL) as h:
        h.user(LEARNER, "Noor", locale=locale)
        game_id, _, _ = await learn(h, "noah")
        turns = await play_through(h, game_id)
        teacher = plugin("noah").teacher
        assert teacher is not None
        assert shown == list(teacher.lessons)
        assert {RULES[rule] for rule in RULES} <= set(shown)
        # The progress lines climb to the last lesson, never repeating a number.
        said = [turns[0][0].content] + [
            text for panels in turns for text in (panels[0].content, last_words(h, panels))
        ]
        numbers = [
            int(n) for text in dict.fromkeys(said) for n, _ in re.findall(PROGRESS[locale], text)
        ]
        assert numbers == sorted(set(numbers)) and numbers[-1] == len(teacher.lessons)


@pytest.mark.parametrize("locale", ["en-US", "nl", "es-ES"])
@pytest.mark.parametrize("game", ["covenant", "noah"])
async def test_a_practice_game_teaches_every_lesson_once_and_ends_with_a_real_table(
    tmp_path: Path, game: str, locale: str
) -> None:
    async with Harness(await make_bot(tmp_path / "g.sqlite3"), channel_id=CHANNEL) as h:
        h.user(LEARNER, "Noor", locale=locale)
        h.user(FRIEND, "Sam")
        game_id, thread, answer = await learn(h, game)
        assert f"<#{thread}>" in answer.content
        record = await bot_of(h).service.play.get_game(game_id)
        # The learner first, two easy computers; no clock; the short game where there is one.
        assert [(s.user_id, s.is_bot, s.level) for s in record.seats] == [
            (LEARNER, False, None),
            (None, True, "easy"),
            (None, True, "easy"),
        ]
        assert record.clock is None and record.channel_id == thread
        assert record.options == plugin(game).teacher.practice_options(12345)  # type: ignore[union-attr]
        # The channel keeps the line the thread hangs from, and stays free for a real table.
        assert "🎓 Noor" in h.message(thread)["content"]
        assert await bot_of(h).service.play.game_in(CHANNEL) is None

        turns = await play_through(h, game_id)
        record = await bot_of(h).service.play.get_game(game_id)
        teacher = plugin(game).teacher
        assert teacher is not None and record.practice is not None
        # Every lesson of the game, each once, in a whole practice game.
        assert sorted(record.practice.taught) == sorted(teacher.lessons_for(record.options))
        if game == "covenant":  # one a turn, in the rule book's order
            assert record.practice.taught == teacher.lessons_for(record.options)
        divider, learnt, button = SAID[locale]
        first = turns[0][0].content
        assert FIRST_LESSON[(game, locale)] in first and divider in first
        # After each turn, what it did, to the learner alone, before "Done!".
        for panels in turns:
            words = last_words(h, panels)
            assert words.count("\n") >= 1, words
        # The end: what was learnt, and a real table's button.
        finals = [
            m
            for m in h.channel_messages(thread, public=True)
            if "table_real" in str(h.message(m).get("components"))
        ]
        assert len(finals) == 1
        final = h.message(finals[0])
        said = "\n".join(str(h.message(m)["content"]) for m in h.channel_messages(thread))
        assert learnt in said and button in str(final["components"])
        # The line in the channel no longer says someone is learning there (in the
        # server's language, English here).
        line = h.message(thread)["content"]
        assert line.startswith("🎓 Noor has finished a practice game of **")
        assert line.endswith("** against the computer. It stays in the thread to look back on.")
        # Never rated, never counted.
        service = bot_of(h).service
        assert await service.history.ratings(h.guild_id, game) == []
        stats = await service.history.stats(h.guild_id)
        assert (stats.games_played, stats.wins) == (0, {})

        # The button opens a table in the channel, with the learner seated.
        real = await h.click(LEARNER, finals[0], f"sb:{game_id}:0:table_real")
        assert real.last.ephemeral and f"<#{CHANNEL}>" in real.last.content
        lobby = await service.play.game_in(CHANNEL)
        assert lobby is not None and lobby.status == "lobby" and lobby.practice is None
        assert [s.user_id for s in lobby.seats] == [LEARNER]
        # Of the practice game's length and edition (the Covenant's short game), not of
        # what only a practice game has (the card game's practice deal).
        kept = {"covenant": {"length": "short"}, "noah": {}}[game]
        assert lobby.options == kept


async def test_after_a_practice_game_the_learner_may_practise_it_again_or_the_other_game(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    async with Harness(await make_bot(tmp_path / "g.sqlite3", clock), channel_id=CHANNEL) as h:
        h.user(LEARNER, "Noor")
        h.user(FRIEND, "Sam")
        game_id, thread, _ = await learn(h, "noah")
        await play_through(h, game_id)
        (final,) = [
            m
            for m in h.channel_messages(thread, public=True)
            if "table_real" in str(h.message(m).get("components"))
        ]
        components = str(h.message(final)["components"])
        again, other = f"sb:{game_id}:0:table_learn:noah", f"sb:{game_id}:0:table_learn:covenant"
        assert again in components and other in components
        assert "Practise again" in components and "Practise The Ark of the Covenant" in components
        # Only the learner may use them.
        refused = await h.click(FRIEND, final, other)
        assert refused.last.ephemeral and len(h.thread_ids()) == 1
        clock.advance(seconds=60)
        opened = await h.click(LEARNER, final, other)
        assert opened.last.ephemeral and len(h.thread_ids()) == 2
        record = await bot_of(h).service.play.game_in(h.thread_ids()[-1])
        assert record is not None and record.practice is not None
        # The Covenant's practice: the short game, on its arranged deck.
        assert record.game_name == "covenant" and record.options["length"] == "short"
        assert set(record.options) == {"length", "deck"} and len(record.options["deck"]) > 30
        # One practice game at a time: again is refused while the Covenant's goes on.
        clock.advance(seconds=60)
        busy = await h.click(LEARNER, final, again)
        assert busy.last.ephemeral and "already have a practice game going" in busy.last.content
        await h.slash(LEARNER, "table leave", channel=h.thread_ids()[-1])
        clock.advance(seconds=60)
        await h.click(LEARNER, final, again)
        record = await bot_of(h).service.play.game_in(h.thread_ids()[-1])
        assert record is not None and record.game_name == "noah"
        assert record.options == {"deal": "practice"}


async def test_one_practice_game_at_a_time_and_leave_stops_it(tmp_path: Path) -> None:
    clock = FakeClock()
    async with Harness(await make_bot(tmp_path / "g.sqlite3", clock), channel_id=CHANNEL) as h:
        h.user(LEARNER, "Noor")
        h.user(FRIEND, "Sam")
        game_id, thread, _ = await learn(h, "covenant")
        again = await h.slash(LEARNER, "table learn", game="noah")
        assert again.last.ephemeral
        assert "already have a practice game going" in again.last.content
        assert f"<#{thread}>" in again.last.content
        assert len(h.thread_ids()) == 1  # nothing opened
        # Someone else may learn meanwhile; and a real table can open in the channel.
        other = await h.slash(FRIEND, "table learn", game="noah")
        assert other.last.ephemeral and len(h.thread_ids()) == 2
        opened = await h.slash(LEARNER, "table new")
        assert not opened.errors
        # A stranger cannot stop it; the learner can, at once.
        refused = await h.slash(FRIEND, "table leave", channel=thread)
        assert refused.last.ephemeral
        assert (await bot_of(h).service.play.get_game(game_id)).status == "active"
        stopped = await h.slash(LEARNER, "table leave", channel=thread)
        assert stopped.last.ephemeral and "stopped" in stopped.last.content
        assert (await bot_of(h).service.play.get_game(game_id)).status == "ended"
        assert h.message(thread)["content"] == (
            "🎓 Noor has finished a practice game of **The Ark of the Covenant** against the "
            "computer. It stays in the thread to look back on."
        )
        # Then a new one may begin, once the cool-down of opening a table has passed:
        # learning and leaving over and over opens no thread and says nothing in public.
        public = h.channel_messages(CHANNEL, public=True)
        for wait in (20, 7):
            again = await h.slash(LEARNER, "table learn", game="noah")
            assert again.last.ephemeral and again.last.content == (
                f"You began a practice game a moment ago: try again in {wait} seconds."
            )
            clock.advance(seconds=13)
        assert len(h.thread_ids()) == 2 and h.channel_messages(CHANNEL, public=True) == public
        await learn(h, "noah")


async def test_a_real_table_is_not_opened_while_the_practice_game_goes_on(
    tmp_path: Path,
) -> None:
    async with Harness(await make_bot(tmp_path / "g.sqlite3"), channel_id=CHANNEL) as h:
        h.user(LEARNER, "Noor")
        game_id, thread, _ = await learn(h, "covenant")
        board = h.channel_messages(thread, public=True)[-1]
        early = await h.forge(LEARNER, board, f"sb:{game_id}:0:table_real")
        assert early.last.ephemeral and early.last.content == "This game is not over yet."
        assert await bot_of(h).service.play.game_in(CHANNEL) is None
        assert (await bot_of(h).service.play.get_game(game_id)).status == "active"


@pytest.mark.parametrize("game", ["covenant", "noah"])
async def test_a_panel_opened_again_shows_the_same_lessons_and_spends_no_more(
    tmp_path: Path, game: str
) -> None:
    """The learner's first turn's panel, opened again in the same bot and after a restart:
    the same lessons each time, and no more taught than one turn's."""
    path = tmp_path / "g.sqlite3"
    async with Harness(await make_bot(path), channel_id=CHANNEL) as h:
        h.user(LEARNER, "Noor")
        game_id, thread, _ = await learn(h, game)
        board = h.channel_messages(thread, public=True)[-1]
        (open_id,) = re.findall(r"ob:\d+:\d+", str(h.message(board)["components"]))

        async def opened() -> tuple[str, tuple[str, ...]]:
            panel = (await h.click(LEARNER, board, open_id)).last
            record = await bot_of(h).service.play.get_game(game_id)
            assert record.practice is not None
            lessons = panel.content.split("──────────")[0]
            return lessons, record.practice.taught

        first, taught = await opened()
        assert 1 <= len(taught) <= plugin(game).teacher.at_once and first.strip()  # type: ignore[union-attr]
        assert await opened() == (first, taught)
        await h.restart(await make_bot(path))
        assert await opened() == (first, taught)


async def test_simultaneous_learns_of_one_learner_open_one_thread(tmp_path: Path) -> None:
    """Five ``/table learn`` of one learner at once: one practice game, one thread, one line
    in the channel; the others are told to wait, and no thread stands empty."""
    async with Harness(await make_bot(tmp_path / "g.sqlite3"), channel_id=CHANNEL) as h:
        h.user(LEARNER, "Noor")
        replies = await asyncio.gather(
            *(h.slash(LEARNER, "table learn", game=g) for g in ["noah", "covenant"] * 2 + ["noah"])
        )
        assert len(h.thread_ids()) == 1
        (thread,) = h.thread_ids()
        record = await bot_of(h).service.play.game_in(thread)
        assert record is not None and record.practice is not None
        lines = [
            m
            for m in h.channel_messages(CHANNEL, public=True)
            if "🎓" in str(h.message(m)["content"])
        ]
        assert lines == [thread]
        said = sorted(r.last.content for r in replies)
        assert all(r.last.ephemeral for r in replies)
        assert said[:4] == ["You began a practice game a moment ago: try again in 20 seconds."] * 4
        assert f"<#{thread}>" in said[4]


async def test_a_practice_game_is_not_opened_inside_a_thread(tmp_path: Path) -> None:
    async with Harness(await make_bot(tmp_path / "g.sqlite3"), channel_id=CHANNEL) as h:
        h.user(LEARNER, "Noor")
        _, thread, _ = await learn(h, "covenant")
        await h.slash(LEARNER, "table leave", channel=thread)
        inside = await h.slash(LEARNER, "table learn", game="noah", channel=thread)
        assert inside.last.ephemeral and "not from inside a thread" in inside.last.content
        assert len(h.thread_ids()) == 1


async def test_where_the_server_plays_in_its_channels_the_practice_game_is_private(
    tmp_path: Path,
) -> None:
    async with Harness(await make_bot(tmp_path / "g.sqlite3"), channel_id=CHANNEL) as h:
        h.user(LEARNER, "Noor")
        h.user(FRIEND, "Leader", moderator=True)
        await h.slash(FRIEND, "moderate settings", threads="off")
        before = h.channel_messages(CHANNEL, public=True)
        game_id, thread, answer = await learn(h, "covenant")
        # A private thread of the channel, with the learner in it; nothing said in public.
        assert h.thread_members[thread] == {h.bot_user_id, LEARNER}
        assert h.channel_messages(CHANNEL, public=True) == before
        assert f"<#{thread}>" in answer.content
        record = await bot_of(h).service.play.get_game(game_id)
        assert record.channel_id == thread and record.status == "active"
        (board,) = [
            m
            for m in h.channel_messages(thread, public=True)
            if f"<@{LEARNER}>" in str(h.message(m)["content"])
        ]
        assert board


async def test_without_any_thread_a_practice_game_is_refused_in_words(tmp_path: Path) -> None:
    async with Harness(await make_bot(tmp_path / "g.sqlite3"), channel_id=CHANNEL) as h:
        h.user(LEARNER, "Noor")
        me = h.guild.me
        role = next(r for r in me.roles if r.name == "arkbot")
        perms = role.permissions
        perms.create_public_threads = perms.create_private_threads = False
        role._permissions = perms.value
        refused = await h.slash(LEARNER, "table learn", game="noah")
        assert refused.last.ephemeral and "cannot open threads" in refused.last.content
        assert h.thread_ids() == [] and await bot_of(h).service.learning.going(LEARNER) is None


@pytest.mark.parametrize(
    ("language", "line"),
    [
        (
            "nl",
            "🎓 Noor heeft een oefenspel **Ark** tegen de computer gespeeld. Je kunt het "
            "teruglezen in de thread.",
        ),
        (
            "es",
            "🎓 Noor ha terminado una partida de práctica de **Arca** contra el ordenador. "
            "Puedes repasarla en el hilo.",
        ),
    ],
)
async def test_the_channels_line_says_in_the_servers_language_when_the_game_is_over(
    tmp_path: Path, language: str, line: str
) -> None:
    async with Harness(await make_bot(tmp_path / "g.sqlite3"), channel_id=CHANNEL) as h:
        h.user(LEARNER, "Noor")
        h.user(FRIEND, "Leader", moderator=True)
        await h.slash(FRIEND, "moderate settings", language=language)
        _, thread, _ = await learn(h, "noah")
        assert "Noor" in h.message(thread)["content"]
        await h.slash(LEARNER, "table leave", channel=thread)
        assert h.message(thread)["content"] == line


async def _first_turn_words(tmp_path: Path, game: str, *, restarted: bool) -> str:
    """The learner's first turn tapped; what its panel said last. ``restarted``: as if the
    bot had restarted during the turn (what it kept in memory as the turn began is gone
    when the move is told)."""
    async with Harness(await make_bot(tmp_path / f"{restarted}.sqlite3"), channel_id=CHANNEL) as h:
        h.user(LEARNER, "Noor")
        game_id, _, _ = await learn(h, game)
        learning = bot_of(h).table.learning
        if restarted:
            told = learning.told

            async def forgetful(
                result: TurnResult, seat: Seat
            ) -> tuple[list[Text], tuple[Button, ...]]:
                learning._starts.clear()
                return await told(result, seat)

            learning.told = forgetful  # type: ignore[method-assign]
        service = bot_of(h).service
        record, state = await service.play.state(game_id)
        seat = record.seats[state.current_player]
        seen = Seen(state, seat.index, names_of(record), record.version, record.options)
        tapper = Tapper(h, plugin(game).front, game_id)
        panels = await tapper.play(LEARNER, seen, plan_turn(state, seed=0), TurnCost(game))
        return last_words(h, panels)


@pytest.mark.parametrize("game", ["covenant", "noah"])
async def test_after_a_restart_mid_turn_the_move_is_still_told(tmp_path: Path, game: str) -> None:
    kept = await _first_turn_words(tmp_path, game, restarted=False)
    restarted = await _first_turn_words(tmp_path, game, restarted=True)
    # The same story of the move, from the log; only the better move (asked as the turn
    # began, in the process that restarted) is not compared.
    assert restarted.count("\n") >= 1, restarted
    assert [x for x in kept.split("\n") if not x.startswith("Nice try")] == restarted.split("\n")


@pytest.mark.parametrize(("game", "suggested"), [("covenant", True), ("noah", False)])
async def test_a_suggestion_never_leans_on_an_idea_not_yet_explained(
    tmp_path: Path, game: str, suggested: bool
) -> None:
    """The Covenant's first suggestion places the tile and a follower, both taught in that
    turn. The card game's (this deal) plays two cards into new cabins, whose action discs
    are only taught once playing is: no suggestion then, only the two lessons."""
    async with Harness(await make_bot(tmp_path / "g.sqlite3"), channel_id=CHANNEL) as h:
        h.user(LEARNER, "Noor")
        game_id, _, _ = await learn(h, game)
        turns = await play_through(h, game_id)
        first = turns[0][0].content
        assert ("💡" in first) is suggested, first
        assert first.count("──────────") == 1
        if not suggested:
            # Later, once the ideas it leans on are taught, the suggestions come.
            assert any("💡" in panels[0].content for panels in turns[1:])


async def test_a_puzzle_answered_wrong_then_right(tmp_path: Path) -> None:
    """Under the move of a turn that taught a rule, "Try it" with two buttons: a wrong
    answer is told "Not quite" with the reason and may be tried again, the right one
    "Right!"; only to the learner."""
    async with Harness(await make_bot(tmp_path / "g.sqlite3"), channel_id=CHANNEL) as h:
        h.user(LEARNER, "Noor")
        h.user(FRIEND, "Sam")
        game_id, _, _ = await learn(h, "noah")
        turns = await play_through(h, game_id)
        asked = []
        for panels in turns:
            private = [p for p in panels if p.ephemeral]
            message = h.message(private[-1].message_id)
            if "table_quiz" in str(message.get("components")):
                asked.append((private[-1].message_id, str(message["content"]), message))
        assert len(asked) >= 3
        message_id, words, message = asked[0]
        assert "🧩 Try it: " in words
        ids = re.findall(rf"sb:{game_id}:\d+:table_quiz:\w+:\w+", str(message["components"]))
        key = ids[0].split(":")[4]
        puzzle = plugin("noah").teacher.puzzles[key]  # type: ignore[union-attr]
        right = next(i for i in ids if i.endswith(f":{puzzle.right}"))
        wrong = next(i for i in ids if i != right)
        said = (await h.click(LEARNER, message_id, wrong)).last
        assert said.ephemeral and said.content.startswith("❌ Not quite. ")
        assert said.content.endswith("Tap another answer to try again.")
        said = (await h.click(LEARNER, message_id, right)).last
        assert said.ephemeral and said.content.startswith("✅ Right! ")
        # Someone else at no seat of it cannot answer.
        other = (await h.click(FRIEND, message_id, right)).last
        assert other.ephemeral and not other.content.startswith("✅")


@pytest.mark.parametrize(
    ("language", "kind"),
    [("en", "Nice try!"), ("nl", "Goed geprobeerd!"), ("es", "¡Buen intento!")],
)
def test_both_games_say_a_better_move_with_the_same_kind_words(language: str, kind: str) -> None:
    from render.i18n import template

    keys = [
        "noah.learned.better",
        "covenant.lesson.better_feature",
        "covenant.lesson.better_ark",
        "covenant.lesson.better_points",
    ]
    for key in keys:
        said = template(key, language)
        assert said is not None and said.startswith(kind), (key, said)
