"""A damaged store: each part of a real store folder cut, overwritten or deleted in turn.

Every command then ends in a typed error (exit 1, one message naming the folder and what to do) or a
correct result, never a traceback; ``check --repair`` keeps every document that can still be read,
names each one it drops, backs up the registry, and leaves a store that checks clean.
"""

from __future__ import annotations

import io
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from rag_core.cli import main
from rag_core.store.backup import copy_sparse
from tests.conftest import app_environment, write_pdf
from tests.paths import FIXTURES, ROOT_DIR

REGISTRY = "edge/rag_documents"
CHUNKS = "edge/rag_chunks__all-minilm-l6-v2__384"
PARTS = {
    "registry config": f"{REGISTRY}/edge_config.json",
    "registry payloads": f"{REGISTRY}/segments/*/payload_storage/page_0.dat",
    "registry log": f"{REGISTRY}/wal/open-1",
    "chunks config": f"{CHUNKS}/edge_config.json",
    "chunks payloads": f"{CHUNKS}/segments/*/payload_storage/page_0.dat",
    "chunks vectors": f"{CHUNKS}/segments/*/vector_storage/vectors/chunk_0.mmap",
    "chunks id tracker": f"{CHUNKS}/segments/*/mutable_id_tracker.mappings",
    "chunks payload index": f"{CHUNKS}/segments/*/payload_index/*status-map/tracker.dat",
    "kept file": "files/*/*.pdf",
}
DAMAGE: dict[str, Callable[[Path], None]] = {
    "truncated": lambda p: p.write_bytes(p.read_bytes()[: p.stat().st_size // 2]),
    # the same bytes on every run and machine, drawn from the damaged file's own name
    "random bytes": lambda p: overwrite(p, random.Random(p.name).randbytes(min(p.stat().st_size, 1 << 16) or 64)),
    "deleted": lambda p: p.unlink(),
}
ALL_ONES: Callable[[Path], None] = lambda p: overwrite(p, b"\xff" * (min(p.stat().st_size, 1 << 16) or 64))  # noqa: E731
COMMANDS = [
    ["docs"],
    ["search", "When is the invoice due?", "--llm", "extractive", "--no-rerank"],
    ["ask", "When is the invoice due?", "--llm", "extractive"],
    ["delete", "alpha.pdf"],
    ["check"],
]


def overwrite(path: Path, data: bytes) -> None:
    with path.open("r+b") as handle:
        handle.write(data)


def run(*args: str, store: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main([*args, "--store", str(store)])  # a traceback would raise out of here
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("damage")
    alpha = write_pdf(folder / "alpha.pdf", ["Alpha: invoice INV-7 is due on 3 March.", "Alpha: solar panels."])
    beta = write_pdf(folder / "beta.pdf", ["Beta: the warranty lasts ten years.", "Beta: wind turbines."])
    store = folder / "store"
    assert run("ingest", str(alpha), str(beta), store=store)[0] == 0
    return store


def damaged_copy(template: Path, target: Path, part: str, damage: str) -> Path:
    shutil.copytree(template, target, copy_function=copy_sparse)  # the engine's files are sparse
    (path,) = sorted(target.glob(PARTS[part]))[:1]
    (ALL_ONES if damage == "all ones" else DAMAGE[damage])(path)
    return target


@pytest.mark.slow
@pytest.mark.parametrize("damage", list(DAMAGE))
@pytest.mark.parametrize("part", list(PARTS))
def test_every_command_ends_in_a_typed_error_or_a_result(
    template: Path, tmp_path: Path, part: str, damage: str
) -> None:
    for i, command in enumerate(COMMANDS):
        store = damaged_copy(template, tmp_path / f"s{i}", part, damage)
        code, out, err = run(*command, store=store)
        assert code in (0, 1), (command, code, err)
        if code == 1 and command[0] != "check":
            assert err.startswith("error: "), (command, err)
            if "damaged" in err:
                assert str(store) in err and "check --store" in err, err


@pytest.mark.slow
@pytest.mark.parametrize("damage", list(DAMAGE))
@pytest.mark.parametrize("part", list(PARTS))
def test_repair_keeps_what_can_be_read(template: Path, tmp_path: Path, part: str, damage: str) -> None:
    store = damaged_copy(template, tmp_path / "store", part, damage)
    code, out, err = run("check", "--repair", store=store)
    assert code == 0, err
    dropped = out.split("dropped documents:")[-1] if "dropped documents:" in out else ""
    kept = [name for name in ("alpha.pdf", "beta.pdf") if name not in dropped]
    if "no problems found" not in out:
        assert "registry backed up in" in out and any((store / "backups").iterdir())
    if part.startswith("registry") or part == "kept file":
        assert kept == ["alpha.pdf", "beta.pdf"], out  # the chunks hold all a record needs
    code, listing, err = run("docs", store=store)
    assert code == 0, err
    assert sorted(n for n in ("alpha.pdf", "beta.pdf") if n in listing) == kept, (out, listing)
    assert run("check", store=store)[1].rstrip().endswith("no problems found")
    if "alpha.pdf" in kept:
        code, hits, err = run("search", "When is the invoice due?", "--llm", "extractive", "--no-rerank", store=store)
        assert code == 0 and "INV-7" in hits, err


@pytest.mark.slow
def test_the_engines_panic_stays_off_the_screen(template: Path, tmp_path: Path) -> None:
    """A damaged payload index makes the engine panic while it loads: the user reads our message
    first (the panic's lines are kept on the error and in the debug log)."""
    store = damaged_copy(template, tmp_path / "store", "chunks payload index", "all ones")
    done = subprocess.run([sys.executable, "-m", "rag_core", "docs", "--store", str(store)],
                          capture_output=True, text=True, env=os.environ | {"HF_HUB_OFFLINE": "1"})
    assert done.returncode == 1
    assert done.stderr.startswith(f"error: The store in {store} is damaged"), done.stderr[:500]
    assert "panicked" not in done.stderr


def test_a_damaged_store_names_the_folder_and_the_fix(tmp_path: Path) -> None:
    from rag_core.errors import StoreDamaged
    from rag_core.store.opening import open_folder

    store = open_folder(tmp_path)
    store.ensure_chunks("rag_chunks__m__4", 4)
    store.close()
    (tmp_path / "edge" / "rag_chunks__m__4" / "edge_config.json").write_bytes(b"\xff\xfe garbage")
    with pytest.raises(StoreDamaged) as caught:
        open_folder(tmp_path)
    message = str(caught.value)
    assert f"The store in {tmp_path} is damaged: collection rag_chunks__m__4 cannot be read" in message
    assert f"python -m rag_core check --store {tmp_path}" in message


LEGACY = FIXTURES / "legacy_store" / "store"


@pytest.mark.parametrize(
    "part",
    [
        "meta.json",
        "collection/rag_documents/storage.sqlite",
        "collection/rag_chunks__all-minilm-l6-v2__384/storage.sqlite",
    ],
)
@pytest.mark.parametrize("damage", ["truncated", "random bytes"])
def test_a_damaged_previous_release_folder_is_left_as_it_was(tmp_path: Path, part: str, damage: str) -> None:
    store = tmp_path / "store"
    shutil.copytree(LEGACY, store)
    DAMAGE[damage](store / part)
    before = {p.relative_to(store): p.read_bytes() for p in store.rglob("*") if p.is_file()}
    for command in (["docs"], ["check"]):
        code, out, err = run(*command, store=store)
        assert code == 1, (command, out, err)
        assert f"error: The store in {store} is damaged: the previous release's {part.split('/')[0]}" in err, err
    after = {
        p.relative_to(store): p.read_bytes()
        for p in store.rglob("*")
        if p.is_file() and "edge" not in p.parts and "backups" not in p.parts
    }
    assert after == before, "the old data stays as it was"


def test_a_damaged_store_shows_its_message_on_every_page(tmp_path: Path) -> None:
    from rag_core.store.opening import open_folder

    store = tmp_path / "store"
    open_folder(store).close()
    (store / "edge" / "rag_documents" / "edge_config.json").write_bytes(b"\x00garbage")
    with app_environment(store, RAG_LLM__BACKEND="extractive", RAG_RERANK__ENABLED="false"):
        for page in ["pages/upload.py", "pages/chat.py", "pages/debug.py"]:
            at = AppTest.from_file(str(ROOT_DIR / "app.py"), default_timeout=120)
            at.run()
            at.switch_page(page).run()
            assert not at.exception, page
            if page != "pages/debug.py":  # the debug page shows the session's traces without the store
                assert any("is damaged" in e.value and "check --store" in e.value for e in at.error), page
