"""What every engine offers, so that the computer players, the game service and the bot's
table drive any game the same way (as python-chess drives its variants).

An engine is one package, ``engine.<name>`` (the game's name is its folder's), whose ``Game``
class satisfies :class:`Game` below; :mod:`engine.registry` finds it, with the game's other
layers. Computer players are optional: a package ``engine.<name>.ai`` with a ``COMPUTER``
(:class:`engine.ai.computer.Computer`).
"""

from __future__ import annotations

from typing import Any, Protocol, Self, runtime_checkable

from engine.errors import IllegalAction

__all__ = ["Game", "IllegalAction", "to_act"]


@runtime_checkable
class Game(Protocol):
    """One game in progress: a pure function of (options, seats, seed, actions applied).

    Every reading is a property, in every engine:

    - ``players``: how many seats the table has.
    - ``phase``: a name of the step the game is at; ``"over"`` once it has ended.
    - ``current_player``: the seat to act now (``None`` once the game is over).
    - ``turn``: the number of the current turn. It changes exactly when a new turn begins, so
      the actions between two changes are one player's whole turn (the story the bot tells).
    - ``scores``: points per seat (what they would be now, before the end).
    - ``winners``: the winning seats once the game is over (several when tied), else ``()``.

    And the methods:

    - ``legal_actions()``: every action the current player may take now.
    - ``apply(action, seat=None)``: play it and return the events of what happened; raises
      :class:`~engine.errors.IllegalAction` (and changes nothing) if it is not legal now, or
      if ``seat`` is given and it is not that seat's turn.
    - ``to_json()`` / ``from_json(text)``: an exact round trip of the whole state.
    - ``copy()``: an independent game in the same state.
    - ``hidden_information`` (a class attribute, False if missing): whether players hold
      what the others may not see (hands, pets), so that views differ by seat.
    - ``view(seat)``: what ``seat`` may see (``None``: what everyone may see: no card in a
      hand, no pet, no order of the tiles or cards still to come). Public pictures and
      messages are made from ``view(None)`` only.
    - ``view_at_end()`` (optional, for a game with hidden information): what everyone sees once
      play has stopped, also when it was stopped before its end: ``view(None)`` with what the
      rules turn up at the end (the card game's pets). Without it, ``view(None)``.

    Optional search methods, for the computer players (:mod:`engine.ai`); both engines have
    them, and a new engine needs them before ``engine.ai`` can play it:

    - ``sample_action(rng)``: one legal action, drawn with ``rng`` (an
      :class:`engine.common.Rng`) without listing them all. Not necessarily uniform, but
      every legal action can be drawn.
    - ``determinise(seat, rng)``: a playable copy in which everything hidden from ``seat``
      (the order of the tiles or cards to come, the other hands and pets) is dealt anew at
      random, consistently with what ``seat`` knows: ``view(seat)`` of the copy equals
      ``view(seat)`` of the game. The seed, which would give the order away, is dropped.
    - ``copy()`` must be fast (search copies a game thousands of times a move): copy the
      state directly rather than through JSON.
    """

    @property
    def players(self) -> int: ...

    @property
    def phase(self) -> str: ...

    @property
    def current_player(self) -> int | None: ...

    @property
    def turn(self) -> int: ...

    @property
    def scores(self) -> tuple[int, ...]: ...

    @property
    def winners(self) -> tuple[int, ...]: ...

    def legal_actions(self) -> list[Any]: ...

    def apply(self, action: Any, seat: int | None = None) -> tuple[Any, ...]: ...

    def to_json(self) -> str: ...

    @classmethod
    def from_json(cls, text: str) -> Self: ...

    def copy(self) -> Self: ...

    def view(self, seat: int | None = None) -> object: ...


def to_act(game: Game) -> int:
    """The seat to act now, for code that only ever looks at a game in play (a decision of
    the computer players, a panel of the current turn); ``ValueError`` once it is over."""
    seat = game.current_player
    if seat is None:
        raise ValueError("The game is over: nobody is to act.")
    return seat
