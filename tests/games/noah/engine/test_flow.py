"""Taking cards, rain, pets, the endgame, final scoring and refused actions."""

from __future__ import annotations

import pytest

from engine.noah import (
    CardDrawn,
    CardTaken,
    ChoosePet,
    EndgameStarted,
    FaceUpRefilled,
    Game,
    GameOver,
    Pass,
    PetChoiceStarted,
    PetRevealed,
    Placement,
    PlayCards,
    RainFell,
    TakeCards,
)
from engine.noah.scoring import card_points, winners
from tests.games.noah.engine.helpers import C, refused

ARK = {"port": [["Sheep"], ["Goat"]], "starboard": [["Donkey"], ["Llama"]]}


def test_take_cards_face_up_then_top_then_refill() -> None:
    game = Game.arranged(
        4, **ARK, hands=[["Cat"]], face_up=["Hay", "Fish", "Dog"], deck=["Lion", "Tiger"]
    )
    events = game.apply(TakeCards(C("Fish")))
    assert events == (
        CardTaken(0, C("Fish")),
        CardDrawn(0, C("Lion")),
        FaceUpRefilled(C("Tiger")),
    )
    assert events[1].redacted() == CardDrawn(0, None)
    assert game.hand(0) == tuple(sorted([C("Cat"), C("Fish"), C("Lion")]))
    assert game.face_up == (C("Hay"), C("Dog"), C("Tiger"))
    assert game.current_player == 1


def test_rain_is_set_aside_and_the_second_brings_the_pet_choice() -> None:
    game = Game.arranged(
        4,
        **ARK,
        hands=[["Cat"], ["Mouse"], ["Elephant"], []],
        face_up=["Hay", "Fish", "Dog"],
        deck=["Rain", "Lion", "Rain", "Tiger", "Bison"],
        rain=1,
    )
    events = game.apply(TakeCards(C("Hay")))
    assert events == (
        CardTaken(0, C("Hay")),
        RainFell(2),
        CardDrawn(0, C("Lion")),
        RainFell(3),
        FaceUpRefilled(C("Tiger")),
        PetChoiceStarted(1),
    )
    assert game.phase == "pet" and game.current_player == 1 and game.rain_fallen == 3
    refused(game, TakeCards(C("Fish")), "pet_first")
    refused(game, ChoosePet(C("Cat")), "pet_not_in_hand", card=C("Cat"))
    game.apply(ChoosePet(C("Mouse")))
    game.apply(ChoosePet(C("Elephant")))  # allowed face down, will not score
    assert game.legal_actions() == [Pass()]  # seat 3 has no card
    game.apply(Pass())
    game.apply(ChoosePet(C("Cat")))
    assert game.phase == "play" and game.current_player == 1
    assert game.pet(1) == C("Mouse") and game.hand(1) == ()
    view = game.public_view()
    assert view["pets"] == [True, True, True, None]
    assert C("Mouse") not in view["pets"] and "hand" not in view


def test_fifth_rain_ends_the_turn_at_once_and_starts_the_endgame() -> None:
    game = Game.arranged(
        4,
        **ARK,
        hands=[["Cat"]],
        face_up=["Hay", "Fish", "Dog"],
        deck=["Rain", "Lion", "Tiger"],
        rain=4,
    )
    events = game.apply(TakeCards(C("Dog")))
    assert events == (CardTaken(0, C("Dog")), RainFell(5), EndgameStarted(1))
    assert game.face_up == (C("Hay"), C("Fish"))
    assert game.supply_size == 2
    assert game.phase == "endgame" and game.current_player == 1


def endgame(**kw) -> Game:  # type: ignore[no-untyped-def]
    base = dict(
        ARK,
        hands=[["Cat", "Snail", "Hay", "Chicken"], ["Mouse"], [], []],
        face_up=["Fish"],
        deck=[],
        rain=5,
        phase="endgame",
    )
    base.update(kw)
    return Game.arranged(4, **base)  # type: ignore[arg-type]


