"""Tic-tac-toe at the table: a panel of nine buttons, the typed ``/tictactoe mark``, the
story of each move and the board's picture in every public post.

Squares are 0 to 8 in the engine and 1 to 9 for people (the picture numbers the free
ones), and named in words in the story and the hints ("the top left corner").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from arkbot_tictactoe.engine import SQUARES, Drawn, Game, Mark, Marked, Won
from bot.games.base import Front, Seen, TurnRecord
from bot.panels import (
    Button,
    Choice,
    CommandOption,
    CommandSpec,
    Panel,
    Picture,
    Play,
    Refusal,
    Text,
)

RENDER = "arkbot_tictactoe.render"
#: Each seat's mark: seat 0 plays X and begins.
MARKS = ("x", "o")


def _t(name: str, **params: Any) -> Text:
    return Text(f"tictactoe.{name}", **params)


def square_text(square: int) -> Text:
    """A square in words: "the centre", "the top left corner"."""
    return _t(f"square.{square}")


def mark_text(seat: int) -> Text:
    return _t(f"mark.{MARKS[seat]}")


class TicTacToeFront(Front[Game, dict[str, Any]]):
    command_group = "tictactoe"
    commands = (
        CommandSpec(
            "mark",
            _t("command.mark"),
            (
                CommandOption(
                    "square",
                    _t("command.mark_square"),
                    kind="integer",
                    choices=tuple(Choice(_t(f"choice.{s}"), s + 1) for s in range(SQUARES)),
                ),
            ),
        ),
    )

    def title(self) -> Text:
        return _t("title")

    def _board(self, view: Mapping[str, Any], names: Sequence[str]) -> Picture:
        return Picture(
            f"{RENDER}:board", (dict(view), list(names)), "board.png", _t("picture_alt.board")
        )

    # ================================================================ the private panel

    def panel(self, seen: Seen[Game]) -> Panel:
        """Nine buttons in the board's rows: the free squares by number, the taken ones
        showing their mark and disabled."""
        game: Game = seen.game
        playing = seen.seat is not None and seen.seat == game.current_player
        buttons = []
        for square, seat in enumerate(game.board):
            row = square // 3
            if seat is None:
                label = _t("button.square", number=square + 1)
                buttons.append(Button("mark", (str(square),), label, disabled=not playing, row=row))
            else:
                style: Literal["primary", "danger"] = "primary" if seat == 0 else "danger"
                buttons.append(
                    Button("mark", (str(square),), mark_text(seat), style, disabled=True, row=row)
                )
        if not playing:
            return Panel((_t("turn.not_yours"),), (), tuple(buttons))
        assert seen.seat is not None
        return Panel((_t("turn.choose", mark=mark_text(seen.seat)),), (), tuple(buttons))

    def on_control(
        self, seen: Seen[Game], control: str, args: Sequence[str], values: Sequence[str]
    ) -> Panel | Play:
        if control != "mark" or len(args) != 1 or not args[0].isdigit():
            raise Refusal("table.error.unknown_control")
        return Play(Mark(int(args[0])))

    def on_command(
        self, seen: Seen[Game], command: str, options: Mapping[str, Any]
    ) -> Panel | Play:
        number = options.get("square")
        if command != "mark" or type(number) is not int:
            raise Refusal("table.error.unknown_control")
        return Play(Mark(number - 1))  # a square off the board is the engine's to refuse

    # ================================================================ hints

    def hint_text(
        self,
        seen: Seen[Game],
        action: Mapping[str, Any],
        key: str,
        params: Mapping[str, Any],
        *,
        rest: Sequence[Mapping[str, Any]] = (),
    ) -> list[Text]:
        square = params.get("square")
        if type(square) is int and 0 <= square < SQUARES:
            return [_t(key, square=square_text(square))]
        return [_t(key)]

    # ================================================================ public posts

    def story(self, turns: Sequence[TurnRecord], names: Sequence[str]) -> list[Text]:
        lines = []
        for turn in turns:
            for event in turn.events:
                if isinstance(event, Marked):
                    lines.append(
                        _t(
                            "story.marked",
                            player=names[event.seat],
                            mark=mark_text(event.seat),
                            square=square_text(event.square),
                        )
                    )
                elif isinstance(event, Won):
                    lines.append(_t("story.won", player=names[event.seat]))
                elif isinstance(event, Drawn):
                    lines.append(_t("story.drawn"))
        return lines

    def board_post(self, view: Mapping[str, Any], names: Sequence[str]) -> Panel:
        seat = view["current_player"]
        line = _t("status.to_play", player=names[seat], mark=mark_text(seat))
        return Panel((line,), (self._board(view, names),))

    def final_post(
        self, view: Mapping[str, Any], names: Sequence[str], *, ended_early: bool
    ) -> Panel:
        winners = list(view["winners"])
        if ended_early or view["phase"] != "over":
            line = _t("game.ended_early")
        elif len(winners) == 1:
            line = _t("game.won", player=names[winners[0]], mark=mark_text(winners[0]))
        else:
            line = _t("game.drawn")
        return Panel((line,), (self._board(view, names),))

    def status(
        self, view: Mapping[str, Any], names: Sequence[str], seat: int | None = None
    ) -> Panel:
        return self.board_post(view, names)

    def rules_help(self, options: Mapping[str, Any]) -> Panel:
        picture = Picture(f"{RENDER}:rules_board", (), "rules.png", _t("picture_alt.rules"))
        return Panel((_t("rules.text"),), (picture,))
