"""A folder's study options: how many new cards and reviews a day, the retention FSRS aims
for, which directions are studied and what a typed answer may leave out.

Validated (pydantic): they come from the options dialog, from stored rows that may be damaged
and from imported backups. Apart from app.study.model so the first screen, which shows no
options, is drawn before pydantic loads (decision 025).
"""

from __future__ import annotations

import math
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from app.study.model import DIRECTIONS, Direction, Directions, Weights

PARAMETER_COUNT = 21  # FSRS-6


def _fsrs_values(values: Weights) -> Weights:
    # Every FSRS-6 parameter lies within [0, 100]; the scheduler keeps each inside its own
    # bounds (app/study/scheduler.py), so a value hand-edited in a backup cannot stop studying.
    if not all(math.isfinite(v) and 0.0 <= v <= 100.0 for v in values):
        raise ValueError("each FSRS parameter is a number from 0 to 100")
    return values


Parameters = Annotated[
    Weights,
    Field(min_length=PARAMETER_COUNT, max_length=PARAMETER_COUNT),
    AfterValidator(_fsrs_values),
]


class StudyOptions(BaseModel):
    """How a folder (and every subfolder without its own) is studied."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
    retention: float = Field(0.90, ge=0.70, le=0.99)
    new_per_day: int = Field(20, ge=0, le=9999)
    reviews_per_day: int = Field(9999, ge=0, le=99999)
    directions: Directions = "forward"
    accents_optional: bool = True
    articles_optional: bool = True
    # Fitted to the learner's own reviews (app/study/training.py); None: FSRS-6's defaults.
    parameters: Parameters | None = None

    def studies(self, direction: Direction) -> bool:
        return self.directions in ("both", direction)

    @property
    def direction_list(self) -> tuple[Direction, ...]:
        return tuple(d for d in DIRECTIONS if self.studies(d))


# The defaults are valid by definition: constructed without building the validator, which
# costs about 20 ms of startup in the browser.
DEFAULT_OPTIONS = StudyOptions.model_construct()
