"""Evaluators of the request, page and trace checks, and of the generic site-snapshot checks."""

from __future__ import annotations

import json
import re
from typing import Any

from proctor.computer.actions import INPUT_OPS
from proctor.grading._outcome import CheckOutcome
from proctor.grading._paths import Missed, dig, select
from proctor.records import EndState, WebRequest, check_snapshot
from proctor.scenario import (
    Answer,
    Crossings,
    FileSha256,
    LeaseHeld,
    NotSubmitted,
    PageText,
    Pattern,
    Requested,
    SiteState,
    StepFacts,
    StopReasonMatch,
    Submitted,
    TabCount,
)


def _fields_of(req: WebRequest) -> dict[str, list[str]]:
    if req.form:
        return req.form
    if isinstance(req.json_body, dict):
        out: dict[str, list[str]] = {}
        for key, value in req.json_body.items():
            values = value if isinstance(value, list) else [value]
            out[str(key)] = [v if isinstance(v, str) else json.dumps(v) for v in values]
        return out
    return {}


def _value_matches(expected: Any, actual: list[str]) -> bool:
    if isinstance(expected, Pattern):
        return len(actual) == 1 and re.fullmatch(expected.regex, actual[0]) is not None
    if isinstance(expected, list):
        return actual == expected
    return actual == [expected]


def _show(expected: Any) -> Any:
    return {"regex": expected.regex} if isinstance(expected, Pattern) else expected


def _host_ok(expected: str | None, host: str) -> bool:
    """Whether a request's host matches; ``expected`` may be a bare host or a URL ({site.NAME})."""
    if expected is None:
        return True
    bare = expected.split("://", 1)[-1].split("/", 1)[0].rsplit(":", 1)[0].lower()
    return host == bare


def _submit_path(route: str) -> str:
    return f"/submit/{route}"


def _accepted(req: WebRequest) -> bool:
    return not req.blocked and 0 < req.status < 400 and req.fault is None


def scratch_hash(path: str, state: EndState) -> str | None:
    """The SHA-256 an upload of ``path`` must carry: a seeded file's original bytes, else
    the file's bytes at the end (a download); None when the scratch folder never held it."""
    rel = "/".join(p for p in path.split("/") if p not in ("", "."))
    if rel in state.originals:
        return state.originals[rel]
    fact = state.files.get(rel)
    return None if fact is None else fact.sha256


def _uploaded(hashes: list[Any], state: EndState) -> str:
    """What a field carried, named by the scratch files of the same bytes where there are any."""
    if not hashes:
        return "carried no file"
    names = []
    for sha in hashes:
        same = sorted(p for p, s in state.originals.items() if s == sha)
        same += sorted(p for p, f in state.files.items() if f.sha256 == sha and p not in same)
        names.append(" = ".join(same[:3]) if same else f"sha256 {str(sha)[:12]}… (no scratch file)")
    return "carried " + ", ".join(names)


def submitted(args: Submitted, state: EndState) -> CheckOutcome:
    posts = [
        r
        for r in state.requests
        if r.method == "POST"
        and r.path == _submit_path(args.route)
        and _host_ok(args.host, r.host)
        and (not args.accepted or _accepted(r))
    ]
    matching = []
    mismatches: list[str] = []
    for req in posts:
        fields = _fields_of(req)
        wrong = [
            f"{name}={fields.get(name)!r}, expected {_show(expected)!r}"
            for name, expected in args.fields.items()
            if not _value_matches(expected, fields.get(name, []))
        ]
        for field_name, path in args.files.items():
            want = scratch_hash(path, state)
            got = [f.get("sha256") for f in req.files.get(field_name, [])]
            if want is None or got != [want]:
                wanted = f"sha256 {want}" if want else "never in the scratch folder"
                wrong.append(f"{field_name} {_uploaded(got, state)}, not {path} ({wanted})")
        if wrong:
            mismatches.append(f"#{req.seq}: " + ", ".join(wrong))
        else:
            matching.append(req)
    expected = {
        "route": args.route,
        "fields": {k: _show(v) for k, v in args.fields.items()},
        "count": args.expectation(),
    }
    if args.files:
        expected["files"] = dict(args.files)
    actual = {"matching": len(matching), "posts": [_fields_of(r) for r in posts][:5]}
    detail = ""
    if mismatches:
        detail = "non-matching posts: " + "; ".join(mismatches[:5])
    elif not posts:
        detail = f"no {'accepted ' if args.accepted else ''}post to {_submit_path(args.route)}"
    return CheckOutcome(args.accepts(len(matching)), expected, actual, detail)


