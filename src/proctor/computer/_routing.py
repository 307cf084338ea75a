"""One attempt's browser set-up and the seal's URL rules: options, schemes, off-world hosts.

Plain functions over ``BrowserOptions``: the context's routes (``_browser``) and
``navigate`` (``_handlers``) both ask them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from proctor.computer._errors import Refused
from proctor.computer._lease import Lease
from proctor.vocab import Refusal

BlockedHook = Callable[[str, str, Refusal], None]
"""Called with (method, url, kind) for every request or navigation the seal refused."""

WORLD_SCHEMES = ("http", "https")
OPTIONAL_SCHEMES = ("data", "blob")
"""Schemes a scenario may allow (``world.browser.allow_schemes``); refused otherwise."""
HARMLESS_PAGES = ("about:blank", "chrome-error://chromewebdata/")


@dataclass(frozen=True)
class BrowserOptions:
    """How one attempt's browser is set up."""

    attempt: str
    fixture_hosts: tuple[str, ...]
    """The hosts of the attempt's world: the fixture server's, or a live scenario's public
    hosts (``world.live.hosts``). Offline, every other http(s) host is refused."""
    attempt_header: str
    """The header that tags the attempt's requests; empty: none is sent (the live tier)."""
    scratch: Path
    deny_origins: tuple[str, ...] = ()
    viewport: tuple[int, int] = (1280, 800)
    offline: bool = True
    lease: Lease | None = None
    allow_schemes: tuple[str, ...] = ()
    """Of OPTIONAL_SCHEMES, those this attempt's pages may use (data:, blob:)."""
    private: tuple[Path, ...] = ()
    """Folders no agent may read (the results root, the scenario folders): an external
    agent's process runs with them hidden (``agents/_jail.py``)."""
    spend: Path | None = None
    """The run's spend ledger, for a model agent (``AttemptInfo.spend``); None outside a run."""


def origin(url: str) -> str:
    """The URL's scheme and host, lower case."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def scheme_of(url: str) -> str:
    """The URL's scheme, lower case ('' when it has none)."""
    head, sep, _ = url.partition(":")
    return head.strip().lower() if sep and re.fullmatch(r"[A-Za-z][A-Za-z0-9+.-]*", head) else ""


def offline_pattern(hosts: tuple[str, ...]) -> re.Pattern[str]:
    """A URL regex matching every http(s) request NOT for a fixture host."""
    alts = "|".join(re.escape(h) for h in hosts)
    return re.compile(rf"^(?!https?://(?:{alts})(?:[:/?#]|$))https?://", re.IGNORECASE)


def deny_pattern(origins: tuple[str, ...]) -> re.Pattern[str]:
    """A URL regex matching every request for one of ``origins``."""
    alts = "|".join(re.escape(o.rstrip("/")) for o in origins)
    return re.compile(rf"^(?:{alts})(?:[/?#]|$)", re.I)


def scheme_allowed(options: BrowserOptions, url: str) -> bool:
    """Whether a page may stay on ``url`` (a main frame elsewhere is blanked)."""
    if url in HARMLESS_PAGES:
        return True
    scheme = scheme_of(url)
    return scheme in WORLD_SCHEMES or scheme in options.allow_schemes


def denied(options: BrowserOptions, url: str) -> bool:
    """Whether the scenario denies ``url``'s origin."""
    at = origin(url)
    return any(at == o.rstrip("/").lower() for o in options.deny_origins)


def check_url(options: BrowserOptions, on_blocked: BlockedHook, url: str) -> None:
    """Refuse (and log) a URL outside the world before anything is loaded.

    Only http(s) URLs (of the world's hosts, when offline), ``about:blank``, and
    the optional schemes a scenario allows may be opened: never ``javascript:``
    (script run without a recorded input), ``file:`` (the disk, where the answer
    key lives), ``chrome:``, ``view-source:`` or any other.

    Raises:
        Refused: naming the scheme or the off-world origin.
    """
    scheme = scheme_of(url)
    if url.strip() == "about:blank" or scheme in options.allow_schemes:
        return
    if scheme not in WORLD_SCHEMES:
        on_blocked("GET", url, "scheme")
        shown = f"{scheme}:" if scheme else "a URL without a scheme"
        raise Refused(
            f"{shown} URLs are refused: navigate opens only the task's http(s) pages"
            + (
                " (javascript: would run script without a recorded input)"
                if scheme == "javascript"
                else ""
            )
        )
    if options.offline and offline_pattern(options.fixture_hosts).match(url):
        on_blocked("GET", url, "offworld")
        raise Refused(f"{origin(url)} is outside this task's world; refused")
