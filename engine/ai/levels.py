"""The three levels, written once for every game on top of its :class:`~engine.ai.model.Model`.

- easy: the model's plausible but weak move.
- normal: the candidate turn the normal evaluation likes best, on a position dealt from what
  the mover knows (so that applying a candidate never reveals a hidden card or tile).
- strong: the same candidates (the card game values them with the strong level's own
  weights, which its search scores with too), the best looked at again by the model's
  deeper evaluation (``refine``; The Ark of the Covenant's has weights of its own, where
  pieces at hand count for more), then, within the budget,
  :func:`engine.ai.search.lookahead_search` (The Ark of the Covenant: the next player's
  reply looked at in dealt worlds) or :func:`engine.ai.search.search` (the card game:
  playouts).
"""

from __future__ import annotations

from typing import Any

from engine import registry
from engine.ai.budget import Budget
from engine.ai.model import Candidate, Model
from engine.ai.search import SearchSettings, lookahead_search, search
from engine.common import Rng

LEVELS: tuple[str, ...] = ("easy", "normal", "strong")

#: Search settings per game, tuned with bench/ai.py.
SETTINGS: dict[str, SearchSettings] = {
    "covenant": SearchSettings(first_width=4, widen=0.5, horizon=1),
    # The card game's searches only between candidates its evaluation rates the same.
    "noah": SearchSettings(first_width=5, widen=0.5, horizon=2, close=0.0),
}
# The card game's, measured against three normal players at 0.1 s a move (the bench's
# scheme, strong in every seat; 0.25 is parity). With the strong weights the search did not
# beat their greedy choice: games 300-439, greedy 0.375, the search over every candidate
# 0.307, horizon 1 0.304, prior weight 8 with playouts to the end in the endgame 0.314,
# the drawn card valued as unknown 0.225; searched only where the evaluation cannot tell
# (``close``: within a point of the best) 0.393, within 0.3 0.343; but on games 0-249,
# greedy 0.404 and within a point 0.344 (within two points 0.346). Over the 390 games:
# greedy 0.394, within a point 0.362; so the strong level plays its evaluation's best, and
# the search only tells apart candidates rated the same. Later, 400 games (0-399): greedy
# 0.391; as played at 0.1 s, 0.440 on 0-99 but 0.352 on 100-399 (0.374): below 0.40.
# With a card played alone valued as often as it gets played (``Weights.alone``), as
# played at 0.1 s: 0.491 on games 0-399 and 0.489 on 400-799 (greedy: 0.485 and 0.419).
# (Before the strong weights, 80-100 games each: horizon 1, 3, playouts to the end from the
# fourth rain, prior weights 1-8, exploration 0.15, 1 or 5 samples, narrower widening: none
# better than 0.29-0.34; the hidden hands shown to the search, 0.275 against 0.292: what it
# misses is not them.)


#: Candidates the strong level looks at again with the model's deeper evaluation.
REFINE_WIDTH = 16

#: The strong level's lookahead per game (instead of the playouts; see
#: :func:`engine.ai.search.lookahead_search`): candidates looked at, the weight in samples
#: of their (refined) value, and the rounds at most. Width 0: the playouts.
#: Covenant: one round, what the lookahead brings (below), so that a move takes the
#: candidates, the refining and four lookaheads (some 65 ms on a slow machine), not the
#: whole budget: at 0.1 s a move, with rounds as many as fitted, strong won 0.730 of games
#: 0-99 (this machine, bench --long), where one round (iterations=4) won 0.775 of them and
#: 0.766 of games 0-399.
#: (The card game's, each other player's best of a few sampled moves, lost: strong won 0.350
#: of 100 four-player games at 10 iterations against 0.365 with the playouts.)
LOOKAHEAD: dict[str, tuple[int, float, int | None]] = {"covenant": (4, 1.0, 1)}
# Covenant, tried and not better: keeping a round the clock cuts short once it has reached
# two candidates (played best first, the rest out: a successive halving), where at 0.1 s
# a lookahead takes ~12 ms and ~60 ms are left after the candidates, so that over a third
# of the moves had no full round (one game: 28 of 73) and most second rounds were cut and
# thrown away: 0.675 against 0.688 for strong vs normal, games 0-199 paired on the same
# decks at 0.1 s (0-99: 0.670/0.620, 100-199: 0.680/0.755).
# What the lookahead brings, in lookaheads (iterations=, the same on any machine), strong
# vs normal: none (the refined values alone) 0.66 (games 0-199); one round of four 0.713
# (0-399); one round of eight 0.718 (0-399); refining 32 instead of 16, one round of four,
# 0.709 (0-399); on games 0-99, three rounds 0.62, ten rounds 0.705, 0.1 s on a quiet
# machine (3-5 rounds) 0.730. So the first round is what counts. Also tried: narrowing
# the first round to the lookaheads the clock leaves room for, so that it is never thrown
# away: at 0.033 s 0.645 against 0.640 (0-99), kept out.


def model_for(game: Any, level: str = "normal") -> Model:
    """The model of ``game``'s engine for ``level``, bound to this position."""
    name = registry.name_of(game)
    if name == "covenant":
        from engine.ai.covenant import CovenantModel

        return CovenantModel(game)
    if name == "noah":
        from engine.ai.noah import NoahModel
        from engine.ai.noah.evaluate import STRONG_WEIGHTS, WEIGHTS

        return NoahModel(game, STRONG_WEIGHTS if level == "strong" else WEIGHTS)
    raise KeyError(f"no computer player for {name}")


def _seat_of(game: Any) -> int:
    seat = game.current_player
    if seat is None or game.phase == "over":
        raise ValueError("The game is over: there is no move to choose.")
    return seat


def ranked(game: Any, seed: int, level: str = "normal") -> tuple[Model, int, list[Candidate], Any]:
    """The model of ``level``, the mover, the candidates best first, and the dealt root they
    came from."""
    seat = _seat_of(game)
    model = model_for(game, level)
    rng = Rng(seed)
    root = game.determinise(seat, rng)
    return model, seat, model.candidates(root, seat, rng), root


def choose_candidate(
    game: Any, level: str, *, seed: int, budget_s: float, iterations: int | None
) -> tuple[Model, Candidate] | None:
    """The model and the candidate turn of ``level`` (None for easy, which has none)."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
    if level == "easy":
        return None
    budget = Budget(budget_s, iterations)  # started before the candidates: they count too
    model, seat, candidates, _root = ranked(game, seed, level)
    if level == "normal" or len(candidates) == 1:
        return model, candidates[0]
    refine = getattr(model, "refine", None)
    if refine is not None:
        candidates = refine(_root, seat, candidates, REFINE_WIDTH)
    name = registry.name_of(game)
    width, prior, rounds = LOOKAHEAD.get(name, (0, 0.0, None))
    if width:
        rng = Rng(seed ^ 0x5EED)
        chosen = lookahead_search(game, model, seat, candidates, budget, rng, width, prior, rounds)
        return model, chosen
    settings = SETTINGS[name]
    return model, search(game, model, seat, candidates, budget, Rng(seed ^ 0x5EED), settings)
