"""Lexical retrieval with rank-bm25, and a tokenizer that keeps identifiers whole.

"INV-2025-0492", "84.8%" and "GPT-4o-mini" stay single tokens (so an exact code matches
exactly), and their parts are added as plain words (so "GPT 4o" still matches).
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

import numpy as np

from ..models import Bm25Match
from ..store import LexicalRow
from .okapi import FastOkapi, top_positions
from .terms import PERIOD_TERMS, normal_forms, plural_forms, tokenize, typed_forms, word_stem
from .vocabulary import Tagged, heading_parts, statement_tags


class ExactTerm(NamedTuple):
    """A question's exact term (an identifier, a name or a quoted phrase) and the chunks holding it."""

    term: str
    """As the question wrote it, in index terms (a phrase's terms joined by spaces)."""
    chunks: int
    """How many chunks of the searched documents hold it (for a phrase: all of its words)."""
    counted: bool
    """Rare enough to count: held by at least one chunk and at most the setting's number."""
    typed: str = ""
    """How the question typed it, when it was found by its normal form ('INV 2023 48213' for
    'inv-2023-48213'); empty when the question wrote the index's own term."""
    defined: int = 0  # the chunks defining it ('“Required Lenders” means …') listed, when too common to count


class StatementTag(NamedTuple):
    """A chunk of a financial statement, as ``vocabulary`` recognizes it."""

    statement: str
    primary: bool
    """One of its report's primary statements, not a note's table restating one."""
    doc_id: str


