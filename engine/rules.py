"""What the game service needs of a game, said by its engine: one :class:`Rules` record.

Each engine exports ``RULES`` beside its ``Game`` (``engine/<game>/rules.py``, or the
``engine`` package of a game installed from outside the tree), and :func:`engine.registry.rules`
finds it. The record says what differs between games (the ``Game`` class, how many seats,
how an action is read back from the log, the refusal codes with their parameters, the
options' check, the move made when a turn times out, about how many turns a game lasts) and
does the rest the same way for every game (JSON, the computer players, hints, redaction).
So the game service and its thinking workers need the engines alone, never the bot's fronts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, Self, TypeVar, cast

from engine.common.rng import Rng

if TYPE_CHECKING:
    from engine.ai.reasons import Hint

__all__ = ["Refusals", "Rules", "no_options"]

#: Each refusal code a game may raise, with the names of the values its catalogue text
#: (``<game>.illegal.<code>``) may use.
Refusals = Mapping[str, tuple[str, ...]]


class _Engine(Protocol):
    """What :class:`Rules` itself calls on a game (the rest of :class:`engine.protocol.Game`
    is the service's and the table's)."""

    @property
    def phase(self) -> str: ...

    def legal_actions(self) -> list[Any]: ...

    def view(self, seat: int | None = None) -> object: ...

    @classmethod
    def from_json(cls, text: str) -> Self: ...


G = TypeVar("G", bound=_Engine)
A = TypeVar("A")


def no_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options' check of a game that takes none."""
    if options:
        raise ValueError(f"This game takes no options, not {sorted(options)}.")
    return {}


def _not_known(players: int, options: Mapping[str, Any]) -> int | None:
    return None


@dataclass(frozen=True, slots=True)
class Rules(Generic[G, A]):
    """How the game service runs one game's engine.

    ``G`` is the engine's ``Game`` class and ``A`` its action. Only ``game``, ``read_action``
    and ``refusals`` must be given; a game with table options gives ``options`` (and
    ``start`` to use them), a game that knows its length gives ``expected_turns``.
    """

    #: The engine's ``Game`` class.
    game: type[G]
    #: An action from its log form (its ``to_dict()``); ``ValueError`` if malformed.
    read_action: Callable[[Any], A]
    #: Every refusal code the engine raises, with the params each raise gives.
    refusals: Refusals
    min_players: int = 2
    max_players: int = 5
    #: A new game of ``(players, seed, checked options)`` (default: ``Game.new(players=,
    #: seed=)``, for a game without options).
    start: Callable[[int, int, Mapping[str, Any]], G] | None = None
    #: The options cleaned up, or ``ValueError`` with a sentence (for logs: the player hears
    #: ``bad_options``).
    options: Callable[[Mapping[str, Any]], dict[str, Any]] = no_options
    #: The move made for a player whose turn timed out (the server's "skip"): cheap and on
    #: the event loop, so no search; the least the game needs to go on. None: any legal one.
    timeout: Callable[[G, Rng], A] | None = None
    #: About how many turns a game of ``players`` with these (checked) options takes, all
    #: seats together (the lobby says from it when the game should end); None: not known.
    expected_turns: Callable[[int, Mapping[str, Any]], int | None] = _not_known
    #: The game's name (its folder's), set by :func:`engine.registry.rules`.
    name: str = ""

    def new(self, players: int, seed: int, options: Mapping[str, Any]) -> G:
        """A new game; ``options`` are already checked."""
        if self.start is not None:
            return self.start(players, seed, options)
        new: Callable[..., G] = getattr(self.game, "new")  # noqa: B009 (not in the protocol)
        return new(players=players, seed=seed)

    def from_json(self, text: str) -> G:
        return self.game.from_json(text)

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return self.options(options)

    def parse_action(self, data: Any) -> A:
        return self.read_action(data)

    def dump_action(self, action: A) -> dict[str, Any]:
        dumped: dict[str, Any] = getattr(action, "to_dict")()  # noqa: B009
        return dumped

    def turns(self, players: int, options: Mapping[str, Any]) -> int | None:
        return self.expected_turns(players, options)

    def timeout_action(self, game: G, rng: Rng) -> A:
        if self.timeout is None:
            # One of ``game.legal_actions()``: an action of this game.
            return cast(A, rng.choice(game.legal_actions()))
        return self.timeout(game, rng)

    def computer_action(
        self, game: G, level: str, seed: int, seconds: float, iterations: int | None
    ) -> A:
        """The move of a computer player of ``level`` ("easy", "normal", "strong"), thinking
        for ``seconds`` or exactly ``iterations`` (see :func:`engine.ai.choose`). Runs in a
        thinking worker, never on the event loop; ``game`` must not be changed.

        A game without computer players offers none in the lobby, but a seat can still be
        left or time out: it is played as a time-out is."""
        from engine import ai, registry

        if not registry.game(self.name).has_computers:
            return self.timeout_action(game, Rng(seed))
        # The computer chooses among ``game.legal_actions()``: an action of this game.
        chosen = ai.choose(game, level, seed=seed, budget_s=seconds, iterations=iterations)
        return cast(A, chosen)

    def hint(self, game: G, seat: int, seed: int, seconds: float, iterations: int | None) -> Hint:
        """A suggested move for ``seat`` with its reason (an :class:`engine.ai.Hint`)."""
        from engine import ai

        return ai.hint(game, seat, seed=seed, budget_s=seconds, iterations=iterations)

    def redact(self, event: object) -> object:
        """``event`` as everyone may see it (the engine's redaction, where it has one)."""
        redacted = getattr(event, "redacted", None)
        return redacted() if callable(redacted) else event

    def is_over(self, game: G) -> bool:
        return game.phase == "over"

    def view_at_end(self, game: G) -> object:
        """What everyone sees of a game that is over, by its rules or ended early: the
        engine's view at the end where it has one (what the end turns up, turned up even if
        play stopped before it), else ``view(None)``. Never for a game still played."""
        at_end = getattr(game, "view_at_end", None)
        return at_end() if callable(at_end) else game.view(None)
