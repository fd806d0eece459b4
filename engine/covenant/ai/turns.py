"""Whole turns of The Ark of the Covenant as candidates: each placement of the tile with
each follow-up (a deploy, the best Ark moves, or a pass), evaluated after the whole turn.

Ark moves are many (hundreds of paths) but differ only by where the Ark ends and what it
gives on the way; for each end square only the path best for the mover is kept.
"""

from __future__ import annotations

from typing import Any

from engine.ai.model import Candidate
from engine.covenant import Action, Game, IllegalAction, MoveArk, Pass, PlaceTile
from engine.covenant.ai.evaluate import Evaluator
from engine.protocol import to_act

#: Ark moves kept per placement when a whole turn is planned from the tile.
ARK_MOVES_PER_PLACEMENT = 2


def best_ark_paths(game: Game, seat: int) -> list[tuple[float, str]]:
    """In ``deploy``: for each square the Ark can end on, the path giving ``seat`` the best
    margin over the others, as ``(margin, path)``, best first."""
    best: dict[tuple[int, int], tuple[float, str]] = {}
    ark = game.ark
    if ark is None:
        return []
    for path, gain in game.ark_gains():
        mine = gain[seat]
        margin = mine - max(g for s, g in enumerate(gain) if s != seat)
        end = _end_of(ark, path)
        if end not in best or margin > best[end][0]:
            best[end] = (float(margin), path)
    return sorted(best.values(), key=lambda mp: (-mp[0], mp[1]))


_STEPS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def _squares_of(start: tuple[int, int], path: str) -> list[tuple[int, int]]:
    x, y = start
    squares = []
    for letter in path:
        dx, dy = _STEPS[letter]
        x, y = x + dx, y + dy
        squares.append((x, y))
    return squares


def _end_of(start: tuple[int, int], path: str) -> tuple[int, int]:
    return _squares_of(start, path)[-1]


def _finish(game: Game, seat: int, evaluator: Evaluator) -> tuple[list[Any], list[Any]]:
    """Put the Ark if the turn requires it, choosing the best square; returns the actions
    added and their events."""
    if game.phase != "place_ark":
        return [], []
    best: tuple[float, Action, Game] | None = None
    for action in game.legal_actions():
        trial = game.copy()
        trial.apply(action)
        value = evaluator.margin(trial, seat)
        if best is None or value > best[0]:
            best = (value, action, trial)
    assert best is not None
    events = list(game.apply(best[1]))
    return [best[1]], events


def follow_ups(game: Game, seat: int, paths: list[tuple[float, str]] | None) -> list[Any]:
    """The deploy-phase choices worth evaluating: every deploy, the pass, and Ark moves
    (``paths``: the best few already found; ``None``: all end squares, found now)."""
    options: list[Any] = list(game.deploys())
    if paths is None:
        paths = best_ark_paths(game, seat)
    options.extend(MoveArk(path) for _, path in paths)
    return options


def turn_candidates(game: Game, seat: int, evaluator: Evaluator) -> list[Candidate]:
    """Every candidate turn from ``game`` (a determinised copy), best first."""
    found: list[Candidate] = []
    game.claimed_features()  # found once here, kept by the copies below
    if game.phase == "place_tile":
        placements = [
            PlaceTile(x, y, r) for (x, y), rotations in game.placements().items() for r in rotations
        ]
        paths: list[tuple[float, str]] | None = None
        for placement in placements:
            placed = game.copy()
            first_events = list(placed.apply(placement))
            placed.claimed_features()
            if paths is None:
                paths = _open_ark_paths(placed, seat, placement)
            for follow in follow_ups(placed, seat, paths):
                found.append(_evaluate(placed, seat, evaluator, [placement], first_events, follow))
    elif game.phase == "deploy":
        for follow in follow_ups(game, seat, None):
            found.append(_evaluate(game, seat, evaluator, [], [], follow))
    elif game.phase == "place_ark":
        for action in game.legal_actions():
            trial = game.copy()
            events = list(trial.apply(action))
            value = evaluator.margin(trial, seat)
            found.append(Candidate((action,), value, events))
    found.sort(key=lambda c: -c.value)
    return found


def _evaluate(
    game: Game,
    seat: int,
    evaluator: Evaluator,
    before: list[Any],
    before_events: list[Any],
    follow: Any,
) -> Candidate:
    trial = game.copy()
    events = before_events + list(trial.apply(follow))
    added, more = _finish(trial, seat, evaluator)
    actions = [*before, follow, *added]
    value = evaluator.margin(trial, seat)
    return Candidate(tuple(actions), value, events + more)


def ark_turns(
    game: Game, seat: int, evaluator: Evaluator, placement: PlaceTile | None, ends: int
) -> list[Candidate]:
    """Turns that move the Ark: ``placement`` (None: ``game`` is in ``deploy`` already),
    then the Ark's best path to each of its best ``ends`` end squares for ``seat``."""
    placed, before, events = game, [], []
    if placement is not None:
        placed = game.copy()
        events = list(placed.apply(placement))
        before = [placement]
    if placed.phase != "deploy" or placed.ark is None:
        return []
    return [
        _evaluate(placed, seat, evaluator, before, events, MoveArk(path))
        for _, path in best_ark_paths(placed, seat)[:ends]
    ]


