"""The one orchestrator: ``Engine.ingest_*``, ``Engine.search`` and ``Engine.ask``.

``Engine`` owns one store, one embedder, one reranker, the BM25 cache and one chat model per
backend; the CLI makes one per run, the app one per process. It resolves an owner's documents
once per call, calls the stage functions in order (``retrieve``, ``queries``, ``context``,
``budget``, ``generate``) and records each in the trace; the stages never import it. Its
ingestion methods live in ``ingesting.Ingesting``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from functools import partial

from .answer.answer_check import AnswerCheck
from .answer.context import group_passages, tables_not_read_yet, whole_candidates, with_texts
from .answer.figure_question import read_question as figure_question
from .answer.generate import AnswerRun, PromptSpeeds
from .answer.leads import lead_lines
from .answer.prepare import prepare
from .answer.report_lookup import ReportLookup
from .backends import ChatModel, Embedder, Reranker
from .conversations import conversations_of
from .errors import RagError
from .ingest.reindex import Listener, Reindexer, ReindexStatus, pending
from .ingest.table_pass import TablePasses
from .ingesting import Ingesting
from .lexical.bm25 import Bm25Index
from .lexical.cache import Bm25Cache
from .library import Library
from .memory import limit_malloc_arenas
from .models import DocumentRecord, Hit, Message, RetrievalResult, Searched, Understanding
from .reader import Reader
from .retrieval.plan import answering, phrasings_of, plan
from .retrieval.rerank import Availability, CrossEncoderReranker, availability_of
from .retrieval.retrieve import Retriever
from .retrieval.scope import named_scope
from .retrieval.understand import keyword_understanding, read_question, trim_history, understand
from .runtime.embed import make_embedder
from .runtime.llm import ChatSession, make_chat_model, preload_chat_model
from .settings import LlmBackend, Retrievers, Settings
from .stages import Stage
from .store import Store, open_chunks
from .store.files import file_store
from .store.opening import open_store
from .trace import StageNotes, TraceRecorder, ms_since


class Engine(Ingesting):
    """Ingest, list, delete, search and answer, each call scoped to one owner.

    Args:
        settings: Every tunable; ``Settings()`` reads the environment.
        store: An open store; by default the one the settings name.
        embedder: By default sentence-transformers with ``settings.embed``.
        reranker: By default a CrossEncoder with ``settings.rerank``.
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        store: Store | None = None,
        embedder: Embedder | None = None,
        reranker: Reranker | None = None,
    ) -> None:
        self.settings = settings or Settings()
        self.store = store or open_store(self.settings)
        # rag_core's import set the environment's limit; a value given otherwise (st.secrets, a caller's
        # Settings) applies here while glibc still takes one (memory.py)
        limit_malloc_arenas(self.settings.malloc_arenas)
        self.embedder: Embedder = embedder or make_embedder(self.settings.embed)
        self.reranker: Reranker = reranker or CrossEncoderReranker(self.settings.rerank)
        self.bm25_cache = Bm25Cache(max_entries=self.settings.retrieval.bm25_cache_entries)
        self.files = file_store(self.settings)
        self.conversations = conversations_of(self.settings)
        """Each owner's conversations, kept with the library (``conversations.py``)."""
        self.library = Library(self.store, self.files, embed_model=self.embedder.model_id)
        self.reader = Reader(self.store, self.files, self.settings.retrieval)
        self.retriever = Retriever(
            store=self.store, embedder=self.embedder, reranker=self.reranker, reader=self.reader,
            bm25_cache=self.bm25_cache, retrieval=self.settings.retrieval, rerank=self.settings.rerank,
        )
        self._chat_models: dict[LlmBackend, ChatModel | None] = {}
        self.prompt_speeds = PromptSpeeds(self.settings.llm.prompt_tokens_per_s)
        self._lock = threading.Lock()
        self._collection: str | None = None
        self.recovered = self.library.recover()
        self.reindexer = Reindexer(
            self.store, self.embedder, chunks_per_step=self.settings.embed.chunks_per_step, bm25_cache=self.bm25_cache,
            after=self.resume_tables,
        )
        """Re-embeds documents stored by another embedding model (``reindex``, or in the background, after
        which the documents that came over waiting for their table pass get it)."""
        self.tables = TablePasses(
            self.store, self.embedder, self.files, ingest=self.settings.ingest, chunking=self.settings.chunk,
            chunks_per_step=self.settings.embed.chunks_per_step, bm25_cache=self.bm25_cache,
        )
        """Finds the tables of documents made searchable from their text first (``ingest.tables``)."""

    def close(self) -> None:
        self.tables.stop()  # a background table pass ends whole or not at all; the next open passes the rest
        self.reindexer.stop()  # a background re-embedding stops after its step; the next open resumes it
        self.store.close()
        self.files.close()
        self.conversations.close()

    def reranker_availability(self) -> Availability:
        """Whether the reranker can run (probed once, loading nothing); a reranker without a probe,
        such as a test's, counts as available."""
        return availability_of(self.reranker)

    @property
    def collection(self) -> str:
        """The chunk collection of the configured embedder (loads it to learn its dimension)."""
        if self._collection is None:
            with self._lock:
                if self._collection is None:
                    self._collection = open_chunks(self.store, self.embedder.model_id, self.embedder.dimension)
        return self._collection

    def chat_model(self, backend: LlmBackend) -> ChatModel | None:
        """The chat model of a backend, made once (None for extractive); it loads on first use."""
        with self._lock:
            if backend not in self._chat_models:
                config = self.settings.llm.model_copy(update={
                    "backend": backend, "n_ctx": self.settings.llm.n_ctx or self.settings.budget.local_context()})
                self._chat_models[backend] = make_chat_model(config, self.settings.budget.unknown_model_margin)
            return self._chat_models[backend]

    def preload_chat_model(self, backend: LlmBackend | None = None, *, wait: bool = False) -> None:
        """Load a backend's chat model now (the settings' by default): see ``answer.llm.preload_chat_model``."""
        preload_chat_model(self.chat_model(backend or self.settings.llm.backend), wait=wait)

    # --- documents ---------------------------------------------------------------------

    def documents(self, owner: str | None = None) -> list[DocumentRecord]:
        """The owner's ready documents for the configured embedding model, oldest first."""
        return self.library.records(owner or self.settings.owner)

    def delete(self, owner: str, name_or_id: str) -> DocumentRecord:
        """Delete one document, its chunks and its kept file. Raises DocumentNotFound."""
        record = self.library.one(owner, name_or_id)
        self.library.delete(record)
        self.bm25_cache.invalidate(owner, record.doc_id)
        return record

    def sample_document(self, owner: str, document: str, n: int | None = None) -> list[Hit]:
        record = self.library.one(owner, document)
        return self.reader.sample(record, n or self.settings.retrieval.sample_count,
                                   self.settings.retrieval.sample_candidates)

    def document_chunks(self, owner: str, document: str) -> list[Hit]:
        return self.reader.chunks(self.library.one(owner, document))

    def render_page(self, owner: str, document: str, page: int, highlight: str | None = None) -> bytes | None:
        return self.reader.render_page(self.library.one(owner, document), page, highlight,
                                        zoom=self.settings.app.page_zoom, ocr=self.settings.ingest)

    def page_text(self, owner: str, document: str, page: int) -> str:
        return self.reader.page_text(self.library.one(owner, document), page)

    # --- a change of embedding model ----------------------------------------------------

    def pending_reindex(self) -> list[DocumentRecord]:
        """Every owner's documents whose vectors belong to another embedding model (not listed
        until re-embedded)."""
        return pending(self.store, self.embedder.model_id)

    def reindex(self, listener: Listener | None = None) -> ReindexStatus:
        """Re-embed every document stored by another embedding model, from its stored chunks; see
        ``rag_core.ingest.reindex``. Each becomes listed and searchable as soon as its copy is complete."""
        return self.reindexer.run(listener)

    # --- retrieval ---------------------------------------------------------------------

    def bm25_index(self, owner: str, doc_ids: Sequence[str]) -> tuple[Bm25Index, bool]:
        """The BM25 index of exactly these documents, cached, and whether it was cached."""
        return self.retriever.index(self.collection, owner, doc_ids)

    def _index_of(self, owner: str, records: Sequence[DocumentRecord]) -> Bm25Index:
        return self.bm25_index(owner, [r.doc_id for r in records])[0]

    def search(
        self,
        question: str,
        *,
        owner: str | None = None,
        documents: Sequence[str] | None = None,
        queries: Sequence[str] | None = None,
        top_k: int | None = None,
        rerank: bool | None = None,
        neighbors: bool = True,
        retrievers: Retrievers | None = None,
        understand_with: ChatModel | LlmBackend | None = None,
    ) -> RetrievalResult:
        """Hybrid retrieval for one question, with a full trace.

        Args:
            question: What the user asked.
            owner: Whose documents to search; the settings' default owner if None.
            documents: Names or ids to restrict to; all of the owner's if None.
            queries: Phrasings to search with; ``[question]`` if None.
            top_k: Hits kept after reranking; the settings' value if None.
            rerank: Force the reranker on or off; the settings' value if None.
            neighbors: Add the chunks around each hit.
            retrievers: 'hybrid', or one first-stage retriever alone; the settings' if None.
            understand_with: A chat model or backend to read the question's intent and
                rephrasings with first (``queries`` is then ignored).

        Raises:
            RagError: The question is empty.
            DocumentNotFound: A named document does not exist for this owner.
        """
        question, owner, records, recorder = self._scope(question, owner, documents, retrievers)
        understanding, intent = Understanding(intent="qa", queries=phrasings_of(question, queries),
                                              source="keywords"), None
        if understand_with is not None:
            with recorder.stage(Stage.UNDERSTAND, question=question) as noted:
                if self.settings.retrieval.llm_phrasings:
                    understanding = self.understand(question, understand_with, rephrase=True)
                else:  # a search needs no intent, and the LLM's rephrasings are off: no LLM call
                    understanding = keyword_understanding(question)
                    noted.notes.append("LLM rephrasings off (RAG_RETRIEVAL__LLM_PHRASINGS): intent from keywords")
                noted.outputs = [understanding.model_dump(exclude={"raw"})]
            intent = understanding.intent
        records, every = self._named(question, records, documents, recorder)
        # the plan an answer would run, without its answer steps: ``search`` and ``ask`` retrieve alike
        chosen = plan(understanding, question, documents=len(records), settings=self.retriever.retrieval,
                      top_k=top_k, retrievers=retrievers, neighbors=neighbors)
        clock, before = time.perf_counter(), recorder.total_ms()
        hits, result, notes, stages = self.retriever.run_plan(
            chosen, records, owner, collection=self.collection, rerank=rerank, every_document=every)
        for name, searched in stages:
            recorder.extend(searched, name)
        recorder.add(Stage.PLAN, ms_since(clock) - (recorder.total_ms() - before), chosen.describe(),
                     StageNotes(notes=notes))
        return result.result(recorder.trace(question, list(result.queries)), hits=hits, intent=intent)

    # --- answering ---------------------------------------------------------------------

    def ask(
        self,
        question: str,
        *,
        owner: str | None = None,
        documents: Sequence[str] | None = None,
        history: Sequence[Message] = (),
        rerank: bool | None = None,
        top_k: int | None = None,
        backend: LlmBackend | None = None,
        llm: ChatModel | None = None,
    ) -> AnswerRun:
        """Understand, plan, retrieve and budget; nothing is generated yet. The run's sources and
        trace are complete now; ``run.stream()`` then generates and ``run.result()`` gives the Answer.

        Args:
            question: As the user typed it.
            owner, documents, rerank, top_k: As for :meth:`search`.
            history: Earlier turns, oldest first. A follow-up that refers back is rewritten to stand
                alone; the prompt carries the turns only with ``conversation.prompt_history`` "full".
            backend: The generator; the settings' if None. ``llm`` overrides it with a model.

        Raises:
            RagError: The question is empty, or a named document does not exist.
        """
        started = time.perf_counter()
        typed, owner, records, recorder = self._scope(question, owner, documents, None)
        chat = self._session(llm or backend or self.settings.llm.backend)
        recent = trim_history(history, self.settings.conversation.history_messages,
                              self.settings.conversation.history_chars)
        with recorder.stage(Stage.UNDERSTAND, question=typed, history_messages=len(recent)) as noted:
            standalone, understanding, timings, noted.notes = read_question(
                typed, recent, chat, self.settings.llm, rephrase=self.settings.retrieval.llm_phrasings)
            noted.outputs = [{"standalone_question": standalone} | understanding.model_dump()]
        intent, sides = understanding.intent, understanding.entities
        records, every = self._named(standalone, records, documents, recorder)
        # the rewrite made the question stand alone: by default the prompt carries no earlier turn
        turns = recent if self.settings.conversation.prompt_history == "full" else []
        counter = chat.counter()
        # a qa question that asks for no figure gets no figure step: nor the tables of its hits' pages, which a
        # small model then reads figures from ("Is the business subject to cyclicality?": "cyclicality scores")
        figures = self.settings.llm.figures and (intent == "technical" or figure_question(standalone) is not None)
        steps = answering(intent, chat.model.backend if chat.model is not None else "extractive",
                          budget=self.settings.budget, brief_form=self.settings.llm.local_brief, figures=figures)
        chosen = plan(understanding, standalone, documents=len(records), settings=self.retriever.retrieval,
                      top_k=top_k, answer=steps)

        clock, before = time.perf_counter(), recorder.total_ms()
        retrieval: Searched | None = None
        whole = whole_candidates(
            records, self.reader, room_tokens=steps.whole_document_tokens, size_chars=self.settings.chunk.size_chars,
            chars_per_token=self.settings.budget.chars_per_token_upper)
        fitted = (prepare(steps, standalone, turns, group_passages(whole, records), counter, sides,
                          self.settings.budget, whole=True, no_relevant=False) if whole is not None else None)
        if fitted is not None:
            hits, notes = whole or [], ["whole document: it fits the budget, so retrieval was skipped"]
        else:
            hits, retrieval, notes, stages = self.retriever.run_plan(
                chosen, records, owner, collection=self.collection, rerank=rerank, every_document=every)
            for name, searched in stages:
                recorder.extend(searched, name)
        timings["retrieve"] = ms_since(clock)
        is_whole = fitted is not None
        recorder.add(Stage.PLAN, timings["retrieve"] - (recorder.total_ms() - before),
                     chosen.describe() | {"whole_document": is_whole}, StageNotes(notes=notes))
        no_relevant = not is_whole and intent != "summary" and (retrieval is None or retrieval.no_relevant_passage)
        no_relevant = no_relevant or (not is_whole and intent == "summary" and not hits)
        clock = time.perf_counter()
        whole_tables = group_passages(hits, records)  # a summary's lead quotes its table's totals from these
        prepared = fitted or prepare(steps, standalone, turns, whole_tables, counter, sides, self.settings.budget,
                                     whole=False, no_relevant=no_relevant,
                                     report=ReportLookup(partial(self._index_of, owner, records), self.reader, records,
                                                         self.retriever.retrieval.unit_tables))
        assert prepared is not None, "only a whole-document fit may come back empty"
        recorder.extend(prepared.records)
        grouped, budget, figure = prepared.passages, prepared.budget, prepared.figure
        recorder.settings["prompt"] = budget.messages
        timings["budget"] = ms_since(clock)
        timings["prepare"] = ms_since(started)
        fell_back = understanding.error and understanding.source == "keywords" and chat.configured
        passages = with_texts(grouped, budget.passages)
        notices = [n for n in (f"intent from keywords: {understanding.error}" if fell_back else None,
                               chat.notice(), tables_not_read_yet(passages, records)) if n]
        # lines read by code lead the answer (the plan's leads): the figure asked for, else the brief form's
        # table lines that answer, the sentence that states the figure, a comparison's measured lines, a summary's
        # totals; the model says what they show
        led = None if no_relevant else lead_lines(steps.leads, question=standalone, sides=sides, passages=passages,
                                                  whole_tables=whole_tables,
                                                  read=figure.cells if figure is not None else (),
                                                  settled=figure is not None)
        lead = (figure.sentence + "\n\n" if figure is not None else "") + (led[1].markdown() if led else "")
        reads = figure is not None or (led is not None and led[0] in ("quoted", "stated"))
        check = (AnswerCheck(self.embedder, self.settings.attribution, self.reader, tuple(records))
                 if self.settings.attribution.enabled else None)
        return AnswerRun(
            question=typed, standalone=standalone, understanding=understanding, retrieval=retrieval, hits=hits,
            passages=passages, budget=budget, whole_document=is_whole,
            no_relevant=no_relevant, trace=recorder.trace(standalone, understanding.queries), chat=chat,
            timings=timings, notices=notices, started=started, timeout_s=self.settings.llm.timeout_s,
            extractive_sentences=self.settings.llm.extractive_sentences, check=check,
            prompt_speed=self.prompt_speeds.of(chat.model), repeat_limit=self.settings.llm.repeat_stop,
            echo_words=self.settings.llm.echo_words,
            lead=lead, figure=figure,
            max_tokens=min(budget.reserved_output, steps.reading_tokens) if reads else budget.reserved_output,
        )

    def understand(
        self, question: str, llm: ChatModel | LlmBackend | None = None, *, rephrase: bool | None = None
    ) -> Understanding:
        """The question's intent and search phrasings, read by ``llm`` (the settings' backend if None);
        with rephrasings when ``rephrase`` (the settings' ``retrieval.llm_phrasings`` if None)."""
        rephrase = self.settings.retrieval.llm_phrasings if rephrase is None else rephrase
        session = self._session(llm or self.settings.llm.backend)
        return understand(question.strip(), session, self.settings.llm, rephrase=rephrase)

    def _session(self, llm: ChatModel | LlmBackend) -> ChatSession:
        model = self.chat_model(llm) if isinstance(llm, str) else llm
        return ChatSession(model, self.settings.budget.unknown_model_margin)

    def _named(self, question: str, records: list[DocumentRecord], documents: Sequence[str] | None,
               recorder: TraceRecorder) -> tuple[list[DocumentRecord], bool]:
        """Of the whole library (no ``documents`` chosen), the documents the question names (``scope.named_scope``),
        and whether they are all of the owner's; the chosen ``documents`` as they are."""
        if documents is not None or not self.retriever.retrieval.named_scope or len(records) < 2:
            return records, documents is None
        with recorder.stage(Stage.SCOPE, question=question) as notes:
            kept, said = named_scope(question, records, self.reader)
            notes.notes, notes.outputs = said.notes, said.outputs
        recorder.doc_ids = [r.doc_id for r in kept]
        return kept, len(kept) == len(records)

    def _scope(self, question: str, owner: str | None, documents: Sequence[str] | None,
               retrievers: Retrievers | None) -> tuple[str, str, list[DocumentRecord], TraceRecorder]:
        """The question stripped (RagError when empty), the owner, the documents it is asked of
        (resolved once: DocumentNotFound for a name the owner has not) and its trace's recorder."""
        owner = owner or self.settings.owner
        if not question.strip():
            raise RagError("The question is empty.", "Type a question.")
        records = self.library.find(owner, documents)
        settings = self.retriever.retrieval.model_dump() | {
            "chunk": self.settings.chunk.model_dump(),
            "retrievers": retrievers or self.retriever.retrieval.retrievers,
            # documents searched by their text alone while their table pass is pending: name -> its pages
            "tables_pending": {r.name: list(r.table_pages_pending) for r in records if r.stage == "searchable"},
        }
        return question.strip(), owner, records, TraceRecorder(owner=owner, doc_ids=[r.doc_id for r in records],
                                                               settings=settings)
