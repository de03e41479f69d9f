"""ARCHITECTURE.md's rules, checked where a test can check them: which flow imports which, that no
stage is handed the orchestrator or its trace recorder, that pages use only the app's modules and
rag_core's public names, that every recorded stage is one of the stage list, that stage
functions take no tuning number of their own (defaults live in Settings), and that no public
function changes the values it is given."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from pathlib import Path

import rag_core
from tests.paths import ROOT_DIR

ROOT = ROOT_DIR
PACKAGE = ROOT / "rag_core"
ENTRY_POINTS = {"rag_core.cli", "rag_core.__main__", "rag_core.eval", "rag_core.bench"}


def modules() -> Iterator[tuple[str, Path, ast.Module]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        yield name, path, ast.parse(path.read_text())


NAMES = {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__") for p in PACKAGE.rglob("*.py")}


def imported(name: str, path: Path, tree: ast.Module) -> set[str]:
    """The rag_core modules a module imports (relative imports resolved)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(parts + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.startswith("rag_core"):  # `from .. import errors` imports rag_core.errors
                found |= {f"{target}.{a.name}" if f"{target}.{a.name}" in NAMES else target for a in node.names}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("rag_core")}
    return found


def within(module: str, area: str) -> bool:
    return module == area or module.startswith(area + ".")


IMPORTS = {name: imported(name, path, tree) for name, path, tree in modules()}


def test_only_entry_points_import_the_orchestrator() -> None:
    offenders = [m for m, targets in IMPORTS.items() if "rag_core.pipeline" in targets
                 and m != "rag_core" and not any(within(m, e) for e in ENTRY_POINTS)]  # rag_core: its public name
    assert offenders == []


FLOORS: list[set[str]] = [
    # the foundation: data, settings, errors, the trace, the format registry, how chunk text is laid out
    {"rag_core.models", "rag_core.errors", "rag_core.settings", "rag_core.text", "rag_core.stages", "rag_core.cpu",
     "rag_core.memory", "rag_core.privacy", "rag_core.backends", "rag_core.trace", "rag_core.trace_views",
     "rag_core.formats", "rag_core.chunk_text", "rag_core.why"},
    {"rag_core.runtime"},  # the local models and their runtimes: embedder, chat model, tokenizers, OCR data
    {"rag_core.store"},  # points and payloads in Qdrant, the kept files
    {"rag_core.lexical"},  # words as every flow reads them: the tokenizer, terms, vocabulary, BM25 indexes
    {"rag_core.tables"},  # a table chunk's rows and cells, and which rows answer
    # an owner's documents, reading them by position, and the conversations kept with them
    {"rag_core.library", "rag_core.reader", "rag_core.conversations"},
    {"rag_core.ingest", "rag_core.retrieval"},  # the two flows, apart: neither imports the other
    {"rag_core.answer"},  # answering reads what retrieval returns (and its plan)
    {"rag_core.ingesting"},  # the engine's ingestion half
    {"rag_core.pipeline"},  # the engine
    {"rag_core", "rag_core.__main__", "rag_core.cli", "rag_core.eval", "rag_core.bench"},  # entry points
]


def area_of(module: str) -> str:
    return ".".join(module.split(".")[:2])


def floor_of(module: str) -> int:
    area = area_of(module)
    return next(i for i, floor in enumerate(FLOORS) if area in floor)


def test_every_module_has_a_floor() -> None:
    assert [m for m in IMPORTS if not any(area_of(m) in floor for floor in FLOORS)] == []


def test_imports_run_only_down_the_floors() -> None:
    """A module imports its own area or a lower floor; the foundation and the entry points may
    import within their floor (the circle test keeps those acyclic). No exception list."""
    shared = {0, len(FLOORS) - 1}
    offenders = sorted(
        f"{m} -> {t}" for m, targets in IMPORTS.items() for t in targets
        if area_of(t) != area_of(m)
        and not (floor_of(t) < floor_of(m) or floor_of(t) == floor_of(m) in shared)
    )
    assert offenders == []


