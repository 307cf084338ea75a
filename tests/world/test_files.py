"""File fixtures: builders give the documented bytes, seeding records originals, snapshots read documents."""  # noqa: E501

from __future__ import annotations

import csv
import hashlib
import io
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError
from pypdf import PdfReader

from proctor.errors import WorldError
from proctor.scenario import FileSeed
from proctor.scenario._files import Generated
from proctor.world import seed_scratch, snapshot_dirs, snapshot_files
from proctor.world.files import (
    csv_rows,
    generated_bytes,
    html_outline,
    pdf_bytes,
    pdf_pages,
    rich_outline,
    rtf_outline,
)

GENERATED: TypeAdapter[Any] = TypeAdapter(Generated)

TWELVE = [f"Line {n:02d}: caf\u00e9 \u2014 \u00fcber {'x' * n}" for n in range(1, 13)]

PAGES = [
    ["Quarterly statement", "Account 4471", "Opening balance 1,200.00"],
    ["Transactions", "03-04 Paper & Co. -42.80"],
    ["Fees", "Monthly account fee -5.00"],
    ["Summary", "Closing balance 1,152.20", "Thank you \u2014 Ledgerly"],
]

RICH: dict[str, Any] = {
    "kind": "rich_text",
    "title": "Trip plan",
    "blocks": [
        {"heading": "Trip plan \u2014 Lisbon"},
        {"paragraph": "Three days in May; braces {like} and \\ stay literal."},
        {"list": ["Book the hotel", "Rent a car \U0001f697"]},
        {"heading": "Budget", "level": 2},
        {"list": ["Flights", "Food & drink"], "ordered": True},
    ],
}


def gen(data: dict[str, Any]) -> bytes:
    return generated_bytes(GENERATED.validate_python(data))


def test_text_lines_are_twelve_utf8_lines_each_ending_with_lf() -> None:
    data = gen({"kind": "text_lines", "lines": TWELVE})
    assert data == ("\n".join(TWELVE) + "\n").encode("utf-8")
    assert data.decode("utf-8").splitlines() == TWELVE
    assert data.count(b"\n") == 12


def test_the_pdf_has_four_pages_in_order_and_a_stable_hash() -> None:
    first = gen({"kind": "pdf", "pages": PAGES, "title": "Statement"})
    again = pdf_bytes(PAGES, "Statement")
    assert first.startswith(b"%PDF-")
    assert hashlib.sha256(first).hexdigest() == hashlib.sha256(again).hexdigest()
    reader = PdfReader(io.BytesIO(first))
    assert len(reader.pages) == 4
    for page, lines in zip(reader.pages, PAGES, strict=True):
        assert page.extract_text().splitlines() == lines
    assert reader.metadata is not None
    assert reader.metadata.title == "Statement"
    assert reader.metadata.author == "proctor"
    # another title is another document
    assert pdf_bytes(PAGES, "Other") != first


def test_pdf_pages_reads_back_each_page_and_refuses_junk() -> None:
    assert [p.splitlines() for p in pdf_pages(pdf_bytes(PAGES)) or []] == PAGES
    assert pdf_pages(b"%PDF-1.4 not really") is None
    assert pdf_pages(b"hello") is None


def test_csv_quotes_what_needs_it_and_parses_back() -> None:
    spec = {
        "kind": "csv",
        "header": ["date", "description", "amount"],
        "rows": [
            ["2024-03-04", "Paper & Co., printer paper", -42.8],
            ["2024-03-11", 'Refund "INV-3307"', 310],
        ],
    }
    data = gen(spec)
    assert data == (
        b"date,description,amount\n"
        b'2024-03-04,"Paper & Co., printer paper",-42.8\n'
        b'2024-03-11,"Refund ""INV-3307""",310\n'
    )
    rows = list(csv.reader(io.StringIO(data.decode("utf-8"))))
    assert rows == [
        ["date", "description", "amount"],
        ["2024-03-04", "Paper & Co., printer paper", "-42.8"],
        ["2024-03-11", 'Refund "INV-3307"', "310"],
    ]
    assert csv_rows(data.decode("utf-8")) == rows
    semi = gen({"kind": "csv", "header": ["a", "b"], "rows": [["1", "2"]], "delimiter": ";"})
    assert semi == b"a;b\n1;2\n"
    assert csv_rows(semi.decode()) == [["a", "b"], ["1", "2"]]


