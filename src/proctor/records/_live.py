"""The live tier's part of the end state: the harness's own reads of public pages.

Kept in ``EndState.live`` so that ``proctor regrade`` compares again without fetching.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid")


class LiveFetch(_Part):
    """One HTTP read of a live page by the harness (never through the agent's browser)."""

    fetched_at: float = Field(description="Unix time the answer was read.")
    status: int = Field(description="The HTTP status of the answer.")
    url: str = Field(description="The URL that answered, after redirects.")
    sha256: str = Field(description="SHA-256 of the body read (at most 5 MiB of it).")
    values: list[str] = Field(description="The values extracted from it, in page order.")


class LiveReading(_Part):
    """The independent read of one page for the ``live_read`` checks that share its key."""

    key: str = Field(
        description="The checks' read key: the page and the extraction (``LiveRead.read_key``)."
    )
    url: str = Field(description="The page read.")
    fetches: list[LiveFetch] = Field(description="Every read, in order (one unless stable).")
    stable: bool = Field(
        description="Whether the last two reads agreed; true when one read was asked."
    )

    @property
    def values(self) -> list[str]:
        """The values graded: the last read's."""
        return self.fetches[-1].values if self.fetches else []

    @property
    def status(self) -> int | None:
        """The last read's HTTP status."""
        return self.fetches[-1].status if self.fetches else None