def test_endgame_one_card_for_a_disc_no_slow_or_provisions() -> None:
    game = endgame()
    refused(game, TakeCards(C("Fish")), "no_take_in_endgame")
    refused(game, PlayCards((Placement(C("Snail"), "port", 0),)), "endgame_alone", card=C("Snail"))
    refused(game, PlayCards((Placement(C("Hay"), "port", 0),)), "endgame_alone", card=C("Hay"))
    two = PlayCards((Placement(C("Cat"), "port", 0), Placement(C("Chicken"), "port", 1)))
    refused(game, two, "one_card_in_endgame", count=2)
    game.apply(PlayCards((Placement(C("Cat"), "port", 0),)))
    assert game.discs == (2, 3, 3, 4)
    assert game.current_player == 1


def test_endgame_new_cabin_costs_two_discs_and_still_takes_a_face_up_card() -> None:
    game = endgame(discs=[1, 3, 3, 4])
    refused(
        game,
        PlayCards((Placement(C("Cat"), "port", 2, take=C("Fish")),)),
        "no_disc_for_cabin_endgame",
        card=C("Cat"),
    )
    game = endgame()
    game.apply(PlayCards((Placement(C("Cat"), "port", 2, take=C("Fish")),)))
    assert game.discs == (1, 3, 3, 5)
    assert C("Fish") in game.hand(0) and game.face_up == ()


def test_no_disc_means_pass_and_passing_is_for_good() -> None:
    game = endgame(discs=[0, 3, 3, 4])
    assert game.legal_actions() == [Pass()]
    game.apply(Pass())
    game.apply(Pass())  # seat 1
    game.apply(Pass())  # seat 2
    assert game.current_player == 3
    events = game.apply(Pass())
    assert game.phase == "over" and game.current_player is None
    assert isinstance(events[-1], GameOver)
    refused(game, Pass(), "game_over")


def test_endgame_play_into_an_existing_cabin_needs_a_disc_too() -> None:
    # "When a player plays, he pays an action disc to the supply": with none left, only Pass.
    game = endgame(discs=[0, 3, 3, 4])
    refused(game, PlayCards((Placement(C("Cat"), "port", 0),)), "no_disc", card=C("Cat"))
    # The Fox would bring two discs, but only once it is played: it cannot pay for itself.
    game = endgame(discs=[0, 3, 3, 4], hands=[["Fox"], ["Mouse"], [], []])
    refused(game, PlayCards((Placement(C("Fox"), "port", 0),)), "no_disc", card=C("Fox"))
    assert game.legal_actions() == [Pass()]


def test_passed_players_are_skipped() -> None:
    game = endgame(passed=[False, True, True, False])
    game.apply(PlayCards((Placement(C("Cat"), "port", 0),)))
    assert game.current_player == 3
    game.apply(Pass())
    assert game.current_player == 0


@pytest.mark.parametrize(
    ("halves", "points"),
    [
        ([6, 4, 2, 0], [10, 6, 2, 0]),
        ([4, 4, 2, 0], [8, 8, 2, 0]),  # two tied first: (10 + 6) / 2
        ([6, 2, 2, 0], [10, 4, 4, 0]),  # two tied second: (6 + 2) / 2
        ([2, 2, 2, 0], [6, 6, 6, 0]),  # three tied first: (10 + 6 + 2) / 3
        ([4, 2, 2, 2], [10, 4, 4, 4]),  # three tied second: 10 / 3 rounded up
        ([2, 2, 2, 2, 2], [5, 5, 5, 5, 5]),  # (10 + 6 + 2 + 2 + 2) / 5 = 4.4 -> 5
        ([3, 2, 0], [10, 6, 0]),  # 1.5 figures beat 1
        ([0, 0, 0], [0, 0, 0]),
    ],
)
def test_scoring_card_points(halves: list[int], points: list[int]) -> None:
    assert card_points(halves) == points


