"""The live tier's world: the public hosts a live scenario's browser may reach.

A live scenario (``tier: live``) runs against public sites, not the fixture
world. ``world.live.hosts`` is the whole of what its browser may open (every
other host is refused and logged, as off-world pages are in the other tiers),
and what the connectivity probe tries before a run.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator

HOST_RULE = re.compile(
    r"^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*(?::[0-9]{1,5})?$"
)
"""``host`` or ``host:port``, lower case: ``docs.python.org``, ``127.0.0.1:8123``."""

FIXTURE_SUFFIX = ".proctor.test"


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class LiveWorld(_Spec):
    """The public hosts of a live scenario: its browser opens these and no others."""

    hosts: list[str] = Field(
        min_length=1,
        description="Hosts the browser may reach, as host or host:port, e.g. docs.python.org. "
        "A page's requests to any other host are refused and logged (refused: offworld).",
    )

    @field_validator("hosts")
    @classmethod
    def _hosts(cls, hosts: list[str]) -> list[str]:
        for host in hosts:
            if not HOST_RULE.fullmatch(host):
                raise ValueError(
                    f"host {host!r} is not a host name: write host or host:port in lower case, "
                    "without a scheme or a path (e.g. docs.python.org)"
                )
            if host.split(":", 1)[0].endswith(FIXTURE_SUFFIX):
                raise ValueError(
                    f"host {host!r} is a fixture site's: a live scenario reaches public hosts only"
                )
        if len(set(hosts)) != len(hosts):
            raise ValueError("list each host once")
        return hosts

    def allows(self, url: str) -> bool:
        """Whether ``url``'s host is one of the hosts (``host:port`` ones: on that port)."""
        parts = urlsplit(url)
        name = (parts.hostname or "").lower()
        try:
            port = parts.port
        except ValueError:
            return False
        for host in self.hosts:
            allowed, _, fixed = host.partition(":")
            if name == allowed and (not fixed or port == int(fixed)):
                return True
        return False
