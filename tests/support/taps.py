"""A person who knows the move they want and taps their way to it through a game's panels.

:func:`cheapest_taps` finds, from a turn's first private panel, the fewest taps that play a
planned turn with the front's own controls: it walks the panels as the front makes them (no
Discord, no pictures drawn), a button costing one tap and a menu two (open it, pick one).
:class:`Tapper` then presses exactly those controls on the messages the bot sent through
the in-process harness, and keeps what the turn cost: taps, the private pictures uploaded
and their bytes. Shared by ``bench/turn_cost.py`` and the tests of how many taps a turn
takes.

A Play is the planned move when the game it leads to is the planned one (``to_json()``
equal): the Ark moved along another path to the same square, with the same points, is the
same move.
"""

from __future__ import annotations

import heapq
import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import engine.ai
from bot import scheme
from bot.games import Front, Seen
from bot.panels import Button, Panel, Play, Select
from engine.errors import Refusal as AnyRefusal
from tests.support.harness import Harness, Reply, Sent

#: Taps a button costs, and a menu (open it, then pick an option).
BUTTON_TAPS = 1
MENU_TAPS = 2


@dataclass(frozen=True, slots=True)
class Tap:
    """One control pressed: a button (``value`` None) or a menu's option."""

    control: str
    args: tuple[str, ...]
    value: str | None = None

    @property
    def cost(self) -> int:
        return BUTTON_TAPS if self.value is None else MENU_TAPS


def played(outcome: Play) -> tuple[Any, ...]:
    """Every action a Play stores, in order."""
    return outcome.actions


def plan_turn(game: Any, level: str = "normal", seed: int = 0) -> list[Any]:
    """The whole turn the computer of ``level`` plays from ``game`` (not changed)."""
    trial = game.copy()
    turn, plan = trial.turn, []
    while trial.phase != "over" and trial.turn == turn:
        action = engine.ai.choose(trial, level, seed=seed + len(plan), iterations=16)
        trial.apply(action)
        plan.append(action)
    return plan


def _key(panel: Panel) -> tuple[Any, ...]:
    """What tells two panels apart for the search: their controls."""
    return tuple(
        (
            c.control,
            c.args,
            c.disabled if isinstance(c, Button) else tuple(o.value for o in c.options),
        )
        for c in panel.controls
    )


def _taps(panel: Panel) -> list[Tap]:
    taps: list[Tap] = []
    for control in panel.controls:
        if control.who != "turn":
            continue  # the hand and such: shown at any time, no step of the move
        if isinstance(control, Button):
            if not control.disabled:
                taps.append(Tap(control.control, control.args))
        elif isinstance(control, Select):
            taps += [Tap(control.control, control.args, o.value) for o in control.options]
    return taps


#: What a game's JSON holds of the points scored (the Covenant's keys): a move that leaves
#: the same position but other points is the same move "as a person asks for it".
_POINTS = ("scores", "breakdown", "history")


def _position(text: str) -> str:
    """A game's JSON without its points."""
    data = json.loads(text)
    return json.dumps({k: v for k, v in data.items() if k not in _POINTS}, sort_keys=True)


def cheapest_taps(
    front: Front, seen: Seen, plan: Sequence[Any], limit: int = 40, *, loose: bool = False
) -> list[Tap]:
    """The fewest taps from the turn's panel (``front.panel(seen)``) that play ``plan``;
    ``loose``: or that leave the position the plan leaves whoever scores what (the Ark on
    the same square by the route the panel offers, the planned route not being offered).

    A tap is tried only once the search reaches its cost (a cheapest-first search), so a
    panel of a hundred choices costs nothing until nothing cheaper is left. Raises
    ``LookupError`` when no way of at most ``limit`` taps plays it: a move a person cannot
    make by tapping."""
    states = [seen.game]
    for action in plan:
        after = states[-1].copy()
        after.apply(action)
        states.append(after)
    shown = _position if loose else str
    wanted = [shown(state.to_json()) for state in states]

    def seen_at(k: int) -> Seen:
        return replace(seen, game=states[k], version=seen.version + k)

    counter = itertools.count()
    # (taps so far, tie-break, actions played, the tap to try (None: the turn's first
    # panel), the taps before it)
    queue: list[tuple[int, int, int, Tap | None, tuple[Tap, ...]]] = [
        (0, next(counter), 0, None, ())
    ]
    done: set[tuple[int, tuple[Any, ...]]] = set()
    tried: set[tuple[int, Tap]] = set()
    while queue:
        cost, _, k, tap, path = heapq.heappop(queue)
        if tap is None:
            panel: Panel = front.panel(seen_at(k))
        else:
            if (k, tap) in tried:
                continue
            tried.add((k, tap))
            values = () if tap.value is None else (tap.value,)
            try:
                outcome = front.on_control(seen_at(k), tap.control, tap.args, values)
            except (AnyRefusal, ValueError):
                continue
            path = (*path, tap)
            if isinstance(outcome, Play):
                reached = _reached(states[k], outcome, wanted, k, shown)
                if reached is None:
                    continue
                if reached == len(plan):
                    return list(path)
                k, panel = reached, front.panel(seen_at(reached))
            else:
                panel = outcome
        if (k, _key(panel)) in done:
            continue
        done.add((k, _key(panel)))
        for following in _taps(panel):
            if cost + following.cost <= limit:
                heapq.heappush(queue, (cost + following.cost, next(counter), k, following, path))
    raise LookupError(f"no way to play {plan} in at most {limit} taps")