def test_final_scoring_pets_discs_and_tie_break() -> None:
    game = Game.arranged(
        4,
        **ARK,
        hands=[["Cat"], ["Hay"], ["Chicken", "Horse"], []],
        face_up=[],
        deck=[],
        rain=5,
        phase="endgame",
        passed=[False, True, True, True],
        pets=["Mouse", "Elephant", "Rabbit", "Grain"],
        figures={0: {"shy": 1, "heavy": 2}, 1: {"shy": 2, "heavy": 2}, 2: {"useful": 1}},
        discs=[3, 3, 3, 4],
    )
    events = game.apply(Pass())
    assert [e for e in events if isinstance(e, PetRevealed)] == [
        PetRevealed(0, C("Mouse"), True),
        PetRevealed(1, C("Elephant"), False),  # too heavy
        PetRevealed(2, C("Rabbit"), True),
        PetRevealed(3, C("Grain"), False),  # a provision
    ]
    # shy: seat 0 has 2 (pet), seat 1 has 2, seat 2 has 1 -> 8, 8, 2
    # heavy: seats 0 and 1 tie with 2 -> 8, 8; useful: seat 2 alone -> 10
    assert game.scores == (8 + 8 + 3, 8 + 8 + 3, 2 + 10 + 3, 4)
    assert game.scores == (19, 19, 15, 4)
    # Tie between seats 0 and 1: seat 1 holds only a provision, seat 0 an animal.
    assert game.winners == (1,)
    assert events[-1] == GameOver((19, 19, 15, 4), (1,))
    assert game.public_view()["pets"] == [C("Mouse"), C("Elephant"), C("Rabbit"), C("Grain")]


def test_winners_tie_break_helper() -> None:
    assert winners([20, 20, 5], [2, 1, 0]) == (1,)
    assert winners([20, 20, 5], [1, 1, 0]) == (0, 1)


def test_out_of_turn_and_out_of_phase_and_malformed_actions_change_nothing() -> None:
    game = Game.new(players=4, seed=3)
    legal = game.legal_actions()
    take = next(a for a in legal if isinstance(a, TakeCards))
    refused(game, take, "not_your_turn", by=2, seat=2, current=0)
    card = game.hand(0)[0]
    cabin = {"side": "port", "last": 1, "new": 2}
    face_up = tuple(game.face_up)
    for action, code, params in [
        (Pass(), "no_pass", {}),
        (ChoosePet(card), "not_pet_time", {}),
        (TakeCards(999), "not_face_up", {"card": 999}),
        (TakeCards("Lion"), "not_face_up", {"card": "Lion"}),  # type: ignore[arg-type]
        (TakeCards(card), "not_face_up", {"card": card}),
        (PlayCards(()), "nothing_played", {}),
        (PlayCards([Placement(card, "port", 0)]), "nothing_played", {}),  # type: ignore[arg-type]
        (PlayCards((Placement(card, "port", 0),) * 3), "too_many_cards", {"count": 3}),
        (PlayCards(("port",)), "malformed", {}),  # type: ignore[arg-type]
        (PlayCards((Placement(999, "port", 0),)), "not_in_hand", {"card": 999}),
        (PlayCards((Placement(card, "up", 0),)), "bad_side", {"side": "up"}),
        (PlayCards((Placement(card, "port", -1),)), "no_such_cabin", {"row": -1, **cabin}),
        (PlayCards((Placement(card, "port", 9),)), "no_such_cabin", {"row": 9, **cabin}),
        (
            PlayCards((Placement(card, "port", "0"),)),  # type: ignore[arg-type]
            "no_such_cabin",
            {"row": "0", **cabin},
        ),
        (
            PlayCards((Placement(card, "port", 2, take=999),)),
            "take_needed",
            {"take": 999, "face_up": face_up},
        ),
        ("take", "malformed", {}),
        (None, "malformed", {}),
    ]:
        refused(game, action, code, **params)
    assert game.legal_actions() == legal


def test_events_and_actions_are_immutable_and_private_views_hold_only_their_seat() -> None:
    import dataclasses

    game = Game.new(players=3, seed=5)
    events = game.apply(next(a for a in game.legal_actions() if isinstance(a, TakeCards)))
    assert isinstance(events, tuple)
    with pytest.raises(dataclasses.FrozenInstanceError):
        events[0].seat = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        TakeCards(1).card = 2  # type: ignore[misc]
    view = game.view(0)
    assert view["hand"] == list(game.hand(0))
    public = game.public_view()
    assert public["hand_sizes"] == [len(game.hand(s)) for s in range(3)]
    hidden = set(game.hand(1)) | set(game.hand(2)) | set(game._state.deck)
    shown = set(public["face_up"]) | {
        c for side in public["ship"].values() for cab in side for c in cab
    }
    assert not hidden & shown
