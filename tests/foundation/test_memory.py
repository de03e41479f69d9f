"""How much memory the parser's children may still take (rag_core/memory.py ``available_mb``): the
machine's available memory, or less where a container's limit leaves less."""

from __future__ import annotations

from pathlib import Path

from rag_core.memory import available_mb


def _files(folder: Path, meminfo_kb: int | None, limit: str | None, usage: int = 0) -> tuple[str, tuple]:
    meminfo = folder / "meminfo"
    if meminfo_kb is not None:
        meminfo.write_text(f"MemTotal:       24000000 kB\nMemAvailable:   {meminfo_kb} kB\n")
    cgroup = (str(folder / "memory.max"), str(folder / "memory.current"))
    if limit is not None:
        (folder / "memory.max").write_text(limit + "\n")
        (folder / "memory.current").write_text(f"{usage}\n")
    return str(meminfo), (cgroup,)


def test_a_containers_limit_less_its_use_counts_when_it_leaves_less(tmp_path: Path) -> None:
    mib = 2**20
    meminfo, cgroups = _files(tmp_path, 20_000 * 1024, str(2_700 * mib), usage=1_600 * mib)
    assert available_mb(meminfo, cgroups) == 1_100  # the demo host's 2.7 GB, 1.6 GB of it used
    meminfo, cgroups = _files(tmp_path, 900 * 1024, str(2_700 * mib), usage=0)
    assert available_mb(meminfo, cgroups) == 900  # the machine has less than the container may take


def test_no_limit_leaves_the_machines_memory_and_nothing_readable_says_so(tmp_path: Path) -> None:
    meminfo, cgroups = _files(tmp_path, 12_000 * 1024, "max")
    assert available_mb(meminfo, cgroups) == 12_000
    meminfo, cgroups = _files(tmp_path, 12_000 * 1024, str(1 << 62))  # cgroup v1's "no limit"
    assert available_mb(meminfo, cgroups) == 12_000
    assert available_mb(str(tmp_path / "none"), ((str(tmp_path / "a"), str(tmp_path / "b")),)) is None
