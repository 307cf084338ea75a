"""proctor diagnose: why each failed attempt of a run failed, grouped by cause."""

from __future__ import annotations

from pathlib import Path

from proctor._text import console
from proctor.cli._common import ResultsOpt
from proctor.cli.report import LabelArg
from proctor.report import failure_causes, load_run, print_diagnose


def diagnose(label: LabelArg, results: ResultsOpt = Path("results")) -> None:
    """Print the failure causes of a run with counts and attempt paths."""
    run = load_run(results, label)
    # The details quote agents' answers and errors; the safe console escapes their controls.
    print_diagnose(failure_causes(run.records), str(run.run_dir), console())
