"""An owner's conversations, kept with the library: the chat's messages with each answer whole (its
sources, citations, checked statements and trace), so a reload or a restart of the app reopens them.

One folder per conversation, in a folder per owner (``<root>/<sha256(owner)[:16]>/<id>/``, beside the
store's kept files):

- ``meta.json``: its id, owner, title and times, written atomically (rename and every new answer);
- ``messages.jsonl``: one message per line, appended as each answer completes (a question and its
  answer), so a kill at any point loses at most the line being written, and a line that cannot be
  read is a note on that conversation, the other lines kept.

Every read and write names the owner: another owner's conversation is never listed or opened (its
folder is keyed by the owner, and ``meta.json`` names it). A conversation's id is this module's own
(hex); no name from outside becomes a path.

Exports: a conversation as Markdown with each answer's citations (page and a quote of the passage
that supports it), for a report; an answer with its trace as JSON that ``answer_from_trace_file`` opens again.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
import time
import uuid
import weakref
from collections.abc import Iterator, Sequence
from contextlib import suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationError

from .errors import RagError
from .formats import page_label
from .lexical.terms import tokenize
from .models import Answer, Passage
from .models.base import Frozen
from .settings import Settings
from .text import sentences_of

FORMAT = 1
"""The layout of ``meta.json`` and each message line; a folder written by a newer release (a higher
number) is listed with a note, not read as this one."""
TITLE_CHARS = 80
"""A new conversation's title: its first question, cut at this many characters (a sidebar line)."""
_ID = re.compile(r"[0-9a-f]{32}")
_DELETING = ".deleting-"
"""A conversation being deleted is renamed to this prefix first, so a kill mid-delete never leaves
half of one listed; the next listing removes what is left."""


class ConversationNotFound(RagError):
    """No conversation of this owner has that id (deleted, or never this owner's)."""


class ChatMessage(Frozen):
    role: Literal["user", "assistant"]
    content: str = Field(description="What the chat shows and what a follow-up's history reads.")
    answer: Answer | None = Field(None, description="An assistant message's answer, whole (sources, trace).")


class ConversationSummary(Frozen):
    id: str
    title: str
    created: float = Field(description="Unix time.")
    updated: float = Field(description="Unix time of its last answer or rename.")
    questions: int = 0
    note: str = Field("", description="Why it cannot be opened as it is (damaged, newer release), or ''.")


class Conversation(Frozen):
    id: str
    owner: str
    title: str
    created: float
    updated: float
    messages: tuple[ChatMessage, ...] = ()
    notes: tuple[str, ...] = Field((), description="What could not be read back (a damaged line, an old answer).")

    @property
    def answers(self) -> list[Answer]:
        return [m.answer for m in self.messages if m.answer is not None]


