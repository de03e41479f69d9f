"""Per-owner caps for a shared demo: documents, pages and question rate.

Callers that serve strangers (the app in shared mode) pass a ``LimitsSettings`` to
``Engine.ingest_*`` and ask a ``QuestionRate`` before each question; local use passes none.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Sequence

from ..errors import LimitReached
from ..models import DocumentRecord, ParsedDocument
from ..settings import LimitsSettings

WINDOW_S = 60.0
"""The window a visitor's question rate is counted over (fixed: the settings give the rate per minute)."""


def check_upload(limits: LimitsSettings, owned: Sequence[DocumentRecord], parsed: ParsedDocument) -> None:
    """Refuse a new document that would take the owner past a cap.

    Raises:
        LimitReached: Too many documents, or too many pages in total.
    """
    if limits.max_documents and len(owned) + 1 > limits.max_documents:
        raise LimitReached(
            f"{parsed.name} was not added: you already have {len(owned)} documents, the most this demo keeps "
            f"per visitor ({limits.max_documents}).",
            "Delete a document on the upload page, or run the app on your own machine for no limit.",
        )
    pages = sum(r.pages - len(r.pages_without_text) for r in owned)
    new_pages = len(parsed.pages)
    if limits.max_pages and pages + new_pages > limits.max_pages:
        raise LimitReached(
            f"{parsed.name} was not added: its {new_pages:,} pages would bring your documents to "
            f"{pages + new_pages:,} pages, over this demo's {limits.max_pages:,}-page limit per visitor.",
            "Delete a document, upload a shorter one, or run the app on your own machine for no limit.",
        )


class QuestionRate:
    """A sliding one-minute window of questions per owner, safe across threads."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self._clock = clock
        self._asked: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def check(self, owner: str) -> None:
        """Count one question for the owner, or refuse it.

        Raises:
            LimitReached: The owner asked ``per_minute`` questions in the last 60 s.
        """
        if not self.per_minute:
            return
        now = self._clock()
        with self._lock:
            asked = self._asked.setdefault(owner, deque())
            while asked and now - asked[0] >= WINDOW_S:
                asked.popleft()
            if len(asked) >= self.per_minute:
                wait = WINDOW_S - (now - asked[0])
                raise LimitReached(
                    f"You asked {len(asked)} questions in the last minute, this demo's limit per visitor.",
                    f"Wait {wait:.0f} s and ask again.",
                )
            asked.append(now)
