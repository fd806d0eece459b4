"""The complete, mutable state of one game of Ark, and its JSON form.

:class:`State` is plain data (ints, lists, strings) so that copying it, comparing it and
writing it as JSON are exact and cheap. Only :class:`engine.noah.Game` changes it, and only
on a private copy until an action has proved legal.
"""

from __future__ import annotations

from typing import Any

from engine.noah.cards import KINDS

#: Phases of a game.
PLAY, PET, ENDGAME, OVER = "play", "pet", "endgame", "over"
PHASES: tuple[str, ...] = (PLAY, PET, ENDGAME, OVER)

#: Format number written in the JSON, bumped when the layout changes.
FORMAT = 1


class State:
    """Everything about a game. Lists of cards keep their top (for the supply) at the end.

    - ``deck``: the supply, top card last. ``face_up``: the face-up cards.
    - ``hands``: each seat's hand, sorted. ``pets``: each seat's pet or ``None``.
    - ``cabins[side][row]``: card ids, side 0 port, 1 starboard. ``tilt``: starboard weight
      minus port weight.
    - ``plain[seat][k]`` / ``on_disc[seat][k]``: figures on scoring card ``KINDS[k]``,
      plain and standing on an orange disc (1.5 figures).
    - ``rain``: rain cards set aside; ``box``: animals driven out of the game.
    - ``phase``, ``current``: whose turn it is to do what. ``passed``: endgame passes.
    - ``pet_queue``: seats still to answer the pet choice; then ``resume_phase`` begins with
      ``resume_seat``. ``pet_due`` / ``endgame_due``: the second / fifth rain card fell
      during the turn being played (acted on when it ends).
    - ``last``: the cards of the latest play (one or two ids; empty before any), public.
    - ``final``: the final scores once the game is over, ``winners`` after the tie break.
    """

    __slots__ = (
        "box",
        "cabins",
        "current",
        "deck",
        "discs",
        "endgame_due",
        "face_up",
        "final",
        "hands",
        "last",
        "moves",
        "on_disc",
        "passed",
        "pet_due",
        "pet_queue",
        "pets",
        "phase",
        "plain",
        "players",
        "rain",
        "resume_phase",
        "resume_seat",
        "rng",
        "seed",
        "tilt",
        "winners",
    )

    def __init__(self, players: int, seed: int = 0) -> None:
        self.players = players
        self.seed = seed
        self.rng = 0
        self.deck: list[int] = []
        self.face_up: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.discs: list[int] = [0] * players
        self.cabins: list[list[list[int]]] = [[], []]
        self.tilt = 0
        self.plain: list[list[int]] = [[0] * len(KINDS) for _ in range(players)]
        self.on_disc: list[list[int]] = [[0] * len(KINDS) for _ in range(players)]
        self.rain: list[int] = []
        self.box: list[int] = []
        self.pets: list[int | None] = [None] * players
        self.phase = PLAY
        self.current = 0
        self.passed: list[bool] = [False] * players
        self.pet_queue: list[int] = []
        self.resume_phase = PLAY
        self.resume_seat = 0
        self.pet_due = False
        self.endgame_due = False
        self.final: list[int] | None = None
        self.winners: list[int] | None = None
        self.moves = 0
        self.last: list[int] = []

    def copy(self) -> State:
        """An independent copy (lists are copied, ints and strings shared)."""
        new = State.__new__(State)
        new.players = self.players
        new.seed = self.seed
        new.rng = self.rng
        new.deck = self.deck.copy()
        new.face_up = self.face_up.copy()
        new.hands = [h.copy() for h in self.hands]
        new.discs = self.discs.copy()
        new.cabins = [[c.copy() for c in side] for side in self.cabins]
        new.tilt = self.tilt
        new.plain = [r.copy() for r in self.plain]
        new.on_disc = [r.copy() for r in self.on_disc]
        new.rain = self.rain.copy()
        new.box = self.box.copy()
        new.pets = self.pets.copy()
        new.phase = self.phase
        new.current = self.current
        new.passed = self.passed.copy()
        new.pet_queue = self.pet_queue.copy()
        new.resume_phase = self.resume_phase
        new.resume_seat = self.resume_seat
        new.pet_due = self.pet_due
        new.endgame_due = self.endgame_due
        new.final = None if self.final is None else self.final.copy()
        new.winners = None if self.winners is None else self.winners.copy()
        new.moves = self.moves
        new.last = self.last.copy()
        return new

    def to_dict(self) -> dict[str, Any]:
        """The state as JSON-ready data (the RNG state included)."""
        data: dict[str, Any] = {"format": FORMAT}
        for name in State.__slots__:
            data[name] = getattr(self, name)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        """Rebuild a state written by :meth:`to_dict`; raises ``ValueError`` if malformed."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError("This is not a saved game of Ark in a format this version reads.")
        # Saves written before ``last`` existed: no play highlighted.
        data = {"last": [], **data}
        missing = [name for name in State.__slots__ if name not in data]
        if missing:
            raise ValueError(f"The saved game lacks {', '.join(missing)}.")
        state = cls.__new__(cls)
        for name in State.__slots__:
            setattr(state, name, data[name])
        # Rebuilding through copy() gives every list a fresh identity and checks the shapes.
        try:
            state = state.copy()
        except (AttributeError, TypeError) as error:
            raise ValueError("The saved game is malformed.") from error
        if state.phase not in PHASES or not 3 <= state.players <= 5:
            raise ValueError("The saved game is malformed.")
        return state
