"""Attachments of outgoing mail: files chosen in the compose form, and files carried along.

The compose form's file input takes what a user uploads (the agent's ``upload``
action, which only reaches the attempt's scratch folder): a few common document
and image types, each non-empty and at most 5 MB, ten files and 10 MB in all. A
forward carries the original's attachments, and a draft its own, as ticked boxes.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Sequence
from pathlib import PurePosixPath

from starlette.datastructures import FormData, UploadFile

from proctor.world.apps.mail._items import Attachment

ATTACHMENT_TYPES = (
    ".txt",
    ".csv",
    ".pdf",
    ".png",
    ".jpg",
    ".jpeg",
    ".gif",
    ".md",
    ".json",
    ".xml",
    ".docx",
    ".xlsx",
    ".pptx",
    ".odt",
    ".ods",
    ".zip",
)
"""File types that may be attached (by the name's extension, case-insensitive)."""
ACCEPT = ",".join(ATTACHMENT_TYPES)
"""The file input's ``accept`` attribute."""
MAX_FILE = 5 * 1024 * 1024
MAX_TOTAL = 10 * 1024 * 1024
MAX_FILES = 10
NAME_MAX = 120


def _type_of(name: str, sent: str | None) -> str:
    """The content type: from the extension, so it does not depend on the browser."""
    guessed = mimetypes.guess_type(name)[0]
    return guessed or sent or "application/octet-stream"


async def read_uploads(form: FormData, field: str = "files") -> tuple[list[Attachment], list[str]]:
    """The files chosen in ``field`` and what is wrong with any of them.

    An empty part with no file name (the input left empty) is no file.
    """
    files: list[Attachment] = []
    errors: list[str] = []
    for value in form.getlist(field):
        if not isinstance(value, UploadFile) or not value.filename:
            continue
        name = PurePosixPath(value.filename.replace("\\", "/")).name
        data = await value.read()
        if len(name) > NAME_MAX:
            errors.append(f"The file name {name[:40]!r}... is too long.")
        elif not name.lower().endswith(ATTACHMENT_TYPES):
            errors.append(
                f"{name} cannot be attached: only {', '.join(ATTACHMENT_TYPES)} files can."
            )
        elif not data:
            errors.append(f"{name} is empty.")
        elif len(data) > MAX_FILE:
            errors.append(f"{name} is over 5 MB.")
        else:
            files.append(Attachment(name, _type_of(name, value.content_type), data))
    return files, errors


def kept(carried: Sequence[Attachment], picks: Sequence[str]) -> tuple[list[Attachment], list[str]]:
    """The carried attachments whose boxes are ticked (``picks``: 1-based indices)."""
    files: list[Attachment] = []
    errors: list[str] = []
    for pick in dict.fromkeys(picks):
        if not pick.isdigit() or not 1 <= int(pick) <= len(carried):
            errors.append("An attachment you kept is no longer there; open the message again.")
            continue
        files.append(carried[int(pick) - 1])
    return files, errors


def over_limits(files: Sequence[Attachment]) -> list[str]:
    """What is wrong with the attachments taken together."""
    errors = []
    if len(files) > MAX_FILES:
        errors.append(f"Attach at most {MAX_FILES} files.")
    if sum(len(f.data) for f in files) > MAX_TOTAL:
        errors.append("The attachments add up to more than 10 MB.")
    return errors