def test_no_stage_is_handed_the_engine_or_the_trace_recorder() -> None:
    """A stage receives values; only the orchestrator (and the trace module) hold a recorder."""
    offenders = []
    for name, _, tree in modules():
        if name in {"rag_core.pipeline", "rag_core.trace"} or any(within(name, e) for e in ENTRY_POINTS):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                arguments = [*node.args.args, *node.args.kwonlyargs, *node.args.posonlyargs]
                for argument in arguments:
                    annotation = ast.unparse(argument.annotation) if argument.annotation else ""
                    if "TraceRecorder" in annotation or "Engine" in annotation:
                        offenders.append(f"{name}.{node.name}({argument.arg}: {annotation})")
    assert offenders == []


def test_one_trace_writer() -> None:
    """Only the orchestrator holds a ``TraceRecorder``: a search and an answer's generation time their
    stages in ``Stages`` and hand the records back; nothing else names the recorder."""
    offenders = [name for name, _, tree in modules() if name not in {"rag_core.pipeline", "rag_core.trace"}
                 and any(isinstance(node, ast.Name | ast.alias) and "TraceRecorder" in (
                     node.id if isinstance(node, ast.Name) else node.name) for node in ast.walk(tree))]
    assert offenders == []


def test_no_retrieval_stage_is_handed_a_callable() -> None:
    """A retrieval stage receives values (an index, the store's chunks of one owner, a reader), never a
    function of its caller's to read with."""
    offenders = []
    for name, _, tree in modules():
        if not (within(name, "rag_core.retrieval") or within(name, "rag_core.reader")):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                offenders += [f"{name}.{node.name}({a.arg})" for a in [*node.args.args, *node.args.kwonlyargs]
                              if a.annotation is not None and "Callable" in ast.unparse(a.annotation)]
    assert offenders == []


def test_pages_use_the_app_modules_and_public_names_only() -> None:
    """A page calls app_state (which holds the engine) and renders with app_views."""
    public = set(rag_core.__all__)
    offenders = []
    for path in sorted((ROOT / "pages").glob("*.py")):
        if "app_state.engine()" in path.read_text():
            offenders.append(f"{path.name}: reaches into the engine past app_state")
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("rag_core"):
                if node.module == "rag_core":
                    offenders += [f"{path.name}: {a.name}" for a in node.names if a.name not in public]
                elif node.module != "rag_core.trace_views":
                    offenders.append(f"{path.name}: {node.module}")
            elif isinstance(node, ast.Import):
                offenders += [f"{path.name}: {a.name}" for a in node.names if a.name.startswith("rag_core.")]
    assert offenders == []


def test_stage_functions_take_no_tuning_number_of_their_own() -> None:
    """Defaults live in Settings: no public stage function or class defaults a number."""
    offenders = []
    for name, _, tree in modules():
        if within(name, "rag_core.eval") or within(name, "rag_core.bench") or name == "rag_core.settings":
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef) or (node.name.startswith("_") and node.name != "__init__"):
                continue
            args = node.args
            pairs = [*zip(args.args[len(args.args) - len(args.defaults):], args.defaults, strict=True),
                     *((a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None)]
            offenders += [f"{name}.{node.name}({a.arg}={ast.unparse(d)})" for a, d in pairs
                          if isinstance(d, ast.Constant) and type(d.value) in (int, float)]
    assert offenders == []


MUTATORS = frozenset({"append", "extend", "update", "setdefault", "insert", "pop", "popitem", "clear", "remove",
                      "add", "discard", "sort", "reverse"})
# Arguments a function is there to change, and why.
CHANGES_ITS_ARGUMENT = {
    "rag_core.ingest.reindex.reembed(status)",  # the progress record the pages and the CLI watch while it runs
    "rag_core.privacy.telemetry_off(environ)",  # setting the environment is its whole job
}


def copies(value: ast.expr) -> bool:
    """``list(p)``, ``dict(p)``, ``p.copy()`` and the like: a value of the function's own."""
    if not isinstance(value, ast.Call):
        return False
    function = value.func
    return (isinstance(function, ast.Name) and function.id in {"list", "dict", "set", "deepcopy", "copy"}
            or isinstance(function, ast.Attribute) and function.attr in {"copy", "model_copy"})


def changed_arguments(function: ast.FunctionDef) -> set[str]:
    """The parameters a function changes in place (``p.append(…)``, ``p[k] = …``, ``p.x = …``,
    ``del p[k]``), leaving out those it first rebinds to a copy of its own (``p = list(p)``)."""
    params = {a.arg for a in [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]}
    params -= {"self", "cls"}
    rebound = {t.id for node in ast.walk(function) if isinstance(node, ast.Assign) and copies(node.value)
               for t in node.targets if isinstance(t, ast.Name)}
    changed = set()
    for node in ast.walk(function):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS
                and isinstance(node.func.value, ast.Name)):
            changed.add(node.func.value.id)
        targets = (node.targets if isinstance(node, ast.Assign | ast.Delete)
                   else [node.target] if isinstance(node, ast.AugAssign) else [])
        changed |= {t.value.id for t in targets
                    if isinstance(t, ast.Subscript | ast.Attribute) and isinstance(t.value, ast.Name)}
    return (changed & params) - rebound