def _reached(
    game: Any, outcome: Play, wanted: list[str], k: int, shown: Callable[[str], str]
) -> int | None:
    """How many of the planned actions ``outcome`` plays from the ``k``-th state, if what
    it plays is the plan's next step(s); else None."""
    trial = game.copy()
    try:
        for action in played(outcome):
            trial.apply(action)
    except ValueError:
        return None
    reached = k + len(played(outcome))
    if reached >= len(wanted) or shown(trial.to_json()) != wanted[reached]:
        return None
    return reached


# ----------------------------------------------------------------------------- on the harness


def _components(payload: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    stack = list(payload.get("components") or [])
    while stack:
        item = stack.pop(0)
        if item.get("type") in (2, 3):
            found.append(item)
        stack[:0] = list(item.get("components") or [])
    return found


@dataclass
class TurnCost:
    """What one tapped turn cost its player."""

    game: str
    taps: int = 0
    #: How many of the taps were menus (each counted as two taps in ``taps``).
    menus: int = 0
    pictures: int = 0
    bytes: int = 0
    actions: tuple[Any, ...] = ()
    #: The file names of the private pictures uploaded, in order (to see which ones).
    names: list[str] = field(default_factory=list)
    #: The planned move was not offered as such: the same position was played instead.
    loose: bool = False

    def add(self, reply: Reply) -> None:
        """Count the private pictures ``reply`` uploaded (interaction answers and edits;
        the public board goes to the channel, not through the interaction)."""
        for request in reply.requests:
            if request.via != "webhook":
                continue
            for name, data in request.files:
                if data.startswith(b"\x89PNG"):
                    self.pictures += 1
                    self.bytes += len(data)
                    self.names.append(name)


class Tapper:
    """Plays turns in the harness by tapping, as :func:`cheapest_taps` says."""

    def __init__(self, h: Harness, front: Front, game_id: int) -> None:
        self.h = h
        self.front = front
        self.game_id = game_id

    def board_post(self, turn: int) -> int:
        """The id of the newest message with ``Play my turn`` for ``turn``."""
        wanted = scheme.open_turn_id(self.game_id, turn)
        for message_id in sorted(self.h.messages, reverse=True):
            ids = [c.get("custom_id") for c in _components(self.h.messages[message_id])]
            if wanted in ids:
                return message_id
        raise LookupError(f"no board post with {wanted}")

    def custom_id(self, message: Sent, tap: Tap) -> str:
        for component in _components(self.h.message(message)):
            try:
                parsed = scheme.parse(str(component.get("custom_id")))
            except scheme.BadId:
                continue
            if parsed.control == tap.control and parsed.args == tap.args:
                return str(component["custom_id"])
        raise LookupError(f"{tap} is not on the panel: {message.custom_ids}")

    async def play(self, user: int, seen: Seen, plan: Sequence[Any], cost: TurnCost) -> list[Sent]:
        """Open the turn from its board post and tap ``plan`` through; returns the panels
        the player saw (the last one says the turn is done)."""
        try:
            taps = cheapest_taps(self.front, seen, plan)
        except LookupError:
            taps = cheapest_taps(self.front, seen, plan, loose=True)
            cost.loose = True
        turn = seen.game.turn
        reply = await self.h.click(
            user, self.board_post(turn), scheme.open_turn_id(self.game_id, turn)
        )
        cost.taps += BUTTON_TAPS
        cost.add(reply)
        seen_panels = [reply.last]
        for tap in taps:
            panel = reply.last
            custom_id = self.custom_id(panel, tap)
            if tap.value is None:
                reply = await self.h.click(user, panel, custom_id)
            else:
                reply = await self.h.select(user, panel, custom_id, [tap.value])
            if reply.errors:
                raise AssertionError(f"{tap}: {reply.errors}")
            cost.taps += tap.cost
            cost.menus += tap.value is not None
            cost.add(reply)
            seen_panels.append(reply.last)
        cost.actions = tuple(plan)
        return seen_panels
