"""A game's public post, composed as data: its text, pictures, controls and whom it pings.

Nothing here touches Discord or the database: :func:`compose_post` is given the game as
stored and what the server's clock says, and gives back a :class:`Post`. Sending it (drawing
the pictures, the messages, the nonces, retrying) is :mod:`bot.table.posts`. So what a post
says is tested without Discord, and the sending step knows nothing of any game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot import scheme
from bot.discord_ui import Mention, Verbatim, message_text, split_message
from bot.games import Plugin, TurnRecord, ready_plugins
from bot.i18n import ListOf, Text
from bot.panels import Control, Picture
from bot.service import GameRecord
from bot.table.common import names_of

#: One of the table's own buttons: (custom id, label, style, emoji).
TableButton = tuple[str, Text, str, str | None]


@dataclass(frozen=True, slots=True)
class Post:
    """What a public post of a game says and shows, before it is sent."""

    #: The game and the version the post tells.
    game_id: int
    version: int
    #: The first and the last turn it tells (None: it tells no turn, as the first board of
    #: a game or the standings of one ended before its end).
    told: tuple[int, int] | None
    #: The language it is said in (the server's).
    language: str
    lines: tuple[Text, ...]
    pictures: tuple[Picture, ...]
    #: The table's own buttons (play your turn, rematch), then the game's controls that any
    #: seated player may use on a public post.
    buttons: tuple[TableButton, ...]
    controls: tuple[Control, ...]
    #: The user mentioned (and so pinged) in the post, if any.
    ping: int | None
    #: A direct message to send once it is posted: (user id, what it says).
    direct: tuple[int, Text] | None
    #: Posted without a notification (the server's quiet hours).
    silent: bool
    #: The game is over (the final scores, not a board).
    over: bool
    #: It finished by its rules (a rematch is offered and a replay follows).
    finished: bool

    def messages(self) -> list[str]:
        """The lines said and joined into as few messages as Discord takes."""
        return split_message(message_text(line, self.language) for line in self.lines)

    def without_pictures(self) -> Post:
        """The post for a channel where the bot may not attach files: the same words (the
        messages before the last are the same), and a last line that says why its
        pictures are missing, since the words may speak of them."""
        missing = Text("table.post.pictures_missing")
        return replace(self, pictures=(), lines=(*self.lines, missing))


def story(chosen: Plugin, record: GameRecord, turns: Sequence[TurnRecord]) -> list[Text]:
    """The turns in words for everyone: events redacted, computer moves marked."""
    names = names_of(record)
    lines: list[Text] = []
    for turn in turns:
        public = TurnRecord(
            turn.seat,
            turn.number,
            turn.sources,
            tuple(chosen.rules.redact(e) for e in turn.events),
            turn.complete,
            turn.start_scores,
        )
        told = chosen.front.story([public], names)
        if not told:
            continue
        who = names[turn.seat] if 0 <= turn.seat < len(names) else "?"
        seat = record.seats[turn.seat] if 0 <= turn.seat < len(record.seats) else None
        if turn.timed_out:
            lines.append(Text("table.story.timed_out", player=who))
        elif turn.by_computer and seat is not None and seat.is_bot and seat.left_user_id is None:
            # A computer seated in the lobby plays its own seat: nobody left it.
            lines.append(Text("table.story.computer_seat", player=who))
        elif turn.by_computer:
            # A computer plays for someone who left or was removed (or before the seat was
            # handed to a person again): it took their seat.
            lines.append(Text("table.story.computer", player=who))
        lines += told
    return lines


#: The button under a finished practice game's last post: a real table in the channel.
REAL_TABLE = "table_real"
#: The buttons beside it: practise a game (its name the argument) again, in a new thread.
PRACTISE = "table_learn"


def practice_buttons(chosen: Plugin, record: GameRecord) -> tuple[TableButton, ...]:
    """Under a finished practice game: a real table of it, then practise it again, then
    practise each other game that teaches."""

    def button(control: str, args: tuple[str, ...]) -> str:
        return scheme.control_id(record.id, 0, control, args, menu=False, who="seat")

    buttons: list[TableButton] = [
        (button(REAL_TABLE, ()), Text("table.button.real_table"), "success", "🎲"),
        (
            button(PRACTISE, (record.game_name,)),
            Text("table.button.again"),
            "primary",
            "🎓",
        ),
    ]
    for name, other in ready_plugins().items():
        if name != record.game_name and other.teacher is not None:
            label = Text("table.button.practise", game=other.front.title())
            buttons.append((button(PRACTISE, (name,)), label, "secondary", "🎓"))
    return tuple(buttons)


def learned(chosen: Plugin, record: GameRecord) -> list[Text]:
    """What a finished practice game taught, for its last post."""
    if record.practice is None or chosen.teacher is None:
        return []
    taught = frozenset(record.practice.taught)
    return [Text("table.learn.summary"), *chosen.teacher.summary(taught, record.options)]


def standings(scores: Sequence[int], names: Sequence[str]) -> list[Text]:
    """A game ended before its end has no winner: who stood where when it stopped, by
    points, the tied sharing a place (1, 1, 3)."""
    order = sorted(range(len(names)), key=lambda seat: -scores[seat])
    lines = [Text("table.game.standings")]
    for rank, seat in enumerate(order):
        if rank and scores[order[rank - 1]] == scores[seat]:
            continue  # said with the seat before it
        tied = tuple(names[s] for s in order if scores[s] == scores[seat])
        lines.append(
            Text(
                "table.game.place",
                place=rank + 1,
                players=ListOf(tied, "standard"),
                points=scores[seat],
            )
        )
    return lines


def compose_post(
    chosen: Plugin,
    record: GameRecord,
    game: Any,
    turns: Sequence[TurnRecord],
    *,
    language: str,
    quiet: bool,
    intro: Sequence[Text] = (),
    stalled: bool = False,
) -> Post:
    """What happened and how the game stands now: the story of ``turns``, the board, and
    whose turn it is (mentioned, with the button to play), or the final scores. ``quiet``:
    it is the server's quiet hours, so the post notifies nobody and no one is messaged.
    ``stalled``: an ended game ended because nobody moved (the intro says so), not by a
    moderator."""
    names = names_of(record)
    lines = [*intro, *story(chosen, record, turns)]
    buttons: tuple[TableButton, ...] = ()
    ping: int | None = None
    direct: tuple[int, Text] | None = None
    over = chosen.rules.is_over(game) or record.status != "active"
    if over:
        # What the end turns up (the card game's pets) is turned up also for a game ended
        # before it; only here, once the game is over.
        ended = record.status == "ended"
        panel = chosen.front.final_post(chosen.rules.view_at_end(game), names, ended_early=ended)
        if ended:
            closing = "table.game.thanks" if stalled else "table.game.ended_early"
            panel = panel.plus(*standings(game.scores, names), Text(closing))
        else:
            panel = panel.plus(Text("table.game.thanks"))
        if record.status == "finished" and record.practice is not None:
            # A practice game ends with what it taught, and a real table to play at.
            panel = panel.plus(*learned(chosen, record))
            buttons = practice_buttons(chosen, record)
        elif record.status == "finished":
            rematch = scheme.control_id(record.id, 0, "table_rematch", (), menu=False, who="seat")
            buttons = ((rematch, Text("table.button.rematch"), "success", "🔁"),)
    else:
        panel = chosen.front.board_post(game.view(None), names)
        seat = record.seats[game.current_player]
        pinged = seat.user_id is not None and seat.ping in ("channel", "both")
        who: Any = Mention(seat.user_id) if pinged and seat.user_id else seat.name
        deadline = record.deadline_ms()
        if seat.user_id is None:
            # A computer is told nothing: the post says it plays and mentions nobody.
            panel = panel.plus(Text("table.turn.computer_next", player=seat.name))
        elif deadline is None:
            panel = panel.plus(Text("table.turn.your_turn", player=who))
        else:
            when = Verbatim(f"<t:{deadline // 1000}:R>")
            panel = panel.plus(Text("table.turn.your_turn_due", player=who, deadline=when))
        if pinged and seat.user_id:
            ping = seat.user_id
        if seat.user_id is not None and seat.ping in ("dm", "both") and not quiet:
            told = Text(
                "table.turn.dm", channel=Verbatim(f"<#{record.home}>"), game=chosen.front.title()
            )
            direct = (seat.user_id, told)
        play = scheme.open_turn_id(record.id, game.turn)
        buttons = ((play, Text("table.button.play_turn"), "primary", "🎲"),)
    lines += panel.lines
    numbers = [turn.number for turn in turns if turn.complete]
    return Post(
        game_id=record.id,
        version=record.version,
        told=(numbers[0], numbers[-1]) if numbers else None,
        language=language,
        lines=tuple(lines),
        pictures=tuple(panel.pictures),
        buttons=buttons,
        controls=tuple(panel.controls),
        ping=ping,
        direct=direct,
        silent=quiet,
        over=over,
        finished=over and record.status == "finished",
    )
