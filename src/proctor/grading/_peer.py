"""Evaluators of the peer suites' checks: their own reward, as their page reported it."""

from __future__ import annotations

from proctor.grading._outcome import CheckOutcome
from proctor.records import EndState
from proctor.scenario import MiniwobReward


def miniwob_reward(args: MiniwobReward, state: EndState) -> CheckOutcome:
    expected = {"raw": args.raw} if args.raw is not None else {"min_raw": args.min_raw}
    snapshot = state.apps.get("miniwob")
    first = snapshot.get("first_end") if isinstance(snapshot, dict) else None
    if not isinstance(first, dict) or first.get("raw") is None:
        return CheckOutcome(False, expected, None, "no episode ended")
    raw = float(first["raw"])
    actual = {"raw": raw, "reward": first.get("reward"), "reason": first.get("reason")}
    if args.raw is not None:
        return CheckOutcome(raw == args.raw, expected, actual, "")
    assert args.min_raw is not None
    return CheckOutcome(raw >= args.min_raw, expected, actual, "")
