"""Evaluators of the file checks over the end state's files (``EndState.files`` and ``dirs``).

Document facts (PDF page text, CSV rows, headings and list items) were taken
when the end state was captured (``proctor.world.snapshot_files``), so these
read no disk and regrade the same.
"""

from __future__ import annotations

import fnmatch
from typing import Any

from proctor.grading._outcome import CheckOutcome
from proctor.records import EndState, FileFact
from proctor.scenario import (
    CsvFacts,
    DirListing,
    FileExists,
    FileText,
    FileUnchanged,
    PdfFacts,
    RichTextFacts,
)

SHOWN = 10
"""How many names or rows a result shows."""


def _norm_path(path: str) -> str:
    """A scratch-relative path as the end state keys it: no ./, no trailing /."""
    parts = [p for p in path.strip().split("/") if p not in ("", ".")]
    return "/".join(parts)


def _missing(path: str, state: EndState) -> CheckOutcome:
    near = sorted(state.files)[:SHOWN]
    return CheckOutcome(False, None, None, f"no file {path}; files: {near}")


def _file(path: str, state: EndState) -> FileFact | None:
    return state.files.get(_norm_path(path))


def _squash(text: str) -> str:
    return " ".join(text.split())


def file_unchanged(args: FileUnchanged, state: EndState) -> CheckOutcome:
    path = _norm_path(args.path)
    original = state.originals.get(path)
    if original is None:
        seeded = sorted(state.originals)[:SHOWN]
        return CheckOutcome(False, None, None, f"{path} was not seeded; seeded files: {seeded}")
    fact = state.files.get(path)
    if fact is None:
        return CheckOutcome(False, original, None, f"{path} is gone")
    detail = "" if fact.sha256 == original else f"{path} changed ({fact.size} bytes now)"
    return CheckOutcome(fact.sha256 == original, original, fact.sha256, detail)


def _glob(pattern: str, name: str) -> bool:
    """fnmatch per path segment, so that * stays inside one folder."""
    pat_parts, name_parts = pattern.split("/"), name.split("/")
    return len(pat_parts) == len(name_parts) and all(
        fnmatch.fnmatchcase(n, p) for p, n in zip(pat_parts, name_parts, strict=True)
    )


def file_exists(args: FileExists, state: EndState) -> CheckOutcome:
    pattern = _norm_path(args.path)
    hits = sorted(p for p in state.files if _glob(pattern, p))
    expected = {"path": args.path, "exists": not args.absent}
    ok = not hits if args.absent else bool(hits)
    detail = ""
    if not ok:
        detail = f"found {hits[:SHOWN]}" if args.absent else f"files: {sorted(state.files)[:SHOWN]}"
    return CheckOutcome(ok, expected, hits[:SHOWN], detail)


def file_text(args: FileText, state: EndState) -> CheckOutcome:
    fact = _file(args.path, state)
    if fact is None:
        return _missing(args.path, state)
    expected = args.model_dump(exclude_none=True, exclude={"name", "path"})
    if fact.text is None:
        return CheckOutcome(
            False, expected, None, f"{args.path} is not small UTF-8 text ({fact.size} bytes)"
        )
    text = fact.text
    lines = text.splitlines()
    wrong: list[str] = []
    if args.equals is not None and text != args.equals:
        wrong.append("the text differs")
    wanted = [args.contains] if isinstance(args.contains, str) else args.contains or []
    missing = [w for w in wanted if w not in text]
    if missing:
        wrong.append(f"missing {missing}")
    if args.lines is not None and lines != args.lines:
        diff = next(
            (i for i, (a, b) in enumerate(zip(lines, args.lines, strict=False)) if a != b),
            min(len(lines), len(args.lines)),
        )
        wrong.append(f"lines differ from line {diff + 1}")
    if args.line_count is not None and len(lines) != args.line_count:
        wrong.append(f"{len(lines)} lines")
    actual = {"lines": len(lines), "text": text[:300]}
    return CheckOutcome(not wrong, expected, actual, "; ".join(wrong))


def pdf(args: PdfFacts, state: EndState) -> CheckOutcome:
    fact = _file(args.path, state)
    if fact is None:
        return _missing(args.path, state)
    expected: dict[str, Any] = {"pages": args.pages, "text_order": args.text_order}
    if args.not_contains is not None:
        expected["not_contains"] = args.not_contains
    if args.on_pages is not None:
        expected["on_pages"] = args.on_pages
    if fact.pages is None:
        return CheckOutcome(
            False, expected, None, f"{args.path} is not a readable PDF ({fact.size} bytes)"
        )
    wrong: list[str] = []
    if args.pages is not None and len(fact.pages) != args.pages:
        wrong.append(f"{len(fact.pages)} pages")
    span = args.span()
    chosen = range(len(fact.pages)) if span is None else span.pages(len(fact.pages))
    if isinstance(chosen, str):
        wrong.append(f"on_pages {args.on_pages!r}: {chosen}")
        return CheckOutcome(False, expected, {"pages": len(fact.pages)}, "; ".join(wrong))
    shown = [i + 1 for i in chosen]
    texts = [_squash(fact.pages[i]) for i in chosen]
    document = " ".join(texts)
    unwanted = [args.not_contains] if isinstance(args.not_contains, str) else args.not_contains
    for snippet in unwanted or []:
        if _squash(snippet) not in document:
            continue
        on = [page for page, text in zip(shown, texts, strict=True) if _squash(snippet) in text]
        where = f"page {', '.join(map(str, on))}" if on else "across a page break"
        wrong.append(f"{snippet!r} is present ({where})")
    at = 0
    found: list[int] = []
    for snippet in args.text_order:
        hit = document.find(_squash(snippet), at)
        if hit < 0:
            anywhere = document.find(_squash(snippet))
            where = "earlier than the snippet before it" if anywhere >= 0 else "absent"
            wrong.append(f"{snippet!r} is {where}")
            break
        found.append(hit)
        at = hit + len(_squash(snippet))
    actual: dict[str, Any] = {"pages": len(fact.pages), "found_at": found}
    if span is not None:
        actual["read_pages"] = shown
    return CheckOutcome(not wrong, expected, actual, "; ".join(wrong))


