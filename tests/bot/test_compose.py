"""A game's public post, composed without Discord: who is named and pinged, who is messaged,
the buttons, the story of the turns, the final post, and the messages it is said in."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from bot import scheme
from bot.discord_ui import MESSAGE_LIMIT, Mention, Verbatim, message_text
from bot.games import TurnRecord, plugin
from bot.i18n import Text
from bot.service import GameRecord, Seat
from bot.table import Post, compose_post, story

NOAH = plugin("noah")
WHEN = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
ANN, BOAZ, CYD = 101, 102, 103


def seats(ping: str = "channel") -> tuple[Seat, ...]:
    return (
        Seat(0, ANN, "Ann", ping=ping),
        Seat(1, BOAZ, "Boaz"),
        Seat(2, CYD, "Cyd"),
    )


def record(**changes: Any) -> GameRecord:
    """A three-player card game in channel 500, Ann to play."""
    made = GameRecord(
        id=7,
        guild_id=1,
        channel_id=500,
        game_name="noah",
        seed=1,
        options={},
        shuffle_seats=False,
        creator_id=ANN,
        status="active",
        version=3,
        seats=seats(),
        created_at=WHEN,
        updated_at=WHEN,
        started_at=WHEN,
        current_seat=0,
        waiting_since=WHEN,
    )
    return replace(made, **changes)


def game() -> Any:
    rules = NOAH.rules
    return rules.new(3, 1, rules.check_options({}))


def compose(stored: GameRecord, *, quiet: bool = False, **kwargs: Any) -> Post:
    return compose_post(NOAH, stored, game(), (), language="en", quiet=quiet, **kwargs)


def test_a_board_names_the_player_pings_them_and_offers_their_turn() -> None:
    state, stored = game(), record()
    post = compose(stored)
    board = NOAH.front.board_post(state.view(None), ("Ann", "Boaz", "Cyd"))
    assert post.lines == (*board.lines, Text("table.turn.your_turn", player=Mention(ANN)))
    assert post.pictures == board.pictures
    assert post.controls == board.controls
    play = scheme.open_turn_id(stored.id, state.turn)
    assert post.buttons == ((play, Text("table.button.play_turn"), "primary", "🎲"),)
    assert post.ping == ANN
    assert post.direct is None
    assert (post.game_id, post.version, post.language) == (7, 3, "en")
    assert not post.over and not post.finished and not post.silent


def test_a_player_told_by_direct_message_is_named_not_pinged() -> None:
    post = compose(record(seats=seats(ping="dm")))
    assert post.lines[-1] == Text("table.turn.your_turn", player="Ann")
    assert post.ping is None
    title = NOAH.front.title()
    assert post.direct == (ANN, Text("table.turn.dm", channel=Verbatim("<#500>"), game=title))


def test_a_game_in_a_thread_sends_the_direct_message_there() -> None:
    post = compose(record(seats=seats(ping="both"), thread_id=900))
    assert post.ping == ANN
    assert post.direct is not None
    assert post.direct[1].params["channel"] == Verbatim("<#900>")


def test_in_quiet_hours_the_post_is_silent_and_nobody_is_messaged() -> None:
    post = compose(record(seats=seats(ping="both")), quiet=True)
    assert post.silent
    assert post.direct is None
    assert post.ping == ANN  # named as usual; the post itself notifies nobody


def test_a_computer_seat_is_named_and_neither_pinged_nor_messaged() -> None:
    computer = Seat(0, None, "Noah", is_bot=True, ping="both", level="normal")
    post = compose(record(seats=(computer, *seats()[1:])))
    assert post.lines[-1] == Text("table.turn.computer_next", player="Noah")
    assert post.ping is None and post.direct is None
    # Issue 40.7: not "Noah, your turn! Your time runs out ...", in any language.
    clock = {"pace": "normal", "banks": [3_600_000, 0, 0]}
    clocked = compose(record(seats=(computer, *seats()[1:]), clock=clock))
    assert clocked.lines[-1] == Text("table.turn.computer_next", player="Noah")
    said = {lang: message_text(post.lines[-1], lang) for lang in ("en", "nl", "es", "es-419")}
    assert said == {
        "en": "Next: 🤖 Noah (computer) plays.",
        "nl": "Volgende: 🤖 Noah (computer) speelt.",
        "es": "Siguiente: 🤖 Noah (ordenador) juega.",
        "es-419": "Siguiente: 🤖 Noah (computadora) juega.",
    }


def test_a_clock_adds_the_deadline() -> None:
    stored = record(clock={"pace": "normal", "banks": [3_600_000, 0, 0]})
    deadline = stored.deadline_ms()
    assert deadline is not None
    post = compose(stored)
    when = Verbatim(f"<t:{deadline // 1000}:R>")
    assert post.lines[-1] == Text("table.turn.your_turn_due", player=Mention(ANN), deadline=when)


def test_a_finished_game_shows_the_result_and_offers_a_rematch() -> None:
    state, stored = game(), record(status="finished")
    post = compose(stored)
    final = NOAH.front.final_post(state.view(None), ("Ann", "Boaz", "Cyd"), ended_early=False)
    assert post.lines == (*final.lines, Text("table.game.thanks"))
    assert post.pictures == final.pictures
    rematch = scheme.control_id(stored.id, 0, "table_rematch", (), menu=False, who="seat")
    assert post.buttons == ((rematch, Text("table.button.rematch"), "success", "🔁"),)
    assert post.over and post.finished
    assert post.ping is None and post.direct is None


def test_a_game_ended_early_says_so_without_a_rematch() -> None:
    post = compose(record(status="ended"))
    assert post.lines[-1] == Text("table.game.ended_early")
    assert post.buttons == ()
    assert post.over and not post.finished


def test_the_story_comes_after_the_intro_redacted_and_marked() -> None:
    state = game()
    events = tuple(state.apply(state.legal_actions()[0]))
    computer = TurnRecord(0, 1, ("bot",), events, True, (4, 4, 4))
    timed_out = TurnRecord(0, 1, ("timeout",), events, True, (4, 4, 4))
    told = story(NOAH, record(), [computer, timed_out])
    redacted = tuple(NOAH.rules.redact(e) for e in events)
    assert redacted != events  # the card drawn is hidden from everyone
    public = NOAH.front.story([TurnRecord(0, 1, ("bot",), redacted, True)], ("Ann", "Boaz", "Cyd"))
    assert told == [
        Text("table.story.computer", player="Ann"),
        *public,
        Text("table.story.timed_out", player="Ann"),
        *public,
    ]
    intro = Text("table.turn.recovered")
    post = compose_post(
        NOAH, record(), state, [computer], language="en", quiet=False, intro=(intro,)
    )
    assert post.lines[: 1 + len(public) + 1] == (
        intro,
        Text("table.story.computer", player="Ann"),
        *public,
    )


def test_a_long_post_is_said_in_messages_discord_takes() -> None:
    long = tuple(Text("table.mod.reason", reason="x" * 400) for _ in range(12))
    post = compose(record(), intro=long)
    messages = post.messages()
    assert len(messages) > 1
    assert all(len(m) <= MESSAGE_LIMIT for m in messages)
    # Every line is said once, in order, and the turn (with its mention) closes the post.
    assert "\n".join(messages).count("Reason: ") == 12
    assert messages[-1].endswith("<@101>, your turn!")
