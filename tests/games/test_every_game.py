"""Every registered game, tested the day it is added, with no list to edit (as OpenSpiel's
games_sim_test): the engine's protocol, computer players at every level, a random game to
the end through the game service, a whole game through the Discord harness tapping legal
controls only, its words in every language it speaks, and valid command names.

The games are the registry's, and the example game of ``examples/tictactoe`` (installed
from outside the tree, through the entry points) is one of them here: what passes for it
passes for a game a new engineer adds.
"""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

import engine.ai
from bot.client import TableBot
from bot.games import plugin
from bot.i18n import valid_name
from bot.service import GameService
from engine import registry
from engine.common import Rng
from engine.errors import IllegalAction
from engine.protocol import Game
from render.i18n import catalogue, placeholders
from tests.support.bot import CHANNEL, make_bot, make_settings
from tests.support.harness import Harness
from tests.support.installed import installed
from tests.support.tapping import controls, public_post

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "tictactoe"

with installed(EXAMPLE):
    GAMES = sorted(registry.games())
    WITH_COMPUTERS = [name for name in GAMES if registry.game(name).has_computers]
#: Actions at most in a random game (every game here ends well before).
LONGEST = 5_000


@pytest.fixture(autouse=True, scope="module")
def _example_installed() -> Iterator[None]:
    with installed(EXAMPLE):
        yield


def seat_counts(name: str) -> list[int]:
    rules = registry.rules(name)
    return sorted({rules.min_players, rules.max_players})


def random_game(name: str, players: int, seed: int) -> Game:
    game: Game = registry.game_class(name).new(players=players, seed=seed)
    rng = Rng(seed)
    for _ in range(LONGEST):
        if game.phase == "over":
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_the_example_game_is_found_with_every_part() -> None:
    assert {"covenant", "noah", "tictactoe"} <= set(GAMES)
    example = registry.game("tictactoe")
    assert example.has_computers and example.pictures and example.front
    assert example.languages == ("en", "es", "nl")


@pytest.mark.parametrize("name", GAMES)
def test_the_engine_keeps_the_protocol(name: str) -> None:
    cls = registry.game_class(name)
    for players in seat_counts(name):
        game = cls.new(players=players, seed=5)
        assert isinstance(game, Game) and registry.name_of(game) == name
        assert game.players == players and game.current_player == 0 and game.turn == 1
        assert game.winners == ()
        rng = Rng(3)
        for _ in range(6):
            sampled = game.sample_action(rng)  # the search's cheap draw is a legal move
            assert sampled in game.legal_actions()
            game.apply(sampled)
        twin = game.copy()
        assert twin is not game and twin.to_json() == game.to_json()
        twin.apply(twin.legal_actions()[0])
        assert twin.to_json() != game.to_json()  # the copy is independent
        assert cls.from_json(game.to_json()).to_json() == game.to_json()
        dealt = game.determinise(game.current_player, Rng(1))
        assert json.dumps(dealt.view(game.current_player), default=str) == json.dumps(
            game.view(game.current_player), default=str
        )


def _seen(view: Any) -> str:
    return view.to_json() if hasattr(view, "to_json") else json.dumps(view, default=str)


@pytest.mark.parametrize("name", GAMES)
def test_what_a_seat_sees_is_what_the_descriptor_says(name: str) -> None:
    """A game with hidden information shows each seat something the public may not see;
    a game without any shows every seat the public view."""
    game = registry.game_class(name).new(players=seat_counts(name)[-1], seed=4)
    public = _seen(game.view(None))
    private = {_seen(game.view(seat)) != public for seat in range(game.players)}
    assert private == {registry.game(name).hidden_information}


@pytest.mark.parametrize("name", GAMES)
def test_a_random_game_ends_with_winners_and_then_refuses(name: str) -> None:
    for players in seat_counts(name):
        game = random_game(name, players, seed=2)
        assert game.phase == "over" and game.current_player is None
        top = max(game.scores)
        assert game.winners and all(game.scores[s] == top for s in game.winners)
        with pytest.raises(IllegalAction) as refused:
            game.apply(None)
        assert refused.value.code == "game_over"


