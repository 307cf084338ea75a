"""What the account-style sites (bank, booking, metrics, subscription, twosign) share.

Cookie sessions kept in the attempt's site state, posted fields, redirects,
per-visit noise that is still reproducible from the seed, local dates on the
run clock, and deterministic PDFs (reportlab with ``invariant=True``: the same
content gives the same bytes, so a download's hash is stable).
"""

from __future__ import annotations

import datetime as dt
import io
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas
from starlette.requests import Request
from starlette.responses import Response

from proctor.world._site import AttemptWorld
from proctor.world.apps._time import run_now


async def posted(request: Request) -> dict[str, str]:
    """A form post's fields (first value of each), trimmed."""
    form = await request.form()
    return {key: value.strip() for key, value in form.multi_items() if isinstance(value, str)}


def see_other(url: str, cookies: Mapping[str, str | None] | None = None) -> Response:
    """303 to ``url``; a cookie set to None is cleared."""
    response = Response(status_code=303, headers={"location": url})
    for name, value in (cookies or {}).items():
        if value is None:
            response.delete_cookie(name, path="/")
        else:
            response.set_cookie(name, value, path="/", httponly=True, samesite="lax")
    return response


def new_token(world: AttemptWorld, state: dict[str, Any], what: str) -> str:
    """A token (session, ticket) unique in this attempt and reproducible from the seed."""
    count = state["tokens"] = state.get("tokens", 0) + 1
    return f"{world.rng(f'{what}:{count}').getrandbits(64):016x}"


def session(request: Request, state: dict[str, Any], cookie: str) -> dict[str, Any] | None:
    """The signed-in session the request's cookie names, if any."""
    token = request.cookies.get(cookie, "")
    found = state.get("sessions", {}).get(token)
    return found if isinstance(found, dict) else None


def start_session(world: AttemptWorld, state: dict[str, Any], site: str, **data: Any) -> str:
    """Record a new signed-in session; returns its cookie value."""
    token = new_token(world, state, f"{site}:session")
    state.setdefault("sessions", {})[token] = dict(data)
    return token


def noise(world: AttemptWorld, state: dict[str, Any], site: str) -> random.Random:
    """A generator that differs on every visit, yet the n-th visit of a seed is always the same."""
    state["visits"] = state.get("visits", 0) + 1
    return world.rng(f"{site}:noise:{state['visits']}")


def today(world: AttemptWorld, tz: str) -> dt.date:
    """The run clock's date in ``tz``."""
    return run_now(world).astimezone(ZoneInfo(tz)).date()


def long_date(day: dt.date) -> str:
    """``7 March 2025``: no weekday, so text never names one."""
    return f"{day.day} {day:%B %Y}"


def short_date(day: dt.date) -> str:
    """``7 Mar 2025``."""
    return f"{day.day} {day:%b %Y}"


def money(cents: int, symbol: str) -> str:
    """``£1,234.56``, and ``-£12.00`` for a negative amount."""
    sign = "-" if cents < 0 else ""
    return f"{sign}{symbol}{abs(cents) // 100:,}.{abs(cents) % 100:02d}"


@dataclass(frozen=True)
class Line:
    """One line of a PDF page: text at column ``x`` (points), or cells at given columns."""

    text: str = ""
    size: float = 10
    bold: bool = False
    x: float = 56
    cells: Sequence[tuple[float, str]] = ()
    gap: float = 0
    """Extra space before the line, in points."""


def pdf(pages: Sequence[Sequence[Line]], title: str = "") -> bytes:
    """A real A4 PDF, one list of lines per page; the same pages give the same bytes.

    Text must be Windows-1252 (the standard fonts' encoding).
    """
    buffer = io.BytesIO()
    doc = canvas.Canvas(buffer, pagesize=A4, invariant=True)
    if title:
        doc.setTitle(title)
    height = A4[1]
    for lines in pages:
        y = height - 64
        for line in lines:
            y -= line.gap
            doc.setFont("Helvetica-Bold" if line.bold else "Helvetica", line.size)
            if line.cells:
                for x, text in line.cells:
                    doc.drawString(x, y, text)
            elif line.text:
                doc.drawString(line.x, y, line.text)
            y -= line.size * 1.45
        doc.showPage()
    doc.save()
    return buffer.getvalue()


def pdf_response(data: bytes, filename: str) -> Response:
    """A PDF answered as a download named ``filename``."""
    return Response(
        data,
        media_type="application/pdf",
        headers={"content-disposition": f'attachment; filename="{filename}"'},
    )
