"""Placeholders in scenario strings: the grammar, its check at load time, and substitution.

The whole grammar::

    text        := ( other | "{{" | "}}" | placeholder )*
    placeholder := "{" name "}"
    name        := "scratch" | "base_url" | "home" | "site." SITE   (SITE in world.sites)
                 | date                                 (``_dates``: {date:+3d:%A %-d %B})

``{{`` and ``}}`` are a literal ``{`` and ``}``. A lone brace is literal too, so
JSON, CSS and regex quantifiers (``[0-9]{2}``) need no escaping, unless it reads
like a slipped placeholder, which the loader rejects with a hint:

- a brace beside a placeholder or a name: ``{site.forms}}``, ``{scratch/notes``,
  ``{{site.forms}`` (unbalanced brace);
- spaces inside the braces: ``{ site.forms }``;
- a name off the grammar: ``{site.}``, ``{site.forms.x}``, ``{scratc}``;
- a date placeholder with a bad offset or format: ``{date:3d}``, ``{date:+3x}``,
  ``{date:+3d:%Q}``, ``{dat:+3d}``.
"""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from pydantic import BaseModel

from proctor.scenario._dates import DATE_HINT, DateSlip, is_date, parse_date, render_date
from proctor.scenario._issues import SpecIssue, short_repr

PLACEHOLDER_NAMES = ("scratch", "base_url", "home", "date")
"""Placeholder names besides ``site.NAME`` (and ``date:OFFSET[:FORMAT]``)."""

_NAME = r"date:[^{}]*|[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_-]+)?"

_SUBST = re.compile(r"\{\{|\}\}|\{(" + _NAME + r")\}")
# what substitute() reads, plus the lone braces it leaves as they are
_LEX = re.compile(r"\{\{|\}\}|\{(" + _NAME + r")\}|[{}]")
# a date placeholder's rest after a name that was meant to be date: {dat:+3d}, { date:+3d }
_DATE_REST = re.compile(r":[+-]?[0-9][^{}]*?(\s*)\}")
# what an unclosed {date: holds up to the next space or brace
_DATE_TAIL = re.compile(r":[^{}\s]+")
# what follows a lone { when it was meant to open a placeholder
_AFTER_OPEN = re.compile(r"(\s*)([A-Za-z_][A-Za-z0-9_.-]*)(\s*)(\}?)")
# what precedes a lone } when it was meant to close one (looked for in a window, so
# that a long text of braces stays linear)
_BEFORE_CLOSE = re.compile(
    r"(?<![A-Za-z0-9_.-])(scratch|base_url|home|date(?::[^{}\s]*)?|site\.[A-Za-z0-9_-]+)$"
)
_WINDOW = 80
_PER_FIELD = 5
"""Slips reported per string; the rest are counted in one more problem."""


def substitute(text: str, values: dict[str, str]) -> str:
    """Replace ``{name}`` placeholders; ``{{``/``}}`` become literal braces."""

    def repl(m: re.Match[str]) -> str:
        tok = m.group(0)
        if tok == "{{":
            return "{"
        if tok == "}}":
            return "}"
        name = m.group(1)
        if name in values:
            return values[name]
        if is_date(name):
            rendered = render_date(name, values)
            return tok if rendered is None else rendered
        return tok

    return _SUBST.sub(repl, text)


def resolve(model: Any, values: dict[str, str]) -> Any:
    """A copy of a model (or plain value) with every string's placeholders replaced."""
    if isinstance(model, str):
        return substitute(model, values)
    if isinstance(model, BaseModel):
        updates = {name: resolve(getattr(model, name), values) for name in type(model).model_fields}
        return model.model_copy(update=updates)
    if isinstance(model, list):
        return [resolve(v, values) for v in model]
    if isinstance(model, tuple):
        return tuple(resolve(v, values) for v in model)
    if isinstance(model, dict):
        return {k: resolve(v, values) for k, v in model.items()}
    return model


def _closest(word: str, options: Sequence[str]) -> str:
    match = difflib.get_close_matches(word, list(options), n=1, cutoff=0.5)
    return match[0] if match else ""


def _cut(name: str, limit: int = 60) -> str:
    return name if len(name) <= limit else name[: limit - 3] + "..."


def _is_root(ident: str) -> bool:
    """Whether an unclosed ``{ident`` starts like a placeholder: {scratch, {site.x, ..."""
    return ident in PLACEHOLDER_NAMES or ident.startswith("site.")


def _date_like(ident: str) -> bool:
    """Whether a name was probably meant to be ``date``: Date, dat, dates (not update)."""
    word = ident.lower()
    near = abs(len(word) - 4) <= 1 and difflib.get_close_matches(word, ["date"], cutoff=0.75)
    return word == "date" or bool(near)


