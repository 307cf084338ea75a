"""The site toolkit: what every fixture site's handlers share.

- ``_http``: reading posts (forms, JSON), redirects, error answers;
- ``_sessions``: cookie sessions, the signed-in guard, per-visit noise;
- ``_format``: dates on the run clock, money, addresses, ids;
- ``_pdf``: deterministic PDFs.
"""

from proctor.world._kit._format import (
    addresses,
    fresh_ids,
    long_date,
    money,
    short_date,
    today,
)
from proctor.world._kit._http import (
    MAX_TEXT,
    BadJson,
    api_error,
    json_object,
    page_error,
    read_form,
    see_other,
    text_of,
)
from proctor.world._kit._pdf import Line, document, pdf, pdf_response, text_pdf
from proctor.world._kit._sessions import Sessions, requires_session, sessions_in

__all__ = [
    "MAX_TEXT",
    "BadJson",
    "Line",
    "Sessions",
    "addresses",
    "api_error",
    "document",
    "fresh_ids",
    "json_object",
    "long_date",
    "money",
    "page_error",
    "pdf",
    "pdf_response",
    "read_form",
    "requires_session",
    "see_other",
    "sessions_in",
    "short_date",
    "text_of",
    "text_pdf",
    "today",
]
