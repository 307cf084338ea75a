"""The live tier's evaluator: the agent's answer against the harness's own read of the page.

The read itself was made when the attempt ended (``proctor.world.read_live``) and is
kept in ``EndState.live``; this only compares, so a regrade never fetches.
"""

from __future__ import annotations

from proctor.grading._outcome import CheckOutcome
from proctor.records import EndState, LiveReading
from proctor.scenario import LiveRead

QUOTES = " \t\n\"'`.“”‘’"
"""Stripped from both ends of an answer compared with ``equals``."""


def normal(text: str) -> str:
    """``text`` as answers are compared: case folded, every run of white space one space."""
    return " ".join(text.casefold().split())


def _reading(args: LiveRead, state: EndState) -> LiveReading | None:
    key = args.read_key()
    return next((r for r in state.live if r.key == key), None)


def live_read(args: LiveRead, state: EndState) -> CheckOutcome:
    reading = _reading(args, state)
    expected: dict[str, object] = {"url": args.url, "answer": args.answer}
    if reading is None:
        return CheckOutcome(
            False, expected, None,
            f"the end state holds no read of {args.url} with this extraction (it was taken "
            "for another check, or before this one existed): run the attempt again",
        )  # fmt: skip
    expected["values"] = reading.values
    status = reading.status
    if status is None or not 200 <= status < 300:
        return CheckOutcome(
            False, expected, {"status": status},
            f"the independent read of {args.url} answered {status}: the page is gone or "
            "moved; fix the scenario",
        )  # fmt: skip
    if not reading.stable:
        seen = [f.values for f in reading.fetches[-2:]]
        return CheckOutcome(
            False, expected, {"last_reads": seen},
            f"the value did not settle: {len(reading.fetches)} reads, and the last two differ",
        )  # fmt: skip
    values = reading.values
    if not values:
        return CheckOutcome(
            False, expected, {"values": []},
            f"the independent read of {args.url} found nothing to compare: the page changed "
            "or the extraction is wrong; fix the scenario",
        )  # fmt: skip
    answer = state.answer
    if answer is None:
        return CheckOutcome(False, expected, {"answer": None}, "no answer")
    said = normal(answer)
    if args.answer == "equals":
        passed = said.strip(QUOTES) == normal(values[0]).strip(QUOTES)
        return CheckOutcome(passed, expected, {"answer": answer}, "")
    wanted = values[:1] if args.answer == "first" else values
    missing = [v for v in wanted if normal(v) not in said]
    passed = len(missing) < len(wanted) if args.answer == "any" else not missing
    actual = {"answer": answer, "missing": missing}
    detail = "" if passed else f"{len(missing)} of {len(wanted)} value(s) not in the answer"
    return CheckOutcome(passed, expected, actual, detail)
