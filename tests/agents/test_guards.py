"""Each guard fires where it must and stays quiet where it must not."""

from __future__ import annotations

from proctor.agents._guards import (
    NoProgressGuard,
    RepeatGuard,
    ScrollOscillationGuard,
    StepBudgetGuard,
    Turn,
    fingerprint,
)
from proctor.computer.actions import Click, Press, Scroll
from proctor.computer.observation import Observation


def _obs(snapshot: str, url: str = "http://x.proctor.test/") -> Observation:
    return Observation(url=url, title="t", tabs=(), active=0, snapshot=snapshot)


def test_fingerprint_ignores_refs_but_not_text() -> None:
    a = _obs('- button "Go" [ref=e1]')
    b = _obs('- button "Go" [ref=e7]')
    c = _obs('- button "Went" [ref=e1]')
    assert fingerprint(a) == fingerprint(b)
    assert fingerprint(a) != fingerprint(c)
    assert fingerprint(a) != fingerprint(
        _obs('- button "Go" [ref=e1]', url="http://y.proctor.test/")
    )


def test_repeat_guard_fires_on_an_inert_repeat() -> None:
    press = Press(key="ArrowDown")
    history = [Turn(press, "s1", "s1")]
    stop = RepeatGuard().before(history, press)
    assert stop is not None and stop.reason == "repeated_action"


def test_repeat_guard_lets_six_presses_that_each_change_the_display_land() -> None:
    press = Press(key="1")
    guard = RepeatGuard()
    history: list[Turn] = []
    states = [f"display {n}" for n in range(7)]
    for i in range(6):
        assert guard.before(history, press) is None, f"press {i + 1} was stopped"
        history.append(Turn(press, states[i], states[i + 1]))
    assert len(history) == 6


def test_repeat_guard_ignores_a_different_action() -> None:
    history = [Turn(Press(key="a"), "s", "s")]
    assert RepeatGuard().before(history, Press(key="b")) is None


def _scrolls(*directions: str) -> list[Turn]:
    return [Turn(Scroll(direction=d), f"s{i}", f"s{i + 1}") for i, d in enumerate(directions)]  # type: ignore[arg-type]


def test_scroll_oscillation_fires_after_five_alternating_scrolls() -> None:
    guard = ScrollOscillationGuard()
    assert guard.after(_scrolls("down", "up", "down", "up")) is None
    stop = guard.after(_scrolls("down", "up", "down", "up", "down"))
    assert stop is not None and stop.reason == "scroll_oscillation"


def test_scroll_oscillation_ignores_scrolling_one_way() -> None:
    guard = ScrollOscillationGuard()
    assert guard.after(_scrolls("down", "down", "down", "down", "down", "down")) is None
    # a streak broken by a same-direction scroll starts again
    assert guard.after(_scrolls("down", "up", "down", "down", "up", "down")) is None


def test_no_progress_fires_on_three_different_inert_actions() -> None:
    history = [
        Turn(Click(role="button", name="A"), "s", "s"),
        Turn(Click(role="button", name="B"), "s", "s"),
        Turn(Press(key="Tab"), "s", "s"),
    ]
    stop = NoProgressGuard().after(history)
    assert stop is not None and stop.reason == "no_progress"


def test_no_progress_quiet_when_one_action_changed_something() -> None:
    history = [
        Turn(Click(role="button", name="A"), "s", "s"),
        Turn(Click(role="button", name="B"), "s", "t"),
        Turn(Press(key="Tab"), "t", "t"),
    ]
    assert NoProgressGuard().after(history) is None


def test_no_progress_quiet_on_fewer_than_three_or_repeated_actions() -> None:
    click = Click(role="button", name="A")
    assert NoProgressGuard().after([Turn(click, "s", "s"), Turn(Press(key="x"), "s", "s")]) is None
    same = [Turn(click, "s", "s"), Turn(Press(key="x"), "s", "s"), Turn(click, "s", "s")]
    assert NoProgressGuard().after(same) is None


def test_step_budget() -> None:
    guard = StepBudgetGuard(2)
    one = [Turn(Press(key="a"), "s", "t")]
    assert guard.before(one, Press(key="b")) is None
    stop = guard.before([*one, Turn(Press(key="b"), "t", "u")], Press(key="c"))
    assert stop is not None and stop.reason == "step_budget"


def test_fingerprint_without_focus_ignores_only_the_focus_marker() -> None:
    a = _obs('- button "Ring" [ref=e1]\n- button "Call" [active] [ref=e2]')
    b = _obs('- button "Ring" [active] [ref=e1]\n- button "Call" [ref=e2]')
    assert fingerprint(a) != fingerprint(b)
    assert fingerprint(a, focus=False) == fingerprint(b, focus=False)
    c = _obs('- button "Ring" [active] [ref=e1]\n- button "Called" [ref=e2]')
    assert fingerprint(b, focus=False) != fingerprint(c, focus=False)


def test_a_desktop_outline_s_focus_marker_is_the_focus_too() -> None:
    a = _obs(
        '- toggle button "AC" [ref=d11] [actions=click]\n- text [ref=d8] [focused] [value="0"]'
    )
    b = _obs(
        '- toggle button "AC" [ref=d11] [focused] [actions=click]\n- text [ref=d8] [value="0"]'
    )
    assert fingerprint(a) != fingerprint(b)
    assert fingerprint(a, focus=False) == fingerprint(b, focus=False)
    c = _obs(
        '- toggle button "AC" [ref=d11] [focused] [actions=click]\n- text [ref=d8] [value="7"]'
    )
    assert fingerprint(b, focus=False) != fingerprint(c, focus=False)


def test_no_progress_fires_when_the_clicks_only_move_the_focus() -> None:
    history = [
        Turn(Click(role="button", name="A"), "s0", "s1", focus_only=True),
        Turn(Click(role="button", name="B"), "s1", "s2", focus_only=True),
        Turn(Click(role="button", name="C"), "s2", "s3", focus_only=True),
    ]
    stop = NoProgressGuard().after(history)
    assert stop is not None and stop.reason == "no_progress"


def test_a_focus_move_still_counts_as_a_change_for_the_repeat_guard() -> None:
    tab = Press(key="Tab")
    history = [Turn(tab, "s0", "s1", focus_only=True)]
    assert RepeatGuard().before(history, tab) is None
