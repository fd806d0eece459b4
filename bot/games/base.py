"""What a game brings to the bot: its rules for the game service and its front for the table.

A game plugin is one folder ``bot/games/<game>/`` whose ``__init__`` holds ``PLUGIN``, a
:class:`Plugin` made of

- :class:`GameRules`: what the game service needs to run the engine (new games, options, the
  log's JSON form of an action, the computer player's move, the move made for a time-out);
- :class:`Front`: what the table needs to let people play it (panels as data, pressed controls
  and typed commands turned into the next panel or an action, the story of a turn, the public
  posts, the rules help). See :mod:`bot.panels`.

Neither part knows Discord, SQL or the service: they get engine games, seats and names, and
give back data. The table (:mod:`bot.table`) and the service (:mod:`bot.service`) do the rest.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import engine.ai
from bot.panels import Choice, CommandSpec, Panel, Picture, Play, TableOption, Text
from engine import registry
from engine.common.rng import Rng
from engine.registry import Descriptor

if TYPE_CHECKING:
    from bot.games.teaching import Teacher


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """One player's turn, or the part of it played so far: the actions stored for it (with who
    made them: ``"player"``, ``"bot"`` or ``"timeout"``) and the engine's events, in order.
    ``complete`` is False while the same player is still at it."""

    seat: int
    number: int
    sources: tuple[str, ...]
    events: tuple[Any, ...]
    complete: bool
    #: Everyone's points when the turn began.
    start_scores: tuple[int, ...] = ()

    def gained(self, scores: Sequence[int]) -> tuple[int, ...]:
        """Points won since the turn began, given the scores now."""
        return tuple(now - before for now, before in zip(scores, self.start_scores, strict=True))

    @property
    def by_computer(self) -> bool:
        return "bot" in self.sources

    @property
    def timed_out(self) -> bool:
        return "timeout" in self.sources


@dataclass(frozen=True, slots=True)
class Seen:
    """What a front works on: the game (the full state, held by the bot; what the front shows
    must be limited to what ``seat`` may see), the seat of the user who asked (``None`` for
    someone not at the table), everyone's display names and the game's version, and the
    language of the one who asked, for what they type (a front's words are :class:`Text`,
    said later in whatever language)."""

    game: Any
    seat: int | None
    names: tuple[str, ...]
    version: int
    options: Mapping[str, Any]
    language: str = "en"


class GameRules:
    """How the game service runs one game's engine. Subclass and fill in."""

    #: The game's name (its folder's), set when :func:`bot.games.plugin` loads it.
    name: str = ""
    min_players: int = 2
    max_players: int = 5

    def new(self, players: int, seed: int, options: Mapping[str, Any]) -> Any:
        """A new engine game; ``options`` are already checked."""
        raise NotImplementedError

    def from_json(self, text: str) -> Any:
        raise NotImplementedError

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options cleaned up, or ``ValueError`` with a sentence."""
        if options:
            raise ValueError(f"This game takes no options, not {sorted(options)}.")
        return {}

    def parse_action(self, data: Any) -> Any:
        """An action from its log form; ``ValueError`` if malformed."""
        raise NotImplementedError

    def turns(self, players: int, options: Mapping[str, Any]) -> int | None:
        """About how many turns a game of ``players`` with these (checked) options takes,
        all seats together: the lobby says from it when the game should end. None: the
        game cannot say."""
        return None

    def dump_action(self, action: Any) -> dict[str, Any]:
        return action.to_dict()

    def computer_action(
        self, game: Any, level: str, seed: int, seconds: float, iterations: int | None
    ) -> Any:
        """The move of a computer player of ``level`` ("easy", "normal", "strong"), thinking
        for ``seconds`` or exactly ``iterations`` (see :func:`engine.ai.choose`). Runs in a
        thinking worker, never on the event loop; ``game`` must not be changed.

        A game without computer players (see :mod:`engine.registry`) offers none in the lobby,
        but a seat can still be left or time out: it is played as a time-out is."""
        if not registry.game(self.name).has_computers:
            return self.timeout_action(game, Rng(seed))
        return engine.ai.choose(game, level, seed=seed, budget_s=seconds, iterations=iterations)

    def hint(self, game: Any, seat: int, seed: int, seconds: float, iterations: int | None) -> Any:
        """A suggested move for ``seat`` with its reason (an :class:`engine.ai.Hint`)."""
        return engine.ai.hint(game, seat, seed=seed, budget_s=seconds, iterations=iterations)

    def timeout_action(self, game: Any, rng: Rng) -> Any:
        """The move made for a player whose turn timed out (the server's "skip"): cheap and
        on the event loop, so no search; the least the game needs to go on."""
        return rng.choice(game.legal_actions())

    def redact(self, event: Any) -> Any:
        """``event`` as everyone may see it (the engine's redaction, where it has one)."""
        redacted = getattr(event, "redacted", None)
        return redacted() if callable(redacted) else event

    def is_over(self, game: Any) -> bool:
        return game.phase == "over"

    def view_at_end(self, game: Any) -> Any:
        """What everyone sees of a game that is over, by its rules or ended early: the
        engine's view at the end where it has one (what the end turns up, turned up even if
        play stopped before it), else ``view(None)``. Never for a game still played."""
        at_end = getattr(game, "view_at_end", None)
        return at_end() if callable(at_end) else game.view(None)


class Front:
    """How the table shows one game and turns taps and typed commands into moves."""

    #: The game's name (its folder's, and its catalogues' domain), set when
    #: :func:`bot.games.plugin` loads it.
    name: str = ""
    #: The typed commands' group (``/<group> ...``), and the commands.
    command_group: str = ""
    commands: tuple[CommandSpec, ...] = ()
    #: The controls any seated player may use at any time (``who="seat"``, e.g. "show my
    #: hand"); every other control is the current player's. The table decides by this, from
    #: the control's name, never from the kind letter of the id a client sent back.
    seat_controls: frozenset[str] = frozenset()
    #: Render functions to call once when the bot starts (``"module:name"``, no arguments).
    warm_up: tuple[str, ...] = ()
    #: Whether tables may offer the game (a front still being written says no).
    ready: bool = True
    #: What a table's creator chooses in the lobby (the game's rules adapter checks it).
    table_options: tuple[TableOption, ...] = ()

    def title(self) -> Text:
        """The game's name."""
        raise NotImplementedError

    def panel(self, seen: Seen) -> Panel:
        """The private panel of the current step of the turn of ``seen.seat``."""
        raise NotImplementedError

    def on_control(
        self, seen: Seen, control: str, args: Sequence[str], values: Sequence[str]
    ) -> Panel | Play:
        """A control of a panel was pressed (``values``: what was chosen in a menu)."""
        raise NotImplementedError

    def on_command(self, seen: Seen, command: str, options: Mapping[str, Any]) -> Panel | Play:
        """A typed command of :attr:`commands` was sent."""
        raise NotImplementedError

    def autocomplete(
        self, seen: Seen, command: str, option: str, current: str, typed: Mapping[str, Any]
    ) -> Sequence[Choice]:
        """Suggestions for ``option`` of ``command`` while the user types ``current``
        (``typed``: the command's other options so far). Only what ``seen.seat`` may see."""
        return ()

    def story(self, turns: Sequence[TurnRecord], names: Sequence[str]) -> list[Text]:
        """The turns in words, for everyone (their events are already redacted)."""
        raise NotImplementedError

    def board_post(self, view: Any, names: Sequence[str]) -> Panel:
        """The public post after a turn, made from the public view: the board and who plays
        next (the table adds the story before it, the mention and the turn button after)."""
        raise NotImplementedError

    def final_post(self, view: Any, names: Sequence[str], *, ended_early: bool) -> Panel:
        """The public post when the game is over, or was ended early by a moderator."""
        raise NotImplementedError

    def status(self, view: Any, names: Sequence[str], seat: int | None = None) -> Panel:
        """How the game stands, for anyone who asks (privately): ``seat`` is the asker's
        (None for someone not at the table), told "you" where it is about them."""
        return self.board_post(view, names)

    def rules_help(self, options: Mapping[str, Any]) -> Panel:
        """The rules help: a few short steps with a picture (for a table with ``options``)."""
        raise NotImplementedError

    def replay_picture(self, views: Sequence[Any], names: Sequence[str]) -> Picture | None:
        """The whole game as an animation, from the public views at the start of every turn
        and at the end (None: this game has no replay)."""
        return None

    def hint_text(
        self, seen: Seen, action: Mapping[str, Any], key: str, params: Mapping[str, Any]
    ) -> list[Text]:
        """A computer's suggestion in words, for the player alone: ``key`` and ``params`` are
        the reason (a key of the game's ``Computer.reasons``), ``action`` the move's dict
        form."""
        return [Text(f"{self.name}.{key}", **params)]

    def options_line(self, options: Mapping[str, Any]) -> Text | None:
        """What the lobby and the status say of a table's options (None: nothing)."""
        return None


@dataclass(frozen=True, slots=True)
class Plugin:
    """One game as the bot knows it: its rules for the service and its front for the table.
    A game's package makes it with these two; :func:`bot.games.plugin` adds the game's
    :class:`~engine.registry.Descriptor` (its name, what it has, where its words are)."""

    rules: GameRules
    front: Front
    descriptor: Descriptor | None = None
    #: The lessons of a practice game (``/table learn``), for a game that can teach.
    teacher: Teacher | None = None

    @property
    def name(self) -> str:
        assert self.descriptor is not None, "a plugin is named by the registry"
        return self.descriptor.name

    @property
    def has_computers(self) -> bool:
        """Whether computer players can sit at its tables and give hints."""
        return self.descriptor is not None and self.descriptor.has_computers
