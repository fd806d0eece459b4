"""Tic-tac-toe: two players put their marks in turn on a 3 by 3 board; three in a row,
column or diagonal wins, a full board without one is a draw. Seat 0 plays first (X).

A pure engine (:class:`engine.protocol.Game`): its state is the board and the number of
moves made, so the JSON form, the copy and the view are all small.
"""

from __future__ import annotations

import json
from typing import Any, Self

from arkbot_tictactoe.engine.actions import Drawn, Event, Mark, Marked, Won
from arkbot_tictactoe.engine.board import SQUARES, line_won
from arkbot_tictactoe.engine.refusals import refusal
from engine.common import Rng

PLAYERS = 2


class Game:
    """One game of tic-tac-toe in progress (see :class:`engine.protocol.Game`)."""

    #: Nothing is hidden: every seat sees the whole board.
    hidden_information = False

    __slots__ = ("_board", "_moves")

    def __init__(self, board: list[int | None] | None = None, moves: int = 0) -> None:
        self._board: list[int | None] = list(board) if board is not None else [None] * SQUARES
        self._moves = moves

    @classmethod
    def new(cls, players: int = PLAYERS, seed: int = 0) -> Self:
        """A new game (the seed changes nothing: there is no luck in tic-tac-toe)."""
        if players != PLAYERS:
            raise ValueError(f"tic-tac-toe is for {PLAYERS} players, not {players}")
        return cls()

    # ------------------------------------------------------------------ readings

    @property
    def players(self) -> int:
        return PLAYERS

    @property
    def board(self) -> tuple[int | None, ...]:
        """Each square's mark: the seat that put it there, or None."""
        return tuple(self._board)

    @property
    def line(self) -> tuple[int, int, int] | None:
        """The line that won the game, if one did."""
        return line_won(self._board)

    @property
    def phase(self) -> str:
        if self.line is not None or self._moves == SQUARES:
            return "over"
        return "play"

    @property
    def current_player(self) -> int | None:
        return None if self.phase == "over" else self._moves % PLAYERS

    @property
    def turn(self) -> int:
        return self._moves + 1

    @property
    def winners(self) -> tuple[int, ...]:
        line = self.line
        if line is not None:
            return (self._board[line[0]],)  # type: ignore[return-value]
        return tuple(range(PLAYERS)) if self._moves == SQUARES else ()

    @property
    def scores(self) -> tuple[int, ...]:
        """A point for the seat that filled a line."""
        line = self.line
        winner = self._board[line[0]] if line is not None else None
        return tuple(int(seat == winner) for seat in range(PLAYERS))

    # ------------------------------------------------------------------ moves

    def legal_actions(self) -> list[Mark]:
        if self.phase == "over":
            return []
        return [Mark(square) for square, mark in enumerate(self._board) if mark is None]

    def apply(self, action: Any, seat: int | None = None) -> tuple[Event, ...]:
        mover = self.current_player
        if mover is None:
            raise refusal("game_over")
        if seat is not None and seat != mover:
            raise refusal("not_your_turn", seat=seat, current=mover)
        if not isinstance(action, Mark) or not 0 <= action.square < SQUARES:
            raise refusal("not_a_square")
        if self._board[action.square] is not None:
            raise refusal("taken", square=action.square)
        self._board[action.square] = mover
        self._moves += 1
        events: list[Event] = [Marked(mover, action.square)]
        line = self.line
        if line is not None:
            events.append(Won(mover, line))
        elif self._moves == SQUARES:
            events.append(Drawn())
        return tuple(events)

    # ------------------------------------------------------------------ state

    def to_json(self) -> str:
        return json.dumps({"board": self._board, "moves": self._moves})

    @classmethod
    def from_json(cls, text: str) -> Self:
        data = json.loads(text)
        return cls(data["board"], data["moves"])

    def copy(self) -> Self:
        return type(self)(self._board, self._moves)

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The whole game, the same for everyone (nothing is hidden)."""
        line = self.line
        return {
            "board": list(self._board),
            "phase": self.phase,
            "current_player": self.current_player,
            "turn": self.turn,
            "scores": list(self.scores),
            "winners": list(self.winners),
            "line": list(line) if line is not None else None,
        }

    # ------------------------------------------------------------------ search

    def sample_action(self, rng: Rng) -> Mark:
        """A free square, drawn uniformly."""
        free = [square for square, mark in enumerate(self._board) if mark is None]
        if not free or self.phase == "over":
            raise ValueError("The game is over: there is no move.")
        return Mark(rng.choice(free))

    def determinise(self, seat: int, rng: Rng) -> Self:
        """Nothing is hidden from anyone: a copy."""
        return self.copy()

    def __repr__(self) -> str:
        marks = "".join("XO"[m] if m is not None else "." for m in self._board)
        return f"Game({marks[:3]}/{marks[3:6]}/{marks[6:]})"
