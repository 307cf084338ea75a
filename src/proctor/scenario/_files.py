"""File fixtures as data: what ``world.files`` may generate instead of giving raw bytes.

A ``FileSeed`` gives a file's content as ``text``, ``base64`` or ``generate``
(one of the models below, discriminated by ``kind``), or a whole folder as
``tree``. The bytes are built by ``proctor.world.files``; this module only says
what is valid to write.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    StrictFloat,
    StrictInt,
    StrictStr,
    Tag,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

PDF_LINES_PER_PAGE = 48
"""Most lines one generated PDF page holds (12 pt lines on an A4 page)."""


SCRATCH_PATHS = (
    "a relative path inside the scratch folder, folders separated by / "
    "(e.g. input/receipt.txt): not empty, not '.', no leading /, no .., "
    "no backslash, no control characters"
)
"""What a scratch path may be, as the loader's hints say it."""
SCRATCH_HINT = f"give {SCRATCH_PATHS}"


def _bad_char(text: str) -> str:
    """The first character a scratch path may not hold, or ''."""
    for char in text:
        if char == "\\" or unicodedata.category(char) == "Cc":
            return char
    return ""


def scratch_path_error(path: str, *, root: bool = False) -> str:
    """Why ``path`` is not a scratch-relative path, or '' when it is one.

    ``root`` allows the scratch folder itself (``.``), as ``dir_listing`` does.
    """
    shown = repr(path if len(path) <= 60 else path[:57] + "...")
    char = _bad_char(path)
    if char == "\\":
        return f"path {shown} has a backslash; separate folders with /"
    if char:
        return f"path {shown} holds the control character {char!r}"
    if path.startswith("/"):
        return f"path {shown} is absolute; it must stay inside the scratch folder"
    parts = path.split("/")
    if ".." in parts:
        return f"path {shown} has a .. segment; it must stay inside the scratch folder"
    if not root and not [p for p in parts if p.strip() not in ("", ".")]:
        return f"path {shown} names no file or folder"
    return ""


def _scratch_path(path: str) -> str:
    error = scratch_path_error(path)
    if error:
        # the loader shows ctx["hint"] as the problem's hint
        raise PydanticCustomError("scratch_path", "{error}", {"error": error, "hint": SCRATCH_HINT})
    return path


ScratchPath = Annotated[str, AfterValidator(_scratch_path)]
"""A path relative to the scratch folder that cannot leave it (see ``scratch_path_error``)."""


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _one_line(value: str, what: str) -> str:
    if "\n" in value or "\r" in value:
        raise ValueError(f"{what} must be one line (no line breaks): {value[:40]!r}")
    return value


class TextLines(_Spec):
    """Plain UTF-8 text: each line followed by a newline (LF)."""

    kind: Literal["text_lines"]
    lines: list[str] = Field(min_length=1, description="The lines, without line breaks.")

    @field_validator("lines")
    @classmethod
    def _single(cls, lines: list[str]) -> list[str]:
        for i, line in enumerate(lines):
            _one_line(line, f"lines[{i}]")
        return lines


class Heading(_Spec):
    """A heading block; level 1 is the top."""

    heading: str
    level: int = Field(default=1, ge=1, le=6)


class Paragraph(_Spec):
    """A paragraph block."""

    paragraph: str


class ListBlock(_Spec):
    """A bulleted (or numbered) list block."""

    items: list[str] = Field(min_length=1, alias="list", description="The list's items.")
    ordered: bool = Field(default=False, description="Numbered instead of bulleted.")

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


def _block_tag(value: Any) -> str | None:
    if isinstance(value, dict):
        for key in ("heading", "paragraph", "list"):
            if key in value:
                return key
        return None
    if isinstance(value, Heading):
        return "heading"
    if isinstance(value, Paragraph):
        return "paragraph"
    return "list" if isinstance(value, ListBlock) else None


Block = Annotated[
    Annotated[Heading, Tag("heading")]
    | Annotated[Paragraph, Tag("paragraph")]
    | Annotated[ListBlock, Tag("list")],
    Discriminator(
        _block_tag,
        custom_error_type="unknown_block",
        custom_error_message="a block is {heading: ...}, {paragraph: ...} or {list: [...]}",
    ),
]


class RichText(_Spec):
    """A document with headings, paragraphs and lists, as HTML or RTF."""

    kind: Literal["rich_text"]
    format: Literal["html", "rtf"] = "html"
    title: str = Field(default="", description="HTML <title>; RTF \\title in the info group.")
    blocks: list[Block] = Field(min_length=1)