class _Checker:
    """Finds the placeholder slips of one scenario, given its declared sites."""

    def __init__(self, declared: Sequence[str]) -> None:
        self.declared = declared
        self.options = [*PLACEHOLDER_NAMES, *(f"site.{s}" for s in declared)]
        self.grammar = (
            "placeholders: "
            + ", ".join(
                "{date} ({date:+3d}, {date:+3d:%A %-d %B})" if o == "date" else f"{{{o}}}"
                for o in self.options
            )
            + "; write {{ and }} for literal braces"
        )
        self.guesses: dict[str, str] = {}  # a file repeats its slips; difflib is the cost

    def guess(self, name: str) -> str:
        if name not in self.guesses:
            self.guesses[name] = name if name in self.options else _closest(name, self.options)
        return self.guesses[name]

    def slip(self, field: str, snippet: str, reason: str, ident: str) -> SpecIssue:
        name = ident.strip().strip(".")
        guess = name if is_date(name) and self.valid(name) else self.guess(name)
        hint = (f"did you mean {{{guess}}}? " if guess else "") + self.grammar
        return SpecIssue(field, f"malformed placeholder {short_repr(snippet)}: {reason}", hint)

    def unknown(self, field: str, name: str) -> SpecIssue:
        if name.startswith("site."):
            site = name.removeprefix("site.")
            guess = _closest(site, self.declared)
            return SpecIssue(
                field,
                f"placeholder {{{_cut(name)}}} names a site not in world.sites",
                f"did you mean {{site.{guess}}}?"
                if guess
                else f"add {short_repr(site)} to world.sites",
            )
        guess = self.guess(name)
        return SpecIssue(
            field,
            f"unknown placeholder {{{_cut(name)}}}",
            (f"did you mean {{{guess}}}? " if guess else "") + self.grammar,
        )

    def known(self, name: str) -> bool:
        return name in PLACEHOLDER_NAMES or (
            name.startswith("site.") and name.removeprefix("site.") in self.declared
        )

    def valid(self, name: str) -> bool:
        """Whether ``{name}`` is a placeholder of this scenario, a date one included."""
        return self.known(name) or (is_date(name) and self.date_slip("", name) is None)

    def date_slip(self, field: str, name: str) -> SpecIssue | None:
        """The problem of a date placeholder ``{name}``; None when it is well formed."""
        try:
            parse_date(name)
        except DateSlip as slip:
            hint = (f"did you mean {slip.guess}? " if slip.guess else "") + DATE_HINT
            snippet = short_repr("{" + name + "}")
            return SpecIssue(field, f"malformed placeholder {snippet}: {slip.reason}", hint)
        return None

    def check(self, field: str, text: str) -> Iterator[SpecIssue]:
        skip_close = -1  # a lone } already reported with the placeholder before it
        for m in _LEX.finditer(text):
            tok, start, end = m.group(0), m.start(), m.end()
            if tok in ("{{", "}}") or start == skip_close:
                continue
            name = m.group(1)
            if name is not None:
                if text.startswith("}", end) and not text.startswith("}}", end):
                    reason = "unbalanced brace: one } too many"
                    if not self.valid(name):
                        reason += f"; {{{_cut(name)}}} is not a placeholder"
                    yield self.slip(field, text[start : end + 1], reason, name)
                    skip_close = end
                elif is_date(name):
                    issue = self.date_slip(field, name)
                    if issue is not None:
                        yield issue
                elif not self.known(name):
                    yield self.unknown(field, name)
                continue
            if tok == "{":
                issue = self._open(field, text, start)
            else:
                issue = self._close(field, text, start)
            if issue is not None:
                yield issue

    def _open(self, field: str, text: str, start: int) -> SpecIssue | None:
        after = _AFTER_OPEN.match(text, start + 1)
        if after is None:
            return None
        spaces, ident, closed = after.group(1) or after.group(3), after.group(2), after.group(4)
        snippet = text[start : after.end()]
        if not closed and _date_like(ident):
            rest = _DATE_REST.match(text, after.end())
            if rest is not None:
                return self._date_open(field, text[start : rest.end()], ident, rest.group(1))
        if closed:
            if spaces:
                reason = "spaces inside braces are not allowed"
            elif ident.endswith("."):
                reason = "nothing after the dot"
            elif ident.count(".") > 1:
                reason = "a placeholder has at most one dot: {site.NAME}"
            else:
                reason = "not a placeholder name"
            return self.slip(field, snippet, reason, ident)
        if ident == "date" and not spaces and (tail := _DATE_TAIL.match(text, after.end())):
            snippet, ident = snippet + tail.group(0), ident + tail.group(0)  # {date:+1d
        if _is_root(ident) or is_date(ident):
            return self.slip(field, snippet, "unbalanced brace: no closing }", ident)
        return None

    def _date_open(self, field: str, snippet: str, ident: str, trailing: str) -> SpecIssue:
        """A date placeholder that does not start ``{date:``: spaces, or another name."""
        inside = snippet[1:-1].strip()
        reason = "not a placeholder name"
        if ident == "date":
            reason = "spaces inside braces are not allowed"
        elif snippet[1:].startswith(" ") or trailing:
            reason = "spaces inside braces are not allowed; not a placeholder name"
        meant = "date" + inside[inside.index(":") :]
        guess = "{" + meant + "}" if self.date_slip(field, meant) is None else ""
        hint = (f"did you mean {guess}? " if guess else "") + DATE_HINT
        return SpecIssue(field, f"malformed placeholder {short_repr(snippet)}: {reason}", hint)

    def _close(self, field: str, text: str, start: int) -> SpecIssue | None:
        before = _BEFORE_CLOSE.search(text, max(0, start - _WINDOW), start)
        if before is None:
            return None
        lead = 2 if text.endswith("{{", 0, before.start()) else 0
        snippet = text[before.start() - lead : start + 1]
        return self.slip(field, snippet, "unbalanced brace: no opening {", before.group(1))


def placeholder_issues(
    strings: Iterable[tuple[str, str]], declared: Sequence[str]
) -> list[SpecIssue]:
    """Every placeholder slip in ``(field, text)`` pairs, for a scenario declaring these sites."""
    checker = _Checker(declared)
    issues: list[SpecIssue] = []
    for field, text in strings:
        found = list(itertools.islice(checker.check(field, text), _PER_FIELD + 1))
        issues.extend(found[:_PER_FIELD])
        if len(found) > _PER_FIELD:
            issues.append(SpecIssue(field, "more placeholder problems in this text", "fix these"))
    return issues
