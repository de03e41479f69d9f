"""How a question becomes ranked hits: the reranker and every retrieval weight, size and floor."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import DEFAULT_RERANK_MODEL, HUB_DOWNLOAD, Group


class RerankSettings(Group):
    """The cross-encoder that reorders the fused candidate pool."""

    enabled: bool = Field(True, description="Rerank at all. Off keeps the fused order.")
    model: str = Field(DEFAULT_RERANK_MODEL, description="A sentence-transformers CrossEncoder name or local path.")
    batch_size: int = Field(16, gt=0, le=4096, description="Pairs scored per forward pass.")
    max_length: int = Field(512, gt=0, le=32_768, description="Longest query+passage pair, in the model's tokens.")
    hub_download: bool = Field(False, description=HUB_DOWNLOAD)


Retrievers = Literal["hybrid", "dense", "bm25"]


class RetrievalSettings(Group):
    """Hybrid retrieval: dense + BM25 per phrasing, RRF, rerank, floor, neighbors."""

    retrievers: Retrievers = Field("hybrid", description="Which first-stage lists feed the fusion.")
    top_n: int = Field(20, gt=0, le=1000, description="Candidates taken from each dense and each BM25 list.")
    rrf_k: int = Field(60, gt=0, le=10_000, description="RRF damping constant (Cormack et al., 2009).")
    dense_weight: float = Field(
        1.0, ge=0, le=10, description="RRF weight of each dense list (1 everywhere: plain RRF)."
    )
    bm25_weight: float = Field(
        0.8,
        ge=0,
        le=10,
        description="RRF weight of each BM25 list (0.8: chosen on the FinanceBench dev split, "
        "UDA and SciFact; see README).",
    )
    page_weight: float = Field(
        0.0,
        ge=0,
        le=10,
        description="RRF weight of the page list (chunks ordered by their page's evidence); 0 leaves it out.",
    )
    page_share: float = Field(
        0.5, ge=0, le=1, description="A page's evidence: its best chunk's fused score plus this share of the others'."
    )
    stem_weight: float = Field(
        0.5,
        ge=0,
        le=1,
        description="How much a question's word also scores the other words of the index with its Snowball "
        "English stem ('cyclicality': 'cyclical'; 'profitability': 'profitable'), as a share of its own BM25 "
        "weight; identifiers, codes and figures match only themselves. Read when an index is built (the store "
        "keeps the terms as written: no reindex). 0: the word alone, plurals folded (0.5: chosen on SciFact, "
        "UDA and the FinanceBench dev split against 0.3 and 1; see README).",
    )
    statement_weight: float = Field(
        4.0,
        ge=0,
        le=10,
        description="RRF weight of the statement list: the table chunks of the financial statements a question "
        "names or whose ratios it asks for (rag_core/lexical/vocabulary.py); 0 leaves it out (4: chosen on the "
        "FinanceBench dev split and the statement questions of rag_core/eval/statement_questions.jsonl; see README).",
    )
    named_scope: bool = Field(
        True,
        description="A question asked of the whole library searches only the documents it names, by the first word "
        "of their file's title ('Boeing' of BOEING_2022_10K.pdf) or a short form of the name a document writes "
        "('AMEX' of 'American Express'); all of them when it names none. False searches the whole library always.",
    )
    statement_scope: int = Field(
        3,
        gt=0,
        le=1000,
        description="The statement list takes the statements of the documents that hold this many "
        "best chunks of the dense and BM25 lists fused: the reports the question is about.",
    )
    statement_chunks: int = Field(
        3,
        gt=0,
        le=1000,
        description="Chunks the statement list takes from each statement a question needs, in each report.",
    )
    section_weight: float = Field(
        2.0,
        ge=0,
        le=10,
        description="RRF weight of the section list: the chunks under the headings a question's topic is filed "
        "under in reports (legal battles: 'Litigation', 'Legal Proceedings'; rag_core/lexical/vocabulary.py, "
        "SECTIONS); 0 leaves it out (2: chosen on the FinanceBench dev split; see README).",
    )
    section_chunks: int = Field(
        3,
        gt=0,
        le=1000,
        description="Pages the section list takes from each report (of the statement_scope reports the "
        "question is about), the best chunk of each, best BM25 score first.",
    )
    row_rank: int = Field(
        2,
        ge=0,
        le=1000,
        description="Fused rank the row list's first chunk takes at least (its next ones the ranks after): the "
        "table chunks with a row the question names by its label ('Effective tax rate' for \"how much has the "
        "effective tax rate changed\"; rag_core/retrieval/lists.py, row_list). Placed, not fused: what the other "
        "lists rank above it keeps its order. 0 leaves it out (2: at 1, or fused with a weight, UDA's FinQA hit@1 "
        "fell from 0.795 to 0.59-0.68, another table with the same line put first; see README). At 1 when its first "
        "table states a textbook ratio the question names ('Effective tax rate') and the question names no "
        "statement: the figure asked, stated, before the statement it is computed from. Not built for a "
        "question of what drove a change: the discussion answers it, and the placed rows pushed it out of the top 3.",
    )
    row_min_terms: int = Field(
        2,
        ge=2,
        le=8,
        description="Fewest content terms of a phrase the row list matches a row label to.",
    )
    row_common_share: float = Field(
        0.5,
        gt=0,
        le=1,
        description="A phrase held by more than this share of the chunks of the reports searched names the reports "
        "themselves (the company, which every chunk's header holds), not a line: the row list leaves it out, and "
        "a question of what drove a change does not choose its discussion's pages by it in their headings.",
    )
    row_candidates: int = Field(
        60,
        gt=0,
        le=10_000,
        description="Tables holding the words of one of the question's phrases that the row list reads to compare "
        "their row labels, most words and best BM25 score first.",
    )
    row_chunks: int = Field(
        3,
        gt=0,
        le=1000,
        description="Chunks the row list takes from each report (of the statement_scope reports the question is "
        "about).",
    )
    agreed_rank: int = Field(
        4,
        ge=0,
        le=1000,
        description="Fused rank the agreed list's first chunk takes at least (its next ones the ranks after): the "
        "chunks among the first agreed_depth of both the question's own dense list and its own BM25 list, the two "
        "first-stage searches of the question as asked agreeing on it. Placed, not fused, as the row list is: "
        "the statement and row lists and the vocabulary phrasing can outvote such a chunk (3M's income taxes note, "
        "first in BM25 and second in the dense list for 'income before income taxes from international "
        "operations', was 12th behind the income statement's pages). 0 leaves it out.",
    )
    agreed_depth: int = Field(
        2,
        gt=0,
        le=100,
        description="How far down the question's own dense and BM25 lists a chunk must stand in both to be agreed.",
    )
    table_rank: int = Field(
        6,
        ge=0,
        le=1000,
        description="Fused rank the worded table takes at least: the first table chunk among the first table_depth "
        "of the question's own BM25 list that no dense list holds (rows of figures embed far from any question, and "
        "a BM25 rank alone falls below the pool). Placed, not fused, as the row list is: no chunk fused above this "
        "rank moves. 0 leaves it out.",
    )
    table_depth: int = Field(
        4, gt=0, le=100, description="How far down the question's own BM25 list the worded table may stand."
    )
    exact_weight: float = Field(
        3.0,
        ge=0,
        le=10,
        description="RRF weight of the exact-match list: the chunks holding a rare identifier, code, name or "
        "quoted phrase of the question (rag_core/lexical/bm25.py, exact_terms); 0 leaves it out (3: its first chunk "
        "outscores a chunk first in every dense and BM25 list of a two-phrasing search; see README).",
    )
    definition_weight: float = Field(
        1.0,
        ge=0,
        le=10,
        description="RRF weight of the definitions list: the chunks that define a term of the question too common "
        "to count as an exact match ('“Required Lenders” means …'; rag_core/retrieval/exact.py, definition_hits); "
        "1: its first chunk as a dense list's first, so a definition joins the question's own evidence rather than "
        "going before it; read with the exact list (exact_weight 0 leaves both out).",
    )
    exact_max_chunks: int = Field(
        2,
        gt=0,
        le=100_000,
        description="An exact term counts when at most this many chunks of the searched documents hold it "
        "(an invoice number on one line, which chunk overlap may repeat, does; a company name on every page "
        "does not). 2: chosen on SciFact, whose gene names held by 3 to 5 abstracts mislead (see README).",
    )
    typed_identifiers: bool = Field(
        True,
        description="Match an identifier the question types another way than the document ('inv 2023 48213', "
        "'INV2023-48213', 'invoice 2023-48213' for INV-2023-48213) by its normal form: case, separators and a "
        "set-off prefix aside, digits in order (rag_core/lexical/terms.py, normal_forms), and a name typed without "
        "its capitals ('priya raman') that the documents write as a name; false: only as written.",
    )
    clean_queries: bool = Field(
        True,
        description="Take role-play and answer-format instructions out of search phrasings (keeping the "
        "statements they name).",
    )
    keyword_phrasing: bool = Field(False, description="Also search with the question's content words alone.")
    metric_vocabulary: bool = Field(
        True,
        description="Also search with the inputs of the ratios and statements a question names "
        "(rag_core/lexical/vocabulary.py).",
    )
    llm_phrasings: bool = Field(
        False,
        description="Search with the LLM's rephrasings too. Off: the LLM reads only the intent, and "
        "`search` makes no LLM call at all.",
    )
    pool_size: int = Field(15, gt=0, le=1000, description="Fused candidates sent to the reranker.")
    top_k: int = Field(8, gt=0, le=100, description="Hits kept after reranking.")
    hits_per_page: int = Field(
        1,
        ge=0,
        le=100,
        description="Most prose hits of one page before every other page's first ones (its further chunks come "
        "after them, or back as neighbours; a table's chunks are parts of one table and never wait); 0: no limit "
        "(1: UDA NQ hit@8 0.861 -> 0.954, the literal answers in the context kept; see README).",
    )
    neighbor_window: int = Field(
        1, ge=0, le=10, description="Chunks added on each side of a hit (0 turns expansion off)."
    )
    table_discussion: int = Field(
        8,
        ge=0,
        le=50,
        description="For a question about figures: chunks after the best table that the context adds, in its own "
        "section and up to the next table (the text that says what the table shows: Table 2's variants read in "
        "words, not only its cells); a tight prompt then loses the table's detail rows before this text "
        "(0: the neighbours alone).",
    )
    page_tables: int = Field(
        3,
        ge=0,
        le=20,
        description="For a question answered with a figure read by code (technical; qa asking for a figure): the "
        "first this many text hits have the tables of their page added at the end of the context, where the "
        "figure reader sees them and the budget cuts them first (a chart's labels or a page's prose can outrank "
        "the table beside it that holds the figures), and the best table of each of the first this many pages "
        "with one gets its first rows on its page (the headings an unlabelled total is named by); 0: off.",
    )
    unit_tables: int = Field(
        1,
        ge=0,
        le=5,
        description="For a figure read by code from a table that states no unit ('Provision for Income Taxes | "
        "$50,036', no '(in thousands)'), and whose amounts no table of the context states in one: the tables of the "
        "same document that state the most of its amounts (the income statement's 'Provision for income taxes … "
        "50,036', in thousands), at most this many, join the context and the figure is read in their unit; else the "
        "report's statement of its tables' unit on the nearest page before ('all tabular amounts in thousands', its "
        "notes' title over '(Dollars in millions …)'); 0: neither.",
    )
    sample_count: int = Field(12, gt=0, le=1000, description="Chunks picked evenly across a document for summaries.")
    sample_candidates: int = Field(
        5,
        gt=0,
        le=100,
        description="Chunks read in each stretch of a document a summary samples; the one with the most prose "
        "is taken (1: the stretch's middle chunk, whatever it holds).",
    )
    summary_table: bool = Field(
        True,
        description="A summary reads each document's first table with a row that sums up the others ('Overall', "
        "'Total …') in its first four fifths (up to four documents); the local model's summary quotes those rows "
        "first.",
    )
    summary_opening_chars: int = Field(
        1800,
        ge=0,
        le=100_000,
        description="Characters of a document's own summary (the text under 'Abstract', 'Executive Summary' or "
        "'Overview' in its first quarter) that a summary reads whole before its samples, shared by the documents "
        "summarised (none for a document whose share is under one chunk); 0: samples only.",
    )
    summary_documents: int = Field(
        4, gt=0, le=100,
        description="A summary reads each document's own summary and its first summing table when it covers at "
        "most this many documents (past that, samples alone: the room is shared too thin).",
    )
    opening_share: float = Field(
        0.25, gt=0, le=1,
        description="Where a document's own summary is looked for: this first share of its chunks (a 10-K's "
        "business overview sits on page 4 to 22 of 100 to 250; a paper's abstract on page 1).",
    )
    summary_table_share: float = Field(
        0.8, gt=0, le=1,
        description="Where a summary's headline table is looked for: this first share of a document's chunks (a "
        "paper's appendix and a report's exhibits come after).",
    )
    table_window: int = Field(
        12, gt=0, le=1000,
        description="Chunks read on each side of a table chunk to find the rest of its table (the whole table "
        "shown under an answer that cites it).",
    )
    comparison_top_k: int = Field(
        3, gt=0, le=100, description="Hits kept from the search for each side of a comparison."
    )
    sides_weight: float = Field(
        1.0,
        ge=0,
        le=10,
        description="RRF weight of a comparison's list of the chunks that name every side it compares (a "
        "sentence or a table comparing them); 0 leaves it out.",
    )
    sides_chunks: int = Field(
        3, gt=0, le=100, description="Chunks the list of a comparison's passages naming every side holds."
    )
    bm25_cache_entries: int = Field(
        16, gt=0, le=10_000, description="BM25 indexes (one per owner and document set) kept."
    )
    dense_floor: float = Field(
        0.25,
        ge=-1,
        le=1,
        description="A hit is relevant when its best cosine similarity to a phrasing reaches this ...",
    )
    lexical_floor: float = Field(
        0.5, ge=0, le=1, description="... or when it contains this share of a phrasing's distinct BM25 terms."
    )