class Pdf(_Spec):
    """A real PDF (reportlab, A4, Helvetica 12 pt): one list of text lines per page.

    Text must be encodable as Windows-1252 (the standard PDF fonts' encoding).
    """

    kind: Literal["pdf"]
    pages: list[list[str]] = Field(min_length=1, description="Each page's lines, top to bottom.")
    title: str = Field(default="", description="The document's Title metadata.")

    @field_validator("pages")
    @classmethod
    def _fits(cls, pages: list[list[str]]) -> list[list[str]]:
        for p, lines in enumerate(pages):
            if len(lines) > PDF_LINES_PER_PAGE:
                raise ValueError(
                    f"pages[{p}] has {len(lines)} lines; a page holds {PDF_LINES_PER_PAGE}"
                )
            for i, line in enumerate(lines):
                _one_line(line, f"pages[{p}][{i}]")
                try:
                    line.encode("cp1252")
                except UnicodeEncodeError as exc:
                    raise ValueError(
                        f"pages[{p}][{i}] has {line[exc.start]!r}, which the PDF's standard "
                        "font cannot show (use Windows-1252 characters)"
                    ) from exc
        return pages


Cell = StrictStr | StrictInt | StrictFloat
"""A CSV cell: text or a number (quote YAML words like yes/no to keep them text)."""


class Csv(_Spec):
    """Comma-separated values (RFC 4180 quoting, LF line ends), header row first if given."""

    kind: Literal["csv"]
    header: list[str] | None = Field(default=None, description="The first row, if any.")
    rows: list[list[Cell]] = Field(default_factory=list, description="Data rows.")
    delimiter: Literal[",", ";", "\t"] = ","


Generated = Annotated[TextLines | RichText | Pdf | Csv, Field(discriminator="kind")]
"""What ``generate:`` may build."""

GENERATE_KINDS: tuple[str, ...] = ("text_lines", "rich_text", "pdf", "csv")
"""The ``kind`` values of ``generate:``."""


class FileContent(_Spec):
    """One file's content inside a ``tree``: exactly one of text, base64 or generate."""

    text: str | None = Field(default=None, description="UTF-8 content.")
    base64: str | None = Field(default=None, description="Binary content, base64.")
    generate: Generated | None = Field(default=None, description="Content built by a builder.")

    @model_validator(mode="after")
    def _one(self) -> FileContent:
        if sum(v is not None for v in (self.text, self.base64, self.generate)) != 1:
            raise ValueError("give exactly one of text, base64 or generate")
        return self


TreeEntry = tuple[str, FileContent | None]
"""A path relative to the tree's root, and its file content (None for a folder)."""


def parse_tree(node: Any, where: str = "") -> dict[str, Any]:
    """Validate a ``tree`` mapping: ``name: {...}`` is a file, ``name/: {...}`` a folder.

    Returns the same shape with every file's mapping parsed into ``FileContent``.

    Raises:
        ValueError: naming the entry (``2024/jan.pdf``) and what is wrong with it.
    """
    if not isinstance(node, dict):
        raise ValueError(f"{where or 'tree'}: a folder is a mapping of names to entries")
    out: dict[str, Any] = {}
    for name, value in node.items():
        if not isinstance(name, str) or not name.strip("/").strip():
            raise ValueError(f"{where}{name!r}: an entry needs a name")
        bare = name.rstrip("/")
        if "/" in bare or bare in (".", ".."):
            raise ValueError(f"{where}{name}: one name per level (nest folders instead)")
        char = _bad_char(name)
        if char:
            what = "a backslash" if char == "\\" else f"the control character {char!r}"
            raise ValueError(
                f"{where}{name!r}: a name may not hold {what} (a name is one file or folder "
                "name: no /, no backslash, no control characters)"
            )
        if name.endswith("/"):
            out[name] = parse_tree(value if value is not None else {}, f"{where}{name}")
            continue
        if isinstance(value, FileContent):
            out[name] = value
            continue
        if not isinstance(value, dict):
            raise ValueError(
                f"{where}{name}: a file is {{text: ...}}, {{base64: ...}} or {{generate: ...}}; "
                f"end the name with / for a folder"
            )
        try:
            out[name] = FileContent.model_validate(value)
        except ValidationError as exc:
            problems = "; ".join(
                (".".join(str(p) for p in e["loc"]) + ": " if e["loc"] else "")
                + e["msg"].removeprefix("Value error, ")
                for e in exc.errors(include_url=False)
            )
            raise ValueError(f"{where}{name}: {problems}") from None
    return out


def tree_entries(tree: dict[str, Any], prefix: str = "") -> list[TreeEntry]:
    """Every folder and file of a parsed tree, parents before children, in written order."""
    entries: list[TreeEntry] = []
    for name, value in tree.items():
        if name.endswith("/"):
            folder = prefix + name.rstrip("/")
            entries.append((folder, None))
            entries.extend(tree_entries(value, folder + "/"))
        else:
            entries.append((prefix + name, value))
    return entries
