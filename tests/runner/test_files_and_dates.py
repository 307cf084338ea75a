"""Files after a download and dates on the run clock, through real attempts (server + Chromium).

One worker with a fixed run clock, 2025-06-10 23:30 UTC: already 11 June in London
(BST) and 11 June 13:30 in Kiritimati (UTC+14), so a date taken in UTC would read
differently from one taken in the user's zone.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from proctor.agents import Agent
from proctor.records import AttemptRecord, CheckResult
from proctor.report._regrade import regrade_record
from proctor.runner import PlanItem, RunOptions, Worker, parse_arm, run_attempt
from proctor.scenario import LoadedScenario, Scenario, dump_scenario, load_scenario
from proctor.world import all_sites

pytestmark = pytest.mark.browser

CLOCK = dt.datetime(2025, 6, 10, 23, 30, tzinfo=dt.UTC)
TITLE = "Lease {date:+3d:%A %-d %B} {date:+2h:%H:%M}"
LEASE = ["Lease agreement\nSigned {date:-1d:%-d %B %Y}", "Tenant: Dana Whitfield\nSignature"]


@pytest.fixture(scope="module")
async def clocked(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Worker]:
    run_dir = tmp_path_factory.mktemp("results") / "run"
    options = RunOptions(screenshots=False, retry_delays=(0.0,))
    async with Worker(run_dir, options, clock=CLOCK) as w:
        yield w


def lab_scenario(folder: Path) -> LoadedScenario:
    """Two messages with a lease.pdf each; the oracle downloads the signed one twice and
    uploads the second copy with a dated title."""
    data: dict[str, Any] = {
        "id": "files-lab",
        "title": "Download a lease twice, upload the copy",
        "tier": "local",
        "category": "regression",
        "brief": "File the lease by {date:+1w:%A %-d %B} ({date}).",
        "user": {"tz": "Pacific/Kiritimati"},
        "world": {
            "sites": ["mail", "files"],
            "apps": {
                "mail": {
                    "tz": "Europe/London",
                    "messages": [
                        {
                            "id": "lease-draft",
                            "from": "Agent <agent@lettings.example.test>",
                            "subject": "Lease draft",
                            "at": {"days": -3, "at": "10:00"},
                            "attachments": [{"name": "lease.pdf", "pdf": ["Lease DRAFT", "x"]}],
                        },
                        {
                            "id": "lease-signed",
                            "from": "Agent <agent@lettings.example.test>",
                            "subject": "Signed lease",
                            "at": {"days": -1, "at": "16:00"},
                            "attachments": [{"name": "lease.pdf", "pdf": LEASE}],
                        },
                    ],
                }
            },
            "files": [{"path": "drafts/lease.pdf", "text": "an unsigned draft"}],
            "browser": {"start": "{site.mail}/message/lease-signed"},
        },
        "checks": [
            {
                "file_sha256": {
                    "name": "by-id",
                    "path": "output/lease.pdf",
                    "sha256_from": "mail.messages[id=lease-signed].attachments[name=lease.pdf]"
                    ".sha256",
                }
            },
            {
                "file_sha256": {
                    "name": "no-such-id",
                    "path": "output/lease.pdf",
                    "sha256_from": "mail.messages[id=lease-signd].attachments[0].sha256",
                }
            },
            {
                "file_sha256": {
                    "name": "the-draft-by-index",
                    "path": "output/lease.pdf",
                    "sha256_from": "mail.messages[0].attachments[0].sha256",
                }
            },
            {
                "site_state": {
                    "name": "signed-attachments",
                    "site": "mail",
                    "items": "messages[id=lease-signed].attachments",
                    "where": {"name": "lease.pdf"},
                    "count": 1,
                }
            },
            {
                "pdf": {
                    "name": "page-one-clean",
                    "path": "output/lease.pdf",
                    "on_pages": "first",
                    "text_order": ["Lease agreement", "Signed {date:-1d:%-d %B %Y}"],
                    "not_contains": "Signature",
                }
            },
            {
                "pdf": {
                    "name": "signature-on-last",
                    "path": "output/lease.pdf",
                    "on_pages": "last",
                    "not_contains": ["Tenant: Dana", "Signature"],
                }
            },
            {
                "pdf": {
                    "name": "past-the-end",
                    "path": "output/lease.pdf",
                    "on_pages": "2-3",
                    "text_order": ["Tenant"],
                }
            },
            {
                "pdf": {
                    "name": "whole",
                    "path": "output/lease.pdf",
                    "pages": 2,
                    "not_contains": "DRAFT",
                }
            },
            {
                "submitted": {
                    "name": "upload-is-the-second-download",
                    "route": "receipt",
                    "fields": {"title": TITLE},
                    "files": {"receipt": "output/lease (1).pdf"},
                    "count": 1,
                }
            },
            {
                "submitted": {
                    "name": "upload-is-the-draft",
                    "route": "receipt",
                    "files": {"receipt": "drafts/lease.pdf"},
                }
            },
        ],
        "solution": [
            {"op": "click", "role": "link", "name": "lease.pdf"},
            {"op": "click", "role": "link", "name": "lease.pdf"},
            {"op": "navigate", "url": "{site.files}/expenses/new"},
            {"op": "fill", "role": "textbox", "name": "Expense title", "value": TITLE},
            {"op": "upload", "selector": "#receipt", "files": ["{scratch}/output/lease (1).pdf"]},
            {"op": "click", "role": "button", "name": "Submit expense"},
            {"op": "done"},
        ],
        "decoys": [{"name": "nothing", "steps": [{"op": "done"}], "fails": ["by-id"]}],
    }
    path = folder / "files-lab.yaml"
    path.write_text(dump_scenario(data), encoding="utf-8")
    return load_scenario(path, sites=set(all_sites()))


@dataclasses.dataclass
class Lab:
    record: AttemptRecord
    brief: str
    loaded: LoadedScenario

    def check(self, name: str) -> CheckResult:
        (found,) = [c for c in self.record.checks if c.name == name]
        return found


@pytest.fixture(scope="module")
async def lab(clocked: Worker, tmp_path_factory: pytest.TempPathFactory) -> Lab:
    loaded = lab_scenario(tmp_path_factory.mktemp("lab"))
    oracle = parse_arm("oracle=scripted")
    briefs: list[str] = []

    def build(scenario: Scenario) -> Agent:
        briefs.append(scenario.brief)  # what the agent is given: placeholders resolved
        return oracle.factory(scenario)

    arm = dataclasses.replace(oracle, factory=build)
    record = await run_attempt(clocked, PlanItem(loaded, arm, 1), write=False)
    assert [s.status for s in record.steps] == ["ok"] * 7, [s.error for s in record.steps]
    return Lab(record, briefs[0], loaded)


async def test_a_second_download_of_a_name_keeps_both(lab: Lab) -> None:
    first, second = lab.record.steps[0], lab.record.steps[1]
    assert first.facts["downloads"] == ["output/lease.pdf"]
    assert "downloads_renamed" not in first.facts
    assert second.facts["downloads"] == ["output/lease (1).pdf"]
    assert second.facts["downloads_renamed"] == {"output/lease (1).pdf": "lease.pdf"}
    assert second.output.endswith("; downloaded output/lease (1).pdf (lease.pdf was taken)")
    files = lab.record.end_state.files
    assert files["output/lease.pdf"].sha256 == files["output/lease (1).pdf"].sha256
    assert [p for p in files if p.startswith("output/")] == [
        "output/lease (1).pdf",
        "output/lease.pdf",
    ]


async def test_an_upload_is_compared_with_a_downloaded_file_by_hash(lab: Lab) -> None:
    (post,) = [r for r in lab.record.end_state.requests if r.path == "/submit/receipt"]
    downloaded = lab.record.end_state.files["output/lease (1).pdf"].sha256
    assert [f["sha256"] for f in post.files["receipt"]] == [downloaded]
    good = lab.check("upload-is-the-second-download")
    assert (good.passed, good.actual["matching"]) == (True, 1)
    draft = lab.check("upload-is-the-draft")
    assert not draft.passed
    draft_sha = lab.record.end_state.originals["drafts/lease.pdf"]
    assert draft.detail == (
        f"non-matching posts: #{post.seq}: receipt carried output/lease (1).pdf = "
        f"output/lease.pdf, not drafts/lease.pdf (sha256 {draft_sha})"
    )


async def test_snapshot_paths_pick_list_items_by_id_and_name_miss_with_the_ids(lab: Lab) -> None:
    by_id = lab.check("by-id")
    assert by_id.passed, by_id.detail
    assert by_id.expected == lab.record.end_state.files["output/lease.pdf"].sha256
    draft = lab.check("the-draft-by-index")  # messages[0] is the draft: another lease.pdf
    assert not draft.passed
    assert draft.expected != by_id.expected
    missing = lab.check("no-such-id")
    assert (missing.passed, missing.actual) == (False, None)
    assert missing.detail == (
        "mail.messages[id=lease-signd].attachments[0].sha256 selects nothing: no item of "
        "mail.messages has id 'lease-signd'; ids present: lease-draft, lease-signed"
    )
    counted = lab.check("signed-attachments")
    assert (counted.passed, counted.actual) == (True, 1)


async def test_pdf_checks_read_a_page_range_and_text_that_must_be_absent(lab: Lab) -> None:
    clean = lab.check("page-one-clean")
    assert clean.passed, clean.detail
    assert clean.actual == {"pages": 2, "found_at": [0, 16], "read_pages": [1]}
    last = lab.check("signature-on-last")
    assert (last.passed, last.actual["read_pages"]) == (False, [2])
    assert last.detail == "'Tenant: Dana' is present (page 2); 'Signature' is present (page 2)"
    beyond = lab.check("past-the-end")
    assert (beyond.passed, beyond.actual) == (False, {"pages": 2})
    assert beyond.detail == "on_pages '2-3': page 3 is past the end: the PDF has 2 page(s)"
    whole = lab.check("whole")
    assert whole.passed, whole.detail
    assert whole.expected == {"pages": 2, "text_order": [], "not_contains": "DRAFT"}


async def test_dates_resolve_on_the_run_clock_in_the_users_zone(lab: Lab) -> None:
    # Kiritimati: 11 June 13:30 (a Wednesday); in UTC it is still 10 June 23:30.
    assert lab.brief == "File the lease by Wednesday 18 June (2025-06-11)."
    (post,) = [r for r in lab.record.end_state.requests if r.path == "/submit/receipt"]
    assert post.form["title"] == ["Lease Saturday 14 June 15:30"]  # typed by the oracle's step
    assert lab.check("upload-is-the-second-download").expected["fields"] == {
        "title": "Lease Saturday 14 June 15:30"
    }
    placeholders = lab.record.end_state.placeholders
    assert (placeholders["date:clock"], placeholders["date:tz"]) == (
        "2025-06-10T23:30:00+00:00",
        "Pacific/Kiritimati",
    )
    # the mail seed's attachment was dated at set-up: the PDF says so
    assert (
        "Signed 10 June 2025" in (lab.record.end_state.files["output/lease.pdf"].pages or [""])[0]
    )


async def test_regrading_resolves_dates_from_the_stored_clock(lab: Lab) -> None:
    stored = AttemptRecord.model_validate_json(lab.record.model_dump_json())
    again = regrade_record(stored, lab.loaded)
    assert [(c.name, c.passed, c.expected) for c in again.checks] == [
        (c.name, c.passed, c.expected) for c in lab.record.checks
    ]


async def test_the_receipt_scenario_compares_the_upload_with_the_download(
    clocked: Worker, suite: dict[str, LoadedScenario]
) -> None:
    loaded = suite["expense-receipt-from-mail"]
    record = await run_attempt(
        clocked, PlanItem(loaded, parse_arm("oracle=scripted"), 1), write=False
    )
    assert record.result == "passed", [(c.name, c.detail) for c in record.checks]
    (post,) = [r for r in record.end_state.requests if r.path == "/submit/receipt"]
    # yesterday in London, where it is already 11 June (in UTC it would be 9 June)
    assert post.form["title"] == ["Team lunch 10 June"]
    assert [f["sha256"] for f in post.files["receipt"]] == [
        record.end_state.files["output/harbour-cafe-receipt.pdf"].sha256
    ]
    older = await run_attempt(
        clocked,
        PlanItem(loaded, parse_arm("older=decoy:uploads-the-older-receipt"), 1),
        write=False,
    )
    assert older.failed_checks == ["expense-filed"]
    (filed,) = [c for c in older.checks if c.name == "expense-filed"]
    want = older.end_state.files["output/harbour-cafe-receipt.pdf"].sha256
    (seq,) = [r.seq for r in older.end_state.requests if r.path == "/submit/receipt"]
    assert filed.detail == (
        f"non-matching posts: #{seq}: receipt carried receipts/harbour-cafe-receipt.pdf, "
        f"not output/harbour-cafe-receipt.pdf (sha256 {want})"
    )
