"""engine.noah.queries: the steps of building a play, from concrete positions, and the
cards of the latest play in the public view."""

from __future__ import annotations

from engine.noah import Game, Placement, PlayCards, TakeCards
from engine.noah.queries import CabinChoice, cabin_choices, card_choices, pet_choices
from tests.games.noah.engine.helpers import C


def level_ark(hand: list[str], **kw) -> Game:  # type: ignore[no-untyped-def]
    return Game.arranged(
        4,
        port=kw.pop("port", [["Sheep"], ["Goat"]]),
        starboard=kw.pop("starboard", [["Donkey"], ["Llama"]]),
        hands=[hand],
        face_up=kw.pop("face_up", ["Grain", "Dates", "Berries"]),
        **kw,
    )


def test_cabin_choices_group_the_ways_by_cabin_with_their_cost() -> None:
    game = level_ark(["Cat"])
    choices = cabin_choices(game, C("Cat"))
    assert [(c.side, c.row, c.new, c.cost, len(c.ways)) for c in choices] == [
        ("port", 0, False, 0, 1),
        ("port", 1, False, 0, 1),
        ("port", 2, True, 1, 3),
        ("starboard", 0, False, 0, 1),
        ("starboard", 1, False, 0, 1),
        ("starboard", 2, True, 1, 3),
    ]
    # The new cabin's ways: one per face-up card taken.
    assert [w.take for w in choices[2].ways] == [C("Grain"), C("Dates"), C("Berries")]


def test_cabin_choices_of_a_second_card_leave_out_the_first_cabin() -> None:
    game = level_ark(["Cat", "Chicken"])
    first = Placement(C("Cat"), "port", 0)
    after = cabin_choices(game, C("Chicken"), after=first)
    assert (("port", 0) in {(c.side, c.row) for c in after}) is False
    # The cat (1) tilted the ark to port by 1: the chicken (1) still fits both sides.
    assert {(c.side, c.row) for c in after} == {
        ("port", 1),
        ("port", 2),
        ("starboard", 0),
        ("starboard", 1),
        ("starboard", 2),
    }


def test_a_second_card_next_to_a_cabin_the_first_opened() -> None:
    game = level_ark(["Cow", "Cat"], starboard=[["Donkey"], ["Llama"], ["Reindeer"]])
    assert game.tilt == 2
    first = Placement(C("Cow"), "port", 2, take=C("Grain"))
    after = {(c.side, c.row): c for c in cabin_choices(game, C("Cat"), after=first)}
    # The cow's new cabin is port 2 now (not for a second card of the same turn); the next
    # new one is port 3, and it costs a disc.
    assert ("port", 2) not in after
    assert after[("port", 3)].new is True and after[("port", 3)].cost == 1
    assert after[("starboard", 2)].cards == (C("Reindeer"),)
    assert after[("port", 0)].cards == (C("Sheep"),) and after[("port", 0)].cost == 0


def test_cabin_choices_in_the_endgame_cost_a_disc_more() -> None:
    game = level_ark(["Cat"], phase="endgame")
    costs = {(c.side, c.row): c.cost for c in cabin_choices(game, C("Cat"))}
    assert costs == {
        ("port", 0): 1,
        ("port", 1): 1,
        ("port", 2): 2,
        ("starboard", 0): 1,
        ("starboard", 1): 1,
        ("starboard", 2): 2,
    }


def test_a_card_that_goes_nowhere_has_no_cabin_and_a_reason() -> None:
    game = level_ark(["Elephant", "Cat"])
    assert cabin_choices(game, C("Elephant")) == []
    reasons = card_choices(game)
    assert list(reasons) == sorted([C("Elephant"), C("Cat")])
    assert reasons[C("Cat")] is None
    assert reasons[C("Elephant")] is not None and reasons[C("Elephant")].code == "would_tip"


def test_card_choices_after_a_first_card_skip_it_and_refuse_plays_alone() -> None:
    game = level_ark(["Cat", "Snail", "Chicken"])
    after = card_choices(game, Placement(C("Cat"), "port", 0))
    assert set(after) == {C("Snail"), C("Chicken")}
    assert after[C("Chicken")] is None
    assert after[C("Snail")] is not None and after[C("Snail")].code == "alone_not_second"


def test_pet_choices_mark_the_cards_that_would_score() -> None:
    game = Game.new(players=3, seed=1)
    while game.phase != "pet":
        actions = game.legal_actions()
        game.apply(next(a for a in actions if isinstance(a, TakeCards)))
    hand = game.hand(game.current_player)  # type: ignore[arg-type]
    marked = pet_choices(game)
    assert [card for card, _ in marked] == list(hand)
    for card, scores in marked:
        from engine.noah import CARDS

        found = CARDS[card]
        assert scores == (found.is_animal and found.weight <= 2 and not found.special)
    assert pet_choices(level_ark(["Cat"])) == []


def test_the_public_view_names_the_cards_of_the_latest_play() -> None:
    game = level_ark(["Cat", "Chicken"], deck=["Hay", "Fish", "Cow", "Pig"])
    assert game.public_view()["last_played"] == []
    game.apply(PlayCards((Placement(C("Cat"), "port", 0), Placement(C("Chicken"), "starboard", 0))))
    assert game.public_view()["last_played"] == [C("Cat"), C("Chicken")]
    game.apply(TakeCards(C("Grain")))  # taking cards keeps the latest play
    assert game.public_view()["last_played"] == [C("Cat"), C("Chicken")]
    again = Game.from_json(game.to_json())
    assert again.public_view() == game.public_view()


def test_a_save_from_before_the_latest_play_was_kept_still_loads() -> None:
    import json

    game = level_ark(["Cat"])
    data = json.loads(game.to_json())
    del data["last"]
    assert Game.from_json(json.dumps(data)).public_view()["last_played"] == []


def test_cabin_choice_is_a_value() -> None:
    choice = CabinChoice("port", 0, False, 0, ())
    assert choice == CabinChoice("port", 0, False, 0, ())


def test_the_card_a_new_cabin_took_may_be_the_second_card() -> None:
    # Seed 0, three players, the first move: card 44 opens a starboard cabin, takes 30.
    game = Game.new(players=3, seed=0)
    first = Placement(card=44, side="starboard", row=2, take=30)
    choices = card_choices(game, first)
    assert list(choices) == [10, 30]  # the hand without the first card, then the taken card
    assert choices[30] is None
    assert choices[10] is not None and choices[10].code == "would_tip"
    (cabin,) = [c for c in cabin_choices(game, 30, first) if c.side == "port"]
    assert (cabin.row, cabin.new, cabin.cost) == (2, True, 1)
    second = PlayCards((first, cabin.ways[0]))
    assert second in game.legal_actions()