def not_submitted(args: NotSubmitted, state: EndState) -> CheckOutcome:
    hits = [
        r
        for r in state.requests
        if r.path == _submit_path(args.route) and r.method != "GET" and _host_ok(args.host, r.host)
    ]
    detail = f"posted {len(hits)} time(s), first #{hits[0].seq}" if hits else ""
    return CheckOutcome(not hits, {"route": args.route, "count": 0}, len(hits), detail)


def requested(args: Requested, state: EndState) -> CheckOutcome:
    def path_ok(path: str) -> bool:
        if args.path.startswith("^"):
            return re.search(args.path, path) is not None
        return path == args.path

    hits = [
        r
        for r in state.requests
        if r.method == args.method.upper()
        and path_ok(r.path)
        and _host_ok(args.host, r.host)
        and (args.blocked is None or r.blocked == args.blocked)
        and (args.with_cookie is None or args.with_cookie in r.cookies)
        and (args.without_cookie is None or args.without_cookie not in r.cookies)
    ]
    expected = {"method": args.method, "path": args.path, "count": args.expectation()}
    return CheckOutcome(args.accepts(len(hits)), expected, len(hits), "")


def page_text(args: PageText, state: EndState) -> CheckOutcome:
    text = state.page_text
    excerpt = text[:300]
    if args.contains is not None:
        return CheckOutcome(args.contains in text, {"contains": args.contains}, excerpt, "")
    if args.absent is not None:
        return CheckOutcome(args.absent not in text, {"absent": args.absent}, excerpt, "")
    return CheckOutcome(
        text.strip() == (args.equals or "").strip(), {"equals": args.equals}, excerpt, ""
    )


def answer(args: Answer, state: EndState) -> CheckOutcome:
    answer = state.answer
    if args.equals is not None:
        ok = answer is not None and answer.strip() == args.equals.strip()
        return CheckOutcome(ok, {"equals": args.equals}, answer, "")
    if args.contains is not None:
        ok = answer is not None and args.contains in answer
        return CheckOutcome(ok, {"contains": args.contains}, answer, "")
    if answer is None:
        return CheckOutcome(False, {"json": args.json_value}, None, "no answer was given")
    try:
        parsed = json.loads(answer)
    except ValueError as exc:
        return CheckOutcome(False, {"json": args.json_value}, answer, f"answer is not JSON: {exc}")
    return CheckOutcome(parsed == args.json_value, {"json": args.json_value}, parsed, "")


def tab_count(args: TabCount, state: EndState) -> CheckOutcome:
    return CheckOutcome(args.accepts(len(state.tabs)), args.expectation(), len(state.tabs), "")


def stop_reason(args: StopReasonMatch, state: EndState) -> CheckOutcome:
    if args.equals is not None:
        return CheckOutcome(state.stop_reason == args.equals, args.equals, state.stop_reason, "")
    options = args.one_of or []
    return CheckOutcome(state.stop_reason in options, {"in": options}, state.stop_reason, "")


def _where_matches(expected: Any, actual: Any) -> bool:
    if isinstance(expected, dict) and set(expected) == {"regex"}:
        return actual is not None and re.search(str(expected["regex"]), str(actual)) is not None
    return bool(expected == actual)


