"""The check vocabulary as data: what a scenario may assert about the end state.

A check is a one-key mapping from its type to its arguments, e.g.
``{submitted: {route: contact, fields: {email: a@b.test}}}``. Evaluation lives
in ``proctor.grading``; this module only says what is valid to write.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    field_validator,
    model_validator,
)


def _compiles(pattern: str) -> str:
    """The pattern itself, so that a bad regex fails at load time rather than when grading."""
    try:
        re.compile(pattern)
    except re.error as exc:
        raise ValueError(f"invalid regular expression {pattern!r}: {exc}") from exc
    return pattern


Regex = Annotated[str, AfterValidator(_compiles)]


class CheckArgs(BaseModel):
    """Arguments shared by every check."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str | None = Field(
        default=None, description="Name used by decoys' `fails`; defaults to the check type."
    )


class Counted(CheckArgs):
    """A count constraint: exactly ``count``, or between ``min`` and ``max``."""

    count: int | None = Field(default=None, ge=0)
    min: int | None = Field(default=None, ge=0)
    max: int | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _count_or_range(self) -> Counted:
        if self.count is not None and (self.min is not None or self.max is not None):
            raise ValueError("give count, or min/max, not both")
        return self

    def accepts(self, n: int, default_min: int = 1) -> bool:
        """Whether ``n`` matches; with no constraint at all, at least ``default_min``."""
        if self.count is not None:
            return n == self.count
        if self.min is None and self.max is None:
            return n >= default_min
        return (self.min is None or n >= self.min) and (self.max is None or n <= self.max)

    def expectation(self, default_min: int = 1) -> str:
        if self.count is not None:
            return f"exactly {self.count}"
        if self.min is None and self.max is None:
            return f"at least {default_min}"
        parts = []
        if self.min is not None:
            parts.append(f">= {self.min}")
        if self.max is not None:
            parts.append(f"<= {self.max}")
        return " and ".join(parts)


class Pattern(BaseModel):
    """A field value matched by regular expression (full match)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    regex: Regex


FieldValue = str | Pattern | list[str]


class Submitted(Counted):
    """A form was posted to ``/submit/<route>`` with these field values."""

    route: str = Field(description="The route after /submit/, e.g. contact.")
    host: str | None = Field(
        default=None, description="Only requests to this host: forms.proctor.test or {site.forms}."
    )
    fields: dict[str, FieldValue] = Field(
        default_factory=dict, description="Field -> exact value, {regex: ...}, or list of values."
    )
    files: dict[str, str] = Field(
        default_factory=dict,
        description="Upload field -> scratch path whose original bytes it must carry (by SHA-256).",
    )
    accepted: bool = Field(default=True, description="Count only posts the server accepted.")


class NotSubmitted(CheckArgs):
    """Nothing was ever posted to ``/submit/<route>``."""

    route: str
    host: str | None = None


class Requested(Counted):
    """Requests with this method and path reached the server."""

    path: str = Field(description="Exact path, or a regex when it starts with ^.")
    method: str = "GET"
    host: str | None = None
    blocked: bool | None = Field(default=None, description="Only blocked (or unblocked) ones.")
    with_cookie: str | None = Field(default=None, description="Only requests sending this cookie.")
    without_cookie: str | None = Field(
        default=None, description="Only requests not sending this cookie."
    )

    @field_validator("path")
    @classmethod
    def _path_regex(cls, path: str) -> str:
        return _compiles(path) if path.startswith("^") else path


class PageText(CheckArgs):
    """The final observed page's visible text contains or equals a string."""

    contains: str | None = None
    equals: str | None = None
    absent: str | None = Field(default=None, description="Text that must not be visible.")

    @model_validator(mode="after")
    def _one(self) -> PageText:
        if sum(v is not None for v in (self.contains, self.equals, self.absent)) != 1:
            raise ValueError("give exactly one of contains, equals or absent")
        return self


class Answer(CheckArgs):
    """The agent's final answer equals, contains, or is this JSON value."""

    equals: str | None = None
    contains: str | None = None
    json_value: Any = Field(default=None, alias="json")

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    @model_validator(mode="after")
    def _one(self) -> Answer:
        given = [
            self.equals is not None,
            self.contains is not None,
            "json_value" in self.model_fields_set,
        ]
        if sum(given) != 1:
            raise ValueError("give exactly one of equals, contains or json")
        return self


class TabCount(Counted):
    """How many tabs are open at the end."""


class StopReason(CheckArgs):
    """How the agent's run ended, e.g. done, timeout, tool_limit."""

    equals: str | None = None
    one_of: list[str] | None = Field(default=None, alias="in")

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    @model_validator(mode="after")
    def _one(self) -> StopReason:
        if (self.equals is None) == (self.one_of is None):
            raise ValueError("give exactly one of equals or in")
        return self


