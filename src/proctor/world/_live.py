"""The live tier's independent read: the harness fetches a live page itself, over HTTP.

The agent's browser is never asked: each page a ``live_read`` check names is fetched
with httpx when the attempt ends, its values extracted (``_extract``), and the reads
kept as ``EndState.live``. A read that fails (the network, a timeout, a 5xx or 429
answer) raises ``LiveFault``, an infra fault: the try is retried, never scored.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass

import httpx
from pydantic import BaseModel

from proctor.errors import LiveFault
from proctor.records import LiveFetch, LiveReading
from proctor.scenario import AllCheck, AnyCheck, LiveRead, check_args, check_kind
from proctor.world._extract import extract

FETCH_TIMEOUT = 20.0
"""Seconds one read may take (connecting, and between two chunks of the answer)."""
MAX_BYTES = 5 * 2**20
"""At most this much of a body is read; the rest is left unread."""
USER_AGENT = "proctor-live-read/1 (the harness's independent read of a live page)"


@dataclass(frozen=True)
class Fetched:
    """A page as one HTTP read found it."""

    url: str
    """The URL that answered, after redirects."""
    status: int
    content_type: str
    text: str
    sha256: str
    """Of the body read."""


Fetcher = Callable[[str], Awaitable[Fetched]]
"""Reads one URL: ``fetch_page``, or a stand-in in tests.

Raises:
    LiveFault: the page could not be read at all.
"""
Clock = Callable[[], float]


def client() -> httpx.AsyncClient:
    """The client the harness reads live pages with: redirects followed, bounded waits."""
    return httpx.AsyncClient(
        follow_redirects=True, timeout=FETCH_TIMEOUT, headers={"user-agent": USER_AGENT}
    )


async def fetch_page(url: str, through: httpx.AsyncClient | None = None) -> Fetched:
    """``GET url`` (with ``through``, else a client of its own): at most ``MAX_BYTES`` of the
    body read.

    Raises:
        LiveFault: the network, a timeout or a protocol error stopped the read.
    """
    try:
        async with contextlib.AsyncExitStack() as stack:
            reader = through if through is not None else await stack.enter_async_context(client())
            response = await stack.enter_async_context(reader.stream("GET", url))
            chunks: list[bytes] = []
            size = 0
            async for chunk in response.aiter_bytes():
                chunks.append(chunk)
                size += len(chunk)
                if size >= MAX_BYTES:
                    break
            body = b"".join(chunks)[:MAX_BYTES]
            encoding = response.charset_encoding or "utf-8"
            status, final = response.status_code, str(response.url)
            content_type = response.headers.get("content-type", "")
    except httpx.HTTPError as exc:
        raise LiveFault(
            f"the live page {url} could not be read: {type(exc).__name__}: {exc}"
        ) from exc
    try:
        text = body.decode(encoding, errors="replace")
    except LookupError:  # a charset Python does not know
        text = body.decode("utf-8", errors="replace")
    return Fetched(final, status, content_type, text, hashlib.sha256(body).hexdigest())


def live_checks(checks: Sequence[BaseModel]) -> Iterator[LiveRead]:
    """The arguments of every ``live_read`` check, those inside ``all``/``any`` included."""
    for check in checks:
        if isinstance(check, AllCheck):
            yield from live_checks(check.all)
        elif isinstance(check, AnyCheck):
            yield from live_checks(check.any)
        elif check_kind(check) == "live_read":
            yield check_args(check)


async def read_live(
    checks: Sequence[BaseModel], fetch: Fetcher | None = None, clock: Clock = time.monotonic
) -> list[LiveReading]:
    """The independent read of every page the ``live_read`` checks name, once per read key;
    with no ``fetch``, through one client of their own (``fetch_page``).

    Raises:
        LiveFault: a read failed (an infra fault).
    """
    wanted = list(live_checks(checks))
    if not wanted:
        return []
    if fetch is None:
        async with client() as reader:
            return await read_live(checks, functools.partial(fetch_page, through=reader), clock)
    readings: dict[str, LiveReading] = {}
    for args in wanted:
        key = args.read_key()
        if key not in readings:
            readings[key] = await read_page(args, fetch, clock)
    return list(readings.values())


async def read_page(args: LiveRead, fetch: Fetcher, clock: Clock = time.monotonic) -> LiveReading:
    """Read ``args.url`` once, or, with ``args.stable``, until two reads in a row extract
    the same values (at most ``reads`` reads, none started after ``seconds``).

    Raises:
        LiveFault: a read failed, or answered 5xx or 429 (the site, not the agent).
    """
    fetches: list[LiveFetch] = [await _read_once(args, fetch)]
    stable = args.stable
    if stable is None:
        return LiveReading(key=args.read_key(), url=args.url, fetches=fetches, stable=True)
    deadline = clock() + stable.seconds
    settled = False
    while len(fetches) < stable.reads:
        left = deadline - clock()
        if left <= 0:
            break
        # Paced on purpose: a value caught mid-change gets time to settle before the next read.
        await asyncio.sleep(min(stable.interval, left))
        fetches.append(await _read_once(args, fetch))
        if fetches[-1].values == fetches[-2].values and fetches[-1].status == fetches[-2].status:
            settled = True
            break
    return LiveReading(key=args.read_key(), url=args.url, fetches=fetches, stable=settled)


async def _read_once(args: LiveRead, fetch: Fetcher) -> LiveFetch:
    page = await fetch(args.url)
    if page.status >= 500 or page.status == 429:
        raise LiveFault(
            f"the live page {args.url} answered {page.status}: the site, not the agent; "
            "the try is retried"
        )
    ok = 200 <= page.status < 300
    values = extract(args, page.text, page.content_type) if ok else []
    return LiveFetch(
        fetched_at=time.time(), status=page.status, url=page.url, sha256=page.sha256, values=values
    )
