"""Computer players for The Ark of the Covenant (see :mod:`engine.ai`)."""

from engine.ai.covenant.evaluate import Evaluator, Weights
from engine.ai.covenant.model import CovenantModel

__all__ = ["CovenantModel", "Evaluator", "Weights"]
