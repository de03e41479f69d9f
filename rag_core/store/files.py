"""Original uploads, kept so a cited page can be rendered, and page rendering itself.

Files live beside the store (``RAG_STORE_DIR/files/<owner>/<sha256><suffix>``), written
atomically; every read checks the owner, so no id or name reaches another owner's file.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import DocumentNotFound
from ..formats import FORMATS
from ..models import DocumentRecord
from ..runtime.tessdata import tessdata_folder
from ..settings import IngestSettings, Settings

if TYPE_CHECKING:
    import pymupdf

_SUFFIX: dict[str, str] = {f.media_type: f.suffixes[0] for f in FORMATS}
_HIGHLIGHT_PROBE_CHARS = 60
"""Most characters of one run of a passage's words searched at once on its page (``highlight_probes``)."""
_HIGHLIGHT_PROBE_WORDS = 8
"""Most words of one such run (fixed: PyMuPDF's search finds a short phrase reliably where it misses a
long one across lines)."""
_FILLER = re.compile(r"[.…·_]*")
"""A word of a table's leaders, or none left: no part of a passage worth searching for."""
_LEADER_TAIL = re.compile(r"(?<=\w)\.{2,}$")
"""Leader dots a PDF's text set against a label ('payable.........')."""


class FileStore:
    def __init__(self, root: Path, *, temporary: bool = False) -> None:
        self.root = root
        self._remove = weakref.finalize(self, shutil.rmtree, root, ignore_errors=True) if temporary else None
        """A temporary root (beside an in-memory or server store) is this process's alone: it goes at
        ``close``, or when the store is collected or the interpreter exits, whichever comes first."""

    def close(self) -> None:
        """Remove a temporary root and every file in it; a store folder's files stay."""
        if self._remove is not None:
            self._remove()

    def path(self, record: DocumentRecord) -> Path:
        owner_dir = hashlib.sha256(record.owner.encode()).hexdigest()[:16]  # owner ids are not path-safe
        return self.root / owner_dir / f"{record.sha256}{_SUFFIX.get(record.media_type, '')}"

    def save(self, record: DocumentRecord, data: bytes) -> None:
        target = self.path(record)
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
        partial.write_bytes(data)
        partial.replace(target)

    def delete(self, record: DocumentRecord) -> None:
        self.path(record).unlink(missing_ok=True)

    def read(self, record: DocumentRecord) -> bytes:
        path = self.path(record)
        if not path.is_file():
            raise DocumentNotFound(
                f"The original file of {record.name} is not kept in this store.", "Upload it again to view its pages."
            )
        return path.read_bytes()


def render_pdf_page(
    data: bytes, page: int, highlight: str | None = None, *, zoom: float, ocr: IngestSettings | None = None
) -> bytes:
    """A PNG of one 1-based page, with the passage highlighted where it can be found: in the text
    layer, or, on a scanned page and with ``ocr`` given, in the words OCR reads from its image.

    PyMuPDF is imported here, when a page is first drawn: the app's server needs it for nothing
    else (its parses run in a child), and it holds 40–50 MB once loaded."""
    import pymupdf

    with pymupdf.open(stream=data, filetype="pdf") as doc:
        if not 1 <= page <= doc.page_count:
            raise DocumentNotFound(
                f"Page {page} does not exist (the document has {doc.page_count}).", "Pick another page."
            )
        target = doc[page - 1]
        rects = _passage_rects(target, highlight or "")
        if not rects and highlight and ocr is not None and _scanned(target, ocr):
            rects = _passage_rects(target, highlight, _ocr_textpage(target, ocr))
        for rect in rects:
            target.add_highlight_annot(rect)
        return target.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom)).tobytes("png")


def _scanned(page: pymupdf.Page, ocr: IngestSettings) -> bool:
    """Whether the parser read this page by OCR: too little text in its layer."""
    return tessdata_folder(ocr) is not None and len("".join(page.get_text().split())) < max(ocr.ocr_few_chars, 1)


def _ocr_textpage(page: pymupdf.Page, ocr: IngestSettings) -> pymupdf.TextPage:
    return page.get_textpage_ocr(language=ocr.ocr_language, dpi=ocr.ocr_dpi, full=True,
                                 tessdata=str(tessdata_folder(ocr)))


def _passage_rects(page: pymupdf.Page, passage: str, textpage: pymupdf.TextPage | None = None) -> list[pymupdf.Rect]:
    """Rectangles covering the passage: search for its lines, or for short probes of it when the
    PDF's line breaks differ from the chunk's (in ``textpage``, OCR's words, when given)."""
    words = passage.split()
    if not words:
        return []
    found: dict[tuple[float, ...], pymupdf.Rect] = {}  # each place once, however many probes find it
    for probe in highlight_probes(words):
        if len(probe) >= 12:
            found.update((tuple(rect), rect) for rect in page.search_for(probe, textpage=textpage))
    return list(found.values())


def highlight_probes(words: Sequence[str]) -> list[str]:
    """The passage's words in runs of at most ``_HIGHLIGHT_PROBE_WORDS`` words and
    ``_HIGHLIGHT_PROBE_CHARS`` characters, each whole word in one run (a run cut at its characters
    highlighted 'Consolidated Statements of Op' and never the rest of its words). A table's leader dots
    ('Accounts payable . . . . . $ 107,334') end a run and are no run of their own: '. . . . . .' is found
    wherever a row has its leaders, tens of thousands of times on a statement's page, and drawing each froze the
    cited page's window."""
    probes: list[str] = []
    run: list[str] = []
    for word in words:
        word = _LEADER_TAIL.sub("", word)
        if _FILLER.fullmatch(word):
            if run:
                probes.append(" ".join(run))
                run = []
            continue
        if run and (len(run) >= _HIGHLIGHT_PROBE_WORDS or len(" ".join([*run, word])) > _HIGHLIGHT_PROBE_CHARS):
            probes.append(" ".join(run))
            run = []
        run.append(word)
    return [*probes, " ".join(run)] if run else probes


def file_store(settings: Settings) -> FileStore:
    """Kept files live beside an embedded store (or in ``files_dir``); a server or in-memory store
    without one keeps them in a temporary folder of this process, removed when it closes."""
    if settings.files_dir:
        return FileStore(settings.files_dir)
    if str(settings.store_dir) == ":memory:" or settings.qdrant_url:
        return FileStore(Path(tempfile.mkdtemp(prefix="rag_core-files-")), temporary=True)
    return FileStore(settings.store_dir / "files")
