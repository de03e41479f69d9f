"""The locks: requirements.txt (the app) and requirements-dev.txt (tests and linters) pin every
package, direct and transitive, and this environment holds exactly those versions."""

from __future__ import annotations

import re
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

from tests.paths import ROOT_DIR

ROOT = ROOT_DIR
LOCKS = ["requirements.txt", "requirements-dev.txt"]
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;]+)$")


def requirement_lines(path: Path) -> list[str]:
    """The requirement lines of a requirements file: no comments, options or blank lines."""
    lines = (line.split("#", 1)[0].strip() for line in path.read_text().splitlines())
    return [line for line in lines if line and not line.startswith("-")]


def pins(path: Path) -> dict[str, str]:
    found = {}
    for line in requirement_lines(path):
        match = PIN.match(line)
        assert match, f"{path.name}: {line!r} is not pinned with =="
        found[canonicalize_name(match.group(1))] = match.group(2)
    return found


@pytest.mark.parametrize("lock", LOCKS)
def test_every_locked_version_is_the_installed_one(lock: str) -> None:
    locked = pins(ROOT / lock)
    assert locked, f"{lock} pins nothing"
    wrong = {}
    for name, pinned in locked.items():
        try:
            installed = version(name)
        except PackageNotFoundError:
            installed = "missing"
        # "== 2.13.0" admits the local CPU build "2.13.0+cpu" (PEP 440), and nothing else.
        if installed == "missing" or not SpecifierSet(f"=={pinned}").contains(installed, prereleases=True):
            wrong[name] = f"locked {pinned}, installed {installed}"
    assert not wrong, f"{lock} and this environment differ (run `make setup`): {wrong}"


@pytest.mark.parametrize(("source", "lock"), [("requirements.in", LOCKS[0]), ("requirements-dev.in", LOCKS[1])])
def test_every_direct_requirement_is_locked_within_its_range(source: str, lock: str) -> None:
    locked = pins(ROOT / lock)
    for line in requirement_lines(ROOT / source):
        wanted = Requirement(line)
        name = canonicalize_name(wanted.name)
        assert name in locked, f"{wanted.name} from {source} is not in {lock}: run `make lock`"
        assert wanted.specifier.contains(locked[name], prereleases=True), f"{lock} pins {name} outside {line!r}"


def test_torch_stays_the_cpu_build() -> None:
    assert pins(ROOT / LOCKS[0])["torch"] == "2.13.0"
    assert not any(name.startswith("nvidia-") for name in pins(ROOT / LOCKS[0])), "no CUDA libraries in the lock"