def csv(args: CsvFacts, state: EndState) -> CheckOutcome:
    fact = _file(args.path, state)
    if fact is None:
        return _missing(args.path, state)
    expected = args.model_dump(exclude_none=True, exclude={"name", "path"})
    if fact.rows is None:
        return CheckOutcome(
            False, expected, None, f"{args.path} was not read as CSV ({fact.size} bytes)"
        )
    rows = fact.rows
    header = rows[0] if args.has_header and rows else None
    data = rows[1:] if args.has_header else rows
    wrong: list[str] = []
    if args.header is not None and header != args.header:
        wrong.append(f"header is {header}")
    if args.rows is not None and len(data) != args.rows:
        wrong.append(f"{len(data)} data rows")
    if args.columns is not None:
        odd = [i + 1 for i, row in enumerate(rows) if len(row) != args.columns]
        if odd:
            wrong.append(f"rows {odd[:SHOWN]} do not have {args.columns} cells")
    if args.contains_row is not None and not any(
        _row_matches(args.contains_row, header, row) for row in data
    ):
        wrong.append(f"no row {args.contains_row}")
    actual = {"header": header, "rows": len(data), "first": data[:3]}
    return CheckOutcome(not wrong, expected, actual, "; ".join(wrong))


def _row_matches(
    want: list[str] | dict[str, str], header: list[str] | None, row: list[str]
) -> bool:
    if isinstance(want, list):
        return [c.strip() for c in row] == [c.strip() for c in want]
    if header is None:
        return False
    cells = dict(zip(header, row, strict=False))
    return all(cells.get(col, "").strip() == value.strip() for col, value in want.items())


def _in_order(wanted: list[str], found: list[str]) -> int | None:
    """Index in ``wanted`` of the first item not found in order; None when all are."""
    at = 0
    for i, item in enumerate(wanted):
        target = _squash(item)
        while at < len(found) and found[at] != target:
            at += 1
        if at == len(found):
            return i
        at += 1
    return None


def rich_text(args: RichTextFacts, state: EndState) -> CheckOutcome:
    fact = _file(args.path, state)
    if fact is None:
        return _missing(args.path, state)
    expected = {"headings": args.headings, "list_items": args.list_items, "exact": args.exact}
    if fact.headings is None or fact.list_items is None:
        return CheckOutcome(False, expected, None, f"{args.path} is not an HTML or RTF document")
    actual = {"headings": fact.headings, "list_items": fact.list_items}
    wrong: list[str] = []
    for what, want, have in (
        ("heading", args.headings, fact.headings),
        ("list item", args.list_items, fact.list_items),
    ):
        if args.exact:
            if [_squash(w) for w in want] != have:
                wrong.append(f"{what}s are {have[:SHOWN]}")
            continue
        miss = _in_order(want, have)
        if miss is not None:
            present = _squash(want[miss]) in have
            wrong.append(f"{what} {want[miss]!r} is {'out of order' if present else 'absent'}")
    return CheckOutcome(not wrong, expected, actual, "; ".join(wrong))


def listing(path: str, state: EndState) -> list[str] | None:
    """Names directly in a folder (sub-folders end with /); None when there is no such folder."""
    root = _norm_path(path)
    prefix = f"{root}/" if root else ""
    if root and root not in state.dirs and not any(p.startswith(prefix) for p in state.files):
        return None
    names: set[str] = set()
    for p in state.files:
        if p.startswith(prefix):
            rest = p[len(prefix) :]
            names.add(rest if "/" not in rest else rest.split("/", 1)[0] + "/")
    for d in state.dirs:
        if d.startswith(prefix) and d != root:
            names.add(d[len(prefix) :].split("/", 1)[0] + "/")
    return sorted(names)


def dir_listing(args: DirListing, state: EndState) -> CheckOutcome:
    names = listing(args.path, state)
    expected = args.model_dump(exclude_none=True, exclude={"name"})
    if names is None:
        return CheckOutcome(
            False, expected, None, f"no folder {args.path}; folders: {state.dirs[:SHOWN]}"
        )
    wrong: list[str] = []
    if args.equals is not None and sorted(args.equals) != names:
        extra = sorted(set(names) - set(args.equals))
        lacking = sorted(set(args.equals) - set(names))
        wrong.append(f"extra {extra}, missing {lacking}")
    missing = [p for p in args.contains or [] if not any(fnmatch.fnmatchcase(n, p) for n in names)]
    if missing:
        wrong.append(f"missing {missing}")
    present = [p for p in args.absent or [] if any(fnmatch.fnmatchcase(n, p) for n in names)]
    if present:
        wrong.append(f"present {present}")
    return CheckOutcome(not wrong, expected, names[:50], "; ".join(wrong))
