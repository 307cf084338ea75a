"""Reports: metrics, bars, determinism, failure causes, and the terminal/Markdown/HTML renderers.

``report`` reads records, never the world: every number here comes from
attempt records, so a run can be re-reported at any time.
"""

from proctor.report._attempt_view import (
    AttemptView,
    CallRow,
    FailedCheck,
    TextTurn,
    attempt_view,
    find_attempt,
)
from proctor.report._causes import (
    Cause,
    cause_label,
    cause_of,
    diagnose_lines,
    failure_causes,
    stop_cause,
)
from proctor.report._compare import (
    CompareWarning,
    Comparison,
    arm_specs,
    compare,
    compare_warnings,
)
from proctor.report._compare_render import (
    ComparePaths,
    comparison_json,
    counts_text,
    render_compare_html,
    render_compare_markdown,
    write_compare,
)
from proctor.report._determinism import determinism, divergence, signature
from proctor.report._format import metric_value, when
from proctor.report._html import render_html
from proctor.report._load import (
    StoredRun,
    labels,
    load_records,
    load_run,
    load_summary,
    run_dir_of,
)
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
from proctor.report._tables import (
    TableSection,
    TablesPage,
    render_tables_html,
    render_tables_markdown,
    write_tables,
)
from proctor.report._tail import (
    Follower,
    Restarted,
    RunState,
    attempt_dir,
    attempt_id,
    event_line,
    finished_record,
    live_attempts,
    run_state,
)
from proctor.report._targets import DEFAULT_TARGETS, BarSpec, Targets, load_targets, mark
from proctor.report._terminal import print_diagnose, print_metrics, print_peers, print_table

__all__ = [
    "DEFAULT_TARGETS",
    "AttemptView",
    "BarSpec",
    "CallRow",
    "Cause",
    "ComparePaths",
    "CompareWarning",
    "Comparison",
    "FailedCheck",
    "Fallback",
    "Follower",
    "Regraded",
    "ReportPaths",
    "Restarted",
    "RowKey",
    "RunListing",
    "RunState",
    "StoredRun",
    "TableSection",
    "TablesPage",
    "Targets",
    "TextTurn",
    "arm_specs",
    "attempt_dir",
    "attempt_id",
    "attempt_view",
    "cause_label",
    "cause_of",
    "compare",
    "compare_warnings",
    "comparison_json",
    "counts_line",
    "counts_text",
    "determinism",
    "diagnose_lines",
    "divergence",
    "event_line",
    "failure_causes",
    "find_attempt",
    "finished_record",
    "flip_rate",
    "free_label",
    "history_line",
    "labels",
    "list_runs",
    "live_attempts",
    "load_records",
    "load_run",
    "load_summary",
    "load_targets",
    "mark",
    "metric_row",
    "metric_rows",
    "metric_value",
    "pass_hat_k",
    "pass_k",
    "print_diagnose",
    "print_metrics",
    "print_peers",
    "print_table",
    "regrade_record",
    "regrade_run",
    "render_compare_html",
    "render_compare_markdown",
    "render_html",
    "render_markdown",
    "render_tables_html",
    "render_tables_markdown",
    "run_dir_of",
    "run_state",
    "signature",
    "stop_cause",
    "summarize",
    "total_tokens",
    "when",
    "wilson",
    "write_compare",
    "write_outputs",
    "write_regraded",
    "write_reports",
    "write_tables",
]
