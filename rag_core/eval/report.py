"""What every eval and bench run records about itself, and how its results are written."""

from __future__ import annotations

import json
import os
import platform
from collections.abc import Sequence
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from ..settings import Settings

PACKAGES = (
    "torch",
    "sentence-transformers",
    "qdrant-client",
    "rank-bm25",
    "pymupdf",
    "xllamacpp",
    "tiktoken",
    "streamlit",
)


def run_metadata(settings: Settings | None = None) -> dict[str, Any]:
    """Date, machine, package versions and (if given) the settings of a run."""
    versions: dict[str, str | None] = {}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    meta: dict[str, Any] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {
            "cpus": os.cpu_count(),
            "memory_gib": _memory_gib(),
            "cpu": _cpu_model(),
            "platform": platform.platform(),
            "python": platform.python_version(),
        },
        "versions": versions,
    }
    if settings is not None:
        meta["settings"] = json.loads(
            settings.model_dump_json(exclude={"qdrant_api_key": True, "llm": {"openai_api_key"}})
        )
    return meta


def write_results(folder: Path, name: str, report: dict[str, Any], markdown: str) -> list[Path]:
    """Write ``name.json`` and ``name.md`` into folder; returns the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    json_path = folder / f"{name}.json"
    md_path = folder / f"{name}.md"
    json_path.write_text(json.dumps(report, indent=2, default=str))
    md_path.write_text(markdown)
    return [json_path, md_path]


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    def cell(value: Any) -> str:
        if isinstance(value, float):
            return f"{value:.3f}"
        return "—" if value is None else str(value).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def bar_chart(path: Path, title: str, labels: Sequence[str], series: dict[str, Sequence[float]], ylabel: str) -> Path:
    """A grouped bar chart (one group per label, one bar per series), saved as PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(max(6.0, 0.9 * len(labels) * max(1, len(series))), 4.0))
    width = 0.8 / max(1, len(series))
    for n, (name, values) in enumerate(series.items()):
        positions = [i + (n - (len(series) - 1) / 2) * width for i in range(len(labels))]
        bars = ax.bar(positions, values, width, label=name)
        ax.bar_label(bars, fmt="%.2f", fontsize=7)
    ax.set_xticks(range(len(labels)), labels, rotation=20, ha="right", fontsize=8)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if len(series) > 1:
        ax.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _memory_gib() -> float | None:
    try:
        with open("/proc/meminfo") as f:
            return round(int(f.readline().split()[1]) / 1024**2, 1)
    except OSError:
        return None


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"
