"""Check arguments of the live tier: the agent's answer against the harness's own read of
a public page."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from proctor.scenario._check_args import CheckArgs, Regex
from proctor.vocab import HeadingTag, LiveCompare, LiveSource


class StableRead(BaseModel):
    """Read the page again until two reads in a row extract the same values."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    reads: int = Field(default=4, ge=2, le=10, description="Reads at most.")
    seconds: float = Field(
        default=30, gt=0, le=300, description="The reads end by this many seconds."
    )
    interval: float = Field(
        default=1.0,
        ge=0,
        le=30,
        description="Seconds between two reads (a value mid-change gets time to settle).",
    )


class LiveRead(CheckArgs):
    """The agent's answer against an independent read of a public page (the live tier).

    When the attempt ends the harness fetches ``url`` itself over HTTP, never through
    the agent's browser, and extracts its values deterministically: the text of each
    of the ``headings`` in page order, or each match of ``pattern`` (its first group
    when it has one). The read is kept in the end state (``EndState.live``), so
    ``proctor regrade`` compares again without fetching. With ``stable``, the page is
    read again until two reads in a row agree. A read that fails (the network, a
    timeout, a 5xx or 429 answer) is an infra fault of kind ``live``: retried, never
    scored.
    """

    url: str = Field(description="The page read, http(s); its host is in world.live.hosts.")
    headings: list[HeadingTag] | None = Field(
        default=None,
        description="Extract the text of these heading tags, in page order (a trailing ¶ or "
        "§ anchor sign dropped), e.g. [h2].",
    )
    pattern: Regex | None = Field(
        default=None,
        description="Extract every match of this regex (its first group when it has one).",
    )
    source: LiveSource = Field(
        default="text", description="What pattern is searched in: text or body."
    )
    first: int | None = Field(
        default=None, ge=1, le=1000, description="Keep only the first N values."
    )
    stable: StableRead | None = Field(
        default=None, description="Read until two reads in a row agree (a changing value)."
    )
    answer: LiveCompare = Field(
        default="all",
        description="How the values are held against the answer: all, any, first or equals.",
    )

    @field_validator("url")
    @classmethod
    def _url(cls, url: str) -> str:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"url {url!r}: give an http(s) URL with a host")
        return url

    @model_validator(mode="after")
    def _one(self) -> LiveRead:
        if (self.headings is None) == (self.pattern is None):
            raise ValueError("give exactly one of headings or pattern")
        if self.headings is not None and not self.headings:
            raise ValueError("headings: name at least one tag, e.g. [h2]")
        return self

    def read_key(self) -> str:
        """What the read depends on (the page and the extraction, not the comparison):
        the end state's reading is found by it, so a regrade that changes how values are
        compared reuses the read, and one that changes the extraction does not."""
        keep = self.model_dump(
            include={"url", "headings", "pattern", "source", "first", "stable"}, mode="json"
        )
        return json.dumps(keep, sort_keys=True, separators=(",", ":"))
