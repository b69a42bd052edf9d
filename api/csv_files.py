"""CSV downloads (wallet history, revenue reports): cells a spreadsheet will not run, and the attachment
response every CSV endpoint answers with (never cached, never sniffed)."""

from __future__ import annotations

from fastapi.responses import Response


def safe_cell(text: str) -> str:
    """A text cell a spreadsheet will not run as a formula (OWASP CSV injection)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def csv_attachment(text: str, filename: str) -> Response:
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="{filename}"',
            "Cache-Control": "private, no-store",
            "X-Content-Type-Options": "nosniff",
        },
    )
