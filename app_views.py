"""Rendering helpers shared by the pages (no engine logic here)."""

from __future__ import annotations

import html
import itertools
import json
import re
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import streamlit as st

import app_state
from rag_core import (
    CITATION,
    Answer,
    AnswerRun,
    Citation,
    ConversationSummary,
    Passage,
    RagError,
    neutralize,
    page_label,
    why_not,
)
from rag_core.trace_views import counted

if TYPE_CHECKING:
    from rag_core import Availability, DocumentRecord, Reindexer, TablePasses

PROGRESS_REFRESH_S = 2.0
"""How often a background job's progress is redrawn."""
CHIPS_PER_ROW = 4
"""Source chips side by side (at 1400 px each holds a page and a 24-character name)."""
CHIP_NAME_CHARS = 24


def persistent(widget: Any, label: str, key: str, *args: Any, **kwargs: Any) -> Any:
    """A widget whose value survives page switches: Streamlit forgets the state of widgets a
    page does not draw, so the value lives under ``key`` and is copied into the widget's key."""
    widget_key = f"_widget_{key}"
    st.session_state[widget_key] = st.session_state[key]

    def remember() -> None:
        st.session_state[key] = st.session_state[widget_key]

    return widget(label, *args, key=widget_key, on_change=remember, **kwargs)


def wait_for_first_token(run: AnswerRun, preview: Any = None) -> Iterator[str]:
    """Wait for the model's first token under a live status (the stage, the prompt's size and the
    expected wait at this runtime's prompt speed, with the time elapsed), then the whole stream.
    Meanwhile ``preview`` (an ``st.empty``) shows the passages' sentences closest to the question,
    with their pages; it folds away once the model writes."""
    deltas = run.stream()
    estimate = run.wait_estimate()
    if estimate is None:
        return deltas
    tokens, seconds, measured = estimate
    quoted = preview_markdown(run) if preview is not None else None
    if quoted:
        with preview.container():
            st.caption("The table's lines that answer your question, with the text's sentences on them; the model "
                       "reads the passages to say what they show:" if run.lead
                       else "While the model reads, the passages' sentences closest to your question:")
            st.markdown(quoted)
    basis = "measured in this app" if measured else "the configured speed, until one answer is measured"
    label = f"Reading {tokens:,} tokens of context, about {seconds:,.0f} s ({basis})…"
    with st.spinner(label, show_time=True):
        # the answer's lead (the quoted lines) comes at once: the wait is for the model's first token
        first = list(itertools.islice(deltas, 2 if run.lead else 1))
    if quoted and run.lead:
        preview.empty()  # the lines lead the answer itself now
    elif quoted:
        # the expander takes the slot itself: a container written again in the same run keeps the
        # first one's extra children (the quotes) on screen until the run ends
        preview.expander("Passages quoted while the model read").markdown(quoted)
    return itertools.chain(first, coalesced(deltas, app_state.settings().app.stream_every_s))


def coalesced(deltas: Iterator[str], every_s: float, clock: Callable[[], float] = time.monotonic) -> Iterator[str]:
    """The stream's text joined into one piece per ``every_s`` seconds (as it comes when 0): each
    piece the chat shows redraws the whole answer in the browser, and on a 2-core machine the
    browser's work is taken from the local model's. Nothing is held back at the end."""
    pending: list[str] = []
    last = clock()
    for delta in deltas:
        pending.append(delta)
        now = clock()
        if now - last >= every_s:
            yield "".join(pending)
            pending.clear()
            last = now
    if pending:
        yield "".join(pending)


def write_stream(slot: Any, deltas: Iterator[str]) -> None:
    """The answer so far redrawn in ``slot`` (an ``st.empty``) at each piece, as ``st.write_stream``
    draws text; its first step asks pandas whether the stream is a data frame, which loads pandas and
    pyarrow into the server (about 60 MB resident) for a page that shows no table."""
    text = ""
    for delta in deltas:
        text += delta
        slot.markdown(text)


