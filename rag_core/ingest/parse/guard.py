"""Checks made before and while a file is parsed: size, extracted text, and a PDF's compressed
streams (a decompression bomb is refused while it is counted, before it is inflated)."""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ...errors import EmptyFile, FileTooLarge, ParseLimit
from ...models import Page
from ...settings import IngestSettings

if TYPE_CHECKING:  # (the checks before a parse run where PyMuPDF is not loaded: the app's server)
    import pymupdf


def check_size(name: str, size: int, settings: IngestSettings) -> None:
    if size == 0:
        raise EmptyFile(f"{name} is empty (0 bytes).", "Upload the file again; it may not have been saved.")
    if size > settings.max_file_bytes:
        raise FileTooLarge(
            f"{name} is {size / 1e6:.1f} MB, over the {settings.max_file_bytes / 1e6:.0f} MB limit.",
            "Split the file, or raise RAG_INGEST__MAX_FILE_BYTES.",
        )


def check_chars(name: str, pages: Iterable[Page], settings: IngestSettings) -> None:
    total = sum(len(p.text) for p in pages)
    if total > settings.max_chars:
        raise FileTooLarge(
            f"{name} holds more than {settings.max_chars:,} characters of text.",
            "Split the file, or raise RAG_INGEST__MAX_CHARS.",
        )


def check_streams(doc: pymupdf.Document, name: str, settings: IngestSettings) -> None:
    """Refuse a PDF whose Flate streams (other than images, which are never decoded here)
    expand past ``max_stream_bytes`` in total. Counting inflates in bounded steps and stops at
    the limit, so a bomb costs at most the limit in time, and a step in memory (a stream
    filtered twice by Flate keeps its first inflation, up to the limit)."""
    budget = settings.max_stream_bytes
    for xref in range(1, doc.xref_length()):
        try:
            if not doc.xref_is_stream(xref) or doc.xref_get_key(xref, "Subtype")[1] == "/Image":
                continue
            filters = doc.xref_get_key(xref, "Filter")[1]
            raw = doc.xref_stream_raw(xref) if "FlateDecode" in filters else None
        except (RuntimeError, ValueError):
            continue  # a broken object; text extraction reports it if it matters
        if raw is None:
            continue
        budget = _inflate_within(raw, budget, nested=filters.count("FlateDecode"))
        if budget < 0:
            raise ParseLimit(
                f"{name}'s compressed content expands to more than {settings.max_stream_bytes // 2**20:,} MB "
                f"(object {xref}); it looks like a decompression bomb.",
                "Upload the original document; if it is genuine, raise RAG_INGEST__MAX_STREAM_BYTES.",
            )


def _inflate_within(data: bytes, budget: int, nested: int = 1) -> int:
    """``budget`` minus the inflated size of ``data`` (inflated ``nested`` times over), stopping
    as soon as the result is negative. Corrupt data counts as what inflated before the error."""
    step = 1 << 20
    inflater = zlib.decompressobj()
    pending = data
    out = bytearray() if nested > 1 else None
    try:
        while pending and budget >= 0:
            chunk = inflater.decompress(pending, step)
            pending = inflater.unconsumed_tail
            budget -= len(chunk)
            if out is not None:
                out += chunk
            if not chunk and not pending:
                break
    except zlib.error:
        return budget
    if out is not None and budget >= 0:
        return _inflate_within(bytes(out), budget, nested - 1)
    return budget


