"""The budget cap (``--budget USD``): stop starting attempts before the spend passes it.

Before an attempt starts, the driver asks ``admit``: the dollars spent by
finished attempts, plus an estimate for every attempt in flight and for this
one, must stay within the cap. An attempt's estimate is the mean cost of its
arm's finished attempts, or, while its arm has none, the mean over every arm
(0 before anything finished: the first attempts are the ones that teach the
estimate). Once an attempt is refused, the cap is reached: it and every
attempt after it are recorded ``not_run: budget`` (result ``skipped``), which
the summary counts as missing, never as failed, and ``--resume`` runs again.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from proctor.records import AttemptRecord
from proctor.runner._plan import PlanItem
from proctor.runner._record import AttemptOutput, build_record


@dataclass
class Budget:
    """The cap in dollars and what has been spent against it."""

    usd: float
    spent_usd: float = 0.0
    reached: bool = False
    _costs: dict[str, list[float]] = field(default_factory=dict)
    _in_flight: dict[str, str] = field(default_factory=dict)
    """attempt id -> arm, for the attempts admitted and not yet finished."""

    def estimate(self, arm: str) -> float:
        """The expected cost of one attempt of ``arm``."""
        own = self._costs.get(arm)
        if own:
            return sum(own) / len(own)
        every = [c for costs in self._costs.values() for c in costs]
        return sum(every) / len(every) if every else 0.0

    def admit(self, item: PlanItem) -> bool:
        """Whether ``item`` may start; False from the first refusal on."""
        if self.reached:
            return False
        flying = sum(self.estimate(arm) for arm in self._in_flight.values())
        if self.spent_usd + flying + self.estimate(item.arm.name) > self.usd:
            self.reached = True
            return False
        self._in_flight[item.attempt_id] = item.arm.name
        return True

    def spent(self, record: AttemptRecord) -> None:
        """Count a finished attempt's spend (an unknown cost counts as 0)."""
        self._in_flight.pop(record.id, None)
        cost = record.cost_usd or 0.0
        self.spent_usd += cost
        if record.result in ("passed", "failed"):
            self._costs.setdefault(record.arm, []).append(cost)

    def not_run(self, item: PlanItem) -> AttemptOutput:
        """The record of an attempt the cap kept from starting."""
        detail = (
            f"not run: the budget of ${self.usd:.2f} would have been passed "
            f"(${self.spent_usd:.4f} spent)"
        )
        record = build_record(
            item, "skipped", "skipped", started_at=time.time(), stop_detail=detail, not_run="budget"
        )
        return AttemptOutput(record)
