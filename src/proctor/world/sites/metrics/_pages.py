"""The dashboard, the weekly table (and its JSON), the shared report's layout."""

from __future__ import annotations

import datetime as dt
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from proctor.world._kit import (
    api_error,
    long_date,
    read_form,
    see_other,
    sessions_in,
)
from proctor.world._site import AttemptWorld
from proctor.world.sites.metrics._http import live_visitors, page, request_state, signed_out
from proctor.world.sites.metrics._state import (
    COOKIE,
    METRICS,
    REPORT_FILE,
    SECTIONS,
    SHARE,
    Week,
    change,
    layout_of,
    section_of,
    weeks,
)

RANGES = {"this-week": "This week so far", "last-week": "Last week", "last-4-weeks": "Last 4 weeks"}


def _cards(all_weeks: list[Week], choice: str) -> list[dict[str, str]]:
    if choice == "this-week":
        share = all_weeks[0].days / 7
        now = all_weeks[0].values
        before = {k: round(v * share) for k, v in all_weeks[1].values.items()}
        before["active"] = all_weeks[1].values["active"]
        against = "the same days last week"
    elif choice == "last-week":
        now, before, against = all_weeks[1].values, all_weeks[2].values, "the week before"
    else:
        now = {k: sum(w.values[k] for w in all_weeks[1:5]) for k in METRICS}
        before = {k: sum(w.values[k] for w in all_weeks[5:9]) for k in METRICS}
        now["active"] = all_weeks[1].values["active"]
        before["active"] = all_weeks[5].values["active"]
        against = "the 4 weeks before"
    shown = []
    for section in SECTIONS[1:]:
        value = now[section.key]
        text = f"${value:,}" if section.key == "revenue" else f"{value:,}"
        shown.append(
            {
                "title": section.title,
                "value": text,
                "change": change(value, before[section.key]),
                "against": against,
            }
        )
    return shown


async def dashboard(request: Request) -> Response:
    world, state = request_state(request)
    if (out := signed_out(request, state)) is not None:
        return out
    choice = request.query_params.get("range", "this-week")
    if choice not in RANGES:
        return page(
            "dashboard.html",
            400,
            errors=["Choose a range from the list."],
            ranges=RANGES,
            choice="this-week",
            cards=[],
            live=live_visitors(world, state),
            heading="",
        )
    all_weeks = weeks(world)
    heading = {
        "this-week": all_weeks[0].label,
        "last-week": f"Last week ({long_date(all_weeks[1].start)} to "
        f"{long_date(all_weeks[1].start + dt.timedelta(days=6))})",
        "last-4-weeks": f"Last 4 weeks (from {long_date(all_weeks[4].start)})",
    }[choice]
    return page(
        "dashboard.html",
        errors=[],
        ranges=RANGES,
        choice=choice,
        cards=_cards(all_weeks, choice),
        live=live_visitors(world, state),
        heading=heading,
    )


async def weekly(request: Request) -> Response:
    world, state = request_state(request)
    if (out := signed_out(request, state)) is not None:
        return out
    all_weeks = weeks(world)
    rows = []
    for i, week in enumerate(all_weeks):
        previous = all_weeks[i + 1] if i + 1 < len(all_weeks) else None
        wow = (
            change(week.values["signups"], previous.values["signups"])
            if previous and week.complete
            else ""
        )
        rows.append({"week": week, "wow": wow})
    return page("weekly.html", rows=rows, live=live_visitors(world, state))


async def api_weekly(request: Request) -> Response:
    world, state = request_state(request)
    if sessions_in(state).of(request, COOKIE) is None:
        return api_error(["not signed in"], 401)
    data = [
        {"week_start": w.start.isoformat(), "complete": w.complete, **w.values}
        for w in weeks(world)
    ]
    return JSONResponse({"weeks": data})


def _share_page(
    world: AttemptWorld,
    state: dict[str, Any],
    status: int = 200,
    *,
    errors: list[str],
    values: dict[str, str] | None = None,
    saved: bool = False,
) -> Response:
    layout = layout_of(state)
    if values is None:
        values = {f"pos_{k}": str(i) for i, k in enumerate(layout["sections"], start=1)}
        values.update(
            cover="on" if layout["cover"] else "", breaks="on" if layout["page_breaks"] else ""
        )
    order = [section_of(k).title for k in layout["sections"]]
    return page(
        "share.html",
        status,
        share=SHARE,
        sections=SECTIONS,
        values=values,
        order=order,
        layout=layout,
        errors=errors,
        saved=saved,
        live=live_visitors(world, state),
        file=REPORT_FILE,
    )


async def share(request: Request) -> Response:
    world, state = request_state(request)
    if request.path_params["token"] != SHARE:
        return page("missing.html", 404)
    return _share_page(world, state, errors=[], saved=request.query_params.get("saved") == "1")


async def save_layout(request: Request) -> Response:
    world, state = request_state(request)
    if request.path_params["token"] != SHARE:
        return page("missing.html", 404)
    state["touched"] = True
    form = await read_form(request, trim=True)
    chosen: dict[int, str] = {}
    errors = []
    for section in SECTIONS:
        raw = form.get(f"pos_{section.key}", "")
        if raw in ("", "out"):
            continue
        if not raw.isdigit() or not 1 <= int(raw) <= len(SECTIONS):
            errors.append(f"Choose a position for {section.title} from the list.")
            continue
        pos = int(raw)
        if pos in chosen:
            first = section_of(chosen[pos]).title
            errors.append(f"{first} and {section.title} can't both be at position {pos}.")
        else:
            chosen[pos] = section.key
    if not chosen and not errors:
        errors.append("Choose at least one section.")
    if errors:
        return _share_page(world, state, 422, errors=errors, values=form)
    state["layout"] = {
        "sections": [chosen[p] for p in sorted(chosen)],
        "cover": form.get("cover") == "on",
        "page_breaks": form.get("breaks") == "on",
    }
    return see_other(f"/share/{SHARE}?saved=1")
