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


def guide_lines(text: str, after: str) -> list[str]:
    """The lines of the first ``sh`` block after ``after`` in ``text``, each without its comment."""
    block = text.split(after, 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    return [line.split("  #", 1)[0].strip() for line in block.splitlines() if line.strip()]


def checkout_as_written(clone: Path, guide: str, section: str, release: str, without_tag: str) -> None:
    """Run the ``git`` lines of upgrades.md's block after ``section`` in ``clone``, the release it names standing
    for ``release``; a checkout of the release's tag that git refuses (a clone without the tags) is done by the
    line of the block after ``without_tag`` instead, as the guide says."""
    for line in (line.replace("v0.4.0", release) for line in guide_lines(guide, section) if line.startswith("git ")):
        done = subprocess.run(["sh", "-c", line], cwd=clone, capture_output=True, text=True, timeout=120)
        if done.returncode and line == f"git checkout {release}" and "did not match" in done.stderr:
            [line] = (line.replace("v0.4.0", release) for line in guide_lines(guide, without_tag))
            done = subprocess.run(["sh", "-c", line], cwd=clone, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"{line}: {done.stdout}{done.stderr}"


def origin_with(tmp_path: Path, published: bool) -> Path:
    """A repository to clone from, as this one, with every release's tag (``published``) or none."""
    origin = tmp_path / "origin.git"
    subprocess.run(["git", "clone", "--quiet", "--bare", str(ROOT), str(origin)], check=True, timeout=120)
    tags = subprocess.run(["git", "-C", str(origin), "tag"], capture_output=True, text=True, check=True).stdout.split()
    for tag in tags:
        subprocess.run(["git", "-C", str(origin), "tag", "-d", tag], capture_output=True, check=True)
    if published:
        for tag, commit, _ in releases():
            subprocess.run(["git", "-C", str(origin), "tag", "-a", tag, commit, "-m", f"Release {tag}"], check=True)
    return origin


@pytest.mark.parametrize("published", (True, False), ids=("tags published", "no tags"))
def test_the_upgrade_as_written_takes_a_checkout_of_a_release_tag_to_the_next_release_and_back(
        tmp_path: Path, published: bool) -> None:
    """A judge installed from a release's tag is in a detached checkout, where ``git pull`` fails ("You are not
    currently on a branch"): upgrades.md's lines move it to the next release and back, whether or not the
    repository it was cloned from has published the releases' tags (deploy/releases names their commits)."""
    (_, older_commit, _), (newer, newer_commit, _) = releases()[-2:]
    if not has_commit(older_commit) or not has_commit(newer_commit):
        pytest.skip("this clone does not hold the releases' commits: a copy without the history, or a shallow clone")
    guide = (ROOT / "docs" / "operators" / "upgrades.md").read_text("utf-8")
    origin = origin_with(tmp_path, published)
    clone = tmp_path / "checkout"
    subprocess.run(["git", "clone", "--quiet", str(origin), str(clone)], check=True, timeout=120)
    subprocess.run(["git", "checkout", "--quiet", older_commit], cwd=clone, check=True)  # as installed
    checkout_as_written(clone, guide, "To upgrade (", newer, "has not published its tags")
    assert git_in(clone, "rev-parse", "HEAD") == newer_commit
    subprocess.run(["git", "checkout", "--quiet", "origin/HEAD"], cwd=clone, check=True)  # the newest code
    back = "To go back to the previous release"
    [previous] = [line.split()[2] for line in guide_lines(guide, back) if line.startswith("git checkout v")]
    checkout_as_written(clone, guide, back, newer, "Without its tag")
    assert git_in(clone, "rev-parse", "HEAD") == {tag: commit for tag, commit, _ in releases()}[previous]


def git_in(clone: Path, *arguments: str) -> str:
    return subprocess.run(["git", "-C", str(clone), *arguments], capture_output=True, text=True, check=True,
                          timeout=60).stdout.strip()


def test_the_guides_examples_of_judge_version_name_this_release() -> None:
    """What a guide shows ``judge --version`` print is what this judge prints ("payola-judge 0.4.0 (...)")."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    shown = {(page.name, version) for page in pages if page.name != "changelog.md"
             for version in re.findall(r"payola-judge (\d+\.\d+\.\d+)", page.read_text("utf-8"))}
    assert shown and {version for _, version in shown} == {__version__}, shown
