"""The normal evaluation of a position of The Ark of the Covenant, in about points.

A seat's value is its score plus what its pieces should still bring:

- an unfinished road or city counts what it would score complete (doubled for a Prophet in
  the majority) or unfinished at the end, weighed by the odds that every hole is filled:
  for each empty square where it goes on, how many of the tiles still to come fit there,
  and how many of them its owner will draw;
- only the majority on a feature scores it (ties in full);
- a field scores its sheep less wolves now, with some growth while tiles are left;
- an unfinished temple scores 7 if its neighbours will all come, 3 if not;
- the Ark's reach: the pieces on tiles the Ark can reach in one move are points waiting for
  whoever moves it, most of all for the player to move next;
- followers and the Prophet still at hand are worth what they can claim in the tiles left.

Only what every player sees is read: the board, pieces, scores and the set of tiles to come
(never their order). ``margin`` is the value ahead of the best rival: what the levels
maximise.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.covenant import Game
from engine.covenant.game import TEMPLE_POINTS, TEMPLE_POINTS_UNFINISHED, ClaimedFeature
from engine.covenant.majority import majority

#: What a hole asks of a tile's four edges (as ``ClaimedFeature.needs`` holds it).
Needs = tuple[str | None, ...]


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's tuned constants."""

    follower: float = 2.6  # a follower at hand early in the game
    follower_decay: float = 0.8  # each further follower at hand is worth this much less
    prophet: float = 3.0  # the Prophet at hand early in the game
    hand_horizon: float = 30.0  # tiles left below which pieces at hand lose value
    closing: float = 0.9  # a filled hole may open new edges: odds it closes
    growth: float = 0.6  # expected tiles a completed road or city gains per open edge
    field_growth: float = 0.025  # per tile left, per field square (up to 6)
    ark_reach: float = 0.3  # per point the Ark could bring this seat
    ark_next: float = 0.5  # extra, for the seat that moves next
    ark_exact: float = 0.8  # share of its best Ark move the next seat is expected to take
    returned: float = 0.6  # a follower that comes back later is worth this share of one


WEIGHTS = Weights()

#: The strong level's own (its searcher's): pieces at hand count for more (fitted, then
#: played: ``NOTES.md`` beside this file).
STRONG_WEIGHTS = Weights(follower=5.0, prophet=8.0, returned=0.675)


class Evaluator:
    """Evaluates positions that follow one root position (it counts the tiles to come once)."""

    __slots__ = ("_deck", "_fits", "_gains", "_players", "_total", "exact_ark", "weights")

    def __init__(self, root: Game, weights: Weights = WEIGHTS, exact_ark: bool = False) -> None:
        #: With ``exact_ark`` the next seat's best Ark move is found path by path (a reply
        #: searched, for the strong level) instead of being estimated from the Ark's reach.
        self.exact_ark = exact_ark
        self._deck = Counter(root.tiles_to_come())
        self._total = max(1, sum(self._deck.values()))
        self._fits: dict[Needs, float] = {}
        self._gains: dict[
            tuple[int, int], tuple[ClaimedFeature, tuple[tuple[int, float], ...]]
        ] = {}
        self._players = root.players
        self.weights = weights

    def fit_share(self, needs: Needs) -> float:
        """The share of the tiles to come that fit a square needing ``needs``."""
        share = self._fits.get(needs)
        if share is None:
            count = sum(n for tile, n in self._deck.items() if Game.rotations_fitting(tile, needs))
            share = self._fits[needs] = count / self._total
        return share

    def values(self, game: Game) -> list[float]:
        """Every seat's value: score plus expected points still to come."""
        scores = game.scores
        if game.phase == "over":
            return [float(s) for s in scores]
        w = self.weights
        players = game.players
        values = [float(s) for s in scores]
        left = game.tiles_left + (1 if game.phase == "place_tile" else 0)
        time_left = min(1.0, left / w.hand_horizon)
        cache = self._gains
        for feature in game.claimed_features():
            # Unchanged features are the same objects in the copies a search makes, and
            # their worth depends only on the tiles left: found once per decision.
            key = (id(feature), left)
            known = cache.get(key)
            if known is None or known[0] is not feature:
                known = cache[key] = (feature, self._feature_gains(feature, left))
            for seat, gain in known[1]:
                values[seat] += gain
        for _pos, around, seats in game.open_temples():
            if not seats:
                continue
            odds = (left / (left + 10.0)) ** (4 - around) if left else 0.0
            gain = odds * TEMPLE_POINTS + (1.0 - odds) * TEMPLE_POINTS_UNFINISHED
            for seat in majority(seats):
                values[seat] += gain
        for seat in range(players):
            at_hand = game.followers_left(seat)
            # A geometric series: the first follower at hand matters most.
            worth = (1.0 - w.follower_decay**at_hand) / (1.0 - w.follower_decay)
            values[seat] += w.follower * time_left * worth
            if game.prophet_available(seat):
                values[seat] += w.prophet * time_left
        nxt = game.current_player
        if game.ark is not None and left and nxt is not None:
            reach = ark_reach(game)
            for seat in range(players):
                values[seat] += w.ark_reach * reach[seat]
            if self.exact_ark:
                values[nxt] += w.ark_exact * best_ark_margin(game, nxt)
            else:
                values[nxt] += w.ark_next * reach[nxt]
        return values

    def _feature_gains(self, feature: ClaimedFeature, left: int) -> tuple[tuple[int, float], ...]:
        """What ``feature`` should still bring, as ``(seat, points)`` in the order added."""
        w = self.weights
        draws = left / self._players
        time_left = min(1.0, left / w.hand_horizon)
        gains: list[tuple[int, float]] = []
        seats = [p.seat for p in feature.pieces]
        winners = majority(seats)
        kind = feature.kind
        if kind == "field":
            gain = 2.0 * max(0, feature.extras - feature.wolves)
            gain += w.field_growth * left * min(feature.tiles, 6)
            return tuple((seat, gain) for seat in winners)
        odds = 1.0 if left and feature.holes else 0.0
        if odds:
            fits, turns = self._fits, max(1.0, draws)
            for needs in feature.needs:
                share = fits.get(needs)
                if share is None:
                    share = self.fit_share(needs)
                odds *= w.closing * (1.0 - (1.0 - share) ** turns)
        size = feature.tiles + feature.extras
        grown = size + w.growth * feature.open
        done = 2.0 * grown if kind == "city" else grown
        unfinished = float(size)
        prophets = {p.seat for p in feature.pieces if p.prophet}
        for seat in winners:
            complete = done * (2.0 if seat in prophets else 1.0)
            gains.append((seat, odds * complete + (1.0 - odds) * unfinished))
        back = odds * w.returned * w.follower * time_left
        for piece in feature.pieces:
            if not piece.prophet:
                gains.append((piece.seat, back))
        return tuple(gains)

    def margin(self, game: Game, seat: int) -> float:
        """``seat``'s value less the best rival's."""
        values = self.values(game)
        mine = values[seat]
        return mine - max(v for s, v in enumerate(values) if s != seat)