def quick_turn(
    game: Game, evaluator: Evaluator, rng: Any, samples: int = 2, holes: int = 3
) -> None:
    """A cheap guided turn for playouts. The placements tried are those that matter most,
    at the holes of claimed roads and cities (closing, growing or joining them), and a few
    anywhere; each gets a quick follow-up, and the best by the evaluation is played."""
    seat = to_act(game)
    if game.phase != "place_tile":
        for action in _quick_follow(game, seat, rng):
            game.apply(action)
        return
    tile = game.tile
    assert tile is not None
    tried: list[Any] = []
    for feature in game.claimed_features():
        for (x, y), needs in zip(feature.holes, feature.needs, strict=True):
            rotations = Game.rotations_fitting(tile, needs)
            if rotations:
                option = PlaceTile(x, y, rng.choice(rotations))
                if option not in tried:
                    tried.append(option)
    while len(tried) > holes:
        tried.pop(rng.below(len(tried)))
    for _ in range(samples):
        drawn = game.sample_action(rng)
        if drawn not in tried:
            tried.append(drawn)
    best: tuple[float, list[Any]] | None = None
    game.claimed_features()  # found once here, kept by the trials' copies
    for placement in tried:
        trial = game.copy()
        trial.apply(placement)
        actions = [placement, *_quick_follow(trial, seat, rng)]
        value = evaluator.margin(trial, seat)
        if best is None or value > best[0]:
            best = (value, actions)
    assert best is not None
    for action in best[1]:
        game.apply(action)


def greedy_ark_path(game: Game, seat: int) -> tuple[int, str] | None:
    """A good Ark move found cheaply, for playouts: step by step to the neighbouring tile
    whose pieces favour ``seat`` most, up to five steps; ``(margin, path)`` of the best
    prefix, or None when the Ark is not on the board or no step pays."""
    ark = game.ark
    if ark is None:
        return None
    board = game.board
    seen = {ark}
    pos = ark
    path = ""
    total = 0
    best: tuple[int, str] | None = None
    for _ in range(5):
        x, y = pos
        choice: tuple[int, str, tuple[int, int]] | None = None
        for letter, step in (
            ("N", (x, y - 1)),
            ("E", (x + 1, y)),
            ("S", (x, y + 1)),
            ("W", (x - 1, y)),
        ):
            if step in board and step not in seen:
                worth = sum(1 if p.seat == seat else -1 for p in board[step].pieces)
                if choice is None or worth > choice[0]:
                    choice = (worth, letter, step)
        if choice is None:
            break
        worth, letter, pos = choice
        seen.add(pos)
        path += letter
        total += worth
        if total > 0 and (best is None or total > best[0]):
            best = (total, path)
    if best is None:
        return None
    try:
        game.ark_gain(best[1])  # the rules (and the edition) must allow it
    except IllegalAction:
        return None
    return best


def _quick_follow(game: Game, seat: int, rng: Any) -> list[Any]:
    """Plays a quick follow-up on ``game`` and returns the actions played: the Ark when a
    greedy walk brings two points more than the others get, else a deploy now and then
    while followers last, else a pass. (The Ark's best path, found path by path, was tried
    here: strong at 60 iterations then won 0.39 of 60 games against strong without search,
    against 0.49 with this greedy walk.)"""
    played: list[Any] = []
    if game.phase == "deploy":
        ark = greedy_ark_path(game, seat)
        if ark is not None and ark[0] >= 2:
            action: Any = MoveArk(ark[1])
        else:
            deploys = game.deploys()
            claim = len(deploys) > 1 and game.followers_left(seat) > 1 and rng.below(3)
            action = rng.choice(deploys[:-1]) if claim else Pass()
        game.apply(action)
        played.append(action)
    if game.phase == "place_ark":
        action = rng.choice(game.legal_actions())
        game.apply(action)
        played.append(action)
    return played


def reply_turn(game: Game, seat: int, evaluator: Evaluator, keep: int = 4) -> list[Any]:
    """The turn ``seat`` (to act, in ``place_tile``) is expected to play: the normal
    level's choice, found cheaper. Every placement is screened by the evaluation right
    after it; only the best ``keep`` get the follow-ups (deploys, the best Ark moves, the
    pass). Returns the actions."""
    if game.phase != "place_tile":
        return list(turn_candidates(game, seat, evaluator)[0].actions)
    game.claimed_features()
    screened: list[tuple[float, int, PlaceTile, Game, list[Any]]] = []
    order = 0
    for (x, y), rotations in game.placements().items():
        for r in rotations:
            placement = PlaceTile(x, y, r)
            placed = game.copy()
            events = list(placed.apply(placement))
            # The margin finds the features, kept by the follow-ups' copies.
            screened.append((evaluator.margin(placed, seat), order, placement, placed, events))
            order += 1
    screened.sort(key=lambda s: (-s[0], s[1]))
    best: Candidate | None = None
    paths: list[tuple[float, str]] | None = None
    for _value, _order, placement, placed, events in screened[:keep]:
        if paths is None:
            paths = _open_ark_paths(placed, seat, placement)
        for follow in follow_ups(placed, seat, paths):
            candidate = _evaluate(placed, seat, evaluator, [placement], events, follow)
            if best is None or candidate.value > best.value:
                best = candidate
    assert best is not None
    return list(best.actions)


def _open_ark_paths(placed: Any, seat: int, placement: Any) -> list[tuple[float, str]]:
    """The Ark's best paths for ``seat`` on the board as the first placement leaves it,
    without those through that square: found once, they stay open after every placement."""
    square = (placement.x, placement.y)
    ark = placed.ark
    return [
        (m, path)
        for m, path in best_ark_paths(placed, seat)
        if ark is None or square not in _squares_of(ark, path)
    ][:ARK_MOVES_PER_PLACEMENT]
