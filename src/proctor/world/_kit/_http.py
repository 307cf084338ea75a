"""Reading posts and answering them: forms, JSON bodies, redirects, error pages."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from proctor.world._render import render

MAX_TEXT = 20_000
"""Longest text field the apps accept."""


class BadJson(Exception):
    """The body of an API post is not a JSON object."""


async def read_form(request: Request, *, trim: bool) -> dict[str, str]:
    """A form post's fields, first value of each, as text.

    Args:
        request: The post.
        trim: Strip surrounding whitespace from each value (the account sites
            do; the apps keep what was typed, e.g. a message body's indent).
    """
    form = await request.form()
    return {
        key: value.strip() if trim else value
        for key, value in form.multi_items()
        if isinstance(value, str)
    }


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


def see_other(url: str, cookies: Mapping[str, str | None] | None = None) -> Response:
    """303 to ``url``, the answer to a post that worked; a cookie set to None is cleared."""
    response = Response(status_code=303, headers={"location": url})
    for name, value in (cookies or {}).items():
        if value is None:
            response.delete_cookie(name, path="/")
        else:
            response.set_cookie(name, value, path="/", httponly=True, samesite="lax")
    return response


def api_error(messages: Sequence[str], status: int = 422) -> JSONResponse:
    return JSONResponse({"ok": False, "errors": list(messages)}, status_code=status)


def page_error(messages: Sequence[str], status: int, *, back: str, title: str = "") -> Response:
    default = "Not found" if status == 404 else "Please correct the request"
    return render(
        "_shared/error.html", status, title=title or default, messages=list(messages), back=back
    )
