"""Reports: metrics, bars, determinism, failure causes, and the terminal/Markdown/HTML renderers.

``report`` reads records, never the world: every number here comes from
attempt records, so a run can be re-reported at any time.
"""

from proctor.report._causes import (
    Cause,
    cause_label,
    cause_of,
    diagnose_lines,
    failure_causes,
    stop_cause,
)
from proctor.report._compare import Comparison, compare
from proctor.report._determinism import determinism, divergence, signature
from proctor.report._format import when
from proctor.report._html import render_html
from proctor.report._load import StoredRun, labels, load_records, load_run, load_summary
from proctor.report._markdown import counts_line, render_markdown
from proctor.report._metrics import (
    RowKey,
    flip_rate,
    metric_row,
    metric_rows,
    pass_hat_k,
    pass_k,
    total_tokens,
    wilson,
)
from proctor.report._regrade import (
    Fallback,
    Regraded,
    free_label,
    regrade_record,
    regrade_run,
    write_regraded,
)
from proctor.report._runs import RunListing, list_runs
from proctor.report._summary import (
    ReportPaths,
    history_line,
    summarize,
    write_outputs,
    write_reports,
)
from proctor.report._targets import DEFAULT_TARGETS, BarSpec, Targets, load_targets, mark
from proctor.report._terminal import print_diagnose, print_metrics, print_table

__all__ = [
    "DEFAULT_TARGETS",
    "BarSpec",
    "Cause",
    "Comparison",
    "Fallback",
    "Regraded",
    "ReportPaths",
    "RowKey",
    "RunListing",
    "StoredRun",
    "Targets",
    "cause_label",
    "cause_of",
    "compare",
    "counts_line",
    "determinism",
    "diagnose_lines",
    "divergence",
    "failure_causes",
    "flip_rate",
    "free_label",
    "history_line",
    "labels",
    "list_runs",
    "load_records",
    "load_run",
    "load_summary",
    "load_targets",
    "mark",
    "metric_row",
    "metric_rows",
    "pass_hat_k",
    "pass_k",
    "print_diagnose",
    "print_metrics",
    "print_table",
    "regrade_record",
    "regrade_run",
    "render_html",
    "render_markdown",
    "signature",
    "stop_cause",
    "summarize",
    "total_tokens",
    "when",
    "wilson",
    "write_outputs",
    "write_regraded",
    "write_reports",
]
