"""Building a play step by step: placements(card), second_placements(first), why_not(card)
and preview(placements) agree with legal_actions() and apply()."""

from __future__ import annotations

import pytest

from engine.common import Rng
from engine.noah import Game, IllegalAction, Pass, Placement, PlayCards
from engine.noah.errors import REFUSALS
from tests.games.noah.engine.helpers import C


def firsts_and_seconds(game: Game) -> tuple[list[Placement], dict[Placement, list[Placement]]]:
    firsts: list[Placement] = []
    seconds: dict[Placement, list[Placement]] = {}
    for action in game.legal_actions():
        if not isinstance(action, PlayCards):
            continue
        first, *rest = action.placements
        if not rest:
            firsts.append(first)
        else:
            seconds.setdefault(first, []).extend(rest)
    return firsts, seconds


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_queries_give_exactly_the_plays_of_legal_actions(players: int) -> None:
    for seed in range(10):
        game = Game.new(players=players, seed=seed)
        chooser = Rng(seed + 17)
        while game.phase != "over":
            seat = game.current_player
            assert seat is not None
            firsts, seconds = firsts_and_seconds(game)
            hand = game.hand(seat)
            # In the order of legal_actions(), card by card.
            assert [p for card in hand for p in game.placements(card)] == firsts
            for first in firsts:
                assert game.second_placements(first) == seconds.get(first, [])
            for card in hand:
                reason = game.why_not(card)
                assert (reason is None) == bool(game.placements(card)), card
                if reason is not None:
                    assert reason.code in REFUSALS
                    assert set(reason.params) == set(REFUSALS[reason.code])
            for first in firsts[:: max(1, len(firsts) // 3)]:
                cards_after = {p.card for p in game.second_placements(first)}
                for card in [*game.hand(seat), *game.face_up]:
                    if card != first.card:
                        fits = game.why_not(card, after=first) is None
                        assert fits == (card in cards_after), (first, card)
            actions = game.legal_actions()
            game.apply(actions[chooser.below(len(actions))])


def level_ark(hand: list[str], **kw) -> Game:  # type: ignore[no-untyped-def]
    """Seat 0 to play; by default four weight-2 animals, tilt 0, three face-up provisions."""
    return Game.arranged(
        4,
        port=kw.pop("port", [["Sheep"], ["Goat"]]),
        starboard=kw.pop("starboard", [["Donkey"], ["Llama"]]),
        hands=[hand],
        face_up=kw.pop("face_up", ["Grain", "Dates", "Berries"]),
        **kw,
    )


def reason(game: Game, card: str, after: Placement | None = None) -> tuple[str, dict] | None:
    found = game.why_not(C(card), after=after)
    return None if found is None else (found.code, found.params)


def test_placements_of_a_card_list_every_option() -> None:
    game = level_ark(["Cat", "Chimpanzee"])
    # The cat: into each open cabin (no cabin mate is lighter or equal), or a new one with
    # each face-up card.
    assert game.placements(C("Cat")) == [
        Placement(C("Cat"), "port", 0),
        Placement(C("Cat"), "port", 1),
        Placement(C("Cat"), "starboard", 0),
        Placement(C("Cat"), "starboard", 1),
        *(Placement(C("Cat"), "port", 2, take=C(t)) for t in ("Grain", "Dates", "Berries")),
        *(Placement(C("Cat"), "starboard", 2, take=C(t)) for t in ("Grain", "Dates", "Berries")),
    ]
    # The chimpanzee (an omnivore of weight 2) must be lighter than its cabin mates: only new
    # cabins; its disc can only go under its own (useful) figure, the player has no other.
    assert game.placements(C("Chimpanzee")) == [
        Placement(C("Chimpanzee"), side, 2, take=C(t), half="useful")
        for side in ("port", "starboard")
        for t in ("Grain", "Dates", "Berries")
    ]
    assert game.placements(C("Tiger")) == []  # not in the hand


def test_why_not_too_heavy_wherever_it_goes() -> None:
    game = level_ark(["Elephant"])
    # A level ark: the elephant's 3 tips it 3 towards whichever side it goes, past the 2.
    assert reason(game, "Elephant") == (
        "would_tip",
        {"card": C("Elephant"), "lean": 3, "towards": "port", "most": 2},
    )


def test_why_not_the_lion_would_eat_the_sheep() -> None:
    # Tilt +2: the lion (3) may only go to port, where the sheep is; no disc for a new cabin.
    game = level_ark(["Lion"], port=[["Sheep"]], discs=[0, 3, 3, 4])
    assert game.tilt == 2
    assert reason(game, "Lion") == ("eaten", {"predator": C("Lion"), "prey": C("Sheep")})
    # For logs, the refusal names its code and values (the words are the catalogue's).
    assert str(game.why_not(C("Lion"))) == f"eaten(predator={C('Lion')}, prey={C('Sheep')})"


def test_why_not_no_disc_for_a_new_cabin() -> None:
    full = {
        "port": [["Sheep", "Chicken", "Horse"]],
        "starboard": [["Goat", "Cow", "Reindeer"]],
    }
    game = level_ark(["Cat"], discs=[0, 3, 3, 4], **full)
    assert reason(game, "Cat") == ("no_disc_for_cabin", {"card": C("Cat")})
    assert level_ark(["Cat"], **full).why_not(C("Cat")) is None


def test_why_not_the_shy_rabbit_and_the_cat() -> None:
    game = level_ark(["Rabbit"], port=[["Sheep"], ["Cat"]], starboard=[["Donkey"], ["Dog"]])
    assert reason(game, "Rabbit") == ("shy_next_to", {"card": C("Rabbit"), "carnivore": C("Cat")})


def test_a_card_that_fits_only_after_the_first_one() -> None:
    # Tilt +1; the cold reindeer fits only by the cold llama, starboard, which would tip the ark
    # to 3. After the goat goes to port (tilt -1) it fits there.
    game = level_ark(
        ["Reindeer", "Goat", "Snail"],
        port=[["Camel"], ["Donkey"]],
        starboard=[["Llama", "Chicken"], ["Cow"]],
        discs=[0, 3, 3, 4],
    )
    assert game.tilt == 1
    assert reason(game, "Reindeer") == ("climate", {"card": C("Reindeer"), "other": C("Camel")})
    assert game.placements(C("Reindeer")) == []
    goat = Placement(C("Goat"), "port", 1)
    assert goat in game.placements(C("Goat"))
    assert game.second_placements(goat) == [
        Placement(C("Reindeer"), "starboard", 0),
        Placement(C("Reindeer"), "starboard", 1),
    ]
    assert reason(game, "Reindeer", after=goat) is None
    assert PlayCards((goat, Placement(C("Reindeer"), "starboard", 0))) in game.legal_actions()
    assert reason(game, "Snail", after=goat) == ("alone_not_second", {"card": C("Snail")})
    snail = Placement(C("Snail"), "port", 0)
    assert game.second_placements(snail) == []
    assert reason(game, "Goat", after=snail) == ("played_alone", {"card": C("Snail")})
    with pytest.raises(IllegalAction) as error:
        game.second_placements(Placement(C("Reindeer"), "starboard", 0))
    assert error.value.code == "would_tip"


def test_why_not_in_the_endgame_and_the_pet_choice() -> None:
    game = level_ark(["Cat", "Snail"], discs=[0, 3, 3, 4], rain=5, deck=[], phase="endgame")
    assert reason(game, "Cat") == ("no_disc", {"card": C("Cat")})
    game = level_ark(["Cat", "Snail"], rain=5, deck=[], phase="endgame")
    assert reason(game, "Snail") == ("endgame_alone", {"card": C("Snail")})
    assert reason(game, "Cat") is None
    assert game.second_placements(Placement(C("Cat"), "port", 0)) == []
    game.apply(Pass())
    assert [reason(game, "Cat"), game.placements(C("Cat"))] == [
        ("not_in_hand", {"card": C("Cat")}),
        [],
    ]


def test_preview_shows_the_ark_after_the_play_and_changes_nothing() -> None:
    game = level_ark(["Cat", "Cow"], deck=["Lion", "Tiger"])
    before = game.to_json()
    play = [Placement(C("Cat"), "starboard", 2, take=C("Dates")), Placement(C("Cow"), "port", 0)]
    shown = game.preview(play)
    assert game.to_json() == before
    assert shown.tilt == 1 - 3
    assert shown.cabins[1][2] == (C("Cat"),) and shown.cabins[0][0] == (C("Sheep"), C("Cow"))
    assert shown.discs == (2, 3, 3, 5)  # the disc for the new cabin went to the right
    # The turn is not over in it: no face-up card refilled, nothing drawn or shown.
    assert shown.face_up == (C("Grain"), C("Berries")) and shown.supply_size == game.supply_size
    assert shown.hand(0) == (C("Dates"),)
    assert shown.legal_actions() == [] and shown.placements(C("Dates")) == []
    with pytest.raises(IllegalAction) as error:
        shown.apply(Pass())
    assert error.value.code == "preview_only"
    real = game.copy()
    real.apply(PlayCards(tuple(play)))
    assert (real.cabins, real.tilt, real.discs) == (shown.cabins, shown.tilt, shown.discs)
    with pytest.raises(IllegalAction) as error:
        game.preview([Placement(C("Cow"), "port", 5)])
    assert error.value.code == "no_such_cabin"
    assert game.to_json() == before
