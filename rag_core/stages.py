"""The one list of stages: their names, their order and what each one's record holds.

Retrieval records its stages under these names, the trace and the debug page show them in this
order, the bench times them, and the tests check every recorded stage is one of them. A side of a
comparison records its retrieval stages as ``comparison[<side>].<stage>``.
"""

from __future__ import annotations

from enum import StrEnum


class Stage(StrEnum):
    """A stage of a question's walk, in the order it runs."""

    UNDERSTAND = "understand"
    SCOPE = "scope"
    PHRASINGS = "phrasings"
    EMBED_QUERY = "embed_query"
    DENSE = "dense"
    BM25 = "bm25"
    STATEMENTS = "statements"
    SECTIONS = "sections"
    ROWS = "rows"
    EXACT = "exact"
    SIDES = "sides"
    FUSE = "fuse"
    CANDIDATES = "candidates"
    RERANK = "rerank"
    FLOOR = "floor"
    NEIGHBORS = "neighbors"
    PLAN = "plan"
    FIGURES = "figures"
    BUDGET = "budget"
    GENERATE = "generate"
    ATTRIBUTION = "attribution"


RECORDS: dict[Stage, str] = {
    Stage.UNDERSTAND: "the standalone question, intent, phrasings and where the intent came from",
    Stage.SCOPE: "of the whole library, the documents the question names and searched alone; or why nothing was "
                 "searched (no documents)",
    Stage.PHRASINGS: "each phrasing searched and its source (question, cleanup, keywords, vocabulary, LLM)",
    Stage.EMBED_QUERY: "the phrasings embedded and the model",
    Stage.DENSE: "one nearest-neighbour list per phrasing: chunk, rank, cosine",
    Stage.BM25: "one BM25 list per phrasing: chunk, rank, score; the index's size and whether it was cached",
    Stage.STATEMENTS: "the financial statements the question needs and their chunks' list",
    Stage.SECTIONS: "the section titles the question's topic is filed under, and their chunks' list",
    Stage.ROWS: "the question's phrases a table's row may be labelled by, and the list of tables with such a row",
    Stage.EXACT: "the question's rare exact terms, how many chunks hold each, and their list",
    Stage.SIDES: "the sides of a comparison, each one's terms, and the list of chunks naming them all",
    Stage.FUSE: "every chunk's weighted RRF score and its rank in each list; the ones past the pool",
    Stage.CANDIDATES: "the pool as hits with every score",
    Stage.RERANK: "the cross-encoder's order, or why the fused order was kept",
    Stage.FLOOR: "the hits kept and each one dropped, with why",
    Stage.NEIGHBORS: "the chunks added around each hit",
    Stage.PLAN: "the whole question's plan (Plan.describe: searches, retrievers and weights, sampling, order, "
                "whole document, rows kept, leads, budget) and how it chose the hits",
    Stage.FIGURES: "the figure the question asks for: the cells read (document, page, table, row, column), why "
                   "each was chosen, the computation, or what is missing",
    Stage.BUDGET: "the prompt's tokens, each passage's, the ones cut or dropped, the tokenizer and its calls",
    Stage.GENERATE: "the backend, model and output limit; an error or a stopped loop",
    Stage.ATTRIBUTION: "each statement of the answer, its support and the passages behind it",
}

RETRIEVAL: tuple[Stage, ...] = (
    Stage.PHRASINGS, Stage.EMBED_QUERY, Stage.DENSE, Stage.BM25, Stage.STATEMENTS, Stage.SECTIONS, Stage.ROWS,
    Stage.EXACT, Stage.SIDES, Stage.FUSE, Stage.CANDIDATES, Stage.RERANK, Stage.FLOOR, Stage.NEIGHBORS,
)
"""The stages of one search, in order (what ``Retriever.run`` records)."""

TABLES: tuple[Stage, ...] = (
    Stage.DENSE, Stage.BM25, Stage.STATEMENTS, Stage.SECTIONS, Stage.ROWS, Stage.EXACT, Stage.SIDES, Stage.FUSE,
    Stage.RERANK, Stage.FLOOR,
)
"""The stages whose rows the debug page shows as tables."""


def base_name(recorded: str) -> str:
    """A recorded stage's own name, without a sub-search's prefix ("comparison[v1.0].dense" -> "dense")."""
    return recorded.rsplit("].", 1)[-1]
