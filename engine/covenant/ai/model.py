"""The Ark of the Covenant for the search: candidates, playouts and the evaluation."""

from __future__ import annotations

from typing import Any

from engine.ai.model import Candidate
from engine.common import Rng
from engine.covenant import Game, PlaceTile
from engine.covenant.ai.evaluate import STRONG_WEIGHTS, Evaluator
from engine.covenant.ai.hints import reason_for
from engine.covenant.ai.turns import ark_turns, quick_turn, reply_turn, turn_candidates
from engine.covenant.players import sensible_action
from engine.protocol import to_act

#: Placements of the reply's tile looked at with their follow-ups (the rest by a screen).
REPLY_KEEP = 4


#: The strong level's own Ark moves: for the placements of its best candidates (this
#: many), the Ark's best paths to this many end squares, where the normal list keeps two a
#: placement by the points on the way; refined, the end square counts too (what it leaves
#: the next player). Most points are the Ark's: strong won them 47 to 27 a game against
#: normal (12 games), its edge, from the next player's Ark reply searched in ``refine``.
ARK_PLACEMENTS = 2
ARK_ENDS = 6


class CovenantModel:
    """Bound to the root position of one decision (the evaluator counts its tiles to come)."""

    scale = 6.0

    def __init__(self, root: Game) -> None:
        self.evaluator = Evaluator(root)
        # The strong level's own evaluation (only it refines and looks ahead); the
        # candidates and the reply it expects of the next player are the normal level's.
        self.searcher = Evaluator(root, STRONG_WEIGHTS, exact_ark=True)

    def easy(self, game: Game, rng: Rng) -> object:
        # The demo's "sensible" player: snug placements, claims whatever is at hand, moves
        # the Ark when it pays; it never weighs one feature against another.
        return sensible_action(game, rng)

    def candidates(self, game: Game, seat: int, rng: Rng) -> list[Candidate]:
        return turn_candidates(game, seat, self.evaluator)

    def reason(self, game: Game, seat: int, candidate: Candidate) -> tuple[str, dict[str, Any]]:
        return reason_for(game, seat, list(candidate.actions), list(candidate.detail))

    def margin(self, game: Game, seat: int) -> float:
        return self.searcher.margin(game, seat)

    def refine(
        self, game: Game, seat: int, candidates: list[Candidate], width: int
    ) -> list[Candidate]:
        """The best ``width`` candidates, and more Ark moves (see :data:`ARK_ENDS`), looked
        at again with the next player's best Ark reply searched exactly; the rest follow in
        their order."""
        refined = []
        for candidate in candidates[:width]:
            after = game.copy()
            for action in candidate.actions:
                after.apply(action)
            refined.append(candidate._replace(value=self.searcher.margin(after, seat)))
        if game.ark is not None:
            known = {c.actions for c in refined}
            for placement in _first_placements(refined, ARK_PLACEMENTS):
                # Valued by the searcher at once: the Ark's move needs no finish.
                for extra in ark_turns(game, seat, self.searcher, placement, ARK_ENDS):
                    if extra.actions not in known:
                        known.add(extra.actions)
                        refined.append(extra)
        refined.sort(key=lambda c: -c.value)
        return refined + candidates[width:]

    def lookahead(self, world: Game, seat: int, candidate: Candidate, rng: Rng) -> float:
        """``candidate`` played in ``world`` (a determinised copy, changed here), then the
        next player's expected reply (the normal level's turn, by its evaluation), then the
        position scored for ``seat`` with ``seat``'s best Ark move searched."""
        for action in candidate.actions:
            world.apply(action)
        if world.phase == "place_tile" and world.current_player != seat:
            for action in reply_turn(world, to_act(world), self.evaluator, REPLY_KEEP):
                world.apply(action)
        return self.searcher.margin(world, seat)

    def playout(self, game: Game, seat: int, rng: Rng, turns: int) -> None:
        start = game.turn
        while game.phase != "over" and game.turn < start + turns:
            quick_turn(game, self.evaluator, rng)
        # Finish the last turn started, so the evaluation sees a turn's end.
        while game.phase not in ("over", "place_tile"):
            quick_turn(game, self.evaluator, rng)


def _first_placements(candidates: list[Candidate], count: int) -> list[PlaceTile | None]:
    """The first ``count`` different first placements of ``candidates`` (None for turns
    that start after the tile, in ``deploy``)."""
    found: list[PlaceTile | None] = []
    for candidate in candidates:
        first = candidate.actions[0]
        placement = first if isinstance(first, PlaceTile) else None
        if placement not in found:
            found.append(placement)
            if len(found) == count:
                break
    return found