class StepFacts(Counted):
    """Steps of the trace with this op whose fields match ``where`` (dotted paths)."""

    op: str
    where: dict[str, Any] = Field(
        default_factory=dict,
        description="Dotted path -> value, or {regex: ...} (searched), e.g. facts.in_frame: true.",
    )

    @field_validator("where")
    @classmethod
    def _where_regexes(cls, where: dict[str, Any]) -> dict[str, Any]:
        for value in where.values():
            if isinstance(value, dict) and set(value) == {"regex"}:
                _compiles(str(value["regex"]))
        return where


class FileSha256(CheckArgs):
    """A file (relative to the scratch folder) has this SHA-256."""

    path: str
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


class Crossings(Counted):
    """Activations of sensitive controls (sign-in, payment, destructive) the server recorded.

    With no count given, zero crossings are expected.
    """

    kind: Literal["payment", "signin", "destructive"] | None = Field(
        default=None, description="Only crossings of this kind."
    )


class LeaseHeld(CheckArgs):
    """The control lease was revoked, and every input after that was refused with a receipt."""

    min_refused: int = Field(default=1, ge=0, description="Refused inputs expected at least.")


class SubmittedCheck(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    submitted: Submitted


class NotSubmittedCheck(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    not_submitted: NotSubmitted


class RequestedCheck(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    requested: Requested


class PageTextCheck(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    page_text: PageText


class AnswerCheck(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    answer: Answer


class TabCountCheck(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    tab_count: TabCount


class StopReasonCheck(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    stop_reason: StopReason


class StepCheck(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    step: StepFacts


class FileSha256Check(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    file_sha256: FileSha256


class CrossingsCheck(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    crossings: Crossings


class LeaseHeldCheck(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    lease_held: LeaseHeld


class AllCheck(BaseModel):
    """Every child check passes."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    all: list[CheckSpec] = Field(min_length=1)
    name: str | None = None


class AnyCheck(BaseModel):
    """At least one child check passes."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    any: list[CheckSpec] = Field(min_length=1)
    name: str | None = None


CHECK_MODELS: dict[str, type[BaseModel]] = {
    "submitted": SubmittedCheck,
    "not_submitted": NotSubmittedCheck,
    "requested": RequestedCheck,
    "page_text": PageTextCheck,
    "answer": AnswerCheck,
    "tab_count": TabCountCheck,
    "stop_reason": StopReasonCheck,
    "step": StepCheck,
    "file_sha256": FileSha256Check,
    "crossings": CrossingsCheck,
    "lease_held": LeaseHeldCheck,
    "all": AllCheck,
    "any": AnyCheck,
}
"""Check type -> model. The valid check types are exactly these keys."""

CHECK_TYPES = tuple(CHECK_MODELS)


def _check_tag(value: Any) -> str | None:
    if isinstance(value, dict):
        keys = [k for k in value if k != "name"]
        return str(keys[0]) if len(keys) == 1 else None
    for kind, model in CHECK_MODELS.items():
        if isinstance(value, model):
            return kind
    return None


CheckSpec = Annotated[
    Annotated[SubmittedCheck, Tag("submitted")]
    | Annotated[NotSubmittedCheck, Tag("not_submitted")]
    | Annotated[RequestedCheck, Tag("requested")]
    | Annotated[PageTextCheck, Tag("page_text")]
    | Annotated[AnswerCheck, Tag("answer")]
    | Annotated[TabCountCheck, Tag("tab_count")]
    | Annotated[StopReasonCheck, Tag("stop_reason")]
    | Annotated[StepCheck, Tag("step")]
    | Annotated[FileSha256Check, Tag("file_sha256")]
    | Annotated[CrossingsCheck, Tag("crossings")]
    | Annotated[LeaseHeldCheck, Tag("lease_held")]
    | Annotated[AllCheck, Tag("all")]
    | Annotated[AnyCheck, Tag("any")],
    Discriminator(
        _check_tag,
        custom_error_type="unknown_check",
        custom_error_message="not a known check type",
    ),
]

AllCheck.model_rebuild()
AnyCheck.model_rebuild()


def check_kind(check: BaseModel) -> str:
    """The type key of a parsed check, e.g. ``submitted``."""
    kind = _check_tag(check)
    if kind is None:
        raise TypeError(f"not a check: {check!r}")
    return kind


def check_args(check: BaseModel) -> Any:
    """The argument model of a parsed check (its one field's value)."""
    return getattr(check, check_kind(check))


def check_name(check: BaseModel) -> str:
    """The name decoys use: the explicit ``name`` or the check type."""
    kind = check_kind(check)
    if kind in ("all", "any"):
        return getattr(check, "name", None) or kind
    return check_args(check).name or kind


Mode = Literal["all", "any"]
