"""What the apps' handlers share: reading posts, answering errors, addresses."""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterator, Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from proctor.scenario._apps import split_address
from proctor.world._render import render

MAX_TEXT = 20_000
"""Longest text field the apps accept."""


class BadJson(Exception):
    """The body of an API post is not a JSON object."""


async def form_fields(request: Request) -> dict[str, str]:
    """A form post's fields, first value of each, as text."""
    form = await request.form()
    return {key: value for key, value in form.multi_items() if isinstance(value, str)}


async def json_object(request: Request) -> dict[str, Any]:
    """An API post's JSON object.

    Raises:
        BadJson: the body is not JSON, or not an object.
    """
    try:
        body = json.loads(await request.body() or b"{}")
    except ValueError as exc:
        raise BadJson("the body must be a JSON object") from exc
    if not isinstance(body, dict):
        raise BadJson("the body must be a JSON object")
    return body


def text_of(value: Any) -> str:
    """A JSON or form value as text (lists joined by commas, null as empty)."""
    if value is None:
        return ""
    if isinstance(value, list):
        return ", ".join(text_of(v) for v in value)
    return value if isinstance(value, str) else json.dumps(value)


def see_other(url: str) -> Response:
    """The answer to a form post that worked: 303 to the page that shows the change."""
    return Response(status_code=303, headers={"location": url})


def api_error(messages: Sequence[str], status: int = 422) -> JSONResponse:
    return JSONResponse({"ok": False, "errors": list(messages)}, status_code=status)


def page_error(messages: Sequence[str], status: int, *, back: str, title: str = "") -> Response:
    default = "Not found" if status == 404 else "Please correct the request"
    return render(
        "_shared/error.html", status, title=title or default, messages=list(messages), back=back
    )


def addresses(text: str) -> tuple[list[str], list[str]]:
    """Lowercase addresses in a comma- or semicolon-separated list, and the parts that are not."""
    good: list[str] = []
    bad: list[str] = []
    for part in re.split(r"[,;\n]", text):
        if not part.strip():
            continue
        parsed = split_address(part)
        if parsed is None:
            bad.append(part.strip())
        elif parsed[1] not in good:
            good.append(parsed[1])
    return good, bad


def fresh_ids(prefix: str, taken: Collection[str]) -> Iterator[str]:
    """``m1``, ``m2``... skipping ids a seed already names."""
    n = 0
    while True:
        n += 1
        if f"{prefix}{n}" not in taken:
            yield f"{prefix}{n}"
