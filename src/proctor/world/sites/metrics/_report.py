"""The shared report as a PDF download."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from proctor.world._kit import (
    Line,
    long_date,
    pdf,
    pdf_response,
    today,
)
from proctor.world._site import AttemptWorld
from proctor.world.sites.metrics._http import page, request_state
from proctor.world.sites.metrics._state import (
    LINES_PER_PAGE,
    METRICS,
    REPORT_FILE,
    SHARE,
    TZ,
    WORKSPACE,
    Section,
    Week,
    change,
    layout_of,
    section_of,
    weeks,
)


def _section_lines(n: int, section: Section, full: list[Week]) -> list[Line]:
    """A section of the report: its numbered title, its table (or the overview), the change."""
    lines = [Line(f"{n}. {section.title}", size=13, bold=True, gap=10)]
    if section.key == "overview":
        last, before = full[0].values, full[1].values
        for metric in METRICS:
            shift = change(last[metric], before[metric])
            lines.append(
                Line(f"{section_of(metric).title}: {last[metric]:,} ({shift} week over week)")
            )
        return lines
    lines.append(Line(cells=[(56, "Week"), (260, section.title)], bold=True))
    for week in full:
        value = week.values[section.key]
        shown = f"${value:,}" if section.key == "revenue" else f"{value:,}"
        lines.append(Line(cells=[(56, week.label), (260, shown)]))
    shift = change(full[0].values[section.key], full[1].values[section.key])
    lines.append(Line(f"Week over week: {shift}", gap=4))
    return lines


def report_pdf(world: AttemptWorld, layout: dict[str, Any]) -> bytes:
    """The shared report as laid out: optional cover, then numbered sections."""
    all_weeks = weeks(world)[1:]
    pages: list[list[Line]] = []
    if layout["cover"]:
        pages.append(
            [
                Line("Pulseboard", size=12, gap=120),
                Line("Weekly KPI report", size=24, bold=True, gap=8),
                Line(f"{WORKSPACE} workspace", size=12, gap=8),
                Line(f"Prepared {long_date(today(world, TZ))}", size=10, gap=8),
            ]
        )
    current: list[Line] = []
    if not layout["cover"]:
        current.append(Line("Weekly KPI report", size=16, bold=True))
    filled = False
    for n, key in enumerate(layout["sections"], start=1):
        block = _section_lines(n, section_of(key), all_weeks)
        if filled and (layout["page_breaks"] or len(current) + len(block) > LINES_PER_PAGE):
            pages.append(current)
            current = []
        current.extend(block)
        filled = True
    if current:
        pages.append(current)
    return pdf(pages, title="Pulseboard weekly KPI report")


async def report(request: Request) -> Response:
    world, state = request_state(request)
    if request.path_params["token"] != SHARE:
        return page("missing.html", 404)
    state["touched"] = True
    state["downloads"] = state.get("downloads", 0) + 1
    return pdf_response(report_pdf(world, layout_of(state)), REPORT_FILE)