def test_csv_cells_refuse_yaml_booleans() -> None:
    with pytest.raises(ValidationError):
        GENERATED.validate_python({"kind": "csv", "rows": [[True]]})


def test_html_has_the_headings_and_lists() -> None:
    data = gen({**RICH, "format": "html"})
    text = data.decode("utf-8")
    assert "<h1>Trip plan \u2014 Lisbon</h1>" in text
    assert "<h2>Budget</h2>" in text
    assert "<ul>\n<li>Book the hotel</li>\n<li>Rent a car \U0001f697</li>\n</ul>" in text
    assert "<ol>\n<li>Flights</li>\n<li>Food &amp; drink</li>\n</ol>" in text
    assert "<title>Trip plan</title>" in text
    outline = html_outline(text)
    assert outline.headings == ["Trip plan \u2014 Lisbon", "Budget"]
    assert outline.list_items == [
        "Book the hotel",
        "Rent a car \U0001f697",
        "Flights",
        "Food & drink",
    ]


def test_rtf_has_the_headings_and_lists() -> None:
    data = gen({**RICH, "format": "rtf"})
    text = data.decode("ascii")
    assert text.startswith("{\\rtf1\\ansi")
    assert "{\\pard\\outlinelevel0\\b\\fs40 Trip plan \\u8212? Lisbon\\b0\\par}" in text
    assert "{\\pntext \\bullet\\tab}Book the hotel\\par}" in text
    assert "{\\pntext 2.\\tab}Food & drink\\par}" in text
    assert "braces \\{like\\} and \\\\ stay" in text
    outline = rtf_outline(text)
    assert outline.headings == ["Trip plan \u2014 Lisbon", "Budget"]
    assert outline.list_items == [
        "Book the hotel",
        "Rent a car \U0001f697",
        "Flights",
        "Food & drink",
    ]


def test_rtf_outline_reads_a_word_processor_style_list() -> None:
    text = (
        "{\\rtf1\\ansi{\\fonttbl\\f0\\fswiss Helvetica;}{\\*\\listtable{\\list{\\leveltext"
        " \\'01\\uc0\\u8226 ;}}}\n"
        "\\pard\\outlinelevel0\\b Groceries\\b0\\par\n"
        "\\pard\\li720\\ls1 {\\listtext\t\\uc0\\u8226\t}Milk\\\n"
        "Caf\\'e9 beans \\uc0\\u8212  dark\\par\n"
        "\\pard Not a list\\par}"
    )
    outline = rtf_outline(text)
    assert outline.headings == ["Groceries"]
    assert outline.list_items == ["Milk", "Caf\u00e9 beans \u2014 dark"]


def test_html_outline_closes_implicit_items_in_document_order() -> None:
    outline = html_outline("<ul><li>a<li>b<ul><li>b1</ul><li>c</ul><h3> X <b>y</b> </h3>")
    assert outline.headings == ["X y"]
    assert outline.list_items == ["a", "b", "b1", "c"]
    assert rich_outline(b"<h1>t</h1>", "notes.txt") is None


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "pdf", "pages": [["\u4e2d\u6587"]]}, "standard font"),
        ({"kind": "pdf", "pages": [["x"] * 49]}, "a page holds 48"),
        ({"kind": "pdf", "pages": [["two\nlines"]]}, "one line"),
        ({"kind": "text_lines", "lines": ["a\nb"]}, "one line"),
        ({"kind": "rich_text", "blocks": [{"quote": "x"}]}, "a block is"),
        ({"kind": "zip", "files": []}, "kind"),
    ],
)
def test_bad_specs_are_refused_with_a_reason(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError) as info:
        GENERATED.validate_python(data)
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("seed", "message"),
    [
        ({"path": "a.txt"}, "exactly one of text, base64, generate or tree"),
        ({"path": "a.txt", "text": "x", "tree": {}}, "exactly one of"),
        ({"path": "d", "tree": {"a.txt": "plain"}}, "end the name with / for a folder"),
        ({"path": "d", "tree": {"x/": {"a.txt": {}}}}, "x/a.txt: give exactly one of"),
        ({"path": "d", "tree": {"x/y/": {}}}, "one name per level"),
        ({"path": "../up.txt", "text": "x"}, "inside the scratch folder"),
    ],
)
def test_bad_file_seeds_name_the_entry(seed: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError) as info:
        FileSeed.model_validate(seed)
    assert message in str(info.value)