@pytest.mark.parametrize("name", GAMES)
def test_a_move_out_of_turn_is_refused_with_the_one_code(name: str) -> None:
    game = registry.game_class(name).new(players=seat_counts(name)[0], seed=0)
    with pytest.raises(IllegalAction) as refused:
        game.apply(game.legal_actions()[0], seat=1)
    assert refused.value.code == "not_your_turn"
    assert refused.value.params == {"seat": 1, "current": 0}


def refusals_met(name: str, players: int, seed: int) -> list[IllegalAction]:
    """The refusals of a random game of ``name``: at each step the engine is asked to play
    moves that were legal before but are not now, a move out of turn and no move at all."""
    game: Any = registry.game_class(name).new(players=players, seed=seed)
    rng = random.Random(seed)
    met: list[IllegalAction] = []
    seen: list[Any] = []
    for _ in range(LONGEST):
        legal = game.legal_actions() if game.phase != "over" else []
        tries: list[tuple[Any, int | None]] = [
            (a, None) for a in rng.sample(seen, min(3, len(seen))) if a not in legal
        ]
        tries.append((None, None))
        if legal:
            tries.append((legal[0], (game.current_player + 1) % players))
        for action, seat in tries:
            trial = game.copy()  # an action legal_actions() leaves unlisted may be played
            try:
                trial.apply(action, seat=seat)
            except IllegalAction as refused:
                assert trial.to_json() == game.to_json(), f"{name} changed as it refused"
                met.append(refused)
        if not legal:
            return met
        seen += rng.sample(legal, min(2, len(legal)))
        game.apply(rng.choice(legal))
    return met


@pytest.mark.parametrize("name", GAMES)
def test_every_refusal_met_in_a_random_game_is_declared_with_its_values(name: str) -> None:
    """What an engine refuses is a code its rules declare (``RULES.refusals``), with the
    values declared for it: the catalogues say exactly those, in every language."""
    declared = registry.rules(name).refusals
    met = [r for seed in (1, 2) for r in refusals_met(name, seat_counts(name)[0], seed)]
    assert len({r.code for r in met}) >= 3
    undeclared = sorted({r.code for r in met if r.code not in declared})
    assert undeclared == [], f"{name} raises codes its rules do not declare"
    for refusal in met:
        assert set(refusal.params) == set(declared[refusal.code]), (name, repr(refusal))


@pytest.mark.parametrize("name", GAMES)
def test_every_declared_refusal_is_said_in_every_language_the_game_speaks(name: str) -> None:
    declared = registry.rules(name).refusals
    assert declared, f"{name} declares no refusal codes"
    for language in registry.game(name).languages:
        if "-" in language:
            continue  # a regional catalogue (es-419) holds only what it says differently
        said = catalogue(name, language)
        for code, params in declared.items():
            key = f"{name}.illegal.{code}"
            assert key in said, f"{key} has no text in {language}"
            assert placeholders(said[key]) <= set(params), (key, language)


@pytest.mark.parametrize("name", WITH_COMPUTERS)
def test_computer_players_at_every_level_and_their_hints(name: str) -> None:
    """Easy and normal play whole games; strong plays the first moves (a few lookups each);
    every hint's reason is one the game lists, and its catalogues can say it."""
    players = seat_counts(name)[0]
    reasons = engine.ai.reasons(name)
    english = catalogue(name, "en")
    for level in engine.ai.LEVELS:
        game: Any = registry.game_class(name).new(players=players, seed=11)
        for number in range(LONGEST):
            if game.phase == "over" or (level == "strong" and number == 6):
                break
            action = engine.ai.choose(game, level, seed=number, iterations=4)
            assert action in game.legal_actions()
            if number % 5 == 0:
                hint = engine.ai.hint(game, seed=number, iterations=0)
                key, params = hint.reason
                assert key in reasons and set(params) == set(reasons[key])
                assert f"{name}.{key}" in english, f"{name}.{key} has no English text"
            game.apply(action)
        assert level == "strong" or game.phase == "over"
    for key in reasons:
        assert f"{name}.{key}" in english, f"{name}.{key} has no English text"


