"""The app's shared resources and session keys: one Engine per process (one store, one embedder,
one chat model per backend), settings from the environment overlaid with st.secrets."""

from __future__ import annotations

import contextlib
import math
import os
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from rag_core import (
    Answer,
    AnswerRun,
    ChatMessage,
    ChatModel,
    Conversation,
    ConversationSummary,
    DocumentRecord,
    Engine,
    LlmBackend,
    QuestionRate,
    RagError,
    Settings,
    conversation_markdown,
    preload_chat_model,
)

if TYPE_CHECKING:
    from rag_core import Availability, Hit, IngestResult, Reindexer, RetrievalResult, TablePasses
    from rag_core.settings import LimitsSettings

os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")

OWNER = "owner"
MESSAGES = "messages"
TRACES = "traces"
"""The session's answers (typed ``Answer`` objects), newest last, for the debug page."""
BACKEND = "backend"
RERANK = "rerank"
TOP_K = "top_k"
SELECTED_DOCS = "selected_docs"
CONVERSATION = "conversation"
"""The id of the conversation the chat shows (kept with the library), or None before its first answer."""
CONVERSATION_PARAM = "c"
"""The URL's query parameter naming the open conversation, so a reload of the page reopens it."""
CONVERSATION_NOTES = "conversation_notes"
"""What could not be read back of the open conversation (a damaged line, an old answer), shown above it."""
STARTED = "_session_started"
REINDEX_SEEN = "_reindex_documents_seen"
"""Documents re-embedded when this session last drew the page (it reruns when more are done)."""


def _secrets() -> Mapping[str, Any]:
    try:
        return dict(st.secrets)
    except Exception:  # no secrets.toml: the environment alone configures the app
        return {}


@st.cache_resource
def settings() -> Settings:
    """Settings from the environment, with st.secrets on top: either flat keys
    (RAG_LLM__BACKEND = "openai") or a [rag] table ([rag.llm] backend = "openai")."""
    return Settings.with_overlay(_secrets())


@st.cache_resource
def _engine() -> Engine:
    """The Engine; documents stored by another embedding model start re-embedding in the
    background (each is listed again as soon as its new copy is complete), and documents whose
    tables were not found yet get their table pass."""
    engine = Engine(settings())
    if engine.pending_reindex():
        engine.reindexer.start()
    engine.resume_tables()
    return engine


def engine() -> Engine:
    """The one Engine of this process: the embedded store locks its folder, so one client only.

    A store that cannot be opened (in use, damaged) stops the page with its message; the navigation
    and the pages that need no store keep working, and the next run tries again.
    """
    try:
        return _engine()
    except RagError as error:
        st.error(str(error))
        st.stop()


def documents() -> list[DocumentRecord]:
    """The visitor's documents, or the page stops with the store's message."""
    try:
        return engine().documents(owner())
    except RagError as error:
        st.error(str(error))
        st.stop()


def page_chunks(record: DocumentRecord, page: int) -> list[Hit]:
    """The chunks of one page of one of the visitor's documents (for the debug page's "why not this page")."""
    return [h for h in engine().document_chunks(owner(), record.doc_id) if h.page == page]


def table_passes() -> TablePasses:
    """The background table passes of documents searchable from their text first."""
    return engine().tables


def reindexer() -> Reindexer:
    """The background re-embedding of documents another embedding model stored."""
    return engine().reindexer


def reranker_availability() -> Availability:
    """Whether the reranker can run here, and why not."""
    return engine().reranker_availability()


def ingest(data: bytes, name: str, progress: Callable[[str, int, int], None]) -> IngestResult:
    """Add one uploaded file to the visitor's library, within the shared mode's caps.

    Raises:
        RagError: The file is rejected, or a cap is reached; the message says which and what to do.
    """
    return engine().ingest_bytes(data, name, owner(), progress, limits=limits(), background_tables=True)


@contextmanager
def uploading() -> Iterator[None]:
    """While a batch of files is added: their table passes wait until the last one is searchable."""
    with engine().tables.paused():
        yield


def delete(record: DocumentRecord) -> None:
    """Delete one of the visitor's documents, its chunks and its kept file."""
    engine().delete(owner(), record.doc_id)


