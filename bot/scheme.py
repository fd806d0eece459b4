"""The custom ids of every button and menu, built and parsed in one place, strictly.

A custom id carries everything needed to answer a click after any restart:

- ``tb:<game>:<version>:<control>[:<arg>...]`` a button of a turn panel (``tm:`` a menu);
- ``sb:`` / ``sm:`` the same for controls any seated player may use at any time.
  The letter only keeps the ids of the two sorts apart: who may use a control is decided by
  the table from the control's name (:attr:`bot.games.base.Front.seat_controls`), never from
  an id a client sent back, which may be forged;
- ``ob:<game>:<turn>`` "Play my turn" on a public board post, valid for that whole turn;
- ``lb:<game>:<op>`` a lobby button (join, leave, start); ``lm:<game>:<option>`` a lobby
  menu that sets one of the table's options (the creator's, until the game starts);
- ``zb:<season>:<op>`` a season's sign-up button (join, leave): the number is the season's.

``<control>`` and the args belong to the game's front; the table only checks their shape.
Anything that does not parse is refused as "no longer valid" and never reaches a front; so is
an id that matches neither template (an older version's, a made-up one), by the client.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

#: Discord's limit on a custom id.
MAX_LENGTH = 100
BUTTON_KINDS = ("tb", "sb", "ob", "lb", "zb")
MENU_KINDS = ("tm", "sm", "lm")
#: What the bot's component handlers match: our prefixes, anything after them.
BUTTON_TEMPLATE = r"(?P<kind>tb|sb|ob|lb|zb):(?P<rest>.{0,200})"
MENU_TEMPLATE = r"(?P<kind>tm|sm|lm):(?P<rest>.{0,200})"

_NUMBER = re.compile(r"[0-9]{1,18}")
_CONTROL = re.compile(r"[a-z][a-z0-9_]{0,15}")
_ARG = re.compile(r"[-A-Za-z0-9_.,]{0,40}")
_LOBBY_OPS = ("join", "leave", "start", "unbot")
_SEASON_OPS = ("join", "leave")


class BadId(ValueError):
    """A custom id that none of our controls has."""


@dataclass(frozen=True, slots=True)
class ControlId:
    """A parsed custom id. ``version`` is the game version (``t``/``s`` kinds) or the turn
    (``o``); ``control`` is the front's control, the lobby op, or ``"open"``; for a season's
    button (``zb``) ``game_id`` holds the season's id and ``control`` its op."""

    kind: str
    game_id: int
    version: int
    control: str
    args: tuple[str, ...] = ()


def _checked(text: str) -> str:
    if len(text) > MAX_LENGTH:
        raise ValueError(f"custom id too long ({len(text)} > {MAX_LENGTH}): {text[:40]}...")
    return text


def control_id(
    game_id: int, version: int, control: str, args: Sequence[str], *, menu: bool, who: str
) -> str:
    """The id of a front's control (``who``: "turn" or "seat")."""
    if not _CONTROL.fullmatch(control) or not all(_ARG.fullmatch(a) for a in args):
        raise ValueError(f"not a valid control: {control} {list(args)}")
    kind = ("t" if who == "turn" else "s") + ("m" if menu else "b")
    return _checked(":".join((kind, str(game_id), str(version), control, *args)))


def open_turn_id(game_id: int, turn: int) -> str:
    return _checked(f"ob:{game_id}:{turn}")


def lobby_id(game_id: int, op: str) -> str:
    if op not in _LOBBY_OPS:
        raise ValueError(op)
    return _checked(f"lb:{game_id}:{op}")


def season_id(season: int, op: str) -> str:
    """A season's sign-up button (``op``: join or leave)."""
    if op not in _SEASON_OPS:
        raise ValueError(op)
    return _checked(f"zb:{season}:{op}")


def lobby_menu_id(game_id: int, option: str) -> str:
    if not _CONTROL.fullmatch(option):
        raise ValueError(option)
    return _checked(f"lm:{game_id}:{option}")


def parse(custom_id: str) -> ControlId:
    """The parts of one of our ids; :class:`BadId` for anything else."""
    if len(custom_id) > MAX_LENGTH:
        raise BadId("too long")
    kind, _, rest = custom_id.partition(":")
    parts = rest.split(":")
    if kind in ("tb", "tm", "sb", "sm"):
        if len(parts) < 3:
            raise BadId(custom_id)
        game, version, control, *args = parts
        if not (
            _NUMBER.fullmatch(game)
            and _NUMBER.fullmatch(version)
            and _CONTROL.fullmatch(control)
            and all(_ARG.fullmatch(a) for a in args)
        ):
            raise BadId(custom_id)
        return ControlId(kind, int(game), int(version), control, tuple(args))
    if kind == "ob" and len(parts) == 2 and all(_NUMBER.fullmatch(p) for p in parts):
        return ControlId(kind, int(parts[0]), int(parts[1]), "open")
    if kind == "lb" and len(parts) == 2 and _NUMBER.fullmatch(parts[0]) and parts[1] in _LOBBY_OPS:
        return ControlId(kind, int(parts[0]), 0, parts[1])
    if kind == "zb" and len(parts) == 2 and _NUMBER.fullmatch(parts[0]) and parts[1] in _SEASON_OPS:
        return ControlId(kind, int(parts[0]), 0, parts[1])
    lobby_menu = len(parts) == 2 and _NUMBER.fullmatch(parts[0]) and _CONTROL.fullmatch(parts[1])
    if kind == "lm" and lobby_menu:
        return ControlId(kind, int(parts[0]), 0, parts[1])
    raise BadId(custom_id)
