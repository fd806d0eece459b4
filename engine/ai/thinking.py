"""A computer player's turn and a hint, from a game's JSON to plain data: what a thinking
worker of the bot runs (:class:`bot.service.thinking.Thinker`).

Everything in and out is plain data, and the game is found through :mod:`engine.registry`
by name, so a worker process imports this module, the game's engine and its computer
players, and nothing of the bot.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import registry


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a computer thinks per move: ``seconds``, or exactly ``iterations`` search
    iterations (then the move is a function of the position and the seed: tests, the demo)."""

    seconds: float = 1.0
    iterations: int | None = None


@dataclass(frozen=True, slots=True)
class HintData:
    """A suggested move as data: the action's dict and the reason's key and parameters."""

    action: dict[str, Any]
    key: str
    params: dict[str, Any]
    rest: tuple[dict[str, Any], ...] = ()


def think_turn(
    game_name: str, state: str, seat: int, level: str, seed: int, budget: Budget
) -> list[dict[str, Any]]:
    """The actions a computer of ``level`` plays for ``seat`` until its turn ends (or the
    game does). Runs in a worker: everything in and out is plain data."""
    rules = registry.rules(game_name)
    game = rules.from_json(state)
    actions: list[dict[str, Any]] = []
    while not rules.is_over(game) and game.current_player == seat:
        action = rules.computer_action(
            game, level, seed + len(actions), budget.seconds, budget.iterations
        )
        game.apply(action, seat=seat)
        actions.append(rules.dump_action(action))
    return actions


def think_hint(game_name: str, state: str, seat: int, seed: int, budget: Budget) -> HintData:
    """A hint for ``seat`` (whose turn it is) in the game ``state``."""
    rules = registry.rules(game_name)
    game = rules.from_json(state)
    hint = rules.hint(game, seat, seed, budget.seconds, budget.iterations)
    key, params = hint.reason
    return HintData(
        rules.dump_action(hint.action),
        key,
        dict(params),
        tuple(rules.dump_action(a) for a in hint.alternatives),
    )
