"""Reports: the run summary, report.md and the terminal table."""

from proctor.report._summary import counts_line, render_markdown, summarize, write_outputs
from proctor.report._terminal import print_table

__all__ = ["counts_line", "print_table", "render_markdown", "summarize", "write_outputs"]
