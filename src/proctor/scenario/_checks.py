"""The check vocabulary as data: what a scenario may assert about the end state.

A check is a one-key mapping from its kind to its arguments, e.g.
``{submitted: {route: contact, fields: {email: a@b.test}}}``. ``CHECK_ARGS`` is
the one table of kinds: kind -> argument model. The one-key wrapper models
(``CHECK_MODELS``) and the ``CheckSpec`` union are generated from it, so a new
kind is one argument model, one entry here and one evaluator in
``proctor.grading`` (a test holds the three to the same set). Evaluation
lives in ``proctor.grading``; this module only says what is valid to write.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Union, cast

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, create_model

from proctor.scenario._check_args import (
    COMMON_KEYS,
    Answer,
    CheckArgs,
    Counted,
    Crossings,
    FieldValue,
    FileSha256,
    LeaseHeld,
    NotSubmitted,
    PageText,
    Pattern,
    Regex,
    Requested,
    SiteState,
    StepFacts,
    StopReasonMatch,
    Submitted,
    TabCount,
)
from proctor.scenario._check_args_apps import (
    CellExpect,
    ChatPosted,
    DraftExists,
    EventExists,
    MailMatch,
    MailSent,
    NothingSent,
    SheetCells,
)
from proctor.scenario._check_args_calendar import EventDeleted, EventMoved
from proctor.scenario._check_args_desktop import (
    DesktopAlive,
    DesktopFrontmost,
    DesktopValue,
    MiniwobReward,
)
from proctor.scenario._check_args_files import (
    ApprovalRequestedBefore,
    Asked,
    CsvFacts,
    DirListing,
    FileExists,
    FileText,
    FileUnchanged,
    NoSecretInMessages,
    PdfFacts,
    RichTextFacts,
)
from proctor.scenario._check_args_live import LiveRead, StableRead
from proctor.scenario._check_args_mail import (
    AttachmentExpect,
    MailInFolder,
    MailRuleExists,
    MailSelect,
    MessageLabels,
)
from proctor.scenario._check_args_play import Answered, IdleAfterStop
from proctor.vocab import CheckKind, LeafCheckKind

__all__ = [
    "CHECK_ARGS",
    "CHECK_MODELS",
    "CHECK_TYPES",
    "COMMON_KEYS",
    "AfterEvent",
    "AfterEventCheck",
    "AllCheck",
    "Answer",
    "Answered",
    "AnyCheck",
    "ApprovalRequestedBefore",
    "Asked",
    "AttachmentExpect",
    "CellExpect",
    "ChatPosted",
    "Check",
    "CheckArgs",
    "CheckSpec",
    "Counted",
    "Crossings",
    "CsvFacts",
    "DesktopAlive",
    "DesktopFrontmost",
    "DesktopValue",
    "DirListing",
    "DraftExists",
    "EventDeleted",
    "EventExists",
    "EventMoved",
    "FieldValue",
    "FileExists",
    "FileSha256",
    "FileText",
    "FileUnchanged",
    "IdleAfterStop",
    "LeaseHeld",
    "LiveRead",
    "MailInFolder",
    "MailMatch",
    "MailRuleExists",
    "MailSelect",
    "MailSent",
    "MessageLabels",
    "MiniwobReward",
    "NoSecretInMessages",
    "NotSubmitted",
    "NothingSent",
    "PageText",
    "Pattern",
    "PdfFacts",
    "Regex",
    "Requested",
    "RichTextFacts",
    "SheetCells",
    "SiteState",
    "StableRead",
    "StepFacts",
    "StopReasonMatch",
    "Submitted",
    "TabCount",
    "check_args",
    "check_kind",
    "check_name",
    "check_safety",
    "safety_check_names",
]

CHECK_ARGS: dict[LeafCheckKind, type[CheckArgs]] = {
    "submitted": Submitted,
    "not_submitted": NotSubmitted,
    "requested": Requested,
    "page_text": PageText,
    "answer": Answer,
    "tab_count": TabCount,
    "stop_reason": StopReasonMatch,
    "step": StepFacts,
    "file_sha256": FileSha256,
    "crossings": Crossings,
    "lease_held": LeaseHeld,
    "site_state": SiteState,
    "mail_sent": MailSent,
    "draft_exists": DraftExists,
    "nothing_sent": NothingSent,
    "mail_in_folder": MailInFolder,
    "message_labels": MessageLabels,
    "mail_rule_exists": MailRuleExists,
    "event_exists": EventExists,
    "event_moved": EventMoved,
    "event_deleted": EventDeleted,
    "sheet_cells": SheetCells,
    "chat_posted": ChatPosted,
    "file_unchanged": FileUnchanged,
    "file_exists": FileExists,
    "file_text": FileText,
    "pdf": PdfFacts,
    "csv": CsvFacts,
    "rich_text": RichTextFacts,
    "dir_listing": DirListing,
    "approval_requested_before": ApprovalRequestedBefore,
    "asked": Asked,
    "answered": Answered,
    "idle_after_stop": IdleAfterStop,
    "no_secret_in_messages": NoSecretInMessages,
    "desktop_value": DesktopValue,
    "desktop_frontmost": DesktopFrontmost,
    "desktop_alive": DesktopAlive,
    "miniwob_reward": MiniwobReward,
    "live_read": LiveRead,
}
"""Check kind -> its argument model: the one list of the leaf check kinds."""


class Check(BaseModel):
    """A parsed check: a one-key mapping from its ``kind`` to its arguments."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: ClassVar[CheckKind]


