"""Lexical retrieval with rank-bm25, and a tokenizer that keeps identifiers whole.

"INV-2025-0492", "84.8%" and "GPT-4o-mini" stay single tokens (so an exact code matches
exactly), and their parts are added as plain words (so "GPT 4o" still matches).
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Collection, Sequence

import numpy as np
from rank_bm25 import BM25Okapi

from .models import Bm25Match, StoredChunk

_TOKEN = re.compile(r"\w+(?:(?:[-./:+#'’]|(?<=\d),(?=\d{3}\b))\w+)*%?")
_PART = re.compile(r"[^\W_]+")
_NUMERIC = re.compile(r"^[\d.,:/%+-]+$")

STOPWORDS = frozenset(
    ["a", "about", "above", "after", "again", "against", "all", "am", "an", "and", "any", "are", "as", "at", "be", "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "could", "did", "do", "does", "doing", "down", "during", "each", "few", "for", "from", "further", "had", "has", "have", "having", "he", "her", "here", "hers", "herself", "him", "himself", "his", "how", "i", "if", "in", "into", "is", "it", "its", "itself", "just", "me", "more", "most", "my", "myself", "no", "nor", "not", "now", "of", "off", "on", "once", "only", "or", "other", "our", "ours", "ourselves", "out", "over", "own", "same", "she", "should", "so", "some", "such", "than", "that", "the", "their", "theirs", "them", "themselves", "then", "there", "these", "they", "this", "those", "through", "to", "too", "under", "until", "up", "very", "was", "we", "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would", "you", "your", "yours", "yourself", "yourselves", "s", "t"]
)


def tokenize(text: str) -> list[str]:
    """Lowercase tokens for BM25: identifiers and numbers whole, plus their word parts.

    >>> tokenize("Invoice INV-2025-0492 grew 84.8% on GPT-4o-mini")
    ['invoice', 'inv-2025-0492', 'inv', '2025', '0492', 'grew', '84.8%', 'gpt-4o-mini', 'gpt', '4o', 'mini']
    """
    tokens: list[str] = []
    for match in _TOKEN.finditer(text.lower()):
        token = match.group().replace("’", "'")
        if token.endswith(("'s", "'")):
            token = token.rsplit("'", 1)[0]
        token = re.sub(r"(?<=\d),(?=\d)", "", token)
        parts = _PART.findall(token)
        if len(parts) > 1 and not _NUMERIC.match(token):
            tokens.append(token)
            tokens.extend(_stem(p) for p in parts if p not in STOPWORDS)
        elif len(parts) > 1 or token.endswith("%"):
            tokens.append(token)
        elif token and token not in STOPWORDS:
            tokens.append(_stem(token))
    return tokens


def _stem(word: str) -> str:
    """Harman's S-stemmer: fold plurals, nothing more aggressive."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and not word.endswith(("eies", "aies")):
        return word[:-3] + "y"
    if word.endswith("es") and not word.endswith(("aes", "ees", "oes")):
        return word[:-1]
    if word.endswith("s") and not word.endswith(("us", "ss")):
        return word[:-1]
    return word


class Bm25Index:
    """BM25 over a fixed set of chunks."""

    def __init__(
        self, chunk_ids: Sequence[str], texts: Sequence[str], chunks: Sequence[StoredChunk] | None = None
    ) -> None:
        if len(chunk_ids) != len(texts) or (chunks is not None and len(chunks) != len(texts)):
            raise ValueError(f"{len(chunk_ids)} chunk ids for {len(texts)} texts")
        self.chunk_ids = list(chunk_ids)
        self.chunks = list(chunks) if chunks is not None else None
        self.positions = {cid: n for n, cid in enumerate(self.chunk_ids)}
        corpus = [tokenize(t) for t in texts]
        self._bm25 = BM25Okapi(corpus) if any(corpus) else None
        self._terms = [frozenset(tokens) for tokens in corpus]

    def __len__(self) -> int:
        return len(self.chunk_ids)

    def search(self, query: str, top_n: int) -> list[Bm25Match]:
        """The top_n chunks with a positive score, best first."""
        terms = list(dict.fromkeys(tokenize(query)))
        if self._bm25 is None or not terms:
            return []
        scores = self._bm25.get_scores(terms)
        count = min(top_n, len(scores))
        best = np.argpartition(-scores, count - 1)[:count]
        best = best[np.lexsort((best, -scores[best]))]
        return [
            Bm25Match(chunk_id=self.chunk_ids[i], score=float(scores[i]), coverage=self.coverage(terms, i))
            for i in best
            if scores[i] > 0
        ]

    @classmethod
    def of(cls, chunks: Sequence[StoredChunk]) -> Bm25Index:
        return cls([c.chunk_id for c in chunks], [c.text for c in chunks], chunks)

    def chunk(self, chunk_id: str) -> StoredChunk | None:
        position = self.positions.get(chunk_id)
        return self.chunks[position] if position is not None and self.chunks is not None else None

    def coverage(self, terms: Sequence[str], position: int) -> float:
        if not terms:
            return 0.0
        present = self._terms[position]
        return sum(term in present for term in terms) / len(terms)


class Bm25Cache:
    """One index per (owner, document set), built on first use and dropped when any of its
    documents is ingested or deleted. Thread-safe; least recently used entries go first."""

    def __init__(self, *, max_entries: int) -> None:
        self._entries: OrderedDict[tuple[str, frozenset[str]], Bm25Index] = OrderedDict()
        self._max_entries = max_entries
        self._lock = threading.Lock()
        self.builds = 0

    def get(
        self, owner: str, doc_ids: Collection[str], build: Callable[[], Bm25Index]
    ) -> tuple[Bm25Index, bool]:
        """The index for this document set and whether it came from the cache."""
        key = (owner, frozenset(doc_ids))
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key], True
        index = build()
        with self._lock:
            self._entries[key] = index
            self.builds += 1
            while len(self._entries) > self._max_entries:
                self._entries.popitem(last=False)
        return index, False

    def invalidate(self, owner: str, doc_id: str | None = None) -> None:
        """Drop every cached index of ``owner`` that covers ``doc_id`` (all of them if None)."""
        with self._lock:
            for key in [k for k in self._entries if k[0] == owner and (doc_id is None or doc_id in k[1])]:
                del self._entries[key]