def search(question: str, **options: Any) -> RetrievalResult:
    """Retrieval alone over the visitor's documents (the debug page's playground); ``options`` as
    for ``Engine.search``."""
    return engine().search(question, owner=owner(), **options)


def chat_model(backend: LlmBackend) -> ChatModel | None:
    """The process's chat model for a backend (None for extractive)."""
    return engine().chat_model(backend)


def preload_model() -> None:
    """Start loading the session's chat model while the visitor types (the local one takes seconds)."""
    preload_chat_model(chat_model(st.session_state[BACKEND]))


def ask(question: str, history: Sequence[dict[str, str]]) -> AnswerRun:
    """Prepare an answer with the session's choices (backend, reranker, k, documents)."""
    backend = st.session_state[BACKEND]
    return engine().ask(
        question,
        owner=owner(),
        documents=st.session_state[SELECTED_DOCS] or None,
        history=history,
        # a reranker that cannot run is left to the settings: the trace then says why it did not run
        rerank=st.session_state[RERANK] if reranker_availability().available else None,
        top_k=st.session_state[TOP_K],
        backend=backend,
        llm=chat_model(backend),
    )


QUESTION_SET_HOLDER = "a question set"
"""Who holds the slot while a question set is answered; no browser session has that id."""


class GenerationSlot:
    """The local model writes one answer at a time in a process (two would share two cores and its
    memory, and each would take twice as long); the slot says whose answer it is writing.

    A question sent while an answer is written stops that script run, and Streamlit starts the new
    one at once (``runner.fastReruns``) while the old one still waits inside the runtime for its
    first token. Its session's next run cancels that answer, which nobody will see, so the model
    stops reading its prompt within a step and the new question gets the slot."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._guard = threading.Lock()
        self._holder: tuple[str, Callable[[], None]] | None = None

    def take(self, session: str, cancel: Callable[[], None], wait_s: float) -> bool:
        """Hold the slot for ``session``'s answer (``cancel`` stops it), waiting up to ``wait_s``."""
        if wait_s <= 0:
            taken = self._lock.acquire(blocking=False)
        else:
            taken = self._lock.acquire(timeout=-1 if math.isinf(wait_s) else wait_s)  # -1: as long as it takes
        if not taken:
            return False
        with self._guard:
            self._holder = (session, cancel)
        return True

    def release(self) -> None:
        with self._guard:  # both at once: ``stop_own`` sees a slot held with its holder, or free
            self._holder = None
            self._lock.release()

    @contextmanager
    def held(self) -> Iterator[None]:
        """Hold the slot for work no later run stops (a question set), waiting as long as it takes."""
        self.take(QUESTION_SET_HOLDER, lambda: None, math.inf)
        try:
            yield
        finally:
            self.release()

    def stop_own(self, session: str) -> bool:
        """Cancel the answer ``session``'s earlier, stopped run is writing. Whether the slot is this
        session's to wait for: held by that answer, or already free; not when another session's
        answer or a question set holds it (never stopped from here)."""
        with self._guard:
            holder, free = self._holder, not self._lock.locked()
        if holder is None or holder[0] != session:
            return holder is None and free  # held with no holder yet: someone else is taking it
        holder[1]()
        return True


@st.cache_resource
def generation_slot() -> GenerationSlot:
    """One per process, shared by every session."""
    return GenerationSlot()


def session_id() -> str:
    """This browser session's id (each tab has its own)."""
    context = get_script_run_ctx()
    return context.session_id if context is not None else ""


WAIT_TICK_S = 0.25
"""How often a question waiting for its stopped answer to let go checks in with Streamlit (where a
newer question stops this run too)."""


@contextmanager
def one_generation(run: AnswerRun) -> Iterator[bool]:
    """Hold the process's generation slot while a local model writes ``run``'s answer; yields
    False, holding nothing, when another session's answer is being generated. When it is this
    session's stopped answer, that one is cancelled and waited for, up to
    ``app.stopped_answer_wait_s``. Other backends need no slot."""
    if not (run.generates and run.backend == "local"):
        yield True
        return
    slot, session = generation_slot(), session_id()
    taken = slot.take(session, run.cancel, 0) or (slot.stop_own(session) and _taken_when_let_go(slot, session, run))
    if not taken:
        yield False
        return
    try:
        yield True
    finally:
        slot.release()


