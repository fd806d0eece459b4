"""Helpers for engine tests: play scripted turns and check what they produced."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

from engine.covenant import Action, Event, FeatureScored, Game, IllegalAction, Pass, PlaceTile


def turn(tile_x: int, tile_y: int, rotation: int = 0, *then: Action) -> list[Action]:
    """One turn: place the tile in hand at (x, y), then the given actions (default: pass)."""
    return [PlaceTile(tile_x, tile_y, rotation), *(then or (Pass(),))]


def play(game: Game, turns: Iterable[Sequence[Action]]) -> list[Event]:
    """Apply every action of every turn in order; return all events."""
    events: list[Event] = []
    for actions in turns:
        for action in actions:
            events.extend(game.apply(action))
    return events


def scored(events: Iterable[Event], feature: str | None = None) -> list[FeatureScored]:
    return [
        e
        for e in events
        if isinstance(e, FeatureScored) and (feature is None or e.feature == feature)
    ]


def refusals_in(package: str) -> dict[str, set[tuple[str, ...]]]:
    """Every ``IllegalAction(code, **params)`` written in ``engine/<package>``: code ->
    the sets of param names used with it. A call whose code is not a string constant (or a
    choice of two), or that gives more than the code by position (a sentence), is listed under
    ``None``."""
    found: dict[str | None, set[tuple[str, ...]]] = {}
    for path in sorted((Path(__file__).parents[4] / "engine" / package).glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (
                isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalAction"
            ):
                continue
            code = node.args[0] if len(node.args) == 1 else None
            branches = [code.body, code.orelse] if isinstance(code, ast.IfExp) else [code]
            params = tuple(sorted(k.arg or "**" for k in node.keywords))
            for branch in branches:
                name = branch.value if isinstance(branch, ast.Constant) else None
                found.setdefault(name, set()).add(params)
    return found  # type: ignore[return-value]


@contextmanager
def raises_refusal(code: str, **params: object) -> Iterator[pytest.ExceptionInfo[IllegalAction]]:
    """Expect an :class:`IllegalAction` with exactly ``code`` and ``params`` in the block."""
    with pytest.raises(IllegalAction) as info:
        yield info
    assert (info.value.code, info.value.params) == (code, params)
