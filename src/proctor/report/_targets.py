"""Target bars: a TOML file of (metric, op, target), and marking each row against it."""

from __future__ import annotations

import operator
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from proctor.errors import RunError
from proctor.records import Bar, MetricRow
from proctor.vocab import TargetOp

DEFAULT_TARGETS = Path(__file__).resolve().parent / "targets.toml"

OPS: dict[str, Callable[[float, float], bool]] = {
    ">=": operator.ge,
    ">": operator.gt,
    "<=": operator.le,
    "<": operator.lt,
}
MEDIANS = (
    "planner_calls",
    "tokens",
    "cost_usd",
    "seconds",
    "tool_calls",
    "observations",
    "inputs",
)
PLANNER_METRICS = frozenset({"planner_calls", "tokens", "cost_usd"})
"""Numbers only an agent with a planner (or one reporting its usage) has."""
PASS_K = re.compile(r"^pass\^([1-9][0-9]*)$")


class BarSpec(BaseModel):
    """One bar of the targets file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    metric: str
    op: TargetOp
    target: float

    @field_validator("metric")
    @classmethod
    def _known(cls, metric: str) -> str:
        if metric == "success" or metric in MEDIANS or PASS_K.match(metric):
            return metric
        raise ValueError(
            f"unknown metric {metric!r}; use success, pass^K (e.g. pass^3), " + ", ".join(MEDIANS)
        )


class _File(BaseModel):
    model_config = ConfigDict(extra="forbid")

    bars: list[BarSpec]


@dataclass(frozen=True)
class Targets:
    """The bars, and the file they came from."""

    bars: tuple[BarSpec, ...]
    source: Path


def load_targets(path: Path | None = None) -> Targets:
    """Read a targets file; the shipped defaults when ``path`` is None.

    Raises:
        RunError: naming the file, the bar and what to write instead.
    """
    source = path or DEFAULT_TARGETS
    try:
        data = tomllib.loads(source.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RunError(f"--targets {source}: cannot read it ({exc.strerror})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise RunError(f"--targets {source}: not valid TOML: {exc}") from exc
    try:
        parsed = _File.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()
        )
        raise RunError(
            f"--targets {source}: {problems} (each [[bars]] needs metric, op (>=, >, <=, <) "
            f"and target; see {DEFAULT_TARGETS})"
        ) from exc
    return Targets(tuple(parsed.bars), source)


def value_of(row: MetricRow, metric: str) -> float | None:
    """The row's value for a bar's metric; None when unknown."""
    if metric == "success":
        return row.success
    if match := PASS_K.match(metric):
        return row.pass_k.get(int(match.group(1)))
    medians = {
        "planner_calls": row.median_planner_calls,
        "tokens": row.median_tokens,
        "cost_usd": row.median_cost_usd,
        "seconds": row.median_seconds,
        "tool_calls": row.median_tool_calls,
        "observations": row.median_observations,
        "inputs": row.median_inputs,
    }
    return medians[metric]


def applies(row: MetricRow, metric: str) -> bool:
    """Whether the row has such a number at all.

    pass^K needs a scenario with K scored repeats; planner calls, tokens and $
    need an agent that plans with a model or reports its usage. A bar that
    does not apply is shown as – and counted neither met nor unmet; a number
    that applies but is unknown (a model without a price) is never met.
    """
    if match := PASS_K.match(metric):
        return int(match.group(1)) in row.pass_k
    if metric in PLANNER_METRICS:
        return row.planner
    return True


def mark(row: MetricRow, targets: Targets) -> MetricRow:
    """The row with one cell per bar: ✓, ✗ (an unknown value is never met), or – (n/a)."""
    bars = []
    for spec in targets.bars:
        value = value_of(row, spec.metric)
        fits = applies(row, spec.metric)
        met = fits and value is not None and OPS[spec.op](value, spec.target)
        bars.append(
            Bar(
                metric=spec.metric,
                op=spec.op,
                target=spec.target,
                value=value if fits else None,
                met=met,
                applies=fits,
            )
        )
    return row.model_copy(update={"bars": bars})