class Bm25Index:
    """BM25 over a fixed set of chunks."""

    def __init__(
        self,
        chunk_ids: Sequence[str],
        texts: Sequence[str],
        *,
        terms: Sequence[str | Sequence[str]] | None = None,
        statements: Sequence[StatementTag | None] | None = None,
        headings: Sequence[tuple[str, int, str]] | None = None,
        kinds: Sequence[str] | None = None,
        stem_weight: float | None = None,
    ) -> None:
        """Index ``texts`` (tokenized here), or ``terms`` when they were tokenized before (at ingest).
        ``statements`` tags each chunk of a financial statement: which statement, whether it is
        one of its report's primary statements (not a note's table restating one), and which
        document. ``headings`` gives each chunk's document, page and contextual header, for the
        sections a question's topic is filed under (``in_sections``); ``kinds``, each chunk's kind
        ('table', 'text', …), for the tables whose rows a question names (``tables_holding``); ``stem_weight``:
        how much a question's word scores the other words with its stem (``terms.word_stem``;
        ``build_index`` passes the setting; None: none). Only the ids, the term
        matrix, the statements' chunk positions and each distinct header once are kept: the chunks
        themselves stay in the store."""
        corpus = terms if terms is not None else [tokenize(t) for t in texts]
        if len(chunk_ids) != len(corpus):
            raise ValueError(f"{len(chunk_ids)} chunk ids for {len(corpus)} texts")
        if statements is not None and len(statements) != len(corpus):
            raise ValueError(f"{len(statements)} statement tags for {len(corpus)} texts")
        self.chunk_ids = list(chunk_ids)
        self.positions = {cid: n for n, cid in enumerate(self.chunk_ids)}
        self.statements: dict[tuple[str, str], list[int]] = {}
        """(document, statement) -> the positions of its chunks."""
        self.primary: dict[int, bool] = {}
        for position, tag in enumerate(statements or ()):
            if tag:
                self.statements.setdefault((tag.doc_id, tag.statement), []).append(position)
                self.primary[position] = tag.primary
        if headings is not None and len(headings) != len(corpus):
            raise ValueError(f"{len(headings)} headings for {len(corpus)} texts")
        self._documents: dict[str, int] = {}
        self._headers: dict[str, int] = {}
        document_of, header_of, page_of = array("i"), array("i"), array("i")
        for doc_id, page, header in headings or ():
            document_of.append(self._documents.setdefault(doc_id, len(self._documents)))
            header_of.append(self._headers.setdefault(header, len(self._headers)))
            page_of.append(page)
        self._document_of = np.frombuffer(document_of, dtype=np.int32) if document_of else np.zeros(0, np.int32)
        self._header_of = np.frombuffer(header_of, dtype=np.int32) if header_of else np.zeros(0, np.int32)
        self._page_of = np.frombuffer(page_of, dtype=np.int32) if page_of else np.zeros(0, np.int32)
        if kinds is not None and len(kinds) != len(corpus):
            raise ValueError(f"{len(kinds)} kinds for {len(corpus)} texts")
        self._table = np.array([kind == "table" for kind in kinds or ()], dtype=bool)
        self._bm25 = FastOkapi(corpus, stem=word_stem, stem_weight=stem_weight) if any(corpus) else None
        self._normal: dict[str, list[str]] | None = None
        """Normal form of an identifier -> the index's terms with it (``typed_terms``)."""

    def __len__(self) -> int:
        return len(self.chunk_ids)

    def search(self, query: str, top_n: int) -> list[Bm25Match]:
        """The top_n chunks with a positive score, best first."""
        terms = list(dict.fromkeys(tokenize(query)))
        if self._bm25 is None or not terms:
            return []
        scores = self._bm25.get_scores(terms)
        best = top_positions(scores, top_n)
        return [
            Bm25Match(chunk_id=self.chunk_ids[i], score=float(scores[i]), coverage=self.coverage(terms, int(i)))
            for i in best
            if scores[i] > 0
        ]

    def stem_siblings(self, terms: Sequence[str]) -> dict[str, list[str]]:
        """Each of ``terms`` that also scores other words of the index by its stem -> those words."""
        if self._bm25 is None:
            return {}
        found = {term: self._bm25.siblings(term) for term in dict.fromkeys(terms)}
        return {term: others for term, others in found.items() if others}

    def exact_matches(
        self, groups: Sequence[tuple[str, ...]], query: str, *, max_chunks: int, top_n: int
    ) -> tuple[list[ExactTerm], list[Bm25Match]]:
        """The chunks holding a rare exact term of the question, and what each term held.

        A term (or quoted phrase: all of its terms) counts when at most ``max_chunks`` chunks hold
        it: an invoice number on one page does, a company name on every page does not. The chunks
        holding the most counted terms come first (each term weighed by its rarity, the BM25 idf),
        then by BM25 score over ``query``, then in reading order; at most ``top_n``.
        """
        if self._bm25 is None or not groups:
            return [], []
        weight = np.zeros(len(self.chunk_ids))
        report = []
        for group in groups:
            held = self._bm25.holding_all(group)
            counted = 0 < len(held) <= max_chunks
            report.append(ExactTerm(" ".join(group), len(held), counted))
            if counted:
                weight[held] += max(sum(self._bm25.idf.get(term, 0.0) for term in group), 1e-6)
        chosen = np.flatnonzero(weight > 0)
        if not len(chosen):
            return report, []
        terms = list(dict.fromkeys(tokenize(query)))
        scores = self._bm25.get_scores(terms) if terms else np.zeros(len(self.chunk_ids))
        chosen = chosen[np.lexsort((chosen, -scores[chosen], -weight[chosen]))][:top_n]
        return report, [
            Bm25Match(chunk_id=self.chunk_ids[i], score=float(scores[i]), coverage=self.coverage(terms, int(i)))
            for i in chosen
        ]

    def typed_terms(self, question: str) -> list[tuple[str, str]]:
        """The index's identifiers the question types another way ('INV 2023 48213', 'inv2023-48213',
        'invoice 2023-48213' for 'inv-2023-48213'): each as the question wrote it and as the index
        holds it, matched by normal form (``terms.normal_forms``: case, separators and a set-off
        prefix aside; digits in order, so a twin with two digits swapped does not match). Forms
        the index holds as they are typed are left to ``exact_terms``."""
        if self._bm25 is None:
            return []
        wanted = [(written, form) for written, form in typed_forms(question) if form not in self._bm25.vocab]
        if not wanted:
            return []
        if self._normal is None:  # built on the first question that types an identifier
            self._normal = {}
            for term in self._bm25.vocab:
                for form in normal_forms(term):
                    self._normal.setdefault(form, []).append(term)
        return list(dict.fromkeys((written, term) for written, form in wanted for term in self._normal.get(form, ())))

    def names(self, terms: Sequence[str], *, documents: Sequence[str]) -> bool:
        """Whether a chunk of these documents holds every one of ``terms`` (at least one)."""
        if self._bm25 is None or not terms:
            return False
        return bool(len(self._bm25.holding_all(terms, within=self._positions_of(documents))))

    def _positions_of(self, documents: Sequence[str]) -> np.ndarray:
        """The positions (ascending) of these documents' chunks."""
        numbers = [self._documents[d] for d in dict.fromkeys(documents) if d in self._documents]
        return np.flatnonzero(np.isin(self._document_of, numbers))

    def naming_all(self, sides: Sequence[Sequence[str]], query: str, *, top_n: int) -> list[Bm25Match]:
        """The chunks holding every term of every side (each side's terms, e.g. ``("lightrag",)``
        and ``("graphrag",)``), best BM25 score over ``query`` first, then reading order; at most
        ``top_n``. Nothing when a side has no terms."""
        if self._bm25 is None or not sides or not all(sides):
            return []
        held = self._bm25.holding_all([t for side in sides for t in side])
        if not len(held):
            return []
        terms = list(dict.fromkeys(tokenize(query)))
        scores = self._bm25.get_scores(terms) if terms else np.zeros(len(self.chunk_ids))
        chosen = held[np.lexsort((held, -scores[held]))][:top_n]
        return [
            Bm25Match(chunk_id=self.chunk_ids[i], score=float(scores[i]), coverage=self.coverage(terms, int(i)))
            for i in chosen
        ]

    def rank_statements(
        self, statements: Sequence[str], queries: Sequence[str], *, documents: Sequence[str], per_statement: int
    ) -> list[Bm25Match]:
        """The chunks of these statements in these documents, document by document in the given
        order, at most ``per_statement`` of each statement in each: within a document, its
        primary statements' chunks (the others only when it has no primary one), those holding
        the queries' terms (best BM25 score over ``queries``) first, then reading order."""
        term_lists, scores = self._best_scores(queries)
        ranked: list[tuple[float, int]] = []
        for doc_id in dict.fromkeys(documents):
            chosen: list[tuple[int, float]] = []  # (position, score)
            for statement in dict.fromkeys(statements):
                positions = self.statements.get((doc_id, statement), [])
                if any(self.primary[p] for p in positions):
                    positions = [p for p in positions if self.primary[p]]
                best = {p: float(scores[p]) for p in positions}
                chosen += sorted(best.items(), key=lambda item: (-item[1], item[0]))[:per_statement]
            chosen.sort(key=lambda c: (not self.primary[c[0]], -c[1], c[0]))
            ranked += [(score, p) for p, score in chosen]
        return [
            Bm25Match(
                chunk_id=self.chunk_ids[p],
                score=score,
                coverage=max((self.coverage(t, p) for t in term_lists), default=0.0),
            )
            for score, p in ranked
        ]

    def in_sections(
        self, titles: Sequence[str], queries: Sequence[str], *, documents: Sequence[str], per_document: int,
        headed_by: str = "", most_share: float | None = None,
    ) -> list[Bm25Match]:
        """The chunks under a heading that matches one of ``titles`` (regular expressions; the
        document's own title is not read) in these documents, document by document in the given
        order: the best chunk of each page (best BM25 score over ``queries``, then reading order),
        at most ``per_document`` pages of each, best first; chunks holding none of the queries'
        terms are left out. One chunk a page, so that a long note's first page does not fill the
        list and hide the page that answers.

        With ``headed_by`` (a question), only the pages whose chunk's own headings name the most of its
        words (weighted by their rarity, ``heading_weights``): a report's discussion of results gives each
        line and each segment a heading of its own ("Global Services › Results of Operations", "Cost of
        Revenues"), and the consolidated summary above them names every line in its prose, so the pages
        headed by fewer of the question's words are the other lines', or the summary's (the dense and
        BM25 lists still hold them). A word more than ``most_share`` of the documents' chunks hold (the company's
        name) heads them all and is not read; where no page's headings name a word of the question, the section
        gives nothing: its first page is the summary's, and the line's discussion sits under a heading of its own
        that the report sets beside the section's, not under it."""
        if self._bm25 is None or not titles or not len(self._header_of):
            return []
        pattern = re.compile(rf"\b(?:{'|'.join(f'(?:{t})' for t in titles)})\b", re.IGNORECASE)
        matching = {n: header for header, n in self._headers.items() if any(map(pattern.search, heading_parts(header)))}
        if not matching:
            return []
        term_lists, scores = self._best_scores(queries)
        under = np.flatnonzero(np.isin(self._header_of, list(matching)) & (scores > 0))
        if headed_by:
            named = self.heading_weights(headed_by, matching, within=self._positions_of(documents),
                                         most_share=most_share)[self._header_of]
        else:
            named = np.zeros(len(self))
        found: list[Bm25Match] = []
        for doc_id in dict.fromkeys(documents):
            number = self._documents.get(doc_id)
            mine = under[self._document_of[under] == number] if number is not None else under[:0]
            ranked = mine[np.lexsort((mine, -scores[mine], -named[mine]))]
            pages = self._page_of[ranked]
            best_of_page = ranked[np.unique(pages, return_index=True)[1]] if len(ranked) else ranked
            order = np.lexsort((best_of_page, -scores[best_of_page], -named[best_of_page]))
            ranked_pages = best_of_page[order]
            if headed_by and len(ranked_pages):
                # a page whose headings name fewer of its words discusses another line or segment, or all of them
                most = named[ranked_pages].max()
                ranked_pages = ranked_pages[named[ranked_pages] >= most] if most > 0 else ranked_pages[:0]
            for i in ranked_pages[:per_document]:
                found.append(Bm25Match(chunk_id=self.chunk_ids[i], score=float(scores[i]),
                                       coverage=max((self.coverage(t, int(i)) for t in term_lists), default=0.0)))
        return found

    def heading_weights(
        self, question: str, headers: Mapping[int, str], *, within: np.ndarray | None = None,
        most_share: float | None = None,
    ) -> np.ndarray:
        """For each distinct header by its number (those not in ``headers``, number -> header, weigh 0): the
        summed idf of the question's words that its headings (``vocabulary.heading_parts``) hold, by stem; not
        numbers nor words of a period (``terms.PERIOD_TERMS``), nor a word more than ``most_share`` of the chunks
        ``within`` (positions) hold (None: every word counts)."""
        weights = np.zeros(len(self._headers))
        if self._bm25 is None:
            return weights
        idf = self._bm25.idf
        # a year names the period, not the line ("Years ended December 31, 2022 2021" captions every table, and
        # "Fiscal Years Ended March 31, 2012 and March 31, 2011" heads a whole discussion of results); the
        # company's name ("ABIOMED, Inc.") heads the whole report
        words = [t for t in dict.fromkeys(tokenize(question)) if not t.isdigit() and t not in PERIOD_TERMS]
        if within is not None and most_share is not None and len(within):
            words = [t for t in words if self._held_not_common((t,), within, most_share) is not None]
        asked = {word_stem(t): idf.get(t, 0.0) for t in words}
        for n, header in headers.items():
            held = {word_stem(t) for part in heading_parts(header) for t in tokenize(part)}
            weights[n] = sum(w for stem, w in asked.items() if stem in held)
        return weights

    def tables_holding(
        self, phrases: Sequence[Sequence[str]], queries: Sequence[str], *, documents: Sequence[str], top_n: int,
        most_share: float,
    ) -> list[tuple[Bm25Match, int]]:
        """The table chunks of these documents that hold every term of one of ``phrases`` (where a row may be labelled
        by it; the caller reads the labels), a term in either of its ``terms.plural_forms`` ('tax' of 'Income taxes'),
        each with the most terms of a phrase it holds: the most terms first, then the best BM25 score over ``queries``,
        then reading order; at most ``top_n``. A phrase more than ``most_share`` of the documents' chunks hold names
        the documents themselves (the company, in every chunk's header), not a line. Nothing when the index was built
        without kinds."""
        if self._bm25 is None or not len(self._table) or not len(self._document_of) or not phrases:
            return []
        mine = self._positions_of(documents)
        tables = mine[self._table[mine]]
        longest = np.zeros(len(self), dtype=np.int64)
        for phrase in phrases:
            held = self._held_not_common(phrase, mine, most_share, forms=plural_forms)
            if held is None:
                continue
            held = np.intersect1d(held, tables, assume_unique=True)
            longest[held] = np.maximum(longest[held], len(phrase))
        chosen = np.flatnonzero(longest)
        if not len(chosen):
            return []
        term_lists, scores = self._best_scores(queries)
        chosen = chosen[np.lexsort((chosen, -scores[chosen], -longest[chosen]))][:top_n]
        return [(Bm25Match(chunk_id=self.chunk_ids[i], score=float(scores[i]),
                           coverage=max((self.coverage(t, int(i)) for t in term_lists), default=0.0)), int(longest[i]))
                for i in chosen]

    def tables_stating(self, terms: Sequence[str], *, documents: Sequence[str], top_n: int) -> list[tuple[str, int]]:
        """The table chunks of these documents that hold one or more of ``terms`` (a table's amounts, '50036'), each
        with how many: the most first, then reading order; at most ``top_n``. Nothing when the index was built
        without kinds."""
        if self._bm25 is None or not len(self._table) or not len(self._document_of) or not terms:
            return []
        mine = self._positions_of(documents)
        tables = mine[self._table[mine]]
        held = np.zeros(len(self), dtype=np.int64)
        for term in dict.fromkeys(terms):
            held[self._bm25.holding_all([term], within=tables)] += 1
        chosen = np.flatnonzero(held)
        chosen = chosen[np.lexsort((chosen, -held[chosen]))][:top_n]
        return [(self.chunk_ids[i], int(held[i])) for i in chosen]

    def holding(self, terms: Sequence[str], *, documents: Sequence[str], top_n: int) -> list[str]:
        """The chunks of these documents that hold every one of ``terms`` (at least one), in reading order; at most
        ``top_n``. Nothing when the index was built without headings (which say each chunk's document)."""
        if self._bm25 is None or not terms or not len(self._document_of):
            return []
        return [self.chunk_ids[i] for i in self._bm25.holding_all(terms, within=self._positions_of(documents))[:top_n]]

    def _held_not_common(self, terms: Sequence[str], within: np.ndarray, most_share: float,
                         forms: Callable[[str], Sequence[str]] | None = None) -> np.ndarray | None:
        """The chunks of ``within`` (positions) holding every term (in one of its ``forms``), or None when more than
        ``most_share`` of them do: such terms name the documents themselves (the company, in every chunk's header),
        not a line."""
        if self._bm25 is None:
            return None
        held = self._bm25.holding_all(terms, within=within, forms=forms)
        return None if len(held) > most_share * len(within) else held

    def _best_scores(self, queries: Sequence[str]) -> tuple[list[list[str]], np.ndarray]:
        """Each query's distinct terms, and every chunk's best BM25 score over the queries."""
        term_lists = [list(dict.fromkeys(tokenize(q))) for q in queries]
        bm25 = self._bm25
        found = [bm25.get_scores(t) for t in term_lists if t] if bm25 is not None else []
        return term_lists, np.max(found or [np.zeros(len(self))], axis=0)

    def coverage(self, terms: Sequence[str], position: int) -> float:
        """Share of ``terms`` that occur in the chunk at ``position``."""
        if not terms or self._bm25 is None:
            return 0.0
        present = self._bm25.has(position)
        vocab = self._bm25.vocab
        return sum(vocab.get(term, -1) in present for term in terms) / len(terms)


