"""Where the project and the tests' own files are, for tests at any depth of tests/."""

from pathlib import Path

ROOT_DIR = Path(__file__).resolve().parents[1]
FIXTURES = ROOT_DIR / "tests" / "fixtures"
GOLDEN = ROOT_DIR / "tests" / "golden"
