"""The releases as the repository records them (``deploy/releases``): each one's commit holds that
release's ``judge.__version__`` and newest migration, its tag (where the clone has it) marks that
commit, and the upgrades table and the changelog give each the schema it expects."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from judge import __version__
from judge.store.database import SCHEMA

ROOT = Path(__file__).resolve().parents[2]


def releases() -> list[tuple[str, str, str]]:
    """(tag, commit, schema) of every release, oldest first."""
    lines = (ROOT / "deploy" / "releases").read_text("utf-8").splitlines()
    return [(tag, commit, schema) for tag, commit, schema in (line.split() for line in lines
                                                              if line and not line.startswith("#"))]


def git(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(ROOT), *arguments], capture_output=True, text=True, timeout=60)


def has_commit(commit: str) -> bool:
    return (ROOT / ".git").exists() and git("cat-file", "-e", f"{commit}^{{commit}}").returncode == 0


@pytest.mark.parametrize(("tag", "commit", "schema"), releases())
def test_each_release_commit_holds_its_version_and_its_schema(tag: str, commit: str, schema: str) -> None:
    if not has_commit(commit):
        pytest.skip(f"this clone does not hold {commit} ({tag}): a copy without the history, or a shallow clone")
    versions = git("show", f"{commit}:judge/__init__.py").stdout
    found = re.search(r'^__version__ = "([^"]+)"', versions, re.M)
    assert (found.group(1) if found else "0.1.0") == tag.removeprefix("v")  # the first release had none
    migrations = git("ls-tree", "--name-only", commit, "judge/migrations/versions/").stdout.split()
    assert max(Path(name).name[:4] for name in migrations if name.endswith(".py")) == schema
    tagged = git("rev-parse", "--verify", "--quiet", f"refs/tags/{tag}^{{commit}}")
    if tagged.returncode == 0:  # a clone that has the tag: it marks that commit
        assert tagged.stdout.strip() == commit


def test_the_upgrades_table_and_the_changelog_give_each_release_its_schema_and_this_one_last() -> None:
    upgrades = (ROOT / "docs" / "operators" / "upgrades.md").read_text("utf-8")
    rows = re.findall(r"^\| (\d+\.\d+\.\d+)[^|]*\| (\d{4}) \|$", upgrades, re.M)
    released = [(tag.removeprefix("v"), schema) for tag, _, schema in releases()]
    assert rows == [*released, (__version__, SCHEMA)]
    assert __version__ not in {version for version, _ in released}  # this code is not a release's
    changelog = (ROOT / "docs" / "changelog.md").read_text("utf-8")
    sections = {heading.split()[0]: text for heading, _, text in
                (section.partition("\n") for section in changelog.split("\n## ")[1:])}
    assert [(version, re.findall(r"schema (\d{4})", sections[version], re.I)[0]) for version, _ in released] == released
    assert next(iter(sections)) == "Not" and f"{__version__}, schema {SCHEMA}" in sections["Not"]
