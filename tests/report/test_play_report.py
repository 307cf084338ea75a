"""Timeline events in the reports: an attempt's view lists them among its steps, and a
divergence between repeats is placed after the event before it."""

from __future__ import annotations

from report_records import make, step

from proctor.records import EndState, PlayFired, Scheduled, UserFacts
from proctor.report import attempt_view, determinism


def fired(name: str, actions: int, text: str | None = None, detail: str = "") -> PlayFired:
    return PlayFired(
        name=name,
        kind="say" if text else "advance",
        trigger="after_actions",
        actions=actions,
        time=1.0,
        clock="2026-03-02T09:00:00+00:00",
        text=text,
        detail=detail,
    )


def story(*play: PlayFired, scheduled: list[Scheduled] | None = None) -> EndState:
    return EndState(user=UserFacts(play=list(play), scheduled=scheduled or []))


def test_an_attempts_view_places_the_timeline_among_its_steps() -> None:
    wake = Scheduled(step=1, at="2026-03-03T09:00:00+00:00", note="look again", woke=3, idle=5)
    record = make(
        "s",
        "oracle",
        1,
        "passed",
        end_state=story(
            fired("change", 2, "make it Friday"), fired("day", 3, detail="moved"), scheduled=[wake]
        ),
    )
    view = attempt_view(record)
    assert [(t.after, t.name, t.what) for t in view.timeline] == [
        (1, "schedule", "look again (woke after 3)"),
        (2, "change", "make it Friday"),
        (3, "day", "moved"),
    ]
    assert view.as_json()["timeline"][1]["name"] == "change"
    assert attempt_view(make("s", "oracle", 2, "passed")).timeline == ()


def test_a_divergence_is_placed_after_the_last_event_before_it() -> None:
    same = [step(0, "navigate", "url /a"), step(1, "click", "Send"), step(2, "done", None)]
    other = [step(0, "navigate", "url /a"), step(1, "click", "Send"), step(2, "click", "Undo")]
    heard = story(fired("hello", 1, "hi"), fired("later", 3, "bye"))
    records = [
        make("s", "agent", 1, "passed", steps=same, end_state=heard),
        make("s", "agent", 2, "failed", steps=other, end_state=heard),
        make("s", "agent", 3, "passed", steps=same, end_state=heard),
    ]
    found = determinism(records)
    assert [(d.diverged_at, d.after_event) for d in found] == [(2, "hello")]
    untimed = [r.model_copy(update={"end_state": EndState()}) for r in records]
    assert [d.after_event for d in determinism(untimed)] == [None]
