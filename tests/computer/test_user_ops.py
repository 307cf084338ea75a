"""ask_user and request_approval through the real browser computer: steps, notes, no user."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from proctor.computer import actions as a
from proctor.computer.browser import BrowserComputer, BrowserOptions, Lease, Recorder
from proctor.runner import Worker
from proctor.scenario import User
from proctor.world import ATTEMPT_HEADER, SimulatedUser

pytestmark = pytest.mark.browser

SPEC = User.model_validate(
    {
        "answers": {"size": "Medium"},
        "approvals": {"booking": True},
        "messages": [{"at_step": 2, "text": "Book for Friday instead."}],
    }
)


@asynccontextmanager
async def computer(
    worker: Worker, scratch: Path, user: SimulatedUser | None, lease: Lease | None = None
) -> AsyncIterator[tuple[BrowserComputer, Recorder]]:
    recorder = Recorder(50, 50)
    options = BrowserOptions(
        attempt="user-ops",
        fixture_hosts=worker.server.hosts(),
        attempt_header=ATTEMPT_HEADER,
        scratch=scratch,
        lease=lease,
    )
    browser = await BrowserComputer.open(
        worker.host, options, recorder, lambda m, u: None, user=user
    )
    try:
        yield browser, recorder
    finally:
        await browser.close()


async def test_user_ops_are_user_steps_and_steering_comes_in_notes(
    worker: Worker, tmp_path: Path
) -> None:
    user = SimulatedUser(SPEC)
    async with computer(worker, tmp_path, user) as (browser, recorder):
        assert (await browser.observe()).notes == ()
        asked = await browser.act(a.AskUser(question="Which size?"))
        assert (asked.tool, asked.op, asked.status, asked.output) == (
            "user",
            "ask_user",
            "ok",
            "Medium",
        )
        assert asked.data == {"answer": "Medium"}
        assert asked.target == "Which size?"
        assert (await browser.observe()).notes == ()  # due after 2 actions, 1 done
        approved = await browser.act(
            a.RequestApproval(action="booking", details="Table for 2 at 19:00")
        )
        assert (approved.tool, approved.output) == ("user", "approved: Yes, go ahead.")
        obs = await browser.observe()
        assert obs.notes == ("message from the user: Book for Friday instead.",)
        assert "note: message from the user: Book for Friday instead." in obs.render()
        assert (await browser.observe()).notes == ()  # shown once
        assert [e.model_dump()["text"] for e in recorder.events if e.kind == "user_message"] == [
            "Book for Friday instead."
        ]
        assert recorder.tool_calls == 6 and recorder.inputs == 0
    assert [q.step for q in user.asked] == [0]
    assert [r.step for r in user.approvals] == [1]
    assert user.messages[0].delivered_step == 2


async def test_without_a_user_the_user_ops_fail_with_a_reason(
    worker: Worker, tmp_path: Path
) -> None:
    async with computer(worker, tmp_path, None) as (browser, _):
        step = await browser.act(a.AskUser(question="Which size?"))
        assert (step.tool, step.status, step.error) == (
            "user",
            "error",
            "no user is reachable in this attempt; the task must be done alone",
        )
        assert (await browser.observe()).notes == ()


async def test_a_revoked_lease_still_lets_the_agent_ask_the_user(
    worker: Worker, tmp_path: Path
) -> None:
    lease = Lease("user-ops")
    lease.revoke("owner", "taking over")
    async with computer(worker, tmp_path, SimulatedUser(SPEC), lease) as (browser, _):
        asked = await browser.act(a.AskUser(question="Which size?"))
        assert (asked.status, asked.output) == ("ok", "Medium")
        refused = await browser.act(a.Navigate(url="about:blank"))
        assert refused.status == "refused"
