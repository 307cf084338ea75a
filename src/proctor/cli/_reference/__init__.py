"""The generated reference pages under docs/reference/, made from the code itself.

- ``checks.md``: every check kind, from ``proctor.scenario.CHECK_MODELS`` and the argument
  models' fields and docstrings.
- ``actions.md``: every action op (``proctor.computer.ACTION_TYPES``) with its traits,
  the MCP lane's own tools, what a scenario step adds, and the timeline's events.
- ``scenario.md``: every block of a scenario file, from the ``Scenario`` model down.
- ``cli.md``: every command and option, walked from the typer app's click commands.
- ``sites.md``: every site's and app's sign-in details, fixed codes and test data
  (``proctor.world.site_data``) and its seed defaults.

``render_pages()`` is pure: the same code gives the same bytes (sorted, no times, no
absolute paths). ``python -m proctor.cli._reference`` (``make docs``) writes the pages;
``tests/test_reference_docs.py`` fails when a committed page differs. Each page has its
module (``_checks``, ``_actions``, ``_scenario``, ``_commands``, ``_sites``), over
``_tables`` (type names, field tables, the page frame).
"""

from __future__ import annotations

from pathlib import Path

from proctor.cli import app
from proctor.cli._reference._actions import actions_page
from proctor.cli._reference._checks import checks_page
from proctor.cli._reference._commands import cli_page
from proctor.cli._reference._scenario import scenario_page
from proctor.cli._reference._sites import sites_page

__all__ = ["PAGES", "render_pages", "write_pages"]

PAGES = ("actions.md", "checks.md", "cli.md", "scenario.md", "sites.md")
"""The pages under docs/reference/, by file name."""


def render_pages() -> dict[str, str]:
    """Path relative to the repository root -> the page's markdown, for every reference page."""
    pages = {
        "docs/reference/actions.md": actions_page(),
        "docs/reference/checks.md": checks_page(),
        "docs/reference/cli.md": cli_page(app),
        "docs/reference/scenario.md": scenario_page(),
        "docs/reference/sites.md": sites_page(),
    }
    return dict(sorted(pages.items()))


def write_pages(root: Path) -> list[Path]:
    """Write every page under ``root`` (the repository root); the paths written."""
    written = []
    for relative, text in render_pages().items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
