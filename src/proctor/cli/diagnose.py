"""proctor diagnose: why each failed attempt of a run failed, grouped by cause."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from proctor._text import console
from proctor.cli._common import JsonOpt, ResultsOpt, emit_json
from proctor.cli.report import LabelArg
from proctor.report import failure_causes, load_run, print_diagnose


def diagnose(label: LabelArg, results: ResultsOpt = Path("results"), json: JsonOpt = False) -> None:
    """Print the failure causes of a run with counts and attempt paths.

    ``--json`` prints ``{"run", "run_dir", "failed", "causes": [{"cause", "label",
    "guard", "counted", "count", "attempts": [{"attempt", "path", "detail"}]}]}``;
    ``failed`` counts the failed attempts of the counted causes (infra is shown
    apart, ``counted: false``), and ``path`` is the attempt folder.
    """
    run = load_run(results, label)
    causes = failure_causes(run.records)
    if json:
        run_dir = str(run.run_dir)
        groups: list[dict[str, Any]] = [
            {
                "cause": group.cause,
                "label": group.label,
                "guard": group.guard,
                "counted": group.counted,
                "count": len(group.attempts),
                "attempts": [
                    {"attempt": a.attempt, "path": f"{run_dir}/{a.path}", "detail": a.detail}
                    for a in group.attempts
                ],
            }
            for group in causes
        ]
        failed = sum(g["count"] for g in groups if g["counted"])
        emit_json({"run": label, "run_dir": run_dir, "failed": failed, "causes": groups})
        return
    # The details quote agents' answers and errors; the safe console escapes their controls.
    print_diagnose(causes, str(run.run_dir), console())
