"""The shared demo's per-visitor caps: documents, pages (text pages only) and questions a minute, on
the upload path of a real engine as well as alone."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from rag_core import errors
from rag_core.ingest.limits import QuestionRate, check_upload
from rag_core.models import DocumentRecord, Page, ParsedDocument
from rag_core.pipeline import Engine
from rag_core.settings import LimitsSettings
from tests.hostile import TEXT, pdf_bytes


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


def test_document_and_page_caps_refuse_with_a_clear_message(fake_engine: Engine) -> None:
    limits = LimitsSettings(max_documents=2, max_pages=5, questions_per_minute=0)
    one = pdf_bytes([TEXT] * 2)
    fake_engine.ingest_bytes(one, "one.pdf", "v", limits=limits)
    with pytest.raises(errors.LimitReached, match="5-page limit"):
        fake_engine.ingest_bytes(pdf_bytes([f"{TEXT} {i}" for i in range(4)]), "long.pdf", "v", limits=limits)
    fake_engine.ingest_bytes(pdf_bytes([TEXT + " two"]), "two.pdf", "v", limits=limits)
    with pytest.raises(errors.LimitReached, match="Delete a document"):
        fake_engine.ingest_bytes(pdf_bytes([TEXT + " three"]), "three.pdf", "v", limits=limits)
    assert fake_engine.ingest_bytes(one, "one.pdf", "v", limits=limits).status == "duplicate"
    assert sorted(d.name for d in fake_engine.documents("v")) == ["one.pdf", "two.pdf"], "nothing half-stored"
    fake_engine.ingest_bytes(pdf_bytes([TEXT + " three"]), "three.pdf", "local")  # other owners, and no limits: fine


def test_question_rate_is_a_sliding_minute_per_owner() -> None:
    now = [1000.0]
    rate = QuestionRate(3, clock=lambda: now[0])
    for _ in range(3):
        rate.check("a")
    with pytest.raises(errors.LimitReached, match="Wait 60 s"):
        rate.check("a")
    rate.check("b")  # another visitor is not affected
    now[0] += 59.0
    with pytest.raises(errors.LimitReached, match="Wait 1 s"):
        rate.check("a")
    now[0] += 1.0
    rate.check("a")
    QuestionRate(0).check("anyone")  # 0 turns the cap off


def test_check_upload_counts_only_text_pages() -> None:
    record = DocumentRecord(
        doc_id="d",
        owner="o",
        name="a.pdf",
        sha256="s" * 64,
        size_bytes=1,
        media_type="pdf",
        pages=10,
        chunks=1,
        pages_without_text=tuple(range(1, 9)),
        created_at=datetime.now(UTC),
        status="ready",
        embed_model="m",
        collection="c",
    )
    new = ParsedDocument(
        name="b.pdf",
        sha256="t" * 64,
        size_bytes=1,
        media_type="pdf",
        page_count=3,
        pages=tuple(Page(number=n, text="x") for n in (1, 2, 3)),
    )
    check_upload(LimitsSettings(max_documents=2, max_pages=5), [record], new)  # 2 + 3 pages
    with pytest.raises(errors.LimitReached):
        check_upload(LimitsSettings(max_documents=2, max_pages=4), [record], new)
