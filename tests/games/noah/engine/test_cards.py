"""The deck: loaded from data/, equal to the reference copy, weighed as the rulebook says."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.common.data import DATA_DIR
from engine.noah.cards import CARDS, card_id


def _reference() -> Path | None:
    """The shared reference deck, in the folder that holds the repository (or a worktree's)."""
    for folder in Path(__file__).resolve().parents[4:]:
        if (folder / "shared" / "ark-cards.toml").exists():
            return folder / "shared" / "ark-cards.toml"
    return None


SHARED = _reference()


@pytest.mark.skipif(SHARED is None, reason="no shared/ folder beside the repository")
def test_data_copy_equals_the_reference_deck() -> None:
    assert SHARED is not None
    assert (DATA_DIR / "noah" / "cards.toml").read_bytes() == SHARED.read_bytes()


def test_the_weights_the_rulebook_gives_in_its_examples() -> None:
    # "when the skunk (weight = 1) drives out the elephant (weight = 3)"; "a polar bear
    # (weight 2)": the only printed weights the rules text names.
    weights = {name: CARDS[card_id(name)].weight for name in ("Skunk", "Elephant", "Polar bear")}
    assert weights == {"Skunk": 1, "Elephant": 3, "Polar bear": 2}
