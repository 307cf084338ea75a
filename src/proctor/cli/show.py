"""proctor show: one attempt of a stored run, for a terminal (or as JSON)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table

from proctor._text import console as safe_console
from proctor._text import markup, safe
from proctor.cli._common import JsonOpt, ResultsOpt, emit_json
from proctor.errors import RunError
from proctor.report import AttemptView, attempt_view, find_attempt, load_run

AttemptArg = Annotated[
    str,
    typer.Argument(
        metavar="LABEL/SCENARIO/ARM-N",
        help="The run's label and the attempt's id, e.g. r1/contact-form/oracle-1 "
        "(`proctor diagnose LABEL` and report.html list the ids).",
    ),
]


def split_attempt(text: str) -> tuple[str, str]:
    """``LABEL/SCENARIO/ARM-N`` as (label, attempt id).

    Raises:
        RunError: the text is not of that form.
    """
    label, _, attempt = text.strip("/").partition("/")
    if not label or "/" not in attempt:
        raise RunError(
            f"{text!r} is not LABEL/SCENARIO/ARM-N, e.g. r1/contact-form/oracle-1; "
            "`proctor runs` lists the labels and `proctor diagnose LABEL` the failed attempts"
        )
    return label, attempt


def _ms(value: float) -> str:
    return f"{value:.0f} ms"


def _money(value: float | None) -> str:
    return "n/a" if value is None else f"${value:.4f}"


FREE_TEXT = frozenset({"target", "error"})
"""Columns that wrap; every other column keeps its values whole (the line grows instead)."""
RIGHT = frozenset({"#", "latency", "retries", "tokens in/out/cached", "$"})
WIDE = 200


def _table(title: str, columns: tuple[str, ...]) -> Table:
    table = Table(title=title, title_justify="left")
    for name in columns:
        table.add_column(
            name, justify="right" if name in RIGHT else "left", no_wrap=name not in FREE_TEXT
        )
    return table


def _print_table(out: Console, table: Table) -> None:
    """The table unwrapped up to ``WIDE`` columns, never narrower than its whole values need:
    free text wraps only in a table wider than that."""
    size = Measurement.get(out, out.options.update_width(10_000), table)
    need = max(size.minimum, min(size.maximum, WIDE))
    if need > out.width:
        out.width = need
    out.print(table)


def _field(out: Console, name: str, value: object) -> None:
    out.print(f"[bold]{name:<10}[/] {markup(value)}", highlight=False, soft_wrap=True)


def _block(out: Console, title: str, text: str) -> None:
    """Agent-written lines, escaped, each indented under ``title``."""
    out.print(f"[bold]{title}[/]", highlight=False)
    for line in text.rstrip("\n").splitlines() or [""]:
        out.print("  " + safe(line), markup=False, highlight=False, soft_wrap=True)


def _print_failed(out: Console, view: AttemptView) -> None:
    if not view.failed_checks:
        return
    out.print("[bold]failed checks[/]", highlight=False)
    for failed in view.failed_checks:
        out.print(
            f"  {markup(failed.path)} [dim]({markup(failed.check.kind)})[/]: {markup(failed.line)}",
            highlight=False,
            soft_wrap=True,
        )


def _print_steps(out: Console, view: AttemptView) -> None:
    steps = view.record.steps
    if not steps:
        out.print("no computer action was taken", highlight=False)
        return
    table = _table(
        f"steps ({len(steps)})", ("#", "tool", "op", "target", "status", "latency", "error")
    )
    for s in steps:
        table.add_row(
            str(s.index),
            markup(s.tool),
            markup(s.op),
            markup(s.target or ""),
            s.status,
            _ms(s.latency_ms),
            markup(s.error or ""),
        )
    _print_table(out, table)


def _print_timeline(out: Console, view: AttemptView) -> None:
    if not view.timeline:
        return
    table = _table(f"timeline ({len(view.timeline)})", ("after", "event", "kind", "clock", "what"))
    for t in view.timeline:
        table.add_row(str(t.after), markup(t.name), t.kind, t.clock, markup(t.what))
    _print_table(out, table)


def _print_calls(out: Console, view: AttemptView) -> None:
    if not view.calls:
        return
    columns = ("#", "purpose", "status", "tool", "latency", "retries", "tokens in/out/cached")
    table = _table(f"planner calls ({len(view.calls)})", (*columns, "$", "error"))
    for c in view.calls:
        table.add_row(
            str(c.index),
            markup(c.purpose),
            markup(c.status),
            markup(c.tool + (" (text)" if c.from_text else "")),
            _ms(c.latency_ms),
            str(c.retries),
            c.tokens,
            _money(c.cost_usd),
            markup(c.error),
        )
    _print_table(out, table)


def print_attempt(view: AttemptView, label: str, run_dir: Path, out: Console) -> None:
    """The attempt's outcome, cause, crash, failed checks, steps, planner calls and text."""
    r = view.record
    _field(out, "attempt", f"{label}/{r.id}")
    _field(out, "folder", run_dir / "attempts" / r.id)
    _field(out, "result", r.result)
    stop = r.stop_reason + (f": {r.stop_detail}" if r.stop_detail else "")
    _field(out, "stop", stop)
    if view.cause:
        _field(out, "cause", f"{view.cause}: {view.cause_detail}")
    agent = (
        r.agent + (f" · model {r.model}" if r.model else "") + (f" · {r.mode}" if r.mode else "")
    )
    _field(out, "agent", agent)
    if r.answer is not None:
        _field(out, "answer", r.answer)
    if r.error:
        _field(out, "error", r.error)
    if r.exit_code is not None:
        signal = f" (killed by signal {-r.exit_code})" if r.exit_code < 0 else ""
        _field(out, "exit code", f"{r.exit_code}{signal}")
    if r.stderr_tail:
        _block(out, "stderr tail", r.stderr_tail)
    if view.first_request is not None:
        _field(out, "first call", view.first_request.line)
    _print_failed(out, view)
    _print_steps(out, view)
    _print_timeline(out, view)
    _print_calls(out, view)
    for turn in view.turns:
        _block(out, f"model text, call {turn.call}", turn.text)


def show(
    attempt: AttemptArg,
    results: ResultsOpt = Path("results"),
    json: JsonOpt = False,
) -> None:
    """Show one attempt: outcome, cause, exit code and stderr, checks, steps, planner calls."""
    label, attempt_id = split_attempt(attempt)
    run = load_run(results, label)
    view = attempt_view(find_attempt(run.records, attempt_id, run.run_dir))
    if json:
        emit_json({"label": run.label, "run_dir": str(run.run_dir), **view.as_json()})
        return
    # Answers, errors, replies and stderr are the agent's: the safe console escapes them.
    print_attempt(view, run.label, run.run_dir, safe_console())