def test_no_public_function_changes_its_inputs() -> None:
    """A stage returns what it made; it never fills in a list, dict or object its caller passed
    (private helpers that build a value of their caller's, and the orchestrator's recorder, aside)."""
    offenders = []
    for name, _, tree in modules():
        if within(name, "rag_core.eval") or within(name, "rag_core.bench"):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
                offenders += [f"{name}.{node.name}({p})" for p in sorted(changed_arguments(node))]
    assert sorted(set(offenders) - CHANGES_ITS_ARGUMENT) == []
    assert set(offenders) >= CHANGES_ITS_ARGUMENT, "an exception no longer needed: remove it"


MOST_LINES = 400
"""A module a newcomer reads in one sitting."""
LONGER_FOR_NOW: dict[str, int] = {}
"""Modules still over the limit, each held to the length it has: they may only shrink."""


def test_no_module_grows_past_its_limit() -> None:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        lines = len(path.read_text().splitlines())
        if lines > LONGER_FOR_NOW.get(relative, MOST_LINES):
            offenders.append(f"{relative}: {lines} lines")
    assert offenders == []
    shrunk = {p: n for p, n in LONGER_FOR_NOW.items() if len((ROOT / p).read_text().splitlines()) <= MOST_LINES}
    assert shrunk == {}, "a module back under the limit leaves the list"


def module_of(target: str, names: Iterable[str]) -> str:
    """The rag_core module an import resolves to: the module itself, or the package a name is taken from."""
    known = set(names)
    while target and target not in known:
        target = target.rpartition(".")[0]
    return target


def import_graph() -> dict[str, set[str]]:
    """Each module and the modules it imports; ``from .. import errors`` imports rag_core.errors."""
    graph: dict[str, set[str]] = {}
    for name, path, tree in modules():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(parts + ([node.module] if node.module else []))
                if base.startswith("rag_core"):
                    targets |= {f"{base}.{a.name}" if f"{base}.{a.name}" in IMPORTS else base for a in node.names}
            elif isinstance(node, ast.Import):
                targets |= {a.name for a in node.names if a.name.startswith("rag_core")}
        graph[name] = {module_of(t, IMPORTS) for t in targets} - {name, ""}
    return graph


def test_no_import_circle() -> None:
    graph = import_graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            part = []
            while True:
                top = stack.pop()
                part.append(top)
                if top == node:
                    break
            if len(part) > 1:
                circles.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    assert circles == []


def test_every_fixed_number_says_why() -> None:
    """Tunables live in Settings; a module-level number outside them is fixed, named, and says what it
    is and why it is not a setting (a docstring under it, or a comment beside it)."""
    offenders = []
    for name, path, tree in modules():
        if within(name, "rag_core.settings") or within(name, "rag_core.eval") or within(name, "rag_core.bench"):
            continue
        lines = path.read_text().splitlines()
        for node, after in zip(tree.body, [*tree.body[1:], None], strict=False):
            value = node.value if isinstance(node, ast.Assign) else None
            if isinstance(value, ast.UnaryOp):
                value = value.operand
            if not (isinstance(value, ast.Constant) and type(value.value) in (int, float)):
                continue
            documented = isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant) and isinstance(
                after.value.value, str)
            if not documented and "#" not in lines[node.lineno - 1]:
                offenders.append(f"{name}: {ast.unparse(node)}")
    assert offenders == []


def test_the_readme_is_one_screen_a_topic() -> None:
    """What it is, the two commands, the app, the CLI, configuration, the latest figures: at most 500
    lines; the log of measurements is docs/measurements.md."""
    assert len((ROOT / "README.md").read_text().splitlines()) <= 500