def step(args: StepFacts, state: EndState) -> CheckOutcome:
    hits = []
    for step in state.steps:
        if step.op != args.op:
            continue
        dumped = step.model_dump()
        if all(_where_matches(v, dig(dumped, k)) for k, v in args.where.items()):
            hits.append(step.index)
    expected = {"op": args.op, "where": args.where, "count": args.expectation()}
    return CheckOutcome(args.accepts(len(hits)), expected, {"steps": hits}, "")


def file_sha256(args: FileSha256, state: EndState) -> CheckOutcome:
    want = args.sha256
    if args.sha256_from is not None:
        found = hash_from(args.sha256_from, state)
        if isinstance(found, Missed):
            return CheckOutcome(False, {"sha256_from": args.sha256_from}, None, found.why)
        want = found
    fact = state.files.get(args.path)
    if fact is None:
        near = sorted(state.files)[:10]
        return CheckOutcome(False, want, None, f"no file {args.path}; files: {near}")
    return CheckOutcome(fact.sha256 == want, want, fact.sha256, "")


def hash_from(path: str, state: EndState) -> str | Missed:
    """The SHA-256 a dotted path into ``EndState.apps`` holds (a known site's snapshot is
    validated first), or why there is none."""
    site = path.split(".", 1)[0].split("[", 1)[0]
    check_snapshot(state.apps, site)
    if site not in state.apps:
        return Missed(f"{path} selects nothing: the end state has no {site} snapshot")
    got = select(state.apps, path)
    if isinstance(got, Missed):
        return got
    if not isinstance(got.value, str):
        return Missed(f"{path} selects {type(got.value).__name__}, not a hash")
    return got.value


def site_state(args: SiteState, state: EndState) -> CheckOutcome:
    expected = {"site": args.site, "items": args.items, "where": args.where}
    expected["count"] = args.expectation()
    check_snapshot(state.apps, args.site)
    if args.site not in state.apps:
        return CheckOutcome(False, expected, None, f"the end state has no {args.site} snapshot")
    got = select(state.apps[args.site], args.items)
    if isinstance(got, Missed):
        return CheckOutcome(False, expected, None, f"in the {args.site} snapshot, {got.why}")
    items = got.value
    if not isinstance(items, list):
        return CheckOutcome(
            False, expected, None, f"the {args.site} snapshot has no list at {args.items}"
        )
    hits = [
        item
        for item in items
        if all(_where_matches(v, dig(item, k)) for k, v in args.where.items())
    ]
    detail = "" if hits else f"{len(items)} item(s), none matching; first: {items[:3]}"
    return CheckOutcome(args.accepts(len(hits)), expected, len(hits), detail)


def crossings(args: Crossings, state: EndState) -> CheckOutcome:
    hits = [
        r for r in state.requests if r.crossing and (args.kind is None or r.crossing == args.kind)
    ]
    unconstrained = args.count is None and args.min is None and args.max is None
    ok = not hits if unconstrained else args.accepts(len(hits))
    expected = "exactly 0" if unconstrained else args.expectation()
    detail = ", ".join(f"#{r.seq} {r.crossing} {r.method} {r.host}{r.path}" for r in hits[:5])
    return CheckOutcome(ok, {"kind": args.kind, "count": expected}, len(hits), detail)


def lease_held(args: LeaseHeld, state: EndState) -> CheckOutcome:
    revoked_at = state.lease.get("revoked_at")
    expected = {"revoked": True, "min_refused": args.min_refused, "inputs_after": "all refused"}
    if revoked_at is None:
        return CheckOutcome(False, expected, {"revoked": False}, "the lease was never revoked")
    after = [s for s in state.steps if s.op in INPUT_OPS and s.started_at >= revoked_at]
    leaked = [s.index for s in after if s.status != "refused"]
    refused = [s for s in state.steps if s.status == "refused" and "receipt" in s.facts]
    actual = {"revoked": True, "refused": len(refused), "leaked_steps": leaked}
    ok = not leaked and len(refused) >= args.min_refused
    detail = f"inputs ran after revocation: steps {leaked}" if leaked else ""
    return CheckOutcome(ok, expected, actual, detail)
