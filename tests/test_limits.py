"""The shared demo's per-visitor caps."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from rag_core import errors
from rag_core.ingest.limits import QuestionRate, check_upload
from rag_core.models import DocumentRecord, Page, ParsedDocument
from rag_core.settings import LimitsSettings


def owned(pages: int) -> DocumentRecord:
    return DocumentRecord(doc_id="d", owner="v", name="a.pdf", sha256="s", size_bytes=1, media_type="pdf",
                          pages=pages, chunks=1, created_at=datetime.now(UTC), status="ready", embed_model="m",
                          collection="c")


def parsed(pages: int) -> ParsedDocument:
    return ParsedDocument(name="new.pdf", sha256="t", size_bytes=1, media_type="pdf", page_count=pages,
                          pages=tuple(Page(number=i + 1, text="x") for i in range(pages)))


def test_document_and_page_caps() -> None:
    limits = LimitsSettings(max_documents=2, max_pages=10, questions_per_minute=0)
    check_upload(limits, [owned(4)], parsed(6))
    with pytest.raises(errors.LimitReached, match="already have 2 documents"):
        check_upload(limits, [owned(1), owned(1)], parsed(1))
    with pytest.raises(errors.LimitReached, match="11 pages"):
        check_upload(limits, [owned(5)], parsed(6))
    check_upload(LimitsSettings(max_documents=0, max_pages=0), [owned(999)] * 50, parsed(999))


def test_question_rate_is_a_sliding_minute_per_owner() -> None:
    now = [0.0]
    rate = QuestionRate(2, clock=lambda: now[0])
    rate.check("a")
    rate.check("a")
    rate.check("b")
    with pytest.raises(errors.LimitReached, match="Wait 60 s"):
        rate.check("a")
    now[0] = 60.0
    rate.check("a")