def _taken_when_let_go(slot: GenerationSlot, session: str, run: AnswerRun) -> bool:
    deadline = time.monotonic() + settings().app.stopped_answer_wait_s
    with st.spinner("Stopping the answer to the question before this one…"):
        beat = st.empty()
        while time.monotonic() < deadline:
            if slot.take(session, run.cancel, WAIT_TICK_S):
                return True
            beat.empty()  # a call into Streamlit: a newer question stops this run here
    return False


@st.cache_resource
def question_rate() -> QuestionRate:
    """One rate window per process, shared by every session (each counts under its owner)."""
    return QuestionRate(settings().limits.questions_per_minute)


def limits() -> LimitsSettings | None:
    """The per-visitor caps in shared mode; none for local single-user use."""
    return None if settings().app.single_user else settings().limits


def check_question() -> None:
    """Count a question against the visitor's rate in shared mode. Raises LimitReached."""
    if not settings().app.single_user:
        question_rate().check(owner())


def _adopt_app_navigation() -> None:
    """Make a page opened by its own URL show the same app as every other URL.

    The first request of a fresh server to ``/upload`` (a bookmark, a refresh) runs
    ``pages/upload.py`` alone under Streamlit's automatic ``pages/`` folder navigation ("app,
    chat, debug, upload", default layout): ``app.py`` has not yet declared its navigation in
    this process. Switch the process to ``app.py``'s navigation and rerun: ``app.py`` then
    opens this same page (its URL path, and so its page hash, is the same under both).
    """
    try:
        from streamlit.runtime.pages_manager import PagesManager
    except ImportError:  # another Streamlit layout: nothing to adopt
        return
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False  # what st.navigation itself does
        st.rerun()


def init_session(*, entry: bool = False) -> None:
    """Session defaults; settings out of range stop the page with their message. A page (not
    ``app.py``, the ``entry``, which declares the navigation itself) first adopts app.py's navigation."""
    first_run = STARTED not in st.session_state
    st.session_state[STARTED] = True
    if first_run and not entry:  # a new browser session opened straight on a page
        _adopt_app_navigation()
    try:
        config = settings()
    except RagError as error:
        st.error(str(error))
        st.stop()
    # a run of this session that was writing an answer has been stopped by this one: nobody will see it
    generation_slot().stop_own(session_id())
    st.session_state.setdefault(OWNER, config.owner if config.app.single_user else f"visitor-{uuid.uuid4().hex}")
    st.session_state.setdefault(MESSAGES, [])
    st.session_state.setdefault(TRACES, [])
    st.session_state.setdefault(BACKEND, config.llm.backend)
    st.session_state.setdefault(RERANK, config.rerank.enabled)
    st.session_state.setdefault(TOP_K, config.retrieval.top_k)
    st.session_state.setdefault(SELECTED_DOCS, [])
    st.session_state.setdefault(CONVERSATION, None)
    st.session_state.setdefault(CONVERSATION_NOTES, [])
    wanted = st.query_params.get(CONVERSATION_PARAM)
    if wanted and wanted != st.session_state[CONVERSATION]:  # a reload, or a link to a kept conversation
        try:
            open_conversation(wanted)
        except RagError as error:
            st.query_params.pop(CONVERSATION_PARAM, None)
            st.session_state[CONVERSATION_NOTES] = [f"The conversation in this page's address was not opened: {error}"]


def owner() -> str:
    return str(st.session_state[OWNER])


def conversations() -> list[ConversationSummary]:
    """The visitor's kept conversations, the latest first."""
    return engine().conversations.summaries(owner())


def conversations_last_the_process() -> bool:
    """Whether conversations go when the app stops (a server or in-memory store without a folder)."""
    return engine().conversations.temporary