@pytest.mark.parametrize("name", GAMES)
def test_every_language_it_speaks_says_all_it_says_in_english(name: str) -> None:
    descriptor = registry.game(name)
    english = catalogue(name, "en")
    assert english, f"{name} has no English catalogue in {descriptor.texts}"
    for language in descriptor.languages:
        if language == "en" or "-" in language:
            continue  # a regional catalogue (es-419) holds only what it says differently
        said = catalogue(name, language)
        missing = sorted(set(english) - set(said))
        assert not missing, f"{name} in {language} lacks {missing}"
        for key, text in said.items():
            assert key in english, f"{key} ({language}) is not an English message"
            assert placeholders(text) == placeholders(english[key]), (key, language)


@pytest.mark.parametrize("name", GAMES)
def test_command_names_are_valid_in_every_language(name: str) -> None:
    front = plugin(name).front
    assert valid_name(front.command_group)
    for spec in front.commands:
        for option in spec.options:
            # Discord is told a fixed choice's name once, in every language, when the
            # commands are synced: a name that needs values cannot be said then.
            assert all(not choice.label.params for choice in option.choices), option.name
    for language in registry.game(name).languages:
        said = catalogue(name, language)
        for spec in front.commands:
            assert valid_name(spec.name), spec.name
            for key, text in said.items():
                if key.startswith(f"{name}.command_name."):
                    assert valid_name(text), (language, key, text)


@pytest.mark.parametrize("name", GAMES)
async def test_a_random_game_to_the_end_through_the_service(name: str, tmp_path: Path) -> None:
    players = seat_counts(name)[0]
    service = await GameService.open(tmp_path / "db.sqlite3", settings=make_settings(tmp_path))
    try:
        record = await service.lobby.create_game(
            1, 2, 100, "Player 100", name, shuffle_seats=False, seed=4
        )
        for user in range(101, 100 + players):
            await service.lobby.join(2, user, f"Player {user}")
        record = await service.lobby.start(2, 100)
        rng = Rng(8)
        for _ in range(LONGEST):
            if record.status != "active":
                break
            record, game = await service.play.state(record.id)
            user = record.seats[record.current_seat].user_id
            result = await service.play.act(record.id, user, rng.choice(game.legal_actions()))
            record = result.record
        assert record.status == "finished"
        _, game = await service.play.state(record.id)
        assert record.winners == game.winners and record.scores == game.scores
    finally:
        await service.close()


# ---------------------------------------------------------------- through Discord, tapping


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Harness]:
    async with Harness(await make_bot(tmp_path / "db.sqlite3"), channel_id=CHANNEL) as h:
        yield h


@pytest.mark.parametrize("name", GAMES)
async def test_a_whole_game_through_discord_tapping_legalcontrols(
    name: str, table: Harness
) -> None:
    """Players open a table, join and start it, then play every turn from the board post's
    button by pressing controls of their private panels at random, until the game ends; no
    error is logged, every answer to a player is private, and the result is stored."""
    h = table
    bot: TableBot = h.bot  # type: ignore[assignment]
    players = seat_counts(name)[0]
    users = [h.user(31 + n, f"Player {n + 1}").id for n in range(players)]
    lobby = (await h.slash(users[0], "table new", options={"game": name, "seats": "kept"})).last
    game_id = int(lobby.custom_ids[0].split(":")[1])
    for user in users[1:]:
        await h.click(user, lobby, f"lb:{game_id}:join")
    await h.click(users[0], lobby, f"lb:{game_id}:start")
    rng = random.Random(5)
    record = await bot.service.play.get_game(game_id)
    taps = 0
    while record.status == "active":
        assert taps < 40 * LONGEST // 10, "the game did not end"
        user = record.seats[record.current_seat].user_id
        post = public_post(h, game_id)
        button = next(c for c in post.custom_ids if c.startswith(f"ob:{game_id}:"))
        reply = await h.click(user, post, button)
        taps += 1
        version = record.version
        for _ in range(60):  # the taps of one step of a turn, at most
            assert not reply.errors, reply.errors
            panels = [s for s in reply.messages if s.ephemeral and controls(s)]
            record = await bot.service.play.get_game(game_id)
            if record.version != version or not panels:
                break
            panel = panels[-1]
            control, options = rng.choice(controls(panel))
            if options is None:
                reply = await h.click(user, panel, control)
            else:
                reply = await h.select(user, panel, control, [rng.choice(options)])
            taps += 1
        else:
            pytest.fail(f"60 taps without a move in {name}")
    assert record.status == "finished" and record.winners
    _, game = await bot.service.play.state(game_id)
    assert record.winners == game.winners
