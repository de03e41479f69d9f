"""Conversations kept with the library: written as answers complete, read back whole after the engine
is closed and opened again, per owner, and read past a damaged line or an old answer."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from rag_core import (
    Answer,
    ChatMessage,
    Engine,
    RagError,
    Settings,
    answer_from_trace_file,
    conversation_markdown,
    trace_file,
)
from rag_core.conversations import ConversationNotFound, Conversations, conversations_of
from tests.fakes import HashEmbedder, OverlapReranker, ScriptedChatModel

PAGES = [
    "Acme Corp quarterly report. Revenue grew 12% to 4.2 million dollars in the third quarter.",
    "Invoice INV-2025-0492 from Acme Corp was paid in full on March 3, 2025 by bank transfer.",
]


def engine_at(folder: Path, **settings: object) -> Engine:
    config = Settings(store_dir=folder).replace(ingest__sandbox=False, **settings)
    return Engine(config, embedder=HashEmbedder(), reranker=OverlapReranker())


def answered(engine: Engine, question: str, owner: str = "local") -> Answer:
    llm = ScriptedChatModel(answer="Revenue grew 12% to 4.2 million dollars [1].")
    run = engine.ask(question, owner=owner, llm=llm, backend="local")
    "".join(run.stream())
    return run.result()


def turn(answer: Answer) -> list[ChatMessage]:
    return [ChatMessage(role="user", content=answer.question),
            ChatMessage(role="assistant", content=answer.answer, answer=answer)]


def test_a_conversation_is_there_after_a_restart_whole(tmp_path: Path, make_pdf: Callable[..., Path]) -> None:
    engine = engine_at(tmp_path / "store")
    engine.ingest_path(make_pdf(PAGES, name="acme.pdf"))
    first = answered(engine, "How much did revenue grow?")
    second = answered(engine, "And what was paid on March 3?")
    started = engine.conversations.start("local", first.question)
    engine.conversations.append("local", started.id, turn(first))
    engine.conversations.append("local", started.id, turn(second))
    engine.close()

    engine = engine_at(tmp_path / "store")
    try:
        [summary] = engine.conversations.summaries("local")
        assert (summary.id, summary.title, summary.questions) == (started.id, "How much did revenue grow?", 2)
        kept = engine.conversations.read("local", started.id)
        assert not kept.notes
        assert [m.role for m in kept.messages] == ["user", "assistant", "user", "assistant"]
        assert kept.answers == [first, second]  # sources, citations, statements and the trace, equal
        assert [s.name for s in kept.answers[0].trace.stages] == [s.name for s in first.trace.stages]
    finally:
        engine.close()


def test_another_owner_never_sees_or_opens_a_conversation(tmp_path: Path) -> None:
    kept = Conversations(tmp_path, keep=0)
    alice = kept.start("alice", "What is in my contract?")
    kept.append("alice", alice.id, [ChatMessage(role="user", content="What is in my contract?")])
    assert kept.summaries("bob") == []
    with pytest.raises(ConversationNotFound):
        kept.read("bob", alice.id)
    with pytest.raises(ConversationNotFound):
        kept.append("bob", alice.id, [ChatMessage(role="user", content="hello")])
    kept.delete("bob", alice.id)  # bob's delete of alice's id removes nothing of alice's
    kept.rename("alice", alice.id, "  My   contract ")
    assert [(s.id, s.title) for s in kept.summaries("alice")] == [(alice.id, "My contract")]
    # a folder copied under another owner's key is still not theirs: meta.json names its owner
    bob_dir = kept._owner_dir("bob")
    bob_dir.mkdir(parents=True)
    (kept._owner_dir("alice") / alice.id).rename(bob_dir / alice.id)
    assert kept.summaries("bob") == []
    with pytest.raises(ConversationNotFound):
        kept.read("bob", alice.id)


def test_an_id_from_outside_is_never_a_path(tmp_path: Path) -> None:
    kept = Conversations(tmp_path / "c", keep=0)
    (tmp_path / "secret").mkdir()
    for bad in ("../secret", "..", "a" * 31, "A" * 32, ""):
        with pytest.raises(ConversationNotFound):
            kept.read("alice", bad)
        kept.delete("alice", "0" * 32)
    assert (tmp_path / "secret").is_dir()


def test_a_damaged_line_and_an_old_answer_are_notes_and_the_rest_is_kept(
    tmp_path: Path, fake_engine: Engine, make_pdf: Callable[..., Path]
) -> None:
    fake_engine.ingest_path(make_pdf(PAGES, name="acme.pdf"))
    answer = answered(fake_engine, "How much did revenue grow?")
    kept = Conversations(tmp_path, keep=0)
    started = kept.start("local", answer.question)
    kept.append("local", started.id, turn(answer))
    lines = kept._owner_dir("local") / started.id / "messages.jsonl"
    old = json.loads(lines.read_text().splitlines()[1])
    del old["answer"]["trace"]  # an answer of a release whose Answer had other fields
    with lines.open("a") as out:
        out.write(json.dumps({"role": "user", "content": "Second question?"}) + "\n")
        out.write(json.dumps(old) + "\n")
        out.write('{"role": "assistant", "content": "cut by a cra')  # a kill mid-write
    read = kept.read("local", started.id)
    assert [m.content for m in read.messages] == [answer.question, answer.answer, "Second question?", answer.answer]
    assert read.messages[1].answer == answer and read.messages[3].answer is None
    assert len(read.notes) == 2
    assert "another release" in read.notes[0] and "trace" in read.notes[0]
    assert "Message 5 could not be read" in read.notes[1]
    # the conversation goes on after the damaged line
    kept.append("local", started.id, [ChatMessage(role="user", content="Third?")])
    assert kept.read("local", started.id).messages[-1].content == "Third?"


def test_a_damaged_or_newer_meta_is_listed_with_a_note_and_others_open(tmp_path: Path) -> None:
    kept = Conversations(tmp_path, keep=0)
    good = kept.start("local", "good one")
    damaged = kept.start("local", "damaged one")
    newer = kept.start("local", "newer one")
    (kept._owner_dir("local") / damaged.id / "meta.json").write_text('{"format": 1, "own')
    meta = kept._owner_dir("local") / newer.id / "meta.json"
    meta.write_text(json.dumps(json.loads(meta.read_text()) | {"format": 99}))
    listed = {s.id: s for s in kept.summaries("local")}
    assert listed[good.id].note == ""
    assert "damaged" in listed[damaged.id].note
    assert "newer release" in listed[newer.id].note
    with pytest.raises(RagError, match="cannot be opened"):
        kept.read("local", damaged.id)
    assert kept.read("local", good.id).title == "good one"
    kept.delete("local", damaged.id)
    assert damaged.id not in {s.id for s in kept.summaries("local")}


def test_a_visitor_keeps_at_most_the_cap_the_oldest_goes(tmp_path: Path) -> None:
    kept = conversations_of(Settings(store_dir=tmp_path).replace(app__single_user=False, limits__max_conversations=2))
    ids = [kept.start("visitor", f"question {i}").id for i in range(3)]
    assert {s.id for s in kept.summaries("visitor")} == set(ids[1:])
    assert conversations_of(Settings(store_dir=tmp_path)).keep == 0  # local use: no cap


def test_a_deletion_cut_short_is_finished_by_the_next_listing(tmp_path: Path) -> None:
    kept = Conversations(tmp_path, keep=0)
    doomed = kept.start("local", "going")
    folder = kept._owner_dir("local")
    (folder / doomed.id).rename(folder / f".deleting-{doomed.id}")  # killed between the rename and the removal
    assert kept.summaries("local") == []
    assert list(folder.iterdir()) == []


def test_without_a_store_folder_conversations_last_the_process(tmp_path: Path) -> None:
    kept = conversations_of(Settings(store_dir=Path(":memory:")))
    assert kept.temporary
    root = kept.root
    kept.start("local", "q")
    kept.close()
    assert not root.exists()
    assert conversations_of(Settings(store_dir=tmp_path, conversations_dir=tmp_path / "c")).root == tmp_path / "c"


def test_markdown_export_cites_pages_with_quotes(fake_engine: Engine, make_pdf: Callable[..., Path],
                                                 tmp_path: Path) -> None:
    fake_engine.ingest_path(make_pdf(PAGES, name="acme.pdf"))
    answer = answered(fake_engine, "How much did revenue grow?")
    kept = Conversations(tmp_path, keep=0)
    started = kept.start("local", answer.question)
    kept.append("local", started.id, turn(answer))
    text = conversation_markdown(kept.read("local", started.id))
    assert text.startswith("# How much did revenue grow?\n")
    assert "## How much did revenue grow?" in text
    assert "Revenue grew 12% to 4.2 million dollars [1]." in text
    cited = answer.citations[0]
    assert f"- [1] acme.pdf, page {cited.page}: “" in text
    assert "Revenue grew 12% to 4.2 million dollars in the third quarter." in text  # the supporting sentence


def test_a_downloaded_trace_opens_again_and_other_files_say_why_not(
    fake_engine: Engine, make_pdf: Callable[..., Path]
) -> None:
    fake_engine.ingest_path(make_pdf(PAGES, name="acme.pdf"))
    answer = answered(fake_engine, "How much did revenue grow?")
    data = trace_file(answer)
    assert set(answer.to_json()) <= set(json.loads(data))  # the download keeps ask --json's keys
    assert answer_from_trace_file(data.encode()) == answer
    with pytest.raises(RagError, match="not JSON"):
        answer_from_trace_file(b"\x89PNG")
    with pytest.raises(RagError, match="no trace"):
        answer_from_trace_file(b'{"question": "q"}')
    old = {k: v for k, v in json.loads(data).items() if k != "record"}
    with pytest.raises(RagError, match="before traces could be opened"):
        answer_from_trace_file(json.dumps(old).encode())
    broken = json.loads(data)
    del broken["record"]["passages"]
    with pytest.raises(RagError, match="passages"):
        answer_from_trace_file(json.dumps(broken).encode())
