"""Uploaded files (help-desk attachments): which files are accepted, the name they keep, and where they live.

A file is accepted when its contents are one of the allowed types, told apart by their magic bytes (PNG,
JPEG, GIF, WebP, PDF) or by being plain UTF-8 text, and its name's extension agrees with those contents:
a renamed executable is refused whatever it is called. At most UPLOAD_MAX_BYTES (5 MB). A caller may name
other types (`check_upload(..., kinds=DOCUMENT_TYPES)`: CVs are PDF, Word or OpenDocument text, a Word or
ODT file recognised by its ZIP entries or, for the old .doc, its OLE2 header).

On disk a file is named only by a random storage key under UPLOAD_DIR (default var/uploads/), so nothing a
user typed ever reaches a path; the cleaned-up original name is kept in the database for downloads. The
interface (`save`, `path_of`, `remove`) is what an S3-compatible store would implement later.
"""

from __future__ import annotations

import asyncio
import io
import os
import re
import secrets
import unicodedata
import zipfile
from dataclasses import dataclass
from pathlib import Path

from app.settings import get_settings


@dataclass(frozen=True)
class FileType:
    content_type: str
    extensions: tuple[str, ...]


PNG = FileType("image/png", (".png",))
JPEG = FileType("image/jpeg", (".jpg", ".jpeg"))
GIF = FileType("image/gif", (".gif",))
WEBP = FileType("image/webp", (".webp",))
PDF = FileType("application/pdf", (".pdf",))
TEXT = FileType("text/plain", (".txt",))
ALLOWED_TYPES = (PNG, JPEG, GIF, WEBP, PDF, TEXT)
ALLOWED_EXTENSIONS = frozenset(ext for kind in ALLOWED_TYPES for ext in kind.extensions)
ALLOWED_DESCRIPTION = "PNG, JPEG, GIF, WebP, PDF and text files"
# `accept` attribute of the file inputs (a hint for the picker; the server decides).
ACCEPT = ",".join(sorted(ALLOWED_EXTENSIONS))
DOCX = FileType("application/vnd.openxmlformats-officedocument.wordprocessingml.document", (".docx",))
DOC = FileType("application/msword", (".doc",))
ODT = FileType("application/vnd.oasis.opendocument.text", (".odt",))
DOCUMENT_TYPES = (PDF, DOCX, DOC, ODT)
DOCUMENT_DESCRIPTION = "PDF, Word (.docx, .doc) and OpenDocument (.odt) files"
_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
# An ODT's first ZIP entry is the uncompressed file `mimetype` (OpenDocument 1.2, part 3, 3.3).
_ODT_HEADER = b"mimetype" + ODT.content_type.encode()

MAX_NAME = 120
_KEY = re.compile(r"^[0-9a-f]{32}$")
_UNSAFE_NAME_CHARACTERS = re.compile(r'[<>:"/\\|?*;]')
# Control characters allowed in a text file: tab, line feed, form feed, carriage return.
_TEXT_CONTROLS = frozenset("\t\n\f\r")


class UploadRejected(Exception):
    """Why a file was refused: `code` for machines (empty_file, too_large, unsupported_type), `message`
    for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def sniff(data: bytes) -> FileType | None:
    """The allowed type `data` is, judged by its contents only."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return PNG
    if data.startswith(b"\xff\xd8\xff"):
        return JPEG
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return GIF
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return WEBP
    if data.startswith(b"%PDF-"):
        return PDF
    return TEXT if _is_text(data) else None


def sniff_document(data: bytes) -> FileType | None:
    """PDF, DOCX, DOC or ODT, judged by the contents only (the ZIP's directory is read, nothing unpacked)."""
    if data.startswith(b"%PDF-"):
        return PDF
    if data.startswith(_OLE2):
        return DOC
    if not data.startswith(b"PK\x03\x04"):
        return None
    if data[30 : 30 + len(_ODT_HEADER)] == _ODT_HEADER:
        return ODT
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = set(archive.namelist())
    except (zipfile.BadZipFile, ValueError):
        return None
    return DOCX if {"[Content_Types].xml", "word/document.xml"} <= names else None


def _is_text(data: bytes) -> bool:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return False
    return not any(unicodedata.category(ch) == "Cc" and ch not in _TEXT_CONTROLS for ch in text)


def safe_filename(name: str, extension: str) -> str:
    """A display and download name: the last path part of `name`, without control or path characters,
    at most 120 characters, ending in `extension`."""
    base = unicodedata.normalize("NFC", name.replace("\\", "/").rsplit("/", 1)[-1])
    base = "".join(ch for ch in base if ch.isprintable())
    base = " ".join(_UNSAFE_NAME_CHARACTERS.sub("_", base).split()).strip(" .")
    stem = base[: -len(extension)] if base.lower().endswith(extension) else base
    stem = stem.strip(" .")[: MAX_NAME - len(extension)].rstrip(" .") or "attachment"
    return stem + extension


def check_upload(
    filename: str, data: bytes, *, kinds: tuple[FileType, ...] = ALLOWED_TYPES
) -> tuple[str, str]:
    """(safe file name, content type) of an acceptable upload (one of `kinds`); UploadRejected otherwise."""
    limit = get_settings().upload_max_bytes
    if not data:
        raise UploadRejected("empty_file", "The file is empty.")
    if len(data) > limit:
        raise UploadRejected("too_large", f"Files can be at most {limit / (1024 * 1024):g} MB.")
    extension = os.path.splitext(filename.strip())[1].lower()
    documents = kinds == DOCUMENT_TYPES
    kind = sniff_document(data) if documents else sniff(data)
    if extension not in {ext for k in kinds for ext in k.extensions} or kind not in kinds:
        described = DOCUMENT_DESCRIPTION if documents else ALLOWED_DESCRIPTION
        raise UploadRejected("unsupported_type", f"Only {described} can be attached.")
    if extension not in kind.extensions:
        raise UploadRejected(
            "unsupported_type", f"The contents of this file do not match its name ({extension})."
        )
    return safe_filename(filename, extension), kind.content_type


def _root() -> Path:
    return get_settings().uploads_path


def path_of(key: str) -> Path:
    """Where the file with storage key `key` lives (the key is checked: never a path a user chose)."""
    if not _KEY.match(key):
        raise ValueError("not a storage key")
    return _root() / key[:2] / key


def _write(path: Path, data: bytes) -> None:
    # Customers' files: folders 0700 and files 0600, whatever the process umask.
    for folder in (path.parent.parent, path.parent):
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        folder.chmod(0o700)
    partial = path.with_suffix(".part")
    descriptor = os.open(partial, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(data)
    os.replace(partial, path)


async def save(data: bytes) -> str:
    """Store `data` under a new random key and return the key."""
    key = secrets.token_hex(16)
    await asyncio.to_thread(_write, path_of(key), data)
    return key


async def remove(key: str) -> None:
    """Delete a stored file (missing is fine: the goal is that it is gone)."""
    await asyncio.to_thread(path_of(key).unlink, missing_ok=True)
