"""Runs are reproducible: the same seed and run clock give the same world.

For every shipped scenario, two attempts (same seed, same clock, different
attempt ids and scratch folders) on one server show the same start page and
snapshot the same end state; a different seed changes a seeded world.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urljoin, urlsplit

import httpx
import pytest

from proctor.scenario import LoadedScenario, Scenario, load_catalog, resolve
from proctor.world import ATTEMPT_HEADER, DOMAIN, AttemptWorld, FixtureServer, all_sites

CLOCK = dt.datetime(2025, 3, 4, 10, 0, tzinfo=dt.UTC)
"""One run clock for every attempt here (Tuesday 4 March 2025, 10:00 UTC)."""
SITES = all_sites()
CATALOG: dict[str, LoadedScenario] = load_catalog(sites=set(SITES)).scenarios
MAX_HOPS = 5
"""Same-site redirects followed from the start page (sign-in bounces, short links)."""


class Visit(NamedTuple):
    """What one request answered: enough to tell two worlds apart."""

    url: str
    status: int
    location: str | None
    cookies: list[str]
    body: str


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer(SITES.values()) as srv:
        yield srv


@pytest.fixture(scope="module")
async def client(server: FixtureServer) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as c:
        yield c


def _resolved(loaded: LoadedScenario, server: FixtureServer, scratch: Path) -> Scenario:
    """The scenario with its placeholders filled in as the runner fills them."""
    values = {"scratch": str(scratch), "base_url": server.base_url, "home": str(scratch / "home")}
    values.update({f"site.{name}": f"http://{name}.{DOMAIN}" for name in server.sites})
    resolved: Scenario = resolve(loaded.scenario, values)
    return resolved


def _fixture_site(url: str | None) -> str | None:
    """The fixture site a URL is served by, or None."""
    host = urlsplit(url or "").hostname or ""
    label = host.removesuffix(f".{DOMAIN}")
    return label if host.endswith(f".{DOMAIN}") and label in SITES else None


async def _open(client: httpx.AsyncClient, attempt: str, url: str) -> list[Visit]:
    """GET ``url`` for an attempt, following redirects that stay on fixture sites."""
    visits: list[Visit] = []
    for _ in range(MAX_HOPS + 1):
        parts = urlsplit(url)
        path = parts.path or "/"
        headers = {"host": parts.netloc, ATTEMPT_HEADER: attempt}
        answer = await client.get(
            path + (f"?{parts.query}" if parts.query else ""), headers=headers
        )
        location = answer.headers.get("location")
        cookies = answer.headers.get_list("set-cookie")
        visits.append(Visit(url, answer.status_code, location, cookies, answer.text))
        if location is None or _fixture_site(urljoin(url, location)) is None:
            break
        url = urljoin(url, location)
    return visits


async def _start(
    server: FixtureServer,
    client: httpx.AsyncClient,
    loaded: LoadedScenario,
    attempt: str,
    scratch: Path,
    seed: int | None = None,
) -> tuple[list[Visit], object]:
    """Begin an attempt of a scenario, open its start page; (the visits, the snapshot)."""
    scenario = _resolved(loaded, server, scratch)
    world = AttemptWorld(
        attempt=attempt,
        seed=scenario.world.seed if seed is None else seed,
        clock=CLOCK,
        scratch=scratch,
        seeds=scenario.world.site_seeds(),
    )
    server.begin(world, scenario.world.sites)
    try:
        visits = await _open(client, attempt, scenario.world.browser.start or "")
        return visits, server.snapshot(world)
    finally:
        server.end(attempt)


@pytest.mark.parametrize(
    "sid",
    sorted(
        sid
        for sid, loaded in CATALOG.items()
        if loaded.scenario.world.desktop is None and loaded.scenario.world.miniwob is None
    ),
)  # a desktop scenario's world is its apps (tests/computer/desktop); a MiniWoB page is the
# package's, its problem checked by the utterance at every set-up (tests/world/test_miniwob_*)
async def test_same_seed_and_clock_give_the_same_world(
    sid: str, server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    loaded = CATALOG[sid]
    start = loaded.scenario.world.browser.start
    resolved = _resolved(loaded, server, tmp_path).world.browser.start
    if _fixture_site(resolved) is None:
        pytest.skip(f"{sid}: start page {start!r} is not on a fixture site")
    first = await _start(server, client, loaded, f"repro-{sid}-a", tmp_path / "a")
    second = await _start(server, client, loaded, f"repro-{sid}-b", tmp_path / "b")
    (visits_a, snapshot_a), (visits_b, snapshot_b) = first, second
    landed = visits_a[-1]
    assert landed.status < 400, f"{sid}: start page {landed.url} answered {landed.status}"
    assert [v._replace(body="") for v in visits_a] == [v._replace(body="") for v in visits_b]
    for a, b in zip(visits_a, visits_b, strict=True):
        assert a.body == b.body, f"{sid}: {a.url} differs between two attempts"
    assert snapshot_a == snapshot_b


async def test_a_different_seed_changes_a_seeded_world(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    # invoices-overdue seeds mail noise: each inbox visit's promotion comes from the seed.
    loaded = CATALOG["invoices-overdue"]
    assert loaded.scenario.world.apps.mail is not None and loaded.scenario.world.apps.mail.noise
    seed = loaded.scenario.world.seed
    same = await _start(server, client, loaded, "seed-same", tmp_path / "s", seed=seed)
    again = await _start(server, client, loaded, "seed-again", tmp_path / "a", seed=seed)
    other = await _start(server, client, loaded, "seed-other", tmp_path / "o", seed=seed + 1)
    assert same == again
    (visits, snapshot), (other_visits, other_snapshot) = same, other
    assert [v.status for v in visits] == [v.status for v in other_visits] == [200]
    assert visits[0].body != other_visits[0].body
    assert snapshot != other_snapshot
