"""What a game brings to the bot's table: its front (and, if it can teach, its lessons).

A game plugin is one folder ``bot/games/<game>/`` whose ``__init__`` holds ``PLUGIN``, a
:class:`Plugin` made of a :class:`Front`: what the table needs to let people play it (panels
as data, pressed controls and typed commands turned into the next panel or an action, the
story of a turn, the public posts, the rules help; see :mod:`bot.panels`), and optionally a
:class:`~bot.games.teaching.Teacher`. What the game service needs (new games, options, the
log's form of an action, the computer's move, the move made for a time-out) is the engine's
own :class:`~engine.rules.Rules`, found through :mod:`engine.registry`.

A front knows no Discord, SQL or service: it gets engine games, seats and names, and gives
back data. The table (:mod:`bot.table`) and the service (:mod:`bot.service`) do the rest.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from bot.games.seen import Seen
from bot.games.teaching import Teacher
from bot.panels import Choice, CommandSpec, Panel, Picture, Play, TableOption, Text
from engine.registry import Descriptor
from engine.rules import Rules
from engine.turns import TurnRecord

__all__ = ["Front", "Plugin", "Seen", "TurnRecord"]

#: The engine's ``Game`` class of a front's game, and what its public view is (``view(None)``).
G = TypeVar("G")
V = TypeVar("V")


class Front(Generic[G, V]):
    """How the table shows one game and turns taps and typed commands into moves.

    ``G`` is the engine's ``Game`` class and ``V`` its public view (what ``view(None)``
    returns): a game's front is a ``Front[Game, View]`` of its engine, so the type checker
    holds each front to its own engine."""

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
    #: What a table's creator chooses in the lobby (the engine's ``RULES.check_options`` checks it).
    table_options: tuple[TableOption, ...] = ()

    def title(self) -> Text:
        """The game's name."""
        raise NotImplementedError

    def panel(self, seen: Seen[G]) -> Panel:
        """The private panel of the current step of the turn of ``seen.seat``."""
        raise NotImplementedError

    def on_control(
        self, seen: Seen[G], control: str, args: Sequence[str], values: Sequence[str]
    ) -> Panel | Play:
        """A control of a panel was pressed (``values``: what was chosen in a menu)."""
        raise NotImplementedError

    def on_command(self, seen: Seen[G], command: str, options: Mapping[str, Any]) -> Panel | Play:
        """A typed command of :attr:`commands` was sent."""
        raise NotImplementedError

    def autocomplete(
        self, seen: Seen[G], command: str, option: str, current: str, typed: Mapping[str, Any]
    ) -> Sequence[Choice]:
        """Suggestions for ``option`` of ``command`` while the user types ``current``
        (``typed``: the command's other options so far). Only what ``seen.seat`` may see."""
        return ()

    def story(self, turns: Sequence[TurnRecord], names: Sequence[str]) -> list[Text]:
        """The turns in words, for everyone (their events are already redacted)."""
        raise NotImplementedError

    def board_post(self, view: V, names: Sequence[str]) -> Panel:
        """The public post after a turn, made from the public view: the board and who plays
        next (the table adds the story before it, the mention and the turn button after)."""
        raise NotImplementedError

    def final_post(self, view: V, names: Sequence[str], *, ended_early: bool) -> Panel:
        """The public post when the game is over, or was ended early by a moderator."""
        raise NotImplementedError

    def status(self, view: V, names: Sequence[str], seat: int | None = None) -> Panel:
        """How the game stands, for anyone who asks (privately): ``seat`` is the asker's
        (None for someone not at the table), told "you" where it is about them."""
        return self.board_post(view, names)

    def rules_help(self, options: Mapping[str, Any]) -> Panel:
        """The rules help: a few short steps with a picture (for a table with ``options``)."""
        raise NotImplementedError

    def replay_picture(self, views: Sequence[V], names: Sequence[str]) -> Picture | None:
        """The whole game as an animation, from the public views at the start of every turn
        and at the end (None: this game has no replay)."""
        return None

    def hint_text(
        self,
        seen: Seen[G],
        action: Mapping[str, Any],
        key: str,
        params: Mapping[str, Any],
        *,
        rest: Sequence[Mapping[str, Any]] = (),
    ) -> list[Text]:
        """A computer's suggestion in words, for the player alone: ``key`` and ``params`` are
        the reason (a key of the game's ``Computer.reasons``), ``action`` the move's dict
        form and ``rest`` the actions that follow it in the same turn."""
        return [Text(f"{self.name}.{key}", **params)]

    def options_line(self, options: Mapping[str, Any]) -> Text | None:
        """What the lobby and the status say of a table's options (None: nothing)."""
        return None


@dataclass(frozen=True, slots=True)
class Plugin:
    """One game as the bot knows it: its front for the table (and its lessons). A game's
    package makes it with these; :func:`bot.games.plugin` adds the game's
    :class:`~engine.registry.Descriptor` (its name, what it has, where its words are), and
    with it the engine's rules."""

    front: Front[Any, Any]
    descriptor: Descriptor | None = None
    #: The lessons of a practice game (``/table learn``), for a game that can teach.
    teacher: Teacher | None = None

    @property
    def name(self) -> str:
        assert self.descriptor is not None, "a plugin is named by the registry"
        return self.descriptor.name

    @property
    def rules(self) -> Rules[Any, Any]:
        """The engine's rules (what the game service runs), found through the registry."""
        assert self.descriptor is not None, "a plugin is named by the registry"
        return self.descriptor.rules()

    @property
    def has_computers(self) -> bool:
        """Whether computer players can sit at its tables and give hints."""
        return self.descriptor is not None and self.descriptor.has_computers
