"""How often a card in hand of Ark, the card game, gets played: the measurement behind the
strong level's ``Weights.alone`` (see ``engine/noah/ai/evaluate.py``).

Four players greedy with given weights play seeded four-player games. At each decision of
the play phase, every card in the mover's hand is noted with the rain cards fallen and
whether it plays alone (a slow animal or a provision); at the end, whether that player
played it later (or kept it as a scoring pet). Printed: the share played per rain count,
for cards that play alone and for the others, and their ratio, which is what ``alone``
holds. ``--weights earlier`` plays with the weights the constants were measured with (a
playable card at 0.6, no ``alone``); the default plays with today's strong weights.

Run: ``python bench/noah_card_odds.py [--games 200] [--weights strong|earlier]`` (about a
minute on two cores for 200 games).
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor

from _common import figure, header

from engine.common import Rng
from engine.noah import ChoosePet, Game, PlayCards
from engine.noah.ai import NoahModel
from engine.noah.ai.evaluate import STRONG_WEIGHTS, Weights
from engine.noah.cards import CARDS, PLAYS_ALONE

RAINS = 5  # rain cards fallen before the endgame: 0 to 4
CHOICES = {"strong": STRONG_WEIGHTS, "earlier": Weights(playable=0.6)}


def game(task: tuple[int, str]) -> list[tuple[int, bool, bool]]:
    """One game: (rain fallen, plays alone, played later) for every card in hand noted."""
    index, choice = task
    weights = CHOICES[choice]
    g = Game.new(players=4, seed=50_000 + index)
    noted: list[tuple[int, int, int, bool]] = []  # seat, card, rain, alone
    played: list[set[int]] = [set() for _ in range(4)]
    moves = 0
    while g.phase != "over":
        seat = g.current_player
        assert seat is not None
        if g.phase == "play":
            noted.extend((seat, c, g.rain_fallen, PLAYS_ALONE[c]) for c in g.hand(seat))
        rng = Rng(moves)
        root = g.determinise(seat, rng)
        action = NoahModel(root, weights).candidates(root, seat, rng)[0].actions[0]
        if isinstance(action, PlayCards):
            played[seat].update(p.card for p in action.placements)
        elif isinstance(action, ChoosePet) and CARDS[action.card].can_be_pet:
            played[seat].add(action.card)
        g.apply(action)
        moves += 1
    return [(rain, alone, card in played[seat]) for seat, card, rain, alone in noted]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--weights", choices=sorted(CHOICES), default="strong")
    args = parser.parse_args()
    header("noah_card_odds")
    counts = [[[0, 0] for _ in range(RAINS)] for _ in range(2)]  # [alone][rain] = [played, n]
    with ProcessPoolExecutor() as pool:
        tasks = [(i, args.weights) for i in range(args.games)]
        for rows in pool.map(game, tasks, chunksize=4):
            for rain, alone, was_played in rows:
                cell = counts[alone][rain]
                cell[0] += was_played
                cell[1] += 1
    for rain in range(RAINS):
        share = [c[rain][0] / max(1, c[rain][1]) for c in counts]
        figure(f"played_other_rain{rain}", share[0], "share")
        figure(f"played_alone_rain{rain}", share[1], "share")
        figure(f"alone_ratio_rain{rain}", share[1] / max(share[0], 1e-9), "ratio")


if __name__ == "__main__":
    main()
