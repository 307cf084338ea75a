"""Inline SVG plots for report.html: no script, no network, no plotting library."""

from __future__ import annotations

import math
import statistics
import textwrap
from collections.abc import Sequence
from html import escape
from typing import NamedTuple

from proctor.records import AttemptRecord, MetricRow
from proctor.report._format import NOT_APPLICABLE, money, row_name
from proctor.report._metrics import by_row, scored

WIDTH = 640
LEFT = 170
"""The narrowest left margin (row labels); a longer label widens it, up to ``LEFT_MAX``."""
LEFT_MAX = 380
RIGHT = 30
SPAN = WIDTH - LEFT - RIGHT
"""Width of the plotting area, whatever the margin."""
ROW_H = 28
CHAR_W = 6.6
"""A generous width of one character of the 11 px plot font, to size text before a browser does."""
PALETTE = ("#2f6fdb", "#d9622b", "#2a9d6b", "#9b4dca", "#c9a227", "#d43f5e", "#3aa6b9")


def _ticks(top: float, count: int = 5) -> list[float]:
    """Round tick values from 0 to at least ``top``."""
    if top <= 0:
        return [0.0, 1.0]
    raw = top / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    return [i * step for i in range(math.ceil(top / step - 1e-9) + 1)]


class Frame(NamedTuple):
    """A plot's horizontal layout: the left margin for row labels and the whole width."""

    left: float
    width: float

    @property
    def right(self) -> float:
        """Where the plotting area ends."""
        return self.width - RIGHT

    @property
    def label_chars(self) -> int:
        """The most characters of a row label that fit in the margin."""
        return max(int((self.left - 12) / CHAR_W), 8)


def _frame(labels: Sequence[str]) -> Frame:
    """A margin wide enough for the longest row label (up to ``LEFT_MAX``)."""
    longest = max((len(label) for label in labels), default=0)
    left = min(max(float(LEFT), 12 + longest * CHAR_W), float(LEFT_MAX))
    return Frame(left, left + SPAN + RIGHT)


def _svg(name: str, title: str, frame: Frame, height: float, body: list[str]) -> str:
    # width/height give the natural size; the page's CSS scales it down to fit (max-width).
    width = f"{frame.width:.0f}"
    return (
        f'<svg class="plot" data-plot="{name}" role="img" aria-label="{escape(title)}" '
        f'viewBox="0 0 {width} {height:.0f}" width="{width}" height="{height:.0f}" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>'
        + "".join(body)
        + "</svg>"
    )


def _text(x: float, y: float, text: str, anchor: str = "start", cls: str = "") -> str:
    klass = f' class="{cls}"' if cls else ""
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}"{klass}>{escape(text)}</text>'


def _label(frame: Frame, y: float, name: str) -> str:
    """A row label right-aligned in the margin, cut with … when too long (whole in its title)."""
    room = frame.label_chars
    if len(name) <= room:
        return _text(frame.left - 8, y, name, "end")
    shown = escape(name[: room - 1] + "…")
    return (
        f'<text x="{frame.left - 8:.1f}" y="{y:.1f}" text-anchor="end">'
        f"<title>{escape(name)}</title>{shown}</text>"
    )


def _lines(frame: Frame, text: str) -> list[str]:
    """``text`` wrapped to the plot's width."""
    return textwrap.wrap(text, max(int((frame.width - 16) / CHAR_W), 20)) or [""]


def _x_axis(
    frame: Frame, y: float, ticks: Sequence[float], scale: float, label: str, fmt: str
) -> list[str]:
    left = frame.left
    out = [f'<line class="axis" x1="{left:.1f}" y1="{y}" x2="{frame.right:.1f}" y2="{y}"/>']
    for t in ticks:
        x = left + t * scale
        out.append(f'<line class="grid" x1="{x:.1f}" y1="8" x2="{x:.1f}" y2="{y}"/>')
        out.append(_text(x, y + 14, fmt.format(t), "middle", "tick"))
    out.append(_text((left + frame.right) / 2, y + 30, label, "middle", "label"))
    return out


def success_by_arm(metrics: Sequence[MetricRow], target: float | None) -> str:
    """Horizontal bars of success per row, with the Wilson 95% interval as a whisker."""
    frame = _frame([row_name(m) for m in metrics])
    left, span = frame.left, SPAN
    height = 20 + ROW_H * max(len(metrics), 1) + 40
    axis_y = 12 + ROW_H * max(len(metrics), 1)
    body = _x_axis(
        frame, axis_y, [0, 25, 50, 75, 100], span / 100, "success (95% Wilson interval)", "{:.0f}%"
    )
    for i, m in enumerate(metrics):
        y = 12 + i * ROW_H
        name = row_name(m)
        body.append(_label(frame, y + 17, name))
        if m.success is None:
            body.append(_text(left + 4, y + 17, "no scored attempt", cls="na"))
            continue
        w = span * m.success
        color = PALETTE[i % len(PALETTE)]
        body.append(
            f'<rect class="bar" x="{left:.1f}" y="{y + 4}" width="{w:.1f}" height="{ROW_H - 10}" '
            f'fill="{color}"><title>{escape(name)}: {m.passes}/{m.attempts} passed'
            f"</title></rect>"
        )
        if m.success_low is not None and m.success_high is not None:
            x1, x2 = left + span * m.success_low, left + span * m.success_high
            cy = y + ROW_H / 2 - 1
            body.append(
                f'<path class="whisker" d="M{x1:.1f} {cy:.1f}H{x2:.1f}M{x1:.1f} {cy - 5:.1f}'
                f'V{cy + 5:.1f}M{x2:.1f} {cy - 5:.1f}V{cy + 5:.1f}"/>'
            )
    if target is not None:
        x = left + span * target
        body.append(
            f'<line class="target" x1="{x:.1f}" y1="6" x2="{x:.1f}" y2="{axis_y}">'
            f"<title>target {target * 100:.0f}%</title></line>"
        )
    return _svg("success-by-arm", "Success by arm", frame, height, body)