class Conversations:
    """The conversations of every owner under one folder (see the module's docstring)."""

    def __init__(self, root: Path, *, keep: int, temporary: bool = False) -> None:
        self.root = root
        self.temporary = temporary
        """A process's own folder (beside an in-memory or server store without a folder): conversations
        then last until the process ends, and the app says so."""
        self.keep = keep
        """Most conversations an owner keeps (0: no cap); a new one past it removes the oldest."""
        self._remove = weakref.finalize(self, shutil.rmtree, root, ignore_errors=True) if temporary else None

    def close(self) -> None:
        if self._remove is not None:
            self._remove()

    # -- reading ---------------------------------------------------------------------------------

    def summaries(self, owner: str) -> list[ConversationSummary]:
        """The owner's conversations, the most recently updated first; one whose ``meta.json`` cannot
        be read is listed under its id with a note (it is left on disk as it is)."""
        folder = self._owner_dir(owner)
        if not folder.is_dir():
            return []
        found: list[ConversationSummary] = []
        for path in folder.iterdir():
            if path.name.startswith(_DELETING):
                shutil.rmtree(path, ignore_errors=True)  # a delete a kill cut short
                continue
            if not (path.is_dir() and _ID.fullmatch(path.name)):
                continue
            try:
                meta = self._meta(path, owner)
            except _Unreadable as error:
                stamp = path.stat().st_mtime
                found.append(ConversationSummary(id=path.name, title=f"(unreadable conversation {path.name[:8]})",
                                                 created=stamp, updated=stamp, note=str(error)))
                continue
            if meta is not None:
                found.append(meta)
        return sorted(found, key=lambda s: (-s.updated, s.id))

    def read(self, owner: str, conversation_id: str) -> Conversation:
        """One conversation with its messages. A line that cannot be read, or an answer this release
        cannot read back whole, is a note; the rest is kept (such an answer shows as its text).

        Raises:
            ConversationNotFound: The owner has no conversation of that id.
            RagError: Its ``meta.json`` cannot be read (the note says why; the folder is left as it is).
        """
        path = self._path(owner, conversation_id)
        try:
            meta = self._meta(path, owner)
        except _Unreadable as error:
            raise RagError(f"This conversation cannot be opened: {error}",
                           f"Its folder is left as it is ({path}); delete it from the sidebar to remove it.") from None
        if meta is None:
            raise ConversationNotFound("That conversation does not exist (it may have been deleted).",
                                       "Pick another one in the sidebar, or start a new one.")
        messages: list[ChatMessage] = []
        notes: list[str] = []
        for number, line in enumerate(_lines(path / "messages.jsonl"), start=1):
            message, note = _message(line, number)
            if message is not None:
                messages.append(message)
            if note:
                notes.append(note)
        return Conversation(id=meta.id, owner=owner, title=meta.title, created=meta.created, updated=meta.updated,
                            messages=tuple(messages), notes=tuple(notes))

    # -- writing ---------------------------------------------------------------------------------

    def start(self, owner: str, first_question: str) -> ConversationSummary:
        """A new, empty conversation titled by its first question; past the owner's cap the oldest goes."""
        now = time.time()
        title = " ".join(first_question.split())[:TITLE_CHARS] or "New conversation"
        summary = ConversationSummary(id=uuid.uuid4().hex, title=title, created=now, updated=now)
        path = self._owner_dir(owner) / summary.id
        path.mkdir(parents=True)
        self._write_meta(path, owner, summary)
        if self.keep:
            for old in self.summaries(owner)[self.keep:]:
                self.delete(owner, old.id)
        return summary

    def append(self, owner: str, conversation_id: str, messages: Sequence[ChatMessage]) -> None:
        """Add messages (a question and its answer) at the end, then note the time in ``meta.json``.

        Raises:
            ConversationNotFound: The conversation was deleted meanwhile (in another tab).
        """
        path = self._path(owner, conversation_id)
        meta = self._readable_meta(path, owner)
        lines = "".join(json.dumps(m.model_dump(mode="json"), ensure_ascii=False) + "\n" for m in messages)
        target = path / "messages.jsonl"
        if _cut_short(target):
            lines = "\n" + lines  # a line a kill cut short stays one damaged line, apart from these
        with open(target, "a", encoding="utf-8") as out:
            out.write(lines)
            out.flush()
            os.fsync(out.fileno())
        asked = sum(1 for m in messages if m.role == "user")
        self._write_meta(path, owner, meta.model_copy(update={"updated": time.time(),
                                                              "questions": meta.questions + asked}))

    def rename(self, owner: str, conversation_id: str, title: str) -> None:
        """Raises ConversationNotFound, or RagError for an empty title."""
        title = " ".join(title.split())
        if not title:
            raise RagError("A conversation's title cannot be empty.", "Type a title, then rename.")
        path = self._path(owner, conversation_id)
        meta = self._readable_meta(path, owner)
        self._write_meta(path, owner, meta.model_copy(update={"title": title[: TITLE_CHARS * 2],
                                                              "updated": time.time()}))

    def delete(self, owner: str, conversation_id: str) -> None:
        """Remove a conversation whole (one that is not there is already deleted)."""
        path = self._path(owner, conversation_id)
        if not path.is_dir():
            return
        doomed = path.with_name(f"{_DELETING}{path.name}")
        path.replace(doomed)
        shutil.rmtree(doomed, ignore_errors=True)

    # -- paths and meta --------------------------------------------------------------------------

    def _owner_dir(self, owner: str) -> Path:
        return self.root / hashlib.sha256(owner.encode()).hexdigest()[:16]  # owner ids are not path-safe

    def _path(self, owner: str, conversation_id: str) -> Path:
        if not _ID.fullmatch(conversation_id):
            raise ConversationNotFound("That conversation does not exist.", "Pick one in the sidebar.")
        return self._owner_dir(owner) / conversation_id

    def _meta(self, path: Path, owner: str) -> ConversationSummary | None:
        """None when there is no such conversation for this owner; _Unreadable when its file is damaged."""
        try:
            raw = json.loads((path / "meta.json").read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError, ValueError) as error:
            raise _Unreadable(f"its meta.json is damaged ({type(error).__name__})") from None
        if not isinstance(raw, dict):
            raise _Unreadable("its meta.json is not an object")
        if raw.get("owner") != owner:
            return None  # not this owner's (its folder name collided, or it was copied): never shown
        if not isinstance(raw.get("format"), int) or raw["format"] > FORMAT:
            raise _Unreadable(f"it was written by a newer release (format {raw.get('format')}; this one reads "
                              f"{FORMAT})")
        try:
            return ConversationSummary.model_validate({k: v for k, v in raw.items() if k not in {"owner", "format"}})
        except ValidationError as error:
            raise _Unreadable(f"its meta.json lacks {_fields(error)}") from None

    def _readable_meta(self, path: Path, owner: str) -> ConversationSummary:
        try:
            meta = self._meta(path, owner)
        except _Unreadable as error:
            raise RagError(f"This conversation cannot be written: {error}.", "Start a new conversation.") from None
        if meta is None:
            raise ConversationNotFound("This conversation was deleted (perhaps in another tab).",
                                       "Start a new conversation; this answer is still shown here.")
        return meta

    @staticmethod
    def _write_meta(path: Path, owner: str, summary: ConversationSummary) -> None:
        data = {"format": FORMAT, "owner": owner} | summary.model_dump(exclude={"note"})
        partial = path / f".meta.{os.getpid()}.partial"
        with open(partial, "w", encoding="utf-8") as out:
            json.dump(data, out, ensure_ascii=False)
            out.flush()
            os.fsync(out.fileno())
        partial.replace(path / "meta.json")


