"""The README's figures of a fresh clone's test run stay true: the number of Python tests it
names is the number pytest collects, and, in CI (a fresh clone, where `target/` holds this run's
builds only), the sizes it gives for `target/release/` and `target/fast-test/` are within a
quarter of what is there."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text()
FLAT = " ".join(README.split())


def readme_figure(pattern: str) -> int:
    m = re.search(pattern, FLAT)
    assert m, f"README.md has no figure matching {pattern!r}"
    return int(m.group(1).replace(",", ""))


def test_the_readme_names_the_number_of_python_tests_pytest_collects():
    said = readme_figure(r"Python tests \d+ s \(([\d,]+) tests")
    r = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                        "-p", "no:cacheprovider", str(REPO / "engine-tests")],
                       capture_output=True, text=True, cwd=REPO, timeout=600)
    m = re.search(r"(\d+) tests? collected", r.stdout)
    assert m, r.stdout[-2000:] + r.stderr[-2000:]
    assert int(m.group(1)) == said, (
        f"README.md says {said} Python tests; pytest collects {m.group(1)}: "
        "update the README's figures from a fresh clone's run")


def folder_mb(path: Path) -> float:
    total = sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink())
    return total / 1e6


@pytest.mark.skipif(os.environ.get("CI") != "true",
                    reason="sizes are those of a fresh clone's run (CI); a working tree keeps "
                           "older builds")
@pytest.mark.parametrize("folder", ["release", "fast-test"])
def test_the_readme_sizes_of_a_fresh_builds_folders_hold_within_a_quarter(folder):
    said = readme_figure(rf"{re.escape(folder)} (\d+) MB")
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    if not target.is_absolute():
        target = REPO / target
    got = folder_mb(target / folder)
    assert 0.75 * said <= got <= 1.25 * said, (
        f"README.md says {folder} {said} MB; target/{folder} holds {got:.0f} MB")
