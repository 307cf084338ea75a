"""The live tier's connectivity probe: before a live scenario runs, do its sites answer?

One ``HEAD /`` to each public site a live scenario names (``world.live.hosts``, over
https unless the scenario's own URLs for that host say http), all at once and bounded;
any HTTP answer counts, whatever its status. A scenario with a site that did not answer
(no route, no name, a refused connection, a certificate that does not verify, a
timeout) is skipped with the reason (``scenario_skip``), so an offline machine records
the live tier as skipped and exits 0. Each site is probed once per process.

Tests replace the probe with ``use_probe`` (a stand-in that never touches a network).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import httpx

from proctor.scenario import Scenario
from proctor.world import live_checks

PROBE_TIMEOUT = 5.0
"""Seconds the whole probe may take, every site at once."""
USER_AGENT = "proctor-live-probe/1 (is this site reachable?)"

Probe = Callable[[Sequence[str]], Mapping[str, str]]
"""Origins (``https://host``, ``http://host:port``) -> why each one that did not answer
did not; those that answered are left out."""


def probe_hosts(origins: Sequence[str], timeout: float = PROBE_TIMEOUT) -> dict[str, str]:
    """``HEAD origin/`` for each origin, all at once, within ``timeout`` in all.

    Each runs on a daemon thread: a name lookup that hangs (httpx's timeout does not
    cover it) is abandoned at the deadline and cannot keep the process alive.
    """
    failed: dict[str, str] = {}
    lock = threading.Lock()

    def reach(origin: str) -> None:
        try:
            with httpx.Client(timeout=timeout, headers={"user-agent": USER_AGENT}) as client:
                client.head(f"{origin}/")
        except httpx.HTTPError as exc:
            with lock:
                failed[origin] = f"{type(exc).__name__}: {exc}".rstrip(": ")

    threads = {
        origin: threading.Thread(target=reach, args=(origin,), daemon=True, name="live probe")
        for origin in dict.fromkeys(origins)
    }
    for thread in threads.values():
        thread.start()
    deadline = time.monotonic() + timeout
    for origin, thread in threads.items():
        thread.join(max(0.0, deadline - time.monotonic()))
        if thread.is_alive():
            with lock:
                failed.setdefault(origin, f"no answer within {timeout:g}s")
    with lock:
        return dict(failed)


@dataclass
class _Probed:
    probe: Probe = probe_hosts
    seen: dict[str, str | None] = field(default_factory=dict)
    """Origin -> why it did not answer, or None when it did."""


_STATE = _Probed()


def use_probe(probe: Probe | None) -> None:
    """Probe live sites with ``probe`` from now on (None: the real one), forgetting every
    site probed so far. For tests: a stand-in that says online or offline."""
    _STATE.probe = probe or probe_hosts
    _STATE.seen.clear()


def live_origins(scenario: Scenario) -> list[str]:
    """The origin probed for each of a live scenario's hosts: ``scheme://host``, with the
    scheme its own URLs use for that host (start page, ``live_read`` pages), else https."""
    live = scenario.world.live
    if live is None:
        return []
    urls = [scenario.world.browser.start or ""]
    urls += [args.url for args in live_checks(scenario.checks)]
    origins = []
    for host in live.hosts:
        schemes = [urlsplit(u).scheme for u in urls if u and _on(u, host)]
        origins.append(f"{schemes[0] if schemes else 'https'}://{host}")
    return origins


def _on(url: str, host: str) -> bool:
    """Whether ``url`` is on ``host`` (``host:port``: on that port)."""
    parts = urlsplit(url)
    name, _, port = host.partition(":")
    try:
        return (parts.hostname or "") == name and (not port or parts.port == int(port))
    except ValueError:  # a port out of range
        return False


def live_skip(scenario: Scenario) -> str | None:
    """Why a live scenario cannot run now (a site of it did not answer the probe), or None.

    The sites not probed yet in this process are probed together, first.
    """
    origins = live_origins(scenario)
    fresh = [origin for origin in origins if origin not in _STATE.seen]
    if fresh:
        failed = _STATE.probe(fresh)
        for origin in fresh:
            _STATE.seen[origin] = failed.get(origin)
    down = [(origin, why) for origin in origins if (why := _STATE.seen[origin]) is not None]
    if not down:
        return None
    origin, why = down[0]
    return (
        f"offline: the connectivity probe could not reach {origin} ({why}); the live tier "
        "needs the internet"
    )