class _Unreadable(Exception):
    pass


def conversations_of(settings: Settings) -> Conversations:
    """Conversations live beside an embedded store (or in ``conversations_dir``); a server or in-memory
    store without one keeps them in a temporary folder of this process, removed when it closes."""
    keep = 0 if settings.app.single_user else settings.limits.max_conversations
    if settings.conversations_dir:
        return Conversations(settings.conversations_dir, keep=keep)
    if str(settings.store_dir) == ":memory:" or settings.qdrant_url:
        return Conversations(Path(tempfile.mkdtemp(prefix="rag_core-conversations-")), temporary=True, keep=keep)
    return Conversations(settings.store_dir / "conversations", keep=keep)


def _cut_short(path: Path) -> bool:
    """Whether the file's last line lacks its newline (a write a kill cut short)."""
    try:
        with open(path, "rb") as data:
            data.seek(-1, os.SEEK_END)
            return data.read(1) != b"\n"
    except (FileNotFoundError, OSError):  # no file, or an empty one (seeking before its start)
        return False


def _lines(path: Path) -> Iterator[str]:
    with suppress(FileNotFoundError), open(path, encoding="utf-8", errors="replace") as lines:
        for line in lines:
            if line.strip():
                yield line


def _message(line: str, number: int) -> tuple[ChatMessage | None, str]:
    """One stored line as a message, and a note when it could not be read back whole."""
    try:
        raw = json.loads(line)
    except ValueError:
        return None, f"Message {number} could not be read (its line is damaged, cut by a crash?); it is left out."
    if not isinstance(raw, dict) or raw.get("role") not in ("user", "assistant") or not isinstance(
            raw.get("content"), str):
        return None, f"Message {number} is not a message this release can read; it is left out."
    try:
        return ChatMessage.model_validate(raw), ""
    except ValidationError as error:
        text = ChatMessage(role=raw["role"], content=raw["content"])
        return text, (f"The answer of message {number} was written by another release and cannot be read back "
                      f"whole ({_fields(error)}); it shows as its text, without its sources and trace.")


