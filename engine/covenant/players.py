"""Computer players: pure functions from a game (and a seeded RNG) to a legal action.

They drive the terminal demo, the benchmarks, property tests and a seat whose player was
removed or timed out. None of them looks at hidden information: the deck order is never read.
"""

from __future__ import annotations

from engine.common.rng import Rng
from engine.covenant.actions import Action, Deploy, MoveArk, Pass, PlaceTile
from engine.covenant.game import TEMPLE, Game
from engine.covenant.geometry import neighbours
from engine.covenant.lengths import LENGTHS
from engine.protocol import to_act


def random_action(game: Game, rng: Rng) -> Action:
    """Any legal action, uniformly."""
    return rng.choice(game.legal_actions())


def sensible_action(game: Game, rng: Rng) -> Action:
    """A plausible move, good enough to make a demo game look like people played it.

    Tiles go where they touch the most neighbours; a follower goes on a city, then a road,
    then (early on) a field; otherwise the Ark is moved if that gains more for this seat
    than for anyone else; otherwise pass.
    """
    actions = game.legal_actions()
    if game.phase == "place_tile":
        board = game.board

        def snug(action: Action) -> int:
            assert isinstance(action, PlaceTile)
            return sum(n in board for n in neighbours((action.x, action.y)))

        best = max(snug(a) for a in actions)
        return rng.choice([a for a in actions if snug(a) == best])
    if game.phase != "deploy":
        return rng.choice(actions)
    seat = to_act(game)
    deploys = [a for a in actions if isinstance(a, Deploy)]
    if deploys and rng.below(10) < 7:
        x, y = game.last_placed or (0, 0)
        by_kind: dict[str, list[Deploy]] = {}
        for deploy in deploys:
            if deploy.port == TEMPLE:
                kind = "temple"
            else:
                kind = game.board[(x, y)].view.segment_at(deploy.port).kind
            by_kind.setdefault(kind, []).append(deploy)
        for kind in ("city", "temple", "road", "field"):
            options = by_kind.get(kind, [])
            # No new field in the last 30 tiles of 72, or as large a part of a shorter game.
            if kind == "field" and game.tiles_left * LENGTHS["full"] < 30 * LENGTHS[game.length]:
                continue
            if options:
                return rng.choice(options)
    best_path, best_margin = None, 0
    for action in actions:
        if isinstance(action, MoveArk):
            gain = game.ark_gain(action.path)
            margin = gain[seat] - max((g for s, g in enumerate(gain) if s != seat), default=0)
            if margin > best_margin:
                best_path, best_margin = action, margin
    return best_path if best_path is not None else Pass()
