"""The card game's final post in words (issue 29.9): the players by rank, ties as the engine
breaks them, each with the points every scoring card gave them."""

from __future__ import annotations

import itertools
import re
from typing import Any

from bot.games.noah.posts import final_post
from engine.common import Rng
from engine.noah import KINDS, Game
from engine.noah.cards import card_id
from engine.noah.scoring import total_scores, winners
from render.i18n import say

NAMES = ("Ruth", "Boaz", "Miriam", "Eli")
#: A player's final line: its place and name.
LINE = re.compile(r"\*\*(\d+)\.\*\* (\w+): ")


def said(view: dict[str, Any], language: str) -> list[str]:
    post = final_post(view, NAMES[: len(view["scores"])], ended_early=False)
    return [say(line, language) for line in post.lines]


def tied_view() -> dict[str, Any]:
    """Ruth and Boaz end on 29 points; Boaz holds fewer animals, so the engine's tie break
    makes him the winner, though Ruth sits before him."""
    figures = [
        {"heavy": 3.0, "useful": 0.0, "slow": 2.0, "shy": 0.0, "provision": 1.5},
        {"heavy": 3.0, "useful": 2.0, "slow": 0.0, "shy": 1.0, "provision": 0.0},
        {"heavy": 0.0, "useful": 1.0, "slow": 2.0, "shy": 1.0, "provision": 0.0},
    ]
    discs = [3, 3, 0]
    scores = total_scores([[round(2 * f[k]) for k in KINDS] for f in figures], discs)
    return {
        "phase": "over",
        "scores": scores,
        "winners": list(winners(scores, [3, 1, 2])),
        "figures": figures,
        "discs": discs,
        "pets": [None, card_id("Owl"), card_id("Giraffe")],
    }


def test_the_final_lines_rank_the_players_and_break_a_tie_as_the_engine_does() -> None:
    view = tied_view()
    assert view["scores"] == [29, 29, 22] and view["winners"] == [1]
    assert said(view, "en") == [
        "🏆 **Boaz** won with 29 points!",
        "**1.** Boaz: 29 (heavy 8, useful 10, shy 8; 3 discs; pet: Owl)",
        "**2.** Ruth: 29 (heavy 8, slow 8, provision 10; 3 discs; pet: none)",
        "**3.** Miriam: 22 (useful 6, slow 8, shy 8; 0 discs; pet: Giraffe)",
    ]
    assert said(view, "nl")[1:] == [
        "**1.** Boaz: 29 (zwaar 8, nuttig 10 en schuw 8; 3 schijven; huisdier: Uil)",
        "**2.** Ruth: 29 (zwaar 8, traag 8 en voedsel 10; 3 schijven; huisdier: geen)",
        "**3.** Miriam: 22 (nuttig 6, traag 8 en schuw 8; 0 schijven; huisdier: Giraf)",
    ]
    assert said(view, "es")[1:] == [
        "**1.** Boaz: 29 (pesado 8, útil 10 y tímido 8; 3 discos; mascota: Búho)",
        "**2.** Ruth: 29 (pesado 8, lento 8 y provisión 10; 3 discos; mascota: ninguna)",
        "**3.** Miriam: 22 (útil 6, lento 8 y tímido 8; 0 discos; mascota: Jirafa)",
    ]


def finished(players: int, seed: int) -> Game:
    game, rng = Game.new(players=players, seed=seed), Rng(seed)
    while game.phase != "over":
        game.apply(game.sample_action(rng))
    return game


def test_whole_games_are_ranked_with_parts_that_add_up_and_shared_places() -> None:
    """Played games: the winners first, a place shared only by equal points the engine did
    not tell apart, and each line's cards and discs adding up to its total."""
    shared = broken = False
    for seed in range(60):
        game = finished(4, seed)
        scores, first = game.scores, set(game.winners)
        lines = said(game.view(None), "en")[1:]
        ranked = [(int(m[1]), NAMES.index(m[2])) for m in map(LINE.match, lines) if m]
        assert len(ranked) == game.players
        assert {seat for place, seat in ranked if place == 1} == first
        for (pa, a), (pb, b) in itertools.pairwise(ranked):
            assert scores[a] >= scores[b]
            assert (pa == pb) == (scores[a] == scores[b] and (a in first) == (b in first))
            shared |= pa == pb and a not in first
            broken |= scores[a] == scores[b] and a in first and b not in first
        for line in lines:
            total = int(re.search(r": (\d+) \(", line).group(1))  # type: ignore[union-attr]
            parts = [int(n) for n in re.findall(r"[a-z]+ (\d+)", line.split(";")[0])]
            discs = int(re.search(r"(\d+) discs?;", line).group(1))  # type: ignore[union-attr]
            assert sum(parts) + discs == total, line
    assert shared and broken  # both cases were met
