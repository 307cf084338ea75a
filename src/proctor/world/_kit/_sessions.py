"""Cookie sessions and per-visit noise, kept in a site's per-attempt state."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response

from proctor.world._kit._http import see_other
from proctor.world._site import AttemptWorld


@dataclass
class Sessions:
    """A site's signed-in sessions, the tokens it has handed out and its visits."""

    tokens: int = 0
    active: dict[str, dict[str, Any]] = field(default_factory=dict)
    visits: int = 0

    def new_token(self, world: AttemptWorld, what: str) -> str:
        """A token (session, ticket) unique in this attempt and reproducible from the seed."""
        self.tokens += 1
        return f"{world.rng(f'{what}:{self.tokens}').getrandbits(64):016x}"

    def of(self, request: Request, cookie: str) -> dict[str, Any] | None:
        """The signed-in session the request's cookie names, if any."""
        return self.active.get(request.cookies.get(cookie, ""))

    def start(self, world: AttemptWorld, site: str, **data: Any) -> str:
        """Record a new signed-in session; returns its cookie value."""
        token = self.new_token(world, f"{site}:session")
        self.active[token] = dict(data)
        return token

    def end(self, request: Request, cookie: str) -> None:
        """Forget the session the request's cookie names (signing out)."""
        self.active.pop(request.cookies.get(cookie, ""), None)

    def noise(self, world: AttemptWorld, site: str) -> random.Random:
        """A generator that differs on every visit; the n-th visit of a seed is always the same."""
        self.visits += 1
        return world.rng(f"{site}:noise:{self.visits}")


def sessions_in(state: dict[str, Any]) -> Sessions:
    """The sessions kept in a site's dict state (made on first use)."""
    found = state.setdefault("sessions", Sessions())
    if not isinstance(found, Sessions):
        raise TypeError("site state key 'sessions' does not hold a Sessions")
    return found


def requires_session(
    request: Request,
    sessions: Sessions,
    cookie: str,
    *,
    login: str,
    keep: Literal["nothing", "path", "url"] = "nothing",
) -> Response | None:
    """The guard of a signed-in page: None when signed in, else a 303 to ``login``.

    Args:
        request: The request to guard.
        sessions: The site's sessions.
        cookie: The session cookie's name.
        login: The sign-in page.
        keep: What ``?next=`` carries back: nothing, the path, or the path and query.
    """
    if sessions.of(request, cookie) is not None:
        return None
    if keep == "nothing":
        return see_other(login)
    target = request.url.path
    if keep == "url" and request.url.query:
        target += f"?{request.url.query}"
    return see_other(f"{login}?next={quote(target)}")
