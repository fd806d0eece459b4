"""Seeded random games through legal_actions() to the end, with invariants at every step."""

from __future__ import annotations

import itertools

import pytest

from engine.common import Rng
from engine.noah import (
    CARDS,
    SIDES,
    ChoosePet,
    Game,
    IllegalAction,
    Pass,
    Placement,
    PlayCards,
    TakeCards,
)
from engine.noah.cards import KINDS
from engine.noah.ship import cabin_is_legal, side_weights


def check_invariants(game: Game) -> None:
    # Every card is in exactly one place: supply, face up, hands, pets, ark, rain, box.
    assert sorted(game.cards_everywhere()) == list(range(len(CARDS)))
    cabins = [[list(c) for c in side] for side in game.cabins]
    port, starboard = side_weights(cabins)
    assert game.tilt == starboard - port
    assert -2 <= game.tilt <= 2
    assert all(cabin_is_legal(cabin) and cabin for side in cabins for cabin in side)
    assert all(d >= 0 for d in game.discs)
    assert all(f >= 0 for seat in range(game.players) for f in game.figures(seat).values())
    assert game.rain_fallen <= 5
    if game.phase == "over":
        assert game.legal_actions() == [] and game.current_player is None
    else:
        assert game.legal_actions()
    view = game.public_view()
    assert "hand" not in view and "deck" not in view
    if game.phase != "over":
        assert all(p in (True, None) for p in view["pets"])


def play_random(players: int, seed: int, check_every: int = 1) -> tuple[Game, list]:
    game = Game.new(players=players, seed=seed)
    chooser = Rng(seed + 101)
    history = []
    step = 0
    while game.phase != "over":
        actions = game.legal_actions()
        action = actions[chooser.below(len(actions))]
        game.apply(action, seat=game.current_player)
        history.append(action)
        step += 1
        if step % check_every == 0:
            check_invariants(game)
        assert step < 500
    check_invariants(game)
    return game, history


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_games_keep_every_invariant(players: int) -> None:
    phases_seen: set[str] = set()
    for seed in range(100):
        game, _ = play_random(players, seed, check_every=1 if seed < 15 else 7)
        phases_seen.add(game.phase)
        assert len(game.scores) == players and game.winners
    assert phases_seen == {"over"}


def test_random_games_visit_every_phase_and_special() -> None:
    seen_phases: set[str] = set()
    seen_specials: set[str] = set()
    drove_out = 0
    for seed in range(60):
        game = Game.new(players=4, seed=seed)
        chooser = Rng(seed)
        while game.phase != "over":
            seen_phases.add(game.phase)
            actions = game.legal_actions()
            action = actions[chooser.below(len(actions))]
            if isinstance(action, PlayCards):
                for p in action.placements:
                    seen_specials.add(CARDS[p.card].special)
                    drove_out += p.drive_out is not None
            game.apply(action)
    assert seen_phases == {"play", "pet", "endgame"}
    assert {"fox", "skunk", "mosquito", "spider", "bronto", "chimpanzee"} <= seen_specials
    assert drove_out > 0


def test_same_seed_and_actions_give_the_same_game() -> None:
    game, history = play_random(4, 77, check_every=50)
    replay = Game.new(players=4, seed=77)
    for action in history:
        replay.apply(action)
    assert replay.to_json() == game.to_json()
    assert replay.scores == game.scores


@pytest.mark.parametrize("seed", range(8))
def test_json_round_trip_at_any_point_continues_identically(seed: int) -> None:
    _, history = play_random(4, seed, check_every=100)
    game = Game.new(players=4, seed=seed)
    for index, action in enumerate(history):
        if index % 5 == 0:
            text = game.to_json()
            copy = Game.from_json(text)
            assert copy.to_json() == text
            assert copy.legal_actions() == game.legal_actions()
            rest_a, rest_b = Game.from_json(text), Game.from_json(text)
            for later in history[index : index + 6]:
                assert rest_a.apply(later) == rest_b.apply(later)
            assert rest_a.to_json() == rest_b.to_json()
        game.apply(action)


def test_from_json_refuses_garbage() -> None:
    for text in ["", "{}", "[1]", '{"format": 99}']:
        with pytest.raises(ValueError):
            Game.from_json(text)


def candidate_placements(game: Game) -> list[Placement]:
    """Every legal placement and a near miss for each of its fields.

    For each card in the hand (and one that is not) and each cabin (every open one, the new
    one on each side and a row past it): the face-up card to take (each one, or none, for a
    new cabin; none or a wrong one otherwise), the animal to drive out (none or each cabin
    mate), the chimpanzee's scoring card (every one where a chimpanzee is involved, else none
    or a wrong one). Every legal placement is among them; the rest cover each way to be wrong.
    """
    seat = game.current_player
    assert seat is not None
    hand = game.hand(seat)
    outsider = next(c for c in range(len(CARDS)) if c not in hand and not CARDS[c].is_rain)
    chimp = {c for c in range(len(CARDS)) if CARDS[c].special == "chimpanzee"}
    out = []
    for card in (*hand, outsider):
        for side, name in enumerate(SIDES):
            rows = game.cabins[side]
            for row in range(len(rows) + 2):
                cabin = rows[row] if row < len(rows) else ()
                new = row == len(rows)
                wrong_take = game.face_up[0] if game.face_up else outsider
                takes = [None, *game.face_up] if new else [None, wrong_take]
                victims = [None, *cabin] if cabin else [None, outsider]
                involved = card in chimp or bool(chimp & set(cabin))
                halves = [None, *KINDS] if involved else [None, "useful"]
                for take, victim, half in itertools.product(takes, victims, halves):
                    out.append(Placement(card, name, row, take, victim, half))
    return out


def accepted_by_apply(game: Game, action: object) -> bool:
    trial = game.copy()
    try:
        trial.apply(action)  # type: ignore[arg-type]
    except IllegalAction:
        return False
    return True


@pytest.mark.parametrize("players", [3, 4, 5])
def test_legal_actions_are_exactly_what_apply_accepts(players: int) -> None:
    """At every step of many seeded games: single plays, takes and pet choices are compared
    in full; pairs: a sample of listed pairs is accepted and sampled unlisted pairs are
    refused."""
    for seed in range(8):
        game = Game.new(players=players, seed=seed)
        chooser = Rng(seed + 5)
        while game.phase != "over":
            legal = game.legal_actions()
            listed = set(legal)
            cands = candidate_placements(game)
            singles = [PlayCards((p,)) for p in cands]
            assert {a for a in legal if isinstance(a, PlayCards) and len(a.placements) == 1} <= set(
                singles
            )
            others = [*(TakeCards(c) for c in range(len(CARDS))), Pass()]
            others += [ChoosePet(c) for c in range(len(CARDS))]
            for action in singles + others:
                assert (action in listed) == accepted_by_apply(game, action), action
            pairs = [a for a in legal if isinstance(a, PlayCards) and len(a.placements) == 2]
            for action in pairs[:: max(1, len(pairs) // 10)]:
                assert accepted_by_apply(game, action)
            legal_singles = [a.placements[0] for a in legal if isinstance(a, PlayCards)]
            for _ in range(20 if legal_singles else 0):
                first = legal_singles[chooser.below(len(legal_singles))]
                pair = PlayCards((first, cands[chooser.below(len(cands))]))
                assert (pair in listed) == accepted_by_apply(game, pair), pair
            game.apply(legal[chooser.below(len(legal))])
