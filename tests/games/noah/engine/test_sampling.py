"""The playouts' fast path: sample_action draws legal actions, all of them, and the tables the
listing uses instead of the sentences agree with the rules functions."""

from __future__ import annotations

import itertools

import pytest

from engine.common import Rng
from engine.noah import CARDS, ChoosePet, Game, Pass, PlayCards, TakeCards
from engine.noah.actions import SIDES
from engine.noah.cards import IS_RAIN, KINDS, PLAYS_ALONE, SHY, SPECIAL
from engine.noah.placing import (
    has_placement,
    legal_placements,
    nth_placement,
    place,
    placement_counts,
)
from engine.noah.ship import CLASHES, FEARS, fit_problem, shy_blocked, shy_blocker


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_sampled_action_is_legal_to_the_end(players: int) -> None:
    for seed in range(12):
        game = Game.new(players=players, seed=seed)
        rng = Rng(seed + 7)
        steps = 0
        while game.phase != "over":
            action = game.sample_action(rng)
            assert action in game.legal_actions(), (seed, steps, action)
            before = game.to_json()
            twin = game.copy()
            game.apply(action)
            # Drawing the second card places the first on the state and undoes it.
            assert twin.to_json() == before
            twin.apply_trusted(action)
            assert twin.to_json() == game.to_json()
            steps += 1


def reference_sample(game: Game, rng: Rng) -> object:
    """sample_action as it was written before counting: every placement listed, then drawn."""
    seat = game.current_player
    assert seat is not None
    plays = [p for card in game.hand(seat) for p in game.placements(card)]
    if game.phase == "play":
        if game.face_up and (not plays or rng.below(5) < 2):
            return TakeCards(rng.choice(game.face_up))
        first = rng.choice(plays)
        if PLAYS_ALONE[first.card] or rng.below(2):
            return PlayCards((first,))
        seconds = game.second_placements(first)
        return PlayCards((first, rng.choice(seconds))) if seconds else PlayCards((first,))
    if game.phase == "pet":
        options = list(game.hand(seat))
        return ChoosePet(rng.choice(options)) if options and rng.below(4) else Pass()
    return PlayCards((rng.choice(plays),)) if plays and rng.below(8) else Pass()


def test_sample_action_draws_what_listing_every_placement_draws() -> None:
    # The computer players' playouts depend on these draws: counting must not change them.
    for seed in range(30):
        game = Game.new(players=3 + seed % 3, seed=seed)
        fast, slow = Rng(seed), Rng(seed)
        while game.phase != "over":
            action = game.sample_action(fast)
            assert action == reference_sample(game, slow)
            assert fast.state == slow.state
            game.apply_trusted(action)


def test_counted_placements_are_the_listed_ones_in_order() -> None:
    # sample_action draws an index into these counts: the same index of the full listing.
    checked = 0
    specials: set[str] = set()
    for seed in range(25):
        game = Game.new(players=3 + seed % 3, seed=seed)
        rng = Rng(seed)
        while game.phase != "over":
            state = game._state.copy()
            seat = state.current
            endgame = state.phase == "endgame"
            cases = [(set(), True)]
            firsts = legal_placements(state, seat, endgame, set(), True)
            if state.phase == "play" and firsts:
                first = firsts[rng.below(len(firsts))]
                if not PLAYS_ALONE[first.card]:
                    after = state.copy()
                    place(after, seat, first, False, None)
                    cases.append(({(SIDES.index(first.side), first.row)}, False))
            for used, is_first in cases:
                work = state if is_first else after
                listed = legal_placements(work, seat, endgame, used, is_first)
                counts = placement_counts(work, seat, endgame, used, is_first)
                assert sum(n for _, n in counts) == len(listed)
                assert has_placement(work, seat, endgame, used, is_first) == bool(listed)
                made = [
                    nth_placement(work, seat, endgame, used, is_first, counts, i)
                    for i in range(len(listed))
                ]
                assert made == listed
                checked += len(listed)
                specials.update(SPECIAL[p.card] for p in listed)
            game.apply(game.sample_action(rng))
    assert checked > 10_000
    assert {"chimpanzee", "skunk", "mosquito", "spider"} <= specials  # counted one by one


def test_sample_action_reaches_every_legal_action() -> None:
    for seed in range(5):
        game = Game.new(players=3 + seed % 3, seed=seed)
        rng = Rng(seed)
        for _ in range(3 * seed):
            game.apply(game.sample_action(rng))
        legal = set(game.legal_actions())
        seen: set[object] = set()
        draws = 0
        while seen != legal and draws < 300 * len(legal):
            seen.add(game.sample_action(rng))
            draws += 1
        assert seen == legal, (seed, len(legal) - len(seen))


def test_clashes_say_what_fit_problem_says() -> None:
    on_ark = [c for c in range(len(CARDS)) if not IS_RAIN[c]]
    for card in on_ark:
        for size in (1, 2):
            for cabin in itertools.combinations(on_ark[::3], size):
                if card in cabin:
                    continue
                fits = fit_problem(list(cabin), card) is None
                assert fits == CLASHES[card].isdisjoint(cabin), (card, cabin)


def test_shy_blocked_says_what_shy_blocker_says() -> None:
    checked = 0
    for seed in range(20):
        game = Game.new(players=4, seed=seed)
        rng = Rng(seed)
        while game.phase != "over":
            cabins = [[list(c) for c in side] for side in game.cabins]
            for card in range(len(CARDS)):
                for side in (0, 1):
                    for row in range(len(cabins[side]) + 1):
                        found = shy_blocker(cabins, side, row, card)
                        assert shy_blocked(cabins, side, row, card) == (found is not None)
                        checked += found is not None
            game.apply(game.sample_action(rng))
    assert checked > 100  # the positions did hold shy animals kept out
    assert all(bool(FEARS[c]) == SHY[c] for c in range(len(CARDS)))


def test_cabin_options_count_the_listed_first_placements() -> None:
    # The evaluation asks cabin_options of every position it scores: counted, they must be
    # what listing every placement of each card as a first card (or endgame play) gives.
    for seed in range(20):
        game = Game.new(players=3 + seed % 3, seed=seed)
        rng = Rng(seed + 3)
        while game.phase != "over":
            for seat in range(game.players):
                state = game._state
                endgame = game.phase == "endgame"
                hand = state.hands[seat]
                listed = legal_placements(state, seat, endgame, set(), not endgame)
                expected = {card: 0 for card in hand}
                for placement in listed:
                    expected[placement.card] += 1
                assert game.cabin_options(seat) == expected, (seed, seat)
            game.apply(game.sample_action(rng))


def test_halves_count_figures_per_scoring_card_and_seat() -> None:
    game = Game.new(players=3, seed=5)
    state = game._state
    kind = 2
    state.plain[1][kind] = 2
    state.on_disc[1][kind] = 1
    state.plain[0][kind] = 1
    halves = game.halves()
    assert halves[kind] == [2, 7, 0]  # 2 halves, then 2 plain and one on a disc: 4 + 3
    assert halves[kind][1] == round(2 * game.figures(1)[KINDS[kind]])
