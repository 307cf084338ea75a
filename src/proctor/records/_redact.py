"""Secrets of the environment never reach a results file.

A model may quote its API key back, an agent may echo a token into a form, an
error may carry an ``Authorization`` header. Every text the records write goes
through ``redact_secrets``, which replaces the value of each secret-looking
environment variable with ``[redacted:NAME]``.

A variable is secret when its name says so (``*_API_KEY``, ``*_KEY``,
``*_TOKEN``, ``*_SECRET``, ``*PASSWORD*``, ...) or its value has the shape of a
provider key (``sk-...``, ``sk-ant-...``, ``ghp_...``, ``AKIA...``, ...).
Values shorter than ``MIN_SECRET_LENGTH``, holding whitespace, made of digits
only, or naming a path are left alone: redacting ``X_KEY=1`` or a folder would
only damage the records.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

MIN_SECRET_LENGTH = 8
SECRET_NAME = re.compile(
    r"(?:^|_)(?:API_?KEY|KEY|TOKEN|PAT|AUTH)$|PASSWORD|PASSWD|SECRET",
    re.IGNORECASE,
)
"""Names of variables whose values are secrets."""
KEY_SHAPE = re.compile(
    r"sk-[A-Za-z0-9_-]{16,}"  # OpenAI, Anthropic (sk-ant-...), OpenRouter (sk-or-...), ...
    r"|(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}"
    r"|xox[abprs]-[A-Za-z0-9-]{10,}"  # Slack
    r"|AKIA[0-9A-Z]{16}"  # AWS access key id
    r"|AIza[0-9A-Za-z_-]{30,}"  # Google
    r"|hf_[A-Za-z0-9]{20,}"  # Hugging Face
    r"|glpat-[A-Za-z0-9_-]{20,}"  # GitLab
)
"""Values that are keys whatever their variable is called."""


def is_secret(name: str, value: str) -> bool:
    """Whether the variable ``name=value`` holds a secret worth redacting."""
    if len(value) < MIN_SECRET_LENGTH or any(c.isspace() for c in value):
        return False
    if KEY_SHAPE.fullmatch(value):
        return True
    if value.isdigit() or value.startswith(("/", "~", "./", "../")):
        return False
    return SECRET_NAME.search(name) is not None


@dataclass(frozen=True)
class Redactor:
    """Replaces known secret values with ``[redacted:NAME]``, in one regex pass."""

    names: dict[str, str]
    """Each form a secret may take in text (raw, JSON-escaped) -> its variable's name."""
    pattern: re.Pattern[str] | None

    @classmethod
    def of(cls, environ: Mapping[str, str]) -> Redactor:
        """The redactor of every secret in ``environ`` (first name wins for shared values)."""
        names: dict[str, str] = {}
        for name in sorted(environ):
            value = environ[name]
            if not is_secret(name, value):
                continue
            # A secret written inside JSON may be escaped (quotes, backslashes, non-ASCII).
            escaped = json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1]
            for form in (value, *escaped):
                names.setdefault(form, name)
        if not names:
            return cls({}, None)
        # Longest first, so a secret holding another is replaced whole.
        alternation = "|".join(re.escape(v) for v in sorted(names, key=len, reverse=True))
        return cls(names, re.compile(alternation))

    def __call__(self, text: str) -> str:
        """``text`` with every secret replaced; the same object when there is none in it."""
        if self.pattern is None or not any(form in text for form in self.names):
            return text
        return self.pattern.sub(lambda m: f"[redacted:{self.names[m.group()]}]", text)


_cached: tuple[tuple[tuple[str, str], ...], Redactor] | None = None


def current_redactor() -> Redactor:
    """The redactor of ``os.environ``, built once and rebuilt only when the environment changed."""
    global _cached
    environ = tuple(os.environ.items())  # ~15 us; deciding which values are secret is ~100 us
    cached = _cached
    if cached is not None and cached[0] == environ:
        return cached[1]
    redactor = Redactor.of(dict(environ))
    _cached = (environ, redactor)  # one assignment: a racing thread at worst builds it twice
    return redactor


def redact_secrets(text: str) -> str:
    """``text`` with each secret of the environment replaced by ``[redacted:NAME]``."""
    return current_redactor()(text)
