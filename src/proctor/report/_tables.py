"""A page of titled tables, as Markdown and as one offline HTML page.

For comparisons whose numbers are worked out elsewhere (``proctor models``: the
statistics live in ``compare``): the caller gives every cell as text, and this
module only lays the page out, the same way compare.md and compare.html do.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from proctor._text import safe
from proctor.records import write_text_atomic
from proctor.report._compare_render import ComparePaths
from proctor.report._html import template_environment
from proctor.report._markdown import table


@dataclass(frozen=True)
class TableSection:
    """One titled table, with lines of text before it.

    Attributes:
        title: The section's heading.
        header: The column names.
        rows: The cells, as text, one tuple per row (as long as ``header``).
        notes: Lines shown between the heading and the table.
        anchor: The HTML id of the section's table (letters, digits and ``-``).
    """

    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    notes: tuple[str, ...] = ()
    anchor: str = ""

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row) != len(self.header):
                raise ValueError(
                    f"table {self.title!r}: a row of {len(row)} cells, not {len(self.header)}"
                )


@dataclass(frozen=True)
class TablesPage:
    """A page: a title, lines of text, then the sections in order."""

    title: str
    intro: tuple[str, ...] = ()
    sections: tuple[TableSection, ...] = field(default_factory=tuple)


def render_tables_markdown(page: TablesPage) -> str:
    """The page as Markdown: ``# title``, the intro, then each section's heading, notes, table."""
    lines = [f"# {safe(page.title)}", ""]
    for line in page.intro:
        lines += [safe(line), ""]
    for section in page.sections:
        lines += [f"## {safe(section.title)}", ""]
        for line in section.notes:
            lines += [safe(line), ""]
        lines += table(section.header, section.rows)
        lines.append("")
    return "\n".join(lines)


def render_tables_html(page: TablesPage) -> str:
    """The page as one self-contained HTML document (inline CSS, no script, strict CSP)."""
    env = template_environment()
    env.filters["safe_text"] = safe
    return env.get_template("tables.html.j2").render(page=page)


def write_tables(out: Path, page: TablesPage, stem: str = "compare") -> ComparePaths:
    """``<stem>.md`` and ``<stem>.html`` in the folder ``out`` (made if need be), each atomically.

    Raises:
        StorageError: naming the file, when one cannot be written.
    """
    paths = ComparePaths(out / f"{stem}.md", out / f"{stem}.html")
    write_text_atomic(paths.markdown, render_tables_markdown(page))
    write_text_atomic(paths.html, render_tables_html(page))
    return paths
