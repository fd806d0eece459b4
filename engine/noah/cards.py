"""The deck of Ark: every physical card, numbered, with its features.

The deck is read once, at import, from ``data/noah/cards.toml``. Each physical card gets an
id, its index in :data:`CARDS`: the animal and provision cards first, in the order of the
file (a card with ``copies = 2`` gives two consecutive ids with the same name), then the five
rain cards. Actions and events name cards by these ids; :func:`card_id` finds one by name.

Besides the readable :class:`Card` records the module keeps a few flat tuples indexed by id
(``WEIGHT``, ``CLIMATE``...): the rules engine reads them in its inner loops, where a tuple
index is several times cheaper than an attribute lookup.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.common import load_toml

#: The five scoring cards, in the order used by figure counts and views.
KINDS: tuple[str, ...] = ("heavy", "useful", "slow", "shy", "provision")

#: Climates: ``any`` cards fit with both others.
HOT, COLD, ANY = "hot", "cold", "any"

#: The special animals (cards marked "!").
SPECIALS: tuple[str, ...] = (
    "fox",
    "turtle",
    "hedgehog",
    "skunk",
    "mosquito",
    "spider",
    "bronto",
    "chimpanzee",
)

#: Specials that may drive another animal out of a cabin.
DRIVERS: frozenset[str] = frozenset({"skunk", "mosquito", "spider"})

#: Specials that nothing may drive out.
UNDRIVABLE: frozenset[str] = frozenset({"fox", "spider", "mosquito"})


@dataclass(frozen=True, slots=True)
class Card:
    """One physical card of the deck.

    ``kind`` is the scoring card the card counts for (``""`` for the special animals that
    have none, ``"rain"`` for the rain cards); ``diet`` is ``"herbivore"``, ``"carnivore"``,
    ``"omnivore"`` or ``"none"`` (provisions and rain); ``special`` is the ability of a "!"
    card or ``""``.
    """

    id: int
    name: str
    climate: str
    weight: int
    diet: str
    kind: str
    special: str = ""

    @property
    def is_rain(self) -> bool:
        """True for the five rain cards."""
        return self.kind == "rain"

    @property
    def is_provision(self) -> bool:
        """True for the eight provision cards."""
        return self.kind == "provision"

    @property
    def is_animal(self) -> bool:
        """True for every animal card (neither provision nor rain)."""
        return self.kind not in ("provision", "rain")

    @property
    def is_predator(self) -> bool:
        """Carnivores and omnivores: both must be lighter than their cabin mates."""
        return self.diet in ("carnivore", "omnivore")

    @property
    def eats_plants(self) -> bool:
        """Herbivores and omnivores: neither may share a cabin with provisions."""
        return self.diet in ("herbivore", "omnivore")

    @property
    def plays_alone(self) -> bool:
        """Slow animals and provisions: played only as the single card of a turn."""
        return self.kind in ("slow", "provision")

    @property
    def can_be_pet(self) -> bool:
        """A pet that scores: an animal of weight 0 to 2 without special abilities."""
        return self.is_animal and self.weight <= 2 and not self.special

    def __str__(self) -> str:
        return self.name


def _load() -> tuple[Card, ...]:
    data = load_toml("noah/cards.toml")
    cards: list[Card] = []
    for entry in data["card"]:
        for _ in range(int(entry.get("copies", 1))):
            cards.append(
                Card(
                    id=len(cards),
                    name=str(entry["name"]),
                    climate=str(entry["climate"]),
                    weight=int(entry["weight"]),
                    diet=str(entry["diet"]),
                    kind=str(entry["kind"]),
                    special=str(entry.get("special", "")),
                )
            )
    for _ in range(int(data["rain"]["copies"])):
        cards.append(Card(len(cards), "Rain", ANY, 0, "none", "rain"))
    return tuple(cards)


#: Every card of the game, indexed by id.
CARDS: tuple[Card, ...] = _load()

#: Ids of the animal and provision cards (everything but rain).
PLAYING_CARDS: tuple[int, ...] = tuple(c.id for c in CARDS if not c.is_rain)

#: Ids of the rain cards.
RAIN_CARDS: tuple[int, ...] = tuple(c.id for c in CARDS if c.is_rain)

# Flat tables for the engine's inner loops (see the module docstring).
WEIGHT: tuple[int, ...] = tuple(c.weight for c in CARDS)
CLIMATE: tuple[str, ...] = tuple(c.climate for c in CARDS)
NAME: tuple[str, ...] = tuple(c.name for c in CARDS)
KIND: tuple[str, ...] = tuple(c.kind for c in CARDS)
SPECIAL: tuple[str, ...] = tuple(c.special for c in CARDS)
IS_RAIN: tuple[bool, ...] = tuple(c.is_rain for c in CARDS)
IS_PROVISION: tuple[bool, ...] = tuple(c.is_provision for c in CARDS)
IS_ANIMAL: tuple[bool, ...] = tuple(c.is_animal for c in CARDS)
PREDATOR: tuple[bool, ...] = tuple(c.is_predator for c in CARDS)
EATS_PLANTS: tuple[bool, ...] = tuple(c.eats_plants for c in CARDS)
CARNIVORE: tuple[bool, ...] = tuple(c.diet == "carnivore" for c in CARDS)
SHY: tuple[bool, ...] = tuple(c.kind == "shy" for c in CARDS)
PLAYS_ALONE: tuple[bool, ...] = tuple(c.plays_alone for c in CARDS)
#: Turtle and hedgehog: not bothered by heavier carnivores and omnivores.
TOUGH: tuple[bool, ...] = tuple(c.special in ("turtle", "hedgehog") for c in CARDS)
#: Index of the card's scoring card in :data:`KINDS`, or -1 when it has none.
KIND_INDEX: tuple[int, ...] = tuple(KINDS.index(c.kind) if c.kind in KINDS else -1 for c in CARDS)


def card_id(name: str, copy: int = 1) -> int:
    """The id of the card called ``name`` (case-insensitive); ``copy`` picks among copies.

    >>> CARDS[card_id("Elephant")].weight
    3
    """
    wanted = name.strip().lower()
    found = [c.id for c in CARDS if c.name.lower() == wanted]
    if not found:
        raise KeyError(f"There is no card called {name!r}.")
    if not 1 <= copy <= len(found):
        raise KeyError(f"There are only {len(found)} copies of {name!r}.")
    return found[copy - 1]
