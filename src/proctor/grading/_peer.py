"""Evaluators of the peer suites' checks: their own reward, as their page reported it."""

from __future__ import annotations

from proctor.grading._outcome import CheckOutcome
from proctor.records import EndState, MiniwobSnapshot
from proctor.scenario import MiniwobReward


def miniwob_reward(args: MiniwobReward, state: EndState) -> CheckOutcome:
    expected = {"raw": args.raw} if args.raw is not None else {"min_raw": args.min_raw}
    snapshot = state.app(MiniwobSnapshot)
    first = snapshot.first_end if snapshot is not None else None
    if first is None or first.raw is None:
        return CheckOutcome(False, expected, None, "no episode ended")
    raw = first.raw
    actual = {"raw": raw, "reward": first.reward, "reason": first.reason}
    if args.raw is not None:
        return CheckOutcome(raw == args.raw, expected, actual, "")
    assert args.min_raw is not None
    return CheckOutcome(raw >= args.min_raw, expected, actual, "")
