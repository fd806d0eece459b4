"""Computer players for every game of arkbot: easy, normal and strong, and hints.

Pure: no I/O, no global random state, and the game passed in is never changed. The bot
runs a call in a worker process: it passes ``game.to_json()``, rebuilds the game there with
``Game.from_json`` and calls one of these, which returns when done.

The public API
--------------
``choose(game, level, *, seed=0, budget_s=1.0, iterations=None) -> action``
    A legal action for the player to act. ``level`` is ``"easy"`` (plausible but weak:
    beginners can win), ``"normal"`` (the best whole turn by a good evaluation of the
    position after it, the game's own: see its ``ai`` package) or
    ``"strong"`` (information-set Monte Carlo tree search: hidden information dealt anew each
    iteration, playouts guided by the evaluation, within the budget). ``budget_s`` bounds the
    thinking in seconds (the clock is read only to stop); ``iterations`` bounds it by search
    iterations instead, and then the move is a pure function of ``(game, level, seed)``.
    Easy and normal use only what the mover can see; strong determinises.

``hint(game, seat=None, *, seed=0, budget_s=0.3, iterations=None, level="normal") -> Hint``
    A suggestion for ``seat`` (default: the player to act; it must be their turn): the
    action and ``reason = (key, params)``, a message key of the game's reasons and its
    numbers, feature kinds, card ids or squares, for the bot to translate, e.g.
    ``("hint.completes_city", {"points": 8})``.

``reasons(game_name)``: every reason key of a game with its parameter names; ``LEVELS``: the
level names. A game has computer players when its engine package has an ``ai`` package with
a ``COMPUTER`` (:class:`engine.ai.computer.Computer`); :mod:`engine.registry` finds it.

The engines' search methods used here (documented in :mod:`engine.protocol`):
``sample_action(rng)``, ``determinise(seat, rng)`` and a fast ``copy()``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import registry
from engine.ai.computer import Computer, Lookahead
from engine.ai.levels import LEVELS, choose_candidate, computer_of, model_for
from engine.ai.reasons import Hint
from engine.common import Rng

__all__ = ["LEVELS", "Computer", "Hint", "Lookahead", "choose", "hint", "reasons"]


def reasons(game_name: str) -> Mapping[str, tuple[str, ...]]:
    """Every hint reason key of the game called ``game_name``, with its parameters' names."""
    return registry.game(game_name).computer().reasons


def choose(
    game: Any,
    level: str = "normal",
    *,
    seed: int = 0,
    budget_s: float = 1.0,
    iterations: int | None = None,
) -> object:
    """The action a computer player of ``level`` takes now (see the module docstring)."""
    if level == "easy":
        if game.phase == "over":
            raise ValueError("The game is over: there is no move to choose.")
        return model_for(game).easy(game.copy(), Rng(seed))
    found = choose_candidate(game, level, seed=seed, budget_s=budget_s, iterations=iterations)
    assert found is not None
    return found[1].actions[0]


def hint(
    game: Any,
    seat: int | None = None,
    *,
    seed: int = 0,
    budget_s: float = 0.3,
    iterations: int | None = None,
    level: str = "normal",
) -> Hint:
    """A suggested move for ``seat`` with its reason as data (see the module docstring)."""
    if seat is not None and seat != game.current_player:
        raise ValueError("A hint is for the player whose turn it is.")
    if level == "easy":
        level = "normal"
    found = choose_candidate(game, level, seed=seed, budget_s=budget_s, iterations=iterations)
    assert found is not None
    model, candidate = found
    reason = model.reason(game, game.current_player, candidate)
    suggested = Hint(candidate.actions[0], reason, candidate.value, candidate.actions[1:])
    return suggested.check(computer_of(game).reasons)