def seeds() -> list[FileSeed]:
    return [
        FileSeed.model_validate(s)
        for s in [
            {"path": "notes.txt", "generate": {"kind": "text_lines", "lines": TWELVE}},
            {"path": "docs/statement.pdf", "generate": {"kind": "pdf", "pages": PAGES}},
            {"path": "plan.html", "generate": {**RICH, "format": "html"}},
            {
                "path": "archive",
                "tree": {
                    "readme.txt": {"text": "hello\n"},
                    "2024/": {
                        "q1.csv": {
                            "generate": {"kind": "csv", "header": ["a", "b"], "rows": [[1, 2]]}
                        },
                        "plan.rtf": {"generate": {**RICH, "format": "rtf"}},
                        "empty/": {},
                    },
                    "raw.bin": {"base64": "AAEC"},
                },
            },
        ]
    ]


def test_seeding_writes_every_entry_and_records_original_hashes(tmp_path: Path) -> None:
    scratch = tmp_path / "scratch"
    originals = seed_scratch(scratch, seeds(), dirs=["inbox"])
    assert sorted(originals) == [
        "archive/2024/plan.rtf",
        "archive/2024/q1.csv",
        "archive/raw.bin",
        "archive/readme.txt",
        "docs/statement.pdf",
        "notes.txt",
        "plan.html",
    ]
    for rel, digest in originals.items():
        assert hashlib.sha256((scratch / rel).read_bytes()).hexdigest() == digest
    assert (scratch / "archive/raw.bin").read_bytes() == b"\x00\x01\x02"
    assert (scratch / "archive/2024/q1.csv").read_bytes() == b"a,b\n1,2\n"
    assert (scratch / "archive/2024/empty").is_dir()
    # the same spec in another folder gives the same bytes
    assert seed_scratch(tmp_path / "again", seeds()) == originals


def test_bad_base64_in_a_tree_is_a_world_error_naming_the_file(tmp_path: Path) -> None:
    seed = FileSeed.model_validate({"path": "d", "tree": {"x.bin": {"base64": "!!"}}})
    with pytest.raises(WorldError, match=r"file d/x\.bin: base64"):
        seed_scratch(tmp_path / "s", [seed])


def test_the_snapshot_keeps_document_facts_for_grading_without_the_disk(tmp_path: Path) -> None:
    scratch = tmp_path / "scratch"
    originals = seed_scratch(scratch, seeds(), dirs=["inbox"])
    facts = snapshot_files(scratch)
    assert {k: v.sha256 for k, v in facts.items()} == originals
    pdf = facts["docs/statement.pdf"]
    assert pdf.text is None
    assert [p.splitlines() for p in pdf.pages or []] == PAGES
    assert facts["archive/2024/q1.csv"].rows == [["a", "b"], ["1", "2"]]
    html = facts["plan.html"]
    assert html.headings == ["Trip plan \u2014 Lisbon", "Budget"]
    assert html.list_items == ["Book the hotel", "Rent a car \U0001f697", "Flights", "Food & drink"]
    assert facts["archive/2024/plan.rtf"].headings == html.headings
    assert facts["archive/2024/plan.rtf"].list_items == html.list_items
    assert facts["notes.txt"].text == "\n".join(TWELVE) + "\n"
    assert facts["notes.txt"].pages is None and facts["notes.txt"].rows is None
    assert snapshot_dirs(scratch) == [
        "archive",
        "archive/2024",
        "archive/2024/empty",
        "docs",
        "inbox",
        "output",
    ]