def _fields(error: ValidationError) -> str:
    return ", ".join(sorted({".".join(str(p) for p in e["loc"][:2]) or "a field" for e in error.errors()})[:3])


# -- exports -------------------------------------------------------------------------------------


def conversation_markdown(conversation: Conversation) -> str:
    """A conversation for a report: each question, its answer, and the sources it cites (document,
    page, and the sentence of the passage that best supports what cites it)."""
    written = datetime.fromtimestamp(conversation.updated, UTC).strftime("%Y-%m-%d %H:%M UTC")
    answered = len(conversation.answers)
    out = [f"# {conversation.title}", "", f"_{answered} answer{'' if answered == 1 else 's'}, last on {written}._", ""]
    for message in conversation.messages:
        if message.role == "user":
            out += [f"## {message.content.strip()}", ""]
            continue
        out += [message.content.strip(), ""]
        answer = message.answer
        if answer is None or not answer.citations:
            continue
        out += ["Sources:", ""]
        passages = {p.n: p for p in answer.passages}
        for citation in answer.citations:
            where = f"{citation.document}, {page_label(citation.document, citation.page)}"
            added = " (added by the answer check)" if citation.attributed and not citation.cited else ""
            quote = _quote(answer, passages.get(citation.n), citation.n)
            out.append(f"- [{citation.n}] {where}{added}" + (f": “{quote}”" if quote else ""))
        out.append("")
    if conversation.notes:
        out += ["---", "", *[f"_Note: {n}_" for n in conversation.notes], ""]
    return "\n".join(out)


_QUOTE_CHARS = 300
"""A quote longer than this is cut (a table row or a long sentence; the page is cited beside it)."""


def _quote(answer: Answer, passage: Passage | None, n: int) -> str:
    """The passage's sentence (or table line) sharing the most words with the statements that cite it."""
    if passage is None:
        return ""
    citing = [s.text for s in answer.sentences if n in s.cited or n in s.attributed] or [answer.answer]
    wanted = set(tokenize(" ".join(citing)))
    units = [u for line in passage.text.splitlines() for u in sentences_of(line) if u.strip()]
    if not units:
        return ""
    best = max(units, key=lambda u: (len(wanted & set(tokenize(u))), -units.index(u)))
    best = " ".join(best.split())
    return best if len(best) <= _QUOTE_CHARS else best[: _QUOTE_CHARS - 1].rstrip() + "…"


TRACE_FILE_KEY = "record"
"""The key of a downloaded trace file that holds the whole answer (all but its trace, which is beside
it under ``trace``), so the debug page can open the file again."""


def trace_file(answer: Answer) -> str:
    """An answer and its trace as one JSON file: ``ask --json``'s keys, ``trace``, and ``record``."""
    record = answer.model_dump(mode="json", exclude={"trace"})
    return json.dumps(answer.to_json() | {"trace": answer.trace.model_dump(mode="json"), TRACE_FILE_KEY: record},
                      indent=1, default=str)


def answer_from_trace_file(data: bytes) -> Answer:
    """The answer of a file ``trace_file`` wrote.

    Raises:
        RagError: The file is not such a file; the message says what is wrong.
    """
    try:
        raw = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        raise RagError("This file is not JSON.", "Open a trace downloaded from the debug page (trace.json).") from None
    if not isinstance(raw, dict) or "trace" not in raw:
        raise RagError("This JSON file holds no trace.", "Open a trace downloaded from the debug page (trace.json).")
    if not isinstance(raw.get(TRACE_FILE_KEY), dict):
        raise RagError("This trace was downloaded before traces could be opened again (it has no 'record').",
                       "Ask the question again and download its trace from this release.")
    try:
        return Answer.model_validate(raw[TRACE_FILE_KEY] | {"trace": raw["trace"]})
    except ValidationError as error:
        raise RagError(f"This trace file cannot be read back: {_fields(error)} is missing or not as expected.",
                       "Download the trace again from the release that wrote it, or ask the question again.") from None
