"""The drawing of a `Document` with fpdf2: the page, the header, the pairs, the parties, the tables and the
footer (app/pdf/__init__.py says what the layout is; it imports this module only to draw)."""

from __future__ import annotations

from collections.abc import Sequence

from fpdf import FPDF, FontFace
from fpdf.enums import TableBordersLayout, TableCellFillMode, XPos, YPos

from app.pdf import (
    BRAND,
    FAMILY,
    FONTS,
    HEAD_FILL,
    INK,
    LEGAL_SUFFIX,
    MUTED,
    RULE,
    ZEBRA,
    Document,
    Party,
    Table,
    printable,
)
from app.settings import get_settings


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


def draw(document: Document) -> bytes:
    """The document as a PDF (US Letter, portrait): `app.pdf.render`'s work."""
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
