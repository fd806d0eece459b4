"""The computer players' view of tic-tac-toe: which squares matter, and why.

A move is valued by what it does at once, in the order a player learns them: fill a line
(win), fill the square the rival would win on (block), make two threats at once (a fork),
then the centre, a corner, an edge. A move that leaves the rival a line to fill is worth
the loss it lets through. Values are in about points, as :class:`engine.ai.model.Model`
asks: a win is worth 10.
"""

from __future__ import annotations

from typing import Any

from arkbot_tictactoe.engine import CENTRE, CORNERS, LINES, Game, Mark
from arkbot_tictactoe.engine.board import Board, winning_squares
from engine.ai.model import Candidate
from engine.common import Rng

WIN = 10.0
BLOCK = 5.0
FORK = 3.0
CENTRE_VALUE = 1.0
CORNER_VALUE = 0.5
#: Each line still open to one seat alone, worth this much to it (the quiet evaluation).
OPEN_LINE = 0.5

#: Every reason a hint may give, with its parameters (squares are 0 to 8).
REASONS: dict[str, tuple[str, ...]] = {
    "hint.wins": ("square",),
    "hint.blocks": ("square",),
    "hint.forks": ("square",),
    "hint.takes_centre": (),
    "hint.takes_corner": ("square",),
    "hint.takes_square": ("square",),
}


def _rival(seat: int) -> int:
    return 1 - seat


def _open_lines(board: Board, seat: int) -> int:
    """Lines holding ``seat``'s marks and none of the rival's, counted per mark."""
    rival = _rival(seat)
    total = 0
    for line in LINES:
        marks = [board[i] for i in line]
        if rival not in marks:
            total += marks.count(seat)
    return total


def _why(board: Board, seat: int, square: int) -> tuple[float, str]:
    """What putting ``seat``'s mark on ``square`` does at once: its value and the reason's
    key."""
    rival = _rival(seat)
    if square in winning_squares(board, seat):
        return WIN, "hint.wins"
    threats = winning_squares(board, rival)
    after = list(board)
    after[square] = seat
    if threats:
        if square in threats and len(threats) == 1:
            return BLOCK, "hint.blocks"
        return -WIN, "hint.blocks" if square in threats else "hint.takes_square"
    if len(winning_squares(after, seat)) >= 2:
        return FORK, "hint.forks"
    if square == CENTRE:
        return CENTRE_VALUE, "hint.takes_centre"
    if square in CORNERS:
        return CORNER_VALUE, "hint.takes_corner"
    return 0.0, "hint.takes_square"


class TicTacToeModel:
    """The model of :mod:`engine.ai` for one position (see :class:`engine.ai.model.Model`)."""

    #: A win is 10 points: a margin of 1 already tells a better position.
    scale = 1.0

    def __init__(self, game: Game) -> None:
        self.game = game

    def easy(self, game: Game, rng: Rng) -> Mark:
        """Any free square: a beginner can beat it."""
        return game.sample_action(rng)

    def candidates(self, game: Game, seat: int, rng: Rng) -> list[Candidate]:
        """Every free square, best first (equal ones in a random order, for variety)."""
        board = game.board
        found = []
        for action in game.legal_actions():
            value, key = _why(board, seat, action.square)
            after = list(board)
            after[action.square] = seat
            value += OPEN_LINE * (_open_lines(after, seat) - _open_lines(after, _rival(seat)))
            found.append(Candidate((action,), value, key))
        rng.shuffle(found)
        found.sort(key=lambda candidate: -candidate.value)
        return found

    def reason(self, game: Game, seat: int, candidate: Candidate) -> tuple[str, dict[str, Any]]:
        square = candidate.actions[0].square
        key = candidate.detail or _why(game.board, seat, square)[1]
        return key, {} if key == "hint.takes_centre" else {"square": square}

    def margin(self, game: Game, seat: int) -> float:
        """Won or lost (10 points), a line the mover fills next, a fork the mover cannot
        answer, else the open lines of each seat."""
        board = game.board
        if game.phase == "over":
            winners = game.winners
            return 0.0 if len(winners) != 1 else (WIN if winners[0] == seat else -WIN)
        mover = game.current_player
        assert mover is not None
        sign = 1.0 if mover == seat else -1.0
        if winning_squares(board, mover):
            return sign * (WIN - 1)
        if len(winning_squares(board, _rival(mover))) >= 2:
            return -sign * (WIN - 1)
        return OPEN_LINE * (_open_lines(board, seat) - _open_lines(board, _rival(seat)))

    def playout(self, game: Game, seat: int, rng: Rng, turns: int) -> None:
        """Win where one can, block where one must, else any free square."""
        for _ in range(turns):
            mover = game.current_player
            if mover is None:
                return
            board = game.board
            urgent = winning_squares(board, mover) or winning_squares(board, _rival(mover))
            game.apply(Mark(rng.choice(urgent)) if urgent else game.sample_action(rng))
