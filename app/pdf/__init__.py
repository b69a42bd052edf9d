"""MediVisit's business documents as PDF (issue 14: receipts, monthly statements, invoices), with fpdf2.

One layout for all three: the wordmark and legal suffix as the site shows them, the document's title,
number and status, its dates, the parties (from / to), one or more tables of lines with their totals,
notes, and a footer with the page number. Callers describe a `Document`; `render` returns the PDF's bytes.

Text is set in Liberation Sans 2.1 (SIL Open Font License 1.1, the unmodified TTFs and the licence in
`fonts/`), embedded and subset by fpdf2: it covers Latin (with Latin-1 and the Latin Extended blocks), Greek
and Cyrillic, so names such as "Zoë Łukasiewicz" or "Дмитрий" print as typed. A character the font has
no glyph for (CJK, Arabic, emoji …) is first decomposed (NFKD: "ﬁ" → "fi", full-width letters → ASCII);
what is still missing prints as "?" rather than vanishing silently. Money is formatted like the screens'
`format_money` (two decimals, "-$5.00").
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from pathlib import Path

FONTS = Path(__file__).parent / "fonts"
FAMILY = "LiberationSans"
LEGAL_SUFFIX = "Medical Services, LLC"  # as the site's logo shows it (components/frame/nav.py)
BRAND = (15, 118, 110)  # --brand of static/css/app.css
INK = (15, 23, 42)  # --text
MUTED = (71, 85, 105)  # --text-muted
RULE = (226, 232, 240)  # --border
ZEBRA = (248, 250, 252)
HEAD_FILL = (240, 253, 250)
MISSING = "?"


def format_money(amount: Decimal | int | float) -> str:
    """Like components/format.py's: always two decimals — $120.00, $89.50, -$5.00 (a test keeps them equal)."""
    value = Decimal(str(amount)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    sign = "-" if value < 0 else ""
    return f"{sign}${abs(value):,.2f}"


def money_cents(cents: int) -> str:
    return format_money(Decimal(cents) / 100)


@cache
def _covered() -> frozenset[int]:
    from fontTools.ttLib import TTFont  # fpdf2's own dependency

    with TTFont(FONTS / "LiberationSans-Regular.ttf", lazy=True) as font:
        return frozenset(font.getBestCmap())


def printable(text: str) -> str:
    """`text` with every character the font cannot draw decomposed, or replaced by '?'."""
    covered = _covered()
    out: list[str] = []
    for char in str(text):
        if ord(char) in covered or char in "\n\t":
            out.append(char)
            continue
        decomposed = unicodedata.normalize("NFKD", char)
        kept = "".join(c for c in decomposed if ord(c) in covered and not unicodedata.combining(c))
        out.append(kept or MISSING)
    return "".join(out)


@dataclass(frozen=True)
class PdfFile:
    """A rendered document: what a download or an e-mail attachment needs."""

    filename: str
    content: bytes
    media_type: str = "application/pdf"


@dataclass(frozen=True)
class Party:
    """One side of the document: 'From' / 'Billed to' and its lines (name first)."""

    label: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Column:
    heading: str
    width: float  # a share of the page's width (the shares of a table are scaled to fill it)
    align: str = "LEFT"  # LEFT or RIGHT (amounts)


@dataclass(frozen=True)
class Table:
    heading: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[str, ...], ...]
    totals: tuple[tuple[str, str], ...] = ()  # (label, amount); the last one is the grand total
    empty: str = "Nothing to show."


@dataclass(frozen=True)
class Document:
    title: str  # "Receipt", "Monthly statement", "Invoice"
    number: str  # the order number, the month, the invoice number
    dates: tuple[tuple[str, str], ...]  # (label, formatted date)
    parties: tuple[Party, ...]
    tables: tuple[Table, ...]
    status: str = ""  # "Paid", "Draft", "Void" …
    notes: tuple[str, ...] = ()
    summary: tuple[tuple[str, str], ...] = field(default=())  # key figures above the tables


def render(document: Document) -> bytes:
    """The document as a PDF (US Letter, portrait)."""
    # fpdf2 brings fontTools and Pillow (about a second to import): only a process that draws a PDF pays it,
    # not every command-line run and server start.
    from app.pdf._drawing import draw

    return draw(document)
