"""What a game's front hands the table: panels described as data, no Discord in them.

A front (``bot/games/<game>/``) says *what* to show: lines of text (message ids with their
values, translated by the table in the reader's language), pictures (a render function and
its arguments, drawn by the table's painter) and controls (buttons and menus, named by the
front's own control names). The table (:mod:`bot.table`) turns a :class:`Panel` into a
Discord message, and a pressed control back into a call of the front. So a front is tested
without Discord, and a new game is a new front, not a change of the table.

A front answers a pressed control or a typed command with either the next :class:`Panel`
(shown privately to the player, nothing stored) or a :class:`Play` (an engine action for the
game service to store).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from engine.errors import Refusal
from render.i18n import Text

__all__ = [
    "Button",
    "Choice",
    "CommandOption",
    "CommandSpec",
    "Control",
    "Option",
    "Panel",
    "Picture",
    "Play",
    "Refusal",
    "Select",
    "TableOption",
    "Text",
]


Style = Literal["primary", "secondary", "success", "danger"]
#: Who may press a control. "turn": the player whose turn it is, on the game's current
#: version (everything that leads to a move). "seat": anyone seated at the table, at any time
#: (e.g. showing one's own hand); the version is not checked.
Who = Literal["turn", "seat"]


@dataclass(frozen=True, slots=True)
class Button:
    """A button. ``control`` and ``args`` come back to the front when it is pressed."""

    control: str
    args: tuple[str, ...] = ()
    label: Text | None = None
    style: Style = "secondary"
    emoji: str | None = None
    disabled: bool = False
    row: int | None = None
    who: Who = "turn"


@dataclass(frozen=True, slots=True)
class Option:
    """One entry of a menu: what it says and the value that comes back."""

    label: Text
    value: str
    description: Text | None = None


@dataclass(frozen=True, slots=True)
class Select:
    """A menu of up to 25 options; the chosen value comes back with ``control`` and ``args``."""

    control: str
    options: tuple[Option, ...]
    args: tuple[str, ...] = ()
    placeholder: Text | None = None
    row: int | None = None
    who: Who = "turn"


Control = Button | Select


@dataclass(frozen=True, slots=True)
class Picture:
    """A picture to draw: ``function`` is ``"module:name"`` of a render function taking
    ``args`` (JSON-like values, e.g. a view's JSON) and ``language=``, returning PNG bytes.

    Public pictures must be drawn from what everyone may see (``game.view(None)``): the
    arguments are all a picture ever gets, and they go to a worker process.
    """

    function: str
    args: tuple[Any, ...] = ()
    filename: str = "picture.png"
    #: Words describing the picture, for screen readers (Discord's alt text).
    description: Text | None = None
    #: It takes seconds and nobody waits for it (a whole game's animation): drawn last, in
    #: steps if its function gives a generator (yielding between steps, returning the
    #: bytes), so that no board waits behind it (see :mod:`bot.pictures`).
    slow: bool = False


@dataclass(frozen=True, slots=True)
class Panel:
    """A message: lines of text, pictures, controls (at most 5 rows of controls)."""

    lines: tuple[Text, ...] = ()
    pictures: tuple[Picture, ...] = ()
    controls: tuple[Control, ...] = ()

    def plus(self, *lines: Text) -> Panel:
        """The same panel with ``lines`` added at the end."""
        return Panel((*self.lines, *lines), self.pictures, self.controls)


@dataclass(frozen=True, slots=True)
class Play:
    """Store ``action`` (an engine action) as the player's move, and ``then`` the actions
    that follow it in the same turn, all in one write: a turn decided on one panel (a tile
    placed and a follower put on it) is played by one tap, and all of it or none is kept."""

    action: Any
    then: tuple[Any, ...] = ()

    @property
    def actions(self) -> tuple[Any, ...]:
        """Every action to store, in order."""
        return (self.action, *self.then)


@dataclass(frozen=True, slots=True)
class Choice:
    """One autocomplete suggestion of a typed command's option."""

    label: Text
    value: str | int


@dataclass(frozen=True, slots=True)
class CommandOption:
    """An option of a typed command. ``kind`` is the value's type; ``autocomplete`` asks the
    front for suggestions while the user types; ``choices`` is a fixed list instead."""

    name: str
    description: Text
    kind: Literal["text", "integer"] = "text"
    required: bool = True
    autocomplete: bool = False
    choices: tuple[Choice, ...] = ()
    max_length: int | None = 100


@dataclass(frozen=True, slots=True)
class TableOption:
    """A choice made when a table is opened (e.g. the rules edition): the lobby shows it as a
    menu its creator may change until the game starts. ``name`` is the option's key in the
    game's options; the first choice is the default."""

    name: str
    label: Text
    choices: tuple[Option, ...]

    @property
    def default(self) -> str:
        return self.choices[0].value


@dataclass(frozen=True, slots=True)
class CommandSpec:
    """A typed command of a game (``/<group> <name> ...``), answered by the front's
    ``on_command``. ``opens_turn`` commands need it to be the user's turn."""

    name: str
    description: Text
    options: tuple[CommandOption, ...] = ()
    who: Who = "turn"