def keep_answer(answer: Answer) -> str | None:
    """Store a question and its answer in the open conversation (a new one at the first answer).
    Returns why it could not be kept, or None: the answer stays on the page either way."""
    kept = engine().conversations
    try:
        if st.session_state[CONVERSATION] is None:
            st.session_state[CONVERSATION] = kept.start(owner(), answer.question).id
        kept.append(owner(), st.session_state[CONVERSATION], [
            ChatMessage(role="user", content=answer.question),
            ChatMessage(role="assistant", content=answer.answer, answer=answer),
        ])
    except (RagError, OSError) as error:
        st.session_state[CONVERSATION] = None  # the next answer starts a new one
        return f"This answer could not be kept with your conversations: {error}"
    st.query_params[CONVERSATION_PARAM] = st.session_state[CONVERSATION]
    return None


def open_conversation(conversation_id: str) -> Conversation:
    """Show a kept conversation in the chat, its answers on the debug page. Raises RagError."""
    conversation = engine().conversations.read(owner(), conversation_id)
    st.session_state[MESSAGES] = [
        {"role": m.role, "content": m.content} | ({"answer": m.answer} if m.answer is not None else {})
        for m in conversation.messages
    ]
    st.session_state[TRACES] = conversation.answers[-settings().app.max_history_traces:]
    st.session_state[CONVERSATION] = conversation.id
    st.session_state[CONVERSATION_NOTES] = list(conversation.notes)
    st.query_params[CONVERSATION_PARAM] = conversation.id
    return conversation


def conversation_export(conversation_id: str) -> Callable[[], str]:
    """A conversation as Markdown, read from the store only when its download is clicked (not at each
    run of the chat page)."""
    whose, kept = owner(), engine().conversations

    def markdown() -> str:
        return conversation_markdown(kept.read(whose, conversation_id))

    return markdown


def new_conversation() -> None:
    """An empty chat; the conversation it replaces stays kept."""
    st.session_state[MESSAGES] = []
    st.session_state[CONVERSATION] = None
    st.session_state[CONVERSATION_NOTES] = []
    st.query_params.pop(CONVERSATION_PARAM, None)


def rename_conversation(conversation_id: str, title: str) -> None:
    engine().conversations.rename(owner(), conversation_id, title)


def delete_conversation(conversation_id: str) -> None:
    engine().conversations.delete(owner(), conversation_id)
    if st.session_state[CONVERSATION] == conversation_id:
        new_conversation()


QUESTION_SET = "question_set"
"""The debug page's question set run (``rag_core.eval.question_set.SetRun``) and its stop event."""


def start_question_set(data: bytes, file_name: str, configs: Sequence[tuple[str, str]],
                       backend: LlmBackend | None) -> None:
    """Read a set and its configurations (name, TOML text; empty text: the settings as they are) and run
    it in a background thread; the page polls ``question_set()``. Raises RagError before anything runs."""
    from rag_core.eval.question_set import SetConfig, SetRun, read_set, run_set

    running = question_set()
    if running is not None and not running[0].finished and running[0].error is None:
        raise RagError("A question set is still running.", "Stop it first, or wait for it to finish.")
    config = settings()
    chosen = [SetConfig.from_toml(text, config, name=name) if text.strip() else SetConfig.default(config, name)
              for name, text in configs]
    if len({c.name for c in chosen}) < len(chosen):
        raise RagError("The two configurations have the same name.", "Give one another name = \"...\".")
    questions = read_set(data, file_name, [r.name for r in documents()], most=config.app.max_set_questions)
    check_question()  # a set counts as one question against a visitor's rate
    run, stop = SetRun(chosen, questions, backend=backend), threading.Event()
    the_engine, whose = engine(), owner()
    # the local model writes one answer at a time: while a set is answered by it, the chat's wait
    slot = generation_slot().held() if backend == "local" else contextlib.nullcontext()

    def work() -> None:
        try:
            with slot:
                run_set(the_engine, run, owner=whose, stop=stop)
        except Exception as error:  # a thread's error would vanish: the page shows it instead
            run.error = f"{type(error).__name__}: {error}"
        if run.error is None and not run.finished:
            run.error = "stopped"

    st.session_state[QUESTION_SET] = (run, stop)
    threading.Thread(target=work, name="question-set", daemon=True).start()


def question_set() -> tuple[Any, threading.Event] | None:
    """The session's question set run and its stop event, or None."""
    found = st.session_state.get(QUESTION_SET)
    return found if isinstance(found, tuple) else None