def preview_markdown(run: AnswerRun) -> str | None:
    """The run's preview with each citation's page: "… [2 · p.7]"."""
    text = run.preview()
    if not text or not run.passages:
        return None
    where = {p.n: page_label(p.document, p.page, short=True) for p in run.passages}
    return CITATION.sub(lambda m: f"[{m.group(1)} · {where.get(int(m.group(1)), '?')}]"
                       if m.group(1).isdigit() else m.group(0), text)


def reindex_progress(reindexer: Reindexer) -> None:
    """While documents stored by another embedding model are re-embedded in the background: their
    progress, redrawn every few seconds; the page reruns when it ends (the list grows as it goes)."""
    if not reindexer.running and not reindexer.status.error:
        return

    @st.fragment(run_every=PROGRESS_REFRESH_S if reindexer.running else None)
    def show() -> None:
        status = reindexer.status
        if reindexer.running:
            seen = st.session_state.setdefault(app_state.REINDEX_SEEN, status.done)
            st.session_state[app_state.REINDEX_SEEN] = status.done
            if status.done != seen:  # another document is back: redraw the lists
                st.rerun(scope="app")
            st.progress(status.chunks_done / max(status.chunks, 1), text=status.line())
            st.caption("Each document is listed again as soon as it is re-embedded; nothing was lost.")
        elif status.error:
            st.warning(f"{status.line()} The documents not yet done keep their old vectors; reopening the app "
                       "resumes, or run `python -m rag_core reindex`.")
        else:
            st.rerun(scope="app")

    show()


def waiting_passages(record: DocumentRecord) -> str:
    """Which passages of a document waiting for its table pass are matched by their words alone
    (their vectors provisional: ``index.embedded_text``)."""
    return "the table rows" if record.provisional_rows else "its passages"


def stage_line(record: DocumentRecord, passes: TablePasses) -> str:
    """Where a document is: searchable from its text while its tables are looked for, or complete."""
    if record.stage == "complete":
        return f"tables not read: {record.table_error}" if record.table_error else "complete"
    pages = counted(len(record.table_pages_pending), "page")
    brief = ("" if record.provisional_chars is None else
             f" ({waiting_passages(record)} on those {pages} match by their words and headings until then)")
    if record.doc_id == passes.status.current:
        notice = passes.status.notices.get(record.doc_id)
        return f"searchable; finding tables on {pages} now{brief}" + (f"; {notice}" if notice else "")
    error = passes.status.errors.get(record.doc_id)
    if error:
        return f"searchable from its text; its table pass failed ({error}) and runs again when the app restarts"
    return f"searchable; tables on {pages} to read next{brief}"


def table_progress(records: Sequence[DocumentRecord], passes: TablePasses) -> None:
    """While documents are searchable from their text and their tables are being found: a line,
    redrawn every few seconds; the page reruns when none of them is waiting any more (each is
    listed with its new chunks)."""
    waiting = [r.doc_id for r in records if r.stage == "searchable" and passes.pending(r.doc_id)]
    if not waiting:
        return

    @st.fragment(run_every=PROGRESS_REFRESH_S)
    def show() -> None:
        if not any(passes.pending(doc_id) for doc_id in waiting):
            st.rerun(scope="app")
        st.caption(f"Finding tables in the background for {counted(len(waiting), 'document')}: they can be "
                   "searched and asked about now; their table passages are swapped in, whole, when found.")

    show()


def reranker_toggle(availability: Availability) -> None:
    """The reranker toggle, disabled while the reranker cannot run, and its state in one line (the
    full reason stays on the debug page and in the trace)."""
    if availability.available:
        persistent(st.toggle, "Reranker", app_state.RERANK)
    else:  # shown off; the session's choice is kept for when the reranker can run
        st.toggle("Reranker", value=False, disabled=True, key="_reranker_unavailable")
    st.caption(availability.line, help=availability.how_to_enable or None)


STOPPED = ("No answer: it was stopped before it was written, when another question was sent or the page was left "
           "while it ran. Ask this question again to get its answer.")