def _wrapper(kind: LeafCheckKind, args: type[CheckArgs]) -> type[Check]:
    """The one-key model ``{kind: args}``, named like ``SubmittedCheck``."""
    name = "".join(part.title() for part in kind.split("_")) + "Check"
    fields: dict[str, Any] = {kind: (args, ...)}
    model = create_model(name, __base__=Check, __module__=__name__, **fields)
    model.kind = kind
    globals()[name] = model  # importable by name, so a parsed scenario pickles to a worker
    return model


class AllCheck(Check):
    """Every child check passes."""

    kind: ClassVar[CheckKind] = "all"
    all: list[CheckSpec] = Field(min_length=1)
    name: str | None = None
    safety: bool = False


class AnyCheck(Check):
    """At least one child check passes."""

    kind: ClassVar[CheckKind] = "any"
    any: list[CheckSpec] = Field(min_length=1)
    name: str | None = None
    safety: bool = False


class AfterEvent(CheckArgs):
    """A check evaluated on the world as it was right after a timeline event fired.

    ``{after_event: {event: go, check: {nothing_sent: {}}}}``. The world then: the
    requests and steps up to that moment, the apps' state, the scratch files and
    what passed with the user; the page (url, text, tabs) and the answer are not
    kept, so checks that read them see nothing. An event that never fired fails.
    """

    event: str = Field(description="The timeline event's name.")
    check: CheckSpec = Field(description="The check to evaluate then.")


class AfterEventCheck(Check):
    """``{after_event: {event, check}}``: a check on the world right after an event."""

    kind: ClassVar[CheckKind] = "after_event"
    after_event: AfterEvent


CHECK_MODELS: dict[CheckKind, type[Check]] = {
    **{kind: _wrapper(kind, args) for kind, args in CHECK_ARGS.items()},
    "all": AllCheck,
    "any": AnyCheck,
    "after_event": AfterEventCheck,
}
"""Check type -> model. The valid check types are exactly these keys."""

CHECK_TYPES = tuple(CHECK_MODELS)


def _check_tag(value: Any) -> str | None:
    if isinstance(value, dict):
        keys = [k for k in value if k not in COMMON_KEYS]
        return str(keys[0]) if len(keys) == 1 else None
    if isinstance(value, Check):
        return value.kind
    return None


if TYPE_CHECKING:
    CheckSpec = Check
else:
    CheckSpec = Annotated[
        Union[tuple(Annotated[model, Tag(kind)] for kind, model in CHECK_MODELS.items())],  # noqa: UP007
        Discriminator(
            _check_tag,
            custom_error_type="unknown_check",
            custom_error_message="not a known check type",
        ),
    ]
    """Any check: the tagged union of ``CHECK_MODELS``, by the one key that is not name/safety."""

AllCheck.model_rebuild()
AnyCheck.model_rebuild()
AfterEvent.model_rebuild()
AfterEventCheck.model_rebuild()


def check_kind(check: BaseModel) -> CheckKind:
    """The type key of a parsed check, e.g. ``submitted``."""
    if not isinstance(check, Check):
        raise TypeError(f"not a check: {check!r}")
    return check.kind


def check_args(check: BaseModel) -> Any:
    """The argument model of a parsed check (its one field's value)."""
    return getattr(check, check_kind(check))


def check_name(check: BaseModel) -> str:
    """The name decoys use: the explicit ``name`` or the check type."""
    kind = check_kind(check)
    if isinstance(check, AllCheck | AnyCheck):
        return check.name or kind
    return cast(CheckArgs, check_args(check)).name or kind


def check_safety(check: BaseModel) -> bool:
    """Whether the scenario marks the check ``safety: true`` (a coded safety check)."""
    if isinstance(check, AllCheck | AnyCheck):
        return check.safety
    return cast(CheckArgs, check_args(check)).safety


def safety_check_names(checks: Sequence[BaseModel]) -> list[str]:
    """Names of the checks marked ``safety: true``, those inside ``all``/``any`` included."""
    names: list[str] = []
    for check in checks:
        if check_safety(check):
            names.append(check_name(check))
        if isinstance(check, AllCheck | AnyCheck):
            names.extend(
                safety_check_names(check.all if isinstance(check, AllCheck) else check.any)
            )
    return names
