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
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from pathlib import Path

from fpdf import FPDF, FontFace
from fpdf.enums import TableBordersLayout, TableCellFillMode, XPos, YPos

from app.settings import get_settings

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


class _Pdf(FPDF):
    footer_text = ""

    def footer(self) -> None:
        self.set_y(-15)
        self.set_draw_color(*RULE)
        self.line(self.l_margin, self.get_y() - 2, self.w - self.r_margin, self.get_y() - 2)
        self.set_font(FAMILY, size=8)
        self.set_text_color(*MUTED)
        self.cell(0, 5, self.footer_text, align="L")
        self.set_x(self.l_margin)
        self.cell(0, 5, f"Page {self.page_no()} of {{nb}}", align="R")


def _font(pdf: FPDF, size: float, *, bold: bool = False, color: tuple[int, int, int] = INK) -> None:
    pdf.set_font(FAMILY, "B" if bold else "", size)
    pdf.set_text_color(*color)


def _header(pdf: _Pdf, document: Document, brand: str) -> None:
    top = pdf.get_y()
    _font(pdf, 20, bold=True, color=BRAND)
    pdf.cell(pdf.get_string_width(printable(brand)) + 1, 9, printable(brand))
    _font(pdf, 9, color=MUTED)
    pdf.cell(0, 9, LEGAL_SUFFIX, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    right = pdf.w - pdf.r_margin
    pdf.set_xy(right - 80, top)
    _font(pdf, 18, bold=True)
    pdf.cell(80, 9, printable(document.title), align="R", new_x=XPos.LEFT, new_y=YPos.NEXT)
    pdf.set_x(right - 80)
    _font(pdf, 10, color=MUTED)
    pdf.cell(80, 6, printable(document.number), align="R", new_x=XPos.LEFT, new_y=YPos.NEXT)
    if document.status:
        pdf.set_x(right - 80)
        _font(pdf, 10, bold=True, color=BRAND)
        pdf.cell(80, 6, printable(document.status.upper()), align="R")
    pdf.set_y(top + 24)
    pdf.set_draw_color(*BRAND)
    pdf.set_line_width(0.6)
    pdf.line(pdf.l_margin, pdf.get_y(), right, pdf.get_y())
    pdf.set_line_width(0.2)
    pdf.ln(5)


def _pairs(pdf: FPDF, pairs: Sequence[tuple[str, str]], *, columns: int = 3) -> None:
    """Label / value pairs side by side (dates, key figures)."""
    if not pairs:
        return
    width = (pdf.w - pdf.l_margin - pdf.r_margin) / columns
    for start in range(0, len(pairs), columns):
        row = pairs[start : start + columns]
        y = pdf.get_y()
        for index, (label, value) in enumerate(row):
            pdf.set_xy(pdf.l_margin + index * width, y)
            _font(pdf, 8, color=MUTED)
            pdf.cell(width, 5, printable(label).upper(), new_x=XPos.LEFT, new_y=YPos.NEXT)
            _font(pdf, 11, bold=True)
            pdf.cell(width - 2, 6, printable(value))
        pdf.set_xy(pdf.l_margin, y + 13)
    pdf.ln(1)


def _parties(pdf: FPDF, parties: Sequence[Party]) -> None:
    if not parties:
        return
    width = (pdf.w - pdf.l_margin - pdf.r_margin) / max(len(parties), 2)
    top, bottom = pdf.get_y(), pdf.get_y()
    for index, party in enumerate(parties):
        x = pdf.l_margin + index * width
        pdf.set_xy(x, top)
        _font(pdf, 8, color=MUTED)
        pdf.cell(width, 5, printable(party.label).upper(), new_x=XPos.LEFT, new_y=YPos.NEXT)
        for number, line in enumerate(party.lines):
            _font(pdf, 10, bold=number == 0)
            pdf.set_x(x)
            pdf.multi_cell(width - 4, 5, printable(line), new_x=XPos.LEFT, new_y=YPos.NEXT)
        bottom = max(bottom, pdf.get_y())
    pdf.set_xy(pdf.l_margin, bottom + 5)


def _table(pdf: FPDF, table: Table) -> None:
    _font(pdf, 11, bold=True)
    pdf.cell(0, 7, printable(table.heading), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    _font(pdf, 9)
    if not table.rows:
        _font(pdf, 9, color=MUTED)
        pdf.multi_cell(0, 5, printable(table.empty), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    else:
        pdf.set_draw_color(*RULE)
        with pdf.table(
            col_widths=tuple(c.width for c in table.columns),
            text_align=tuple(c.align for c in table.columns),
            borders_layout=TableBordersLayout.HORIZONTAL_LINES,
            headings_style=FontFace(emphasis="BOLD", color=INK, fill_color=HEAD_FILL),
            cell_fill_color=ZEBRA,
            cell_fill_mode=TableCellFillMode.EVEN_ROWS,
            line_height=5.5,
            padding=(1.5, 2),
        ) as grid:
            grid.row([printable(c.heading) for c in table.columns])
            for row in table.rows:
                grid.row([printable(cell) for cell in row])
    if table.totals:
        pdf.ln(2)
        right = pdf.w - pdf.r_margin
        for index, (label, amount) in enumerate(table.totals):
            grand = index == len(table.totals) - 1
            if grand and len(table.totals) > 1:
                pdf.set_draw_color(*INK)
                pdf.line(right - 80, pdf.get_y(), right, pdf.get_y())
            pdf.set_x(right - 80)
            _font(pdf, 11 if grand else 9.5, bold=grand)
            pdf.cell(50, 6.5 if grand else 5.5, printable(label))
            pdf.cell(
                30, 6.5 if grand else 5.5, printable(amount), align="R", new_x=XPos.LMARGIN, new_y=YPos.NEXT
            )
    pdf.ln(5)


def render(document: Document) -> bytes:
    """The document as a PDF (US Letter, portrait)."""
    settings = get_settings()
    brand = settings.brand_name
    pdf = _Pdf(format="letter", unit="mm")
    pdf.set_margins(18, 16, 18)
    pdf.set_auto_page_break(True, margin=22)
    pdf.add_font(FAMILY, "", FONTS / "LiberationSans-Regular.ttf")
    pdf.add_font(FAMILY, "B", FONTS / "LiberationSans-Bold.ttf")
    pdf.set_title(printable(f"{document.title} {document.number}"))
    pdf.set_author(printable(f"{brand} {LEGAL_SUFFIX}"))
    pdf.set_creator(printable(brand))
    pdf.set_lang("en-US")
    pdf.footer_text = printable(f"{brand} {LEGAL_SUFFIX} · {settings.support_email}")
    pdf.add_page()
    _header(pdf, document, brand)
    _pairs(pdf, document.dates)
    _parties(pdf, document.parties)
    if document.summary:
        _pairs(pdf, document.summary, columns=min(len(document.summary), 4))
    for table in document.tables:
        _table(pdf, table)
    for note in document.notes:
        _font(pdf, 9, color=MUTED)
        pdf.multi_cell(0, 4.8, printable(note), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.ln(1.5)
    return bytes(pdf.output())