def cost_vs_success(metrics: Sequence[MetricRow], target: float | None) -> str:
    """Each row at (median $ per task, success).

    A row whose $ does not apply (an agent with no model that reports no usage) is
    never plotted at $0: it is listed as ``$ –``; a row whose $ is unknown as ``$ n/a``.
    """
    frame = _frame([])
    left, span = frame.left, SPAN
    top, bottom = 28, 240
    known = [
        m for m in metrics if m.planner and m.median_cost_usd is not None and m.success is not None
    ]
    highest = max([m.median_cost_usd or 0.0 for m in known] + [target or 0.0])
    ticks = _ticks(highest if highest > 0 else 0.01)
    scale = span / ticks[-1]
    body = _x_axis(frame, bottom, ticks, scale, "median $ per task", "${:g}")
    for pct in (0, 50, 100):
        y = bottom - (bottom - top) * pct / 100
        body.append(_text(left - 8, y + 4, f"{pct}%", "end", "tick"))
        body.append(
            f'<line class="grid" x1="{left:.1f}" y1="{y:.1f}" x2="{frame.right:.1f}" y2="{y:.1f}"/>'
        )
    body.append(_text(left - 40, (top + bottom) / 2, "success", "end", "label"))
    if target is not None:
        x = left + target * scale
        body.append(
            f'<line class="target" x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{bottom}">'
            f"<title>target {money(target)}</title></line>"
        )
    # Rows at the same point share one dot, so their labels do not print over each other.
    points: dict[tuple[str, str], list[tuple[int, MetricRow]]] = {}
    for i, m in enumerate(metrics):
        if m in known:
            px = left + (m.median_cost_usd or 0.0) * scale
            py = bottom - (bottom - top) * (m.success or 0.0)
            points.setdefault((f"{px:.1f}", f"{py:.1f}"), []).append((i, m))
    for (cx, cy), rows in points.items():
        names = ", ".join(row_name(m) for _, m in rows)
        first = rows[0][1]
        color = PALETTE[rows[0][0] % len(PALETTE)]
        body.append(
            f'<circle class="point" cx="{cx}" cy="{cy}" r="6" fill="{color}">'
            f"<title>{escape(names)}: {money(first.median_cost_usd)}, "
            f"{(first.success or 0) * 100:.1f}%</title></circle>"
        )
        # A label that would run past the right edge is set to the left of its dot.
        x = float(cx)
        fits = x + 9 + len(names) * CHAR_W <= frame.width
        body.append(
            _text(
                x + 9 if fits else x - 9,
                float(cy) - 8,
                names,
                "start" if fits else "end",
                "point-label",
            )
        )
    height = 300.0
    free = [row_name(m) for m in metrics if not m.planner]
    unknown = [row_name(m) for m in metrics if m.planner and m not in known]
    notes = [f"$ {NOT_APPLICABLE} (no model, no usage): " + ", ".join(free)] if free else []
    notes += ["$ n/a: " + ", ".join(unknown)] if unknown else []
    # Each note wraps instead of running past the plot's edge, and the plot grows to hold it.
    lines = [line for note in notes for line in _lines(frame, note)]
    for n, line in enumerate(lines):
        body.append(_text(8, height - 6 + n * 14, line, cls="na"))
    height += 14 * max(len(lines) - 1, 0)
    return _svg("cost-vs-success", "Cost against success", frame, height, body)


def time_distributions(records: Sequence[AttemptRecord]) -> str:
    """Per row: each scored attempt's time as a dot, with the quartile box and median."""
    groups = {key: scored(group) for key, group in by_row(records).items()}
    frame = _frame([key.text() for key in groups])
    left, span = frame.left, SPAN
    highest = max((r.seconds for g in groups.values() for r in g), default=1.0)
    ticks = _ticks(highest)
    scale = span / ticks[-1]
    axis_y = 12 + ROW_H * max(len(groups), 1)
    body = _x_axis(frame, axis_y, ticks, scale, "seconds per attempt", "{:g}")
    for i, (key, group) in enumerate(groups.items()):
        y = 12 + i * ROW_H
        cy = y + ROW_H / 2
        body.append(_label(frame, cy + 4, key.text()))
        times = sorted(r.seconds for r in group)
        if not times:
            continue
        if len(times) >= 2:
            q1, _, q3 = statistics.quantiles(times, n=4, method="inclusive")
            body.append(
                f'<rect class="box" x="{left + q1 * scale:.1f}" y="{cy - 8:.1f}" '
                f'width="{max((q3 - q1) * scale, 1):.1f}" height="16"/>'
            )
        med = statistics.median(times)
        body.append(
            f'<line class="median" x1="{left + med * scale:.1f}" y1="{cy - 10:.1f}" '
            f'x2="{left + med * scale:.1f}" y2="{cy + 10:.1f}"/>'
        )
        color = PALETTE[i % len(PALETTE)]
        for r in group:
            body.append(
                f'<circle class="dot" cx="{left + r.seconds * scale:.1f}" cy="{cy:.1f}" r="3.5" '
                f'fill="{color}"><title>{escape(r.id)}: {r.seconds:.2f} s ({r.result})'
                "</title></circle>"
            )
    height = axis_y + 40
    return _svg("time-distributions", "Time per attempt", frame, height, body)