def ark_reach(game: Game) -> list[int]:
    """Per seat, about the most points one move of the Ark could bring them: their pieces on
    the five best tiles within five steps (a bound; a path may not take them all)."""
    board = game.board
    ark = game.ark
    assert ark is not None
    players = game.players
    counts: list[list[int]] = [[] for _ in range(players)]
    seen = {ark}
    layer = [ark]
    for _ in range(5):
        nxt = []
        for x, y in layer:
            for step in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
                if step in board and step not in seen:
                    seen.add(step)
                    nxt.append(step)
                    pieces = board[step].pieces
                    if pieces:
                        per: dict[int, int] = {}
                        for p in pieces:
                            per[p.seat] = per.get(p.seat, 0) + 1
                        for s, n in per.items():
                            counts[s].append(n)
        layer = nxt
    return [sum(sorted(c, reverse=True)[:5]) for c in counts]


def best_ark_margin(game: Game, seat: int, start: tuple[int, int] | None = None) -> int:
    """The most ``seat`` can gain over its best-placed rival with one move of the Ark from
    ``start`` (default: where it is), path by path."""
    ends = ark_moves(game, seat, start)
    return max(0, max(ends.values(), default=0))


def ark_moves(
    game: Game, seat: int, start: tuple[int, int] | None = None
) -> dict[tuple[int, int], int]:
    """For each square the Ark can end on, the best margin over the best-placed rival that
    ``seat`` gets on the way, path by path (1 to 5 steps over placed tiles, none entered
    twice: the default edition's move; for the evaluation only, never played)."""
    board = game.board
    ark = game.ark if start is None else start
    if ark is None:
        return {}
    players = game.players
    worth: dict[tuple[int, int], tuple[int, ...]] = {}
    for pos, placed in board.items():
        if placed.pieces:
            points = [0] * players
            for piece in placed.pieces:
                points[piece.seat] += 1
            worth[pos] = tuple(points)
    ends: dict[tuple[int, int], int] = {}
    visited = {ark}
    gained = [0] * players
    others = [s for s in range(players) if s != seat]

    def walk(pos: tuple[int, int], depth: int) -> None:
        x, y = pos
        for step in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
            if step not in board or step in visited:
                continue
            points = worth.get(step)
            if points is not None:
                for s in range(players):
                    gained[s] += points[s]
            margin = gained[seat] - max(gained[s] for s in others)
            if ends.get(step, -99) < margin:
                ends[step] = margin
            if depth < 5:
                visited.add(step)
                walk(step, depth + 1)
                visited.discard(step)
            if points is not None:
                for s in range(players):
                    gained[s] -= points[s]

    walk(ark, 1)
    return ends