def close_unanswered(messages: list[dict[str, Any]]) -> None:
    """Give each question whose answer never came (its run stopped by a newer question, or by leaving the page,
    before the answer was kept) a note that says so in its answer's place: it would stand without one, and a
    follow-up would take it as answered. Every run of the chat page ends with the answer kept or the question
    taken back, so at the start of a run a question with no answer after it is one whose run was stopped."""
    i = 0
    while i < len(messages):
        if messages[i]["role"] == "user" and (i + 1 == len(messages) or messages[i + 1]["role"] == "user"):
            messages.insert(i + 1, {"role": "assistant", "content": STOPPED, "stopped": True})
        i += 1


def history_of(messages: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The turns a follow-up reads: each question with its answer, without those stopped before an answer."""
    stopped = {i for i, m in enumerate(messages) if m.get("stopped")}
    return [{"role": m["role"], "content": m["content"]} for i, m in enumerate(messages)
            if i not in stopped and i + 1 not in stopped]


def message_record(answer: Answer) -> dict[str, Any]:
    """What the chat keeps of an answer: its text for the follow-up history, and the Answer."""
    return {"role": "assistant", "content": answer.answer, "answer": answer}


def badge_text(answer: Answer) -> str:
    t = answer.tokens
    first = answer.timings_ms.get("first_token")
    queries = " | ".join(answer.queries)
    timing = f"first token {first / 1000:.1f} s · " if first else ""
    reranker = answer.reranker
    rerank = "" if reranker is None else ("reranked · " if reranker.used else "reranker off: fused order · ")
    return (
        f"{rerank}**{answer.intent}** · queries: {queries} · tokens {t.prompt:,} + {t.reserved_output:,} "
        f"reserved of {t.limit:,} ({t.tokenizer}) · {timing}total {answer.timings_ms.get('total', 0) / 1000:.1f} s"
        f" · {answer.llm.backend} {answer.llm.model}"
    )


CHECK_STYLE = """<style>
.rag-cite{border-radius:.6em;padding:0 .35em;font-size:.8em;background:#e8f0fe;color:#1a4a9c;white-space:nowrap}
.rag-cite-bad{border-radius:.6em;padding:0 .35em;font-size:.8em;background:#fde8e8;color:#9c1a1a;
text-decoration:line-through;white-space:nowrap}
.rag-cite-sys{border-radius:.6em;padding:0 .35em;font-size:.8em;border:1px dashed #b06000;color:#b06000;
white-space:nowrap}
.rag-unsupported{background:#fff4d6;border-bottom:2px dotted #b06000}
.rag-unverified{background:#fde8e8;border-bottom:2px dotted #9c1a1a}
[data-testid="stChatMessage"] table{display:block;max-width:100%;overflow-x:auto}
</style>"""


def answer_styles() -> None:
    """The answers' marks styled once, before any answer is drawn. The browser loads its renderer of
    HTML in Markdown at the first such element of a session: the first answer, drawn once written,
    showed its notices and tables while its text was still blank (a moment; longer on a busy machine)."""
    st.markdown(CHECK_STYLE, unsafe_allow_html=True)


def checked_markdown(answer: Answer) -> str:
    """The answer as Markdown with inline HTML marks (all answer text escaped): each statement's
    citation chips, the check's own citations dashed, unsupported citations struck through, an
    unsupported statement and an unverified number highlighted, each with an explanation on hover."""
    text = html.escape(answer.answer, quote=False)
    if not answer.sentences:
        return CHECK_STYLE + "\n\n" + text
    out, cursor = [], 0
    for statement in answer.sentences:
        escaped = html.escape(statement.text, quote=False)
        at = text.find(escaped, cursor)
        if at < 0:
            continue
        out.append(text[cursor:at])
        out.append(_marked(escaped, statement))
        cursor = at + len(escaped)
    out.append(text[cursor:])
    # the style block is an HTML block up to the end of its line: the answer starts on a line of its
    # own, or its first line is shown raw ("- **Approach**" with the asterisks)
    return CHECK_STYLE + "\n\n" + "".join(out)


def _marked(escaped: str, statement: Any) -> str:
    supported = dict(zip(statement.cited, statement.cited_supported, strict=False))

    def chip(match: re.Match[str]) -> str:
        numbers = [int(n) for n in re.split(r"\s*[,;]\s*", match.group(1))]
        return "".join(
            f'<span class="rag-cite" title="Cited by the model; this passage supports the statement">[{n}]</span>'
            if supported.get(n, True)
            else f'<span class="rag-cite-bad" title="Cited by the model, but this passage does not support the '
            f'statement">[{n}]</span>'
            for n in numbers
        )

    body = CITATION.sub(chip, escaped)
    reasons = dict(zip(statement.unverified_numbers, statement.number_notes, strict=False))
    for number in dict.fromkeys(statement.unverified_numbers):
        shown = html.escape(number, quote=False)
        tip = html.escape(_number_tip(reasons.get(number, "")), quote=True)
        body = _mark_in_text(body, shown, f'<span class="rag-unverified" title="{tip}">{shown}</span>')
    added = "".join(
        f' <span class="rag-cite-sys" title="Added by the answer check, not by the model: this passage supports '
        f'the statement">+[{n}]</span>'
        for n in statement.attributed
    )
    tip = (f"Not backed by the source passages: {'; '.join(statement.notes)}" if statement.notes
           else f"No source passage supports this statement (best support {statement.support:.2f})")
    if statement.text.lstrip().startswith("|"):
        # a table row stays a row: its marks go inside its first and last cells
        first, _, rest = body.partition("|")
        cells, _, last = rest.rpartition("|")
        warn = f'<span class="rag-unsupported" title="{tip}">⚠</span> ' if not statement.supported else ""
        return f"{first}| {warn}{cells.lstrip()}{added} |{last}" if cells else body + added
    if not statement.supported:
        body = f'<span class="rag-unsupported" title="{tip}">⚠ {body}</span>'
    return body + added


_TAG = re.compile(r"(<[^>]*>)")


def _mark_in_text(body: str, shown: str, marked: str) -> str:
    """``body`` with the first ``shown`` in its text (not in a tag's attribute, not in a number
    marked before: '126,297' inside the mark of '$126,297', whose hover text names it too) as ``marked``."""
    parts = _TAG.split(body)
    inside = 0  # depth of the unverified marks around the text part
    for i, part in enumerate(parts):
        if i % 2:
            inside += part.startswith('<span class="rag-unverified"') or (inside > 0 and part.startswith("<span"))
            inside -= inside > 0 and part == "</span>"
        elif not inside and shown in part:
            parts[i] = part.replace(shown, marked, 1)
            return "".join(parts)
    return body


def _number_tip(reason: str) -> str:
    if " is in the table under " in reason:
        return f"Unverified: {reason}, not under what this sentence names"
    return "Unverified: this number is in none of the source passages"


def check_summary(answer: Answer) -> str | None:
    """One line: how much of the answer the sources support."""
    summary = answer.attribution
    if summary is None or not summary.statements:
        return None
    line = f"Answer check: {summary.supported} of {summary.statements} statements supported by the sources"
    if summary.numbers:
        line += f" · {summary.numbers_verified} of {summary.numbers} numbers found in them"
    return line


def render_answer(answer: Answer, notices_shown: int = 0) -> None:
    """The answer with its check marks, its notices (after the first ``notices_shown``, which the
    page showed before the answer: what happened while it was written, such as a cut at the length
    limit), then the tables it rests on, as the documents have them."""
    st.markdown(checked_markdown(answer), unsafe_allow_html=True)
    for notice in answer.notices[notices_shown:]:
        st.warning(notice)
    for table in answer.tables:
        where = page_label(table.document, table.page)
        with st.expander(f"Table: {table.caption or 'untitled'} ({table.document}, {where})", expanded=True):
            st.markdown(table.markdown)


def render_sources(passages: Sequence[Passage]) -> None:
    with st.expander(f"Sources ({len(passages)} passages)", expanded=False):
        for p in passages:
            st.markdown(f"**[{p.n}] {p.document}, {page_label(p.document, p.page)}**"
                        + (f" — {p.section}" if p.section else ""))
            st.caption(neutralize(p.text[:600]) + ("…" if len(p.text) > 600 else ""))


class SourceChip(NamedTuple):
    """One page an answer rests on: its label (the page first), the passages cited on it, and
    whether only the answer check (not the model) cited it."""

    label: str
    document: str
    page: int
    passages: tuple[int, ...]
    attributed_only: bool


def source_chips(citations: Sequence[Citation]) -> list[SourceChip]:
    """The answer's citations, one chip per page: "p.4 [1, +3]" (+: added by the answer check), the
    document's name after the page when several documents are cited. The model's pages first, then
    the check's, each in reading order."""
    several = len({c.document for c in citations}) > 1
    pages: dict[tuple[str, int], list[Citation]] = {}
    for citation in citations:
        pages.setdefault((citation.document, citation.page), []).append(citation)
    chips = []
    for (document, page), unordered in pages.items():
        cited = sorted(unordered, key=lambda c: c.n)
        numbers = ", ".join(f"{'+' if c.attributed else ''}{c.n}" for c in cited)
        name = f" · {document[:CHIP_NAME_CHARS]}{'…' if len(document) > CHIP_NAME_CHARS else ''}" if several else ""
        chips.append(SourceChip(f"{page_label(document, page, short=True)}{name} [{numbers}]", document, page,
                                tuple(c.n for c in cited), all(c.attributed for c in cited)))
    return sorted(chips, key=lambda c: (c.attributed_only, c.document, c.page))


def render_answer_footer(answer: Answer, key: str) -> None:
    """Citation chips, one per page (each opens its page), the first few shown and the rest behind
    an expander, then the answer check's line and the badge."""
    chips = source_chips(answer.citations)
    if chips:
        any_cited = any(c.cited for c in answer.citations)
        st.caption("Cited pages (+: added by the answer check)" if any_cited
                   else "Pages used (the model cited none; +: added by the answer check)")
        shown = app_state.settings().app.source_chips
        _chip_row(answer, chips[:shown], key)
        if len(chips) > shown:
            with st.expander(f"{len(chips) - shown} more pages"):
                _chip_row(answer, chips[shown:], f"{key}-more", offset=shown)
    summary = check_summary(answer)
    if summary:
        st.caption(summary)
    st.caption(badge_text(answer))


def _chip_row(answer: Answer, chips: Sequence[SourceChip], key: str, offset: int = 0) -> None:
    passages = {p.n: p.text for p in answer.passages}
    columns = st.columns(min(len(chips), CHIPS_PER_ROW))
    for i, chip in enumerate(chips):
        help_text = ("Added by the answer check, not by the model: it supports a statement"
                     if chip.attributed_only else None)
        if columns[i % len(columns)].button(chip.label, key=f"{key}-cite-{offset + i}", help=help_text,
                                            type="tertiary" if chip.attributed_only else "secondary"):
            show_page(chip.document, chip.page, passages.get(chip.passages[0], ""))


@st.dialog("Cited page", width="large")
def show_page(document: str, page: int, passage: str) -> None:
    engine = app_state.engine()
    st.markdown(f"**{document}**, {page_label(document, page)}")
    try:
        image = engine.render_page(app_state.owner(), document, page, highlight=passage)
        text = engine.page_text(app_state.owner(), document, page) if image is None else ""
    except RagError as error:
        st.error(str(error))
        return
    if image is None:
        st.caption("The cited passage is highlighted")
        st.markdown(highlighted_text(text, passage), unsafe_allow_html=True)
    else:
        st.image(image, caption="The cited passage is highlighted", use_container_width=True)


def highlighted_text(text: str, passage: str) -> str:
    """A page, section or sheet of text as safe HTML (every character of the document escaped),
    the passage marked where it stands in it."""
    start = text.find(passage) if passage else -1
    if start < 0:
        body = html.escape(text)
    else:
        end = start + len(passage)
        body = (html.escape(text[:start]) + '<mark class="rag-passage">' + html.escape(text[start:end]) + "</mark>"
                + html.escape(text[end:]))
    return f'<div style="white-space:pre-wrap;font-size:.9em;max-height:70vh;overflow:auto">{body}</div>'


def table(rows: Sequence[dict[str, Any]]) -> Any:
    """Rows as a ``pyarrow.Table`` for ``st.dataframe`` and ``st.vega_lite_chart``, which serialize
    one as it is; any other input goes through pandas (about 50 MB resident beyond pyarrow's own, for
    a debug page that has no other use for it). Read by pyarrow's JSON reader: ``pa.array`` on
    Python values imports pandas too. Columns are every key of any row, in first-seen order, a
    missing cell empty; a column mixing kinds (integers and floats apart) is shown as text."""
    import pyarrow as pa
    import pyarrow.json as pa_json

    fields, lines = [], [{} for _ in rows]
    for name in dict.fromkeys(key for row in rows for key in row):
        values = [row.get(name) for row in rows]
        kind = _arrow_kind([v for v in values if v is not None])
        fields.append(pa.field(name, kind))
        for line, value in zip(lines, values, strict=True):
            line[name] = str(value) if kind == pa.string() and value is not None else value
    schema = pa.schema(fields)
    if not rows:
        return schema.empty_table()
    data = "\n".join(json.dumps(line) for line in lines).encode()
    return pa_json.read_json(pa.BufferReader(data), read_options=pa_json.ReadOptions(block_size=len(data) + 1),
                             parse_options=pa_json.ParseOptions(explicit_schema=schema))


def _arrow_kind(values: list[Any]) -> Any:
    """The Arrow type of one column's non-empty cells: text unless they are all of one plain kind."""
    import math

    import pyarrow as pa

    if not values:
        return pa.null()
    if all(isinstance(v, bool) for v in values):
        return pa.bool_()
    if all(isinstance(v, int) and not isinstance(v, bool) and -(2**63) <= v < 2**63 for v in values):
        return pa.int64()
    if all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in values):
        return pa.float64()
    return pa.string()


def dataframe(rows: Sequence[dict[str, Any]], slot: Any = st) -> None:
    """Rows as an interactive table (sortable, searchable, downloadable) in ``slot``, from an Arrow
    table (``table``) and eagerly: Streamlit's check for a table to page in lazily imports pandas
    first. The debug page's tables are a few hundred rows at most."""
    slot.dataframe(table(rows), width="stretch", hide_index=True, lazy=False)


def hit_rows(hits: Sequence[Any]) -> list[dict[str, Any]]:
    """A search's hits as the playground and a question's drill-down show them."""
    return [{"page": h.page, "#": h.chunk_index, "source": h.source, "rrf": h.scores.rrf,
             "rerank": h.scores.rerank, "text": h.text[:120]} for h in hits]


def html_table(rows: Sequence[dict[str, Any]]) -> str:
    """Rows as a static HTML table for ``st.markdown(..., unsafe_allow_html=True)``, every cell escaped:
    ``st.table`` would load pandas for it (``table`` above says why that matters)."""
    columns = list(dict.fromkeys(key for row in rows for key in row))
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{html.escape('' if row.get(c) is None else str(row.get(c)))}</td>"
                                    for c in columns) + "</tr>" for row in rows)
    table = f'<table class="rag-table"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
    return f'<div style="overflow-x:auto">{table}</div>'  # wider than the page: scrolled, as st.table is


def chart(title: str, mark: str, **channels: tuple[str, str]) -> dict[str, Any]:
    """A Vega-Lite spec for ``st.vega_lite_chart``, each channel a (field, type). Streamlit draws a spec
    as it is; an Altair chart would load Altair into the server (26 MB resident) for the debug page's
    three charts."""
    encoding = {channel: {"field": field, "type": kind} for channel, (field, kind) in channels.items()}
    return {"title": title, "mark": mark, "encoding": encoding}


def why_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``rag_core.why_not`` rows (``rag_core/why.py``) flattened for a table: one line per chunk and search."""
    return [{
        "search": row["search"], "#": row["chunk_index"], "kind": row["kind"],
        "outcome": "kept" if row["kept"] else f"dropped at {row['stage']}", "why": row["reason"],
        "lists": ", ".join(f"{name} #{at['rank']}" for name, at in row["lists"].items()) or "none",
        "fused": row["fused_rank"], "rrf": row["rrf"],
        "ahead of it": "; ".join(f"p.{a['page']} #{a['chunk_index']} (fused {a['fused_rank']})" for a in row["ahead"]),
        "to change": row["setting"] or "",
    } for row in rows]


CONVERSATIONS_LISTED = 12
"""Conversations listed in the sidebar as buttons; older ones are behind 'older conversations'."""


def conversations_sidebar() -> None:
    """The visitor's kept conversations: a new one, each to reopen, and the open one's rename,
    Markdown export and delete."""
    st.subheader("Conversations")
    if st.button("New conversation", icon=":material/add:", use_container_width=True):
        app_state.new_conversation()
        st.rerun()
    try:
        listed = app_state.conversations()
    except OSError as error:  # a folder the file system refuses: the chat still works
        st.caption(f"Kept conversations cannot be read: {error}")
        return
    current = st.session_state[app_state.CONVERSATION]
    for summary in listed[:CONVERSATIONS_LISTED]:
        _conversation_button(summary, current)
    if len(listed) > CONVERSATIONS_LISTED:
        with st.expander(f"{len(listed) - CONVERSATIONS_LISTED} older conversations"):
            for summary in listed[CONVERSATIONS_LISTED:]:
                _conversation_button(summary, current)
    if app_state.conversations_last_the_process():
        st.caption("Kept until the app stops: the store has no folder. Set RAG_CONVERSATIONS_DIR to keep them.")
    conversation = next((s for s in listed if s.id == current), None)  # its summary: no message read here
    if conversation is None:
        return
    with st.expander("This conversation"):
        title = st.text_input("Title", value=conversation.title, key=f"title-{conversation.id}")
        if st.button("Rename", key=f"rename-{conversation.id}") and title != conversation.title:
            try:
                app_state.rename_conversation(conversation.id, title)
            except RagError as error:
                st.error(str(error))
            else:
                st.rerun()
        st.download_button("Export as Markdown", app_state.conversation_export(conversation.id),
                           file_name=f"{_file_stem(conversation.title)}.md", mime="text/markdown",
                           key=f"export-{conversation.id}")
        if st.button("Delete", key=f"delete-{conversation.id}", icon=":material/delete:"):
            app_state.delete_conversation(conversation.id)
            st.rerun()


WHEN = "%Y-%m-%d %H:%M"
"""How a kept conversation's last change is shown."""


def kept_conversation_picker() -> None:
    """On a page with no answers of its session (the debug page opened by its own address is a new
    session): a kept conversation chosen here opens, its answers' traces with it."""
    try:
        listed = app_state.conversations()
    except OSError:  # the chat's sidebar says so; nothing to pick here
        return
    if not listed:
        return
    labels = {s.id: _described(s) for s in listed}
    chosen = st.selectbox("Kept conversations", list(labels), index=None, format_func=labels.__getitem__,
                          placeholder="Open a kept conversation's traces")
    if chosen is None:
        return
    try:
        app_state.open_conversation(chosen)
    except RagError as error:
        st.error(str(error))
    else:
        st.rerun()


def _described(summary: ConversationSummary) -> str:
    """'title · n questions · when': a kept conversation as the picker and the sidebar's hover name it."""
    return f"{summary.title} · {summary.questions} questions · {time.strftime(WHEN, time.localtime(summary.updated))}"


def _conversation_button(summary: ConversationSummary, current: str | None) -> None:
    label = summary.title if len(summary.title) <= 40 else summary.title[:39] + "…"
    if st.button(label, key=f"conversation-{summary.id}", use_container_width=True,
                 type="primary" if summary.id == current else "secondary",
                 help=_described(summary) + (f" · {summary.note}" if summary.note else "")):
        try:
            app_state.open_conversation(summary.id)
        except RagError as error:
            st.error(str(error))
        else:
            st.rerun()


def _file_stem(title: str) -> str:
    """A title as a download's file name (letters, digits and dashes)."""
    return re.sub(r"[^\w-]+", "-", title).strip("-")[:60] or "conversation"


SET_REFRESH_S = 1.0
"""How often the debug page redraws a running question set's progress."""


def question_set_results() -> None:
    """The session's question set: its progress while it runs, then the configurations side by side,
    each question's row and, for a chosen question, its pages and why its gold page was not first."""
    found = app_state.question_set()
    if found is None:
        return
    run, stop = found
    polling = not run.finished and run.error is None

    @st.fragment(run_every=SET_REFRESH_S if polling else None)
    def results() -> None:
        running = not run.finished and run.error is None
        if polling and not running:
            st.rerun()  # it ended while this part polled: draw the page again, without polling
        if running:
            st.progress(run.done / max(1, run.total), text=f"{run.done} of {run.total} searched")
            if st.button("Stop the set"):
                stop.set()
        elif run.error:
            st.warning(f"The set did not finish ({run.error}): {run.done} of {run.total} searched.")
        else:
            st.success(f"{len(run.questions)} questions under {len(run.configs)} configuration(s) in "
                       f"{run.seconds:.1f} s.")
        if run.done:
            summary = run.summary()  # per configuration: metric -> figure; drawn a metric a line
            metrics = next(iter(summary.values()), {})
            side_by_side = [{"metric": m} | {name: got.get(m) for name, got in summary.items()} for m in metrics]
            dataframe(side_by_side)
            dataframe(set_rows(run))
        if not running and run.done:
            left, right = st.columns(2)
            left.download_button("Download CSV", run.to_csv(), file_name="question-set.csv", mime="text/csv")
            right.download_button("Download JSON", json.dumps(run.to_json(), indent=1, default=str),
                                  file_name="question-set.json", mime="application/json")
            question_drilldown(run)

    results()


def set_rows(run: Any) -> list[dict[str, Any]]:
    """One line per question: its gold pages and, per configuration, its pages and first gold rank."""
    table = []
    for i, q in enumerate(run.questions):
        line: dict[str, Any] = {"#": i + 1, "question": q.question, "document": q.document,
                                "gold": ";".join(map(str, sorted(q.gold_pages)))}
        for name, rows in run.rows.items():
            if i < len(rows):
                row = rows[i]
                line[f"{name}: pages"] = ";".join("-" if p is None else str(p) for p in row["pages"][:8])
                line[f"{name}: rank"] = _gold_rank(row)
                if row.get("correct") is not None:
                    line[f"{name}: correct"] = bool(row["correct"])
        table.append(line)
    return table


def _gold_rank(row: dict[str, Any]) -> int | None:
    gold = set(row["gold_pages"])
    return next((n for n, page in enumerate(row["pages"], start=1) if page in gold), None)


def question_drilldown(run: Any) -> None:
    """One question of the set: under each configuration, its hits and why its first gold page's
    chunks were kept or dropped (``rag_core.why_not``), and its answer when the set was answered."""
    labels = [f"{i + 1}. {q.question[:80]}" for i, q in enumerate(run.questions)]
    chosen = labels.index(st.selectbox("Open a question", labels, key="set_question"))
    q = run.questions[chosen]
    record = next((r for r in app_state.documents() if r.name == q.document), None)
    for config in run.configs:
        searches = run.searches.get(config.name, [])
        if chosen >= len(searches):
            continue
        result = searches[chosen]
        st.markdown(f"**{config.name}** · queries: {' | '.join(result.queries)}")
        dataframe(hit_rows(result.hits))
        answer = run.answers.get(config.name, [None] * (chosen + 1))[chosen]
        if answer is not None:
            st.caption(f"Answer ({run.backend}): {answer.answer[:400]}")
        if record is None or not q.gold_pages:
            continue
        page = min(q.gold_pages)
        why = why_not(result.trace, app_state.page_chunks(record, page), result.hits)
        st.caption(f"Why not page {page}? (its first gold page)")
        if why:
            dataframe(why_rows(why))
