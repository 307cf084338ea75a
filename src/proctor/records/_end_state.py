"""The end state: everything the checks may read, stored so that a run can be regraded."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import Field

from proctor.records._desktop import DesktopState
from proctor.records._live import LiveReading
from proctor.records._record import Record
from proctor.records._snapshot import Snapshot, read_snapshot
from proctor.records._step import Step
from proctor.records._user import UserFacts
from proctor.records._web import Tab, WebRequest
from proctor.vocab import (
    StopReason,
)


class FileFact(Record):
    """One file under the attempt's scratch folder at the end of the attempt.

    Documents are read when the end state is captured, so that their checks
    grade (and regrade) without the disk.
    """

    sha256: str
    size: int
    text: str | None = Field(default=None, description="Content when small and UTF-8.")
    pages: list[str] | None = Field(
        default=None, description="A PDF's text, one string per page (pypdf's extraction)."
    )
    rows: list[list[str]] | None = Field(
        default=None, description="A .csv/.tsv file's rows (header included), blank lines left out."
    )
    headings: list[str] | None = Field(
        default=None, description="An .html/.htm/.rtf file's headings, in document order."
    )
    list_items: list[str] | None = Field(
        default=None, description="An .html/.htm/.rtf file's list items, in document order."
    )


class Moment(Record):
    """The world right after a timeline event, for ``after_event`` checks.

    Requests and steps are counts: the first N of the end state's lists.
    """

    requests: int
    steps: int
    files: dict[str, FileFact] = Field(default_factory=dict)
    dirs: list[str] = Field(default_factory=list)
    apps: dict[str, Any] = Field(default_factory=dict)
    user: UserFacts = Field(default_factory=UserFacts)


_S = TypeVar("_S", bound=Snapshot)


class EndState(Record):
    """Everything the checks may read. Stored so that a run can be regraded."""

    requests: list[WebRequest] = Field(default_factory=list)
    url: str = ""
    title: str = ""
    page_text: str = Field(default="", description="Visible text of the observed page.")
    tabs: list[Tab] = Field(default_factory=list)
    answer: str | None = None
    stop_reason: StopReason | None = Field(
        default=None, description="How the run ended; None when nothing ran."
    )
    steps: list[Step] = Field(default_factory=list)
    files: dict[str, FileFact] = Field(
        default_factory=dict, description="Scratch files by path relative to the scratch folder."
    )
    originals: dict[str, str] = Field(
        default_factory=dict, description="SHA-256 of each seeded file at set-up."
    )
    dirs: list[str] = Field(
        default_factory=list, description="Every folder under the scratch folder, relative."
    )
    user: UserFacts = Field(
        default_factory=UserFacts, description="Questions, approvals and messages of the user."
    )
    apps: dict[str, Any] = Field(default_factory=dict, description="Fake apps' state.")
    desktop: DesktopState | None = Field(
        default=None, description="The desktop's apps at the end (desktop scenarios only)."
    )
    lease: dict[str, Any] = Field(
        default_factory=dict,
        description="The control lease: revoked_at, revoked_by, reason and the refusal receipts.",
    )
    placeholders: dict[str, str] = Field(
        default_factory=dict,
        description="Placeholder values the checks were resolved with, so regrade can reuse them.",
    )
    moments: dict[str, Moment] = Field(
        default_factory=dict,
        description="The world right after each timeline event that fired, by event name.",
    )
    live: list[LiveReading] = Field(
        default_factory=list,
        description="The harness's own reads of the live pages the live_read checks name "
        "(live scenarios only), so regrade compares again without fetching.",
    )

    def at_moment(self, name: str) -> EndState | None:
        """The end state as it was right after timeline event ``name``; None if it never fired."""
        moment = self.moments.get(name)
        if moment is None:
            return None
        return self.model_copy(
            update={
                "requests": self.requests[: moment.requests],
                "steps": self.steps[: moment.steps],
                "files": moment.files,
                "dirs": moment.dirs,
                "apps": moment.apps,
                "user": moment.user,
                "moments": {},
                "url": "",
                "title": "",
                "page_text": "",
                "tabs": [],
                "answer": None,
            }
        )

    def app(self, model: type[_S]) -> _S | None:
        """The snapshot of ``model.site`` (e.g. ``end.app(MailSnapshot)``), validated.

        None when the site has no snapshot (neither seeded nor touched).

        Raises:
            GradingError: the snapshot does not have the model's shape (names site and field).
        """
        return read_snapshot(self.apps, model)
