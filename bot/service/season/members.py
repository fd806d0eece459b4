"""A season's member as dealing and standings see them: who, how strong, and since and until
which round they are in it."""

from __future__ import annotations

from dataclasses import dataclass

from bot.service.ratings import START


@dataclass(frozen=True, slots=True)
class Member:
    """One member of a season.

    ``rating``: their rating in the season's game (:mod:`bot.service.ratings`; someone who
    never played it has :data:`~bot.service.ratings.START`). ``joined``: the first round
    they are dealt into (1 for who signed up before the season began; someone who joins
    while round ``r`` is under way is dealt from round ``r + 1``). ``left``: the round during
    which they left the season, or None: from then on they are not dealt again, and keep the
    points they have.
    """

    user_id: int
    name: str
    rating: float = START
    joined: int = 1
    left: int | None = None

    def dealt_in(self, round_number: int) -> bool:
        """Whether the member is in the season for round ``round_number`` (busy or not)."""
        return self.joined <= round_number and self.left is None
