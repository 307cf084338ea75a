"""The budget cap (``--budget USD``): stop starting attempts before the spend passes it.

Before an attempt starts, the driver asks ``admit``: the dollars spent, plus an
estimate for every attempt in flight and for this one, must stay within the cap.
An attempt's estimate is the mean cost of its arm's finished attempts, or, while
its arm has none, the mean over every arm (0 before anything finished: the first
attempts are the ones that teach the estimate). Once an attempt is refused, the
cap is reached: it and every attempt after it are recorded ``not_run: budget``
(result ``skipped``), which the summary counts as missing, never as failed, and
``--resume`` runs again.

**Spent** is read from the run's spend ledger (``records/_spend.py``), where a
model agent admits each call's estimate before sending it and settles it after:
every call of every leg counts, at its settled cost, or at its estimate while
unsettled (in flight, or cut off by a kill -9). So a try that a kill, a crash or
an infra fault ended counts as well as a recorded one, and a resumed run starts
from what was billed, not from what was recorded: across kill -9 and resume the
cap is passed by no more than what the calls in flight cost beyond their
estimates. An attempt with no line in the ledger (an agent without a model, a
run older than the ledger, a Ray worker without the run folder) counts its
record's ``cost_usd``. An attempt in flight counts its estimate or what its
calls of this leg cost so far, whichever is more.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from proctor.records import AttemptRecord, read_spend
from proctor.runner._plan import PlanItem
from proctor.runner._record import AttemptOutput, build_record


@dataclass
class Budget:
    """The cap in dollars and what has been spent against it.

    Attributes:
        usd: The cap.
        ledger: The run's spend.jsonl; None counts the records' costs only.
        reached: An attempt was refused: every later one is too.
        problems: One line per read that found lines no ledger line (a kill cut
            them short), naming the file and the lines; they are skipped.
    """

    usd: float
    ledger: Path | None = None
    reached: bool = False
    problems: list[str] = field(default_factory=list)
    _costs: dict[str, list[float]] = field(default_factory=dict)
    """arm -> the costs of its scored attempts (the estimate)."""
    _records: dict[str, float] = field(default_factory=dict)
    """attempt id -> its record's cost, for attempts finished or loaded."""
    _calls: dict[str, tuple[str, float]] = field(default_factory=dict)
    """call id -> (attempt id, dollars): the admission, replaced by its settlement."""
    _ledgered: set[str] = field(default_factory=set)
    """Attempt ids with a line in the ledger: their spend is the ledger's."""
    _this_leg: dict[str, float] = field(default_factory=dict)
    """attempt id -> what its calls admitted or settled in this leg cost."""
    _in_flight: dict[str, str] = field(default_factory=dict)
    """attempt id -> arm, for the attempts admitted and not yet finished."""
    _offset: int = 0
    _next_line: int = 1

    def __post_init__(self) -> None:
        self._read(tail=True, this_leg=False)  # no worker is up: a cut last line is read too

    @property
    def spent_usd(self) -> float:
        """Every ledger line's dollars, plus the records of attempts the ledger lacks."""
        calls = sum(usd for _, usd in self._calls.values())
        unledgered = sum(c for a, c in self._records.items() if a not in self._ledgered)
        return calls + unledgered

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
        self._read()
        # An attempt in flight: its estimate, or what its calls of this leg already cost
        # (counted in spent_usd) when that is more.
        flying = sum(
            max(0.0, self.estimate(arm) - self._this_leg.get(attempt, 0.0))
            for attempt, arm in self._in_flight.items()
        )
        if self.spent_usd + flying + self.estimate(item.arm.name) > self.usd:
            self.reached = True
            return False
        self._in_flight[item.attempt_id] = item.arm.name
        return True

    def spent(self, record: AttemptRecord) -> None:
        """Count a finished attempt's spend (an unknown cost counts as 0)."""
        self._read()  # its calls' lines were written before its try returned
        self._in_flight.pop(record.id, None)
        cost = record.cost_usd or 0.0
        self._records[record.id] = cost
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

    def _read(self, *, tail: bool = False, this_leg: bool = True) -> None:
        """Take in the ledger's lines written since the last read."""
        if self.ledger is None:
            return
        read = read_spend(self.ledger, self._offset, self._next_line, tail=tail)
        self._offset, self._next_line = read.offset, read.next_line
        for line in read.lines:
            attempt = line.attempt_id
            self._ledgered.add(attempt)
            before = self._calls.get(line.call, (attempt, 0.0))[1]
            self._calls[line.call] = (attempt, line.usd)
            if this_leg:
                self._this_leg[attempt] = self._this_leg.get(attempt, 0.0) + line.usd - before
        if read.bad:
            which = f"line {read.bad[0]}" if len(read.bad) == 1 else f"lines {list(read.bad)}"
            self.problems.append(
                f"{self.ledger}: {which} not a spend line (a write cut short by a kill), "
                "skipped: an admission cut short is a call never sent, and a settlement cut "
                "short leaves its call counted at the estimate"
            )