def build_index(rows: Sequence[LexicalRow], *, stem_weight: float) -> Bm25Index:
    """The BM25 index of a store's lexical rows (in reading order): their terms as kept at ingest
    (a chunk written before terms were kept is tokenized from its text), and the financial
    statement each table chunk belongs to (``vocabulary.statement_of``, read from its header)
    with whether it is among its report's primary statements (``vocabulary.primary_statements``).
    A statement of which a document has no table (the table finder missed it, or was off) is read
    from the document's text chunks under its title that are dense with amounts. ``stem_weight``: how
    much a question's word scores the other words with its stem (``RAG_RETRIEVAL__STEM_WEIGHT``); the
    stored terms are as written, so the setting needs no reindex."""
    terms = [r.terms if r.terms is not None else " ".join(tokenize(r.text)) for r in rows]
    found = statement_tags([Tagged(r.doc_id, r.page, r.header, r.kind, words) for r, words in zip(rows, terms,
                                                                                                 strict=True)])
    tags = [StatementTag(tag[0], tag[1], r.doc_id) if tag else None for r, tag in zip(rows, found, strict=True)]
    return Bm25Index([r.id for r in rows], [], terms=terms, statements=tags,
                     headings=[(r.doc_id, r.page, r.header) for r in rows], kinds=[r.kind for r in rows],
                     stem_weight=stem_weight)
