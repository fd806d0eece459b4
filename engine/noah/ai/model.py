"""Ark, the card game, for the search: candidates, playouts and the evaluation."""

from __future__ import annotations

from typing import Any

from engine.ai.model import Candidate
from engine.common import Rng
from engine.noah import ChoosePet, Game, Pass, PlayCards, TakeCards
from engine.noah.ai.evaluate import WEIGHTS, Weights, margin
from engine.noah.ai.hints import reason_for
from engine.noah.cards import CARDS
from engine.protocol import to_act


class NoahModel:
    """One per decision like every model; ``weights`` are the evaluation's (the strong
    level has its own, see :data:`~engine.noah.ai.evaluate.STRONG_WEIGHTS`)."""

    scale = 5.0

    def __init__(self, root: Game, weights: Weights = WEIGHTS) -> None:
        self.root = root
        self.weights = weights

    def easy(self, game: Game, rng: Rng) -> object:
        """Takes or plays a single card at random, keeps a scoring pet: a beginner's game."""
        seat = to_act(game)
        if game.phase == "pet":
            pets = [c for c in game.hand(seat) if CARDS[c].can_be_pet]
            return ChoosePet(rng.choice(pets)) if pets else Pass()
        actions = game.legal_actions()
        singles = [a for a in actions if isinstance(a, PlayCards) and len(a.placements) == 1]
        takes = [a for a in actions if isinstance(a, TakeCards)]
        if takes and (not singles or rng.below(2)):
            return rng.choice(takes)
        if singles:
            return rng.choice(singles)
        return rng.choice(actions)

    def candidates(self, game: Game, seat: int, rng: Rng) -> list[Candidate]:
        found = []
        hand = game.hand(seat)
        for action in game.legal_actions():
            trial = game.copy()
            trial.apply_trusted(action)
            value = self._after(trial, seat, hand, action)
            found.append(Candidate((action,), value, trial))
        found.sort(key=lambda c: -c.value)
        return found

    def _after(self, trial: Game, seat: int, hand: tuple[int, ...], action: Any) -> float:
        if isinstance(action, TakeCards) and trial.phase != "over":
            # The card drawn is hidden from the evaluation: it counts as an unknown card.
            known = (*hand, action.card)
            drawn = len(trial.hand(seat)) - len(known)
            return margin(trial, seat, known, drawn, self.weights)
        return margin(trial, seat, weights=self.weights)

    def reason(self, game: Game, seat: int, candidate: Candidate) -> tuple[str, dict[str, Any]]:
        return reason_for(game, candidate.detail, seat, candidate.actions[0])

    def margin(self, game: Game, seat: int) -> float:
        return margin(game, seat, weights=self.weights)

    def playout(self, game: Game, seat: int, rng: Rng, turns: int) -> None:
        for _ in range(turns):
            if game.phase == "over":
                return
            mover = to_act(game)
            hand = game.hand(mover)
            best: tuple[float, Any] | None = None
            tried = set()
            for _ in range(3):
                action = game.sample_action(rng)
                if action in tried:
                    continue
                tried.add(action)
                trial = game.copy()
                trial.apply_trusted(action)
                value = self._after(trial, mover, hand, action)
                if best is None or value > best[0]:
                    best = (value, action)
            assert best is not None
            game.apply_trusted(best[1])
