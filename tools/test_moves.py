"""List where every test function of one revision went in another: kept, moved, renamed, changed or not found.

    python tools/test_moves.py BEFORE AFTER > report.md     # e.g. b7d8a4a^1 HEAD

It reads every ``tests/**/test_*.py`` at both revisions with ``git show`` (no work tree, no test run), parses
each with ``ast`` and lists every test function: a module-level ``def test_*`` or a ``test_*`` method of a
``Test*`` class (nested ``Test*`` classes too), named ``file::Class::name``.

Theory of operation.  Each "before" test is matched to an "after" test by the first rule that holds:

a. **kept**: the same file and the same qualified name;
b. **moved**: the same function name in another file (or another class), the closest body among several;
c. **renamed**: the same normalised body under another name or in another file;
d. **changed**: the closest normalised body above ``THRESHOLD``;
e. **not found**: the rest, with the old test's first docstring line or first asserted line, to be judged by hand.

A test's *normalised body* is its AST dumped without the function's name, its docstrings (comments are not
in the AST) and its decorators other than ``parametrize`` (layer markers were added by path), but with its
arguments (the fixtures it asks for) and its ``parametrize`` cases.  Rules (a)-(c) pair one "before" test with
one "after" test.  Rule (d) may send several "before" tests to one "after" test, since merging near-copies into
one parametrised test was part of the work; the report says how many share a target.

The similarity of (d), the number the report gives, is ``difflib.SequenceMatcher.ratio`` over the token sequences
of the two dumped bodies (node types, names, attributes and constants in source order).  Comparing every pair
would be slow, so it is computed only for the ``CANDIDATES`` "after" tests closest by the Jaccard index of the sets
of names, attributes and constants the bodies use, and the ``NAMESAKES`` closest by the words of their names.  Of
the candidates whose bodies reach ``THRESHOLD``, the one with the best mean of body and name similarity wins: a
short body made of the harness's calls is about as like a dozen tests as like its successor, whose name still says
the behaviour.  Pairs are made best first, each "after" test taken once, until none is left above the threshold.

The report lists too the tests kept under their names whose bodies are less like their old ones than
``REWRITTEN_BELOW``: a kept name does not prove a kept check.  It also compares the data files under ``tests/``
(anything not ``.py``: the DATC cases, mail fixtures) by their blobs, since a parametrised test's cases can live
there.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import functools
import math
import subprocess
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath

THRESHOLD = 0.5
"""The least difflib ratio for rule (d): below it two bodies share little more than the harness's calls."""

CANDIDATES = 12
"""How many "after" tests, closest by the sets of names used, rule (d) compares token by token."""

REWRITTEN_BELOW = 0.7
"""A test kept under its name whose body is less like its old one than this is listed, to be read by hand."""

ASSERTED_AT_LEAST = 12
"""The shortest asserted string the report looks for in the later tests: shorter ones are found anywhere."""

NAMESAKES = 4
"""How many "after" tests, closest by the words of their names, rule (d) compares too."""

SUMMARISE_OVER = 25
"""A file whose tests all went by one rule to one file is listed in one line when it has more tests than this."""

CATEGORIES = ("kept", "moved", "renamed", "changed", "not found")


@dataclass(frozen=True)
class ListedTest:
    """One test function at one revision: where it is, its normalised body and what a reader sees of it."""

    path: str
    qualname: str
    tokens: tuple[str, ...]
    vocabulary: frozenset[str]
    summary: str
    asserted: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """The function's own name, without its class."""
        return self.qualname.rsplit("::", 1)[-1]

    @property
    def key(self) -> str:
        """``file::Class::name``, as pytest names it."""
        return f"{self.path}::{self.qualname}"

    @property
    def body(self) -> str:
        """The normalised body as one string, for rule (c)."""
        return "\0".join(self.tokens)


@dataclass(frozen=True)
class Match:
    """Where one "before" test went: its category, the "after" test (none when not found) and the similarity."""

    before: ListedTest
    category: str
    after: ListedTest | None = None
    similarity: float = 1.0


@dataclass
class Revision:
    """All test functions of one revision, and the files that could not be read."""

    tests: list[ListedTest] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)


@functools.cache
def top() -> str:
    """The top of the current repository: git's paths are the repository's, wherever the tool is run from."""
    done = subprocess.run(["git", "rev-parse", "--show-toplevel"], check=True, capture_output=True, text=True)
    return done.stdout.strip()


def git(*args: str) -> str:
    """Run one git command at the top of the current repository and return its output."""
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True, cwd=top()).stdout


def tree(rev: str) -> dict[str, str]:
    """Every file under tests/ at ``rev``, with its blob id."""
    files: dict[str, str] = {}
    for line in git("ls-tree", "-r", rev, "--", "tests").splitlines():
        meta, path = line.split("\t", 1)
        files[path] = meta.split()[2]
    return files


def is_test_module(path: str) -> bool:
    """A file pytest collects: ``test_*.py``."""
    name = PurePosixPath(path).name
    return name.startswith("test_") and name.endswith(".py")


def without_docstring(body: list[ast.stmt]) -> list[ast.stmt]:
    """A body without its leading string constant."""
    first = body[0] if body else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        return body[1:]
    return body


class DocstringStripper(ast.NodeTransformer):
    """Removes the docstrings of nested functions and classes too."""

    def strip(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> ast.AST:
        node.body = without_docstring(node.body) or [ast.Pass()]
        return self.generic_visit(node)

    visit_FunctionDef = strip
    visit_AsyncFunctionDef = strip
    visit_ClassDef = strip


def is_parametrize(decorator: ast.expr) -> bool:
    """``@pytest.mark.parametrize(...)``: its cases are part of what the test checks."""
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return isinstance(target, ast.Attribute) and target.attr == "parametrize"


def tokens_of(node: ast.AST) -> Iterator[str]:
    """The node's type, fields and constants in source order: ``ast.dump``'s content as a token sequence."""
    yield type(node).__name__
    for name, value in ast.iter_fields(node):
        if name in ("type_comment", "ctx"):
            continue
        values = value if isinstance(value, list) else [value]
        for item in values:
            if isinstance(item, ast.AST):
                yield from tokens_of(item)
            elif item is not None:
                yield repr(item)


def vocabulary_of(node: ast.AST) -> frozenset[str]:
    """The names, attributes and constants a body uses: what rule (d) pre-selects candidates by."""
    words: set[str] = set()
    for child in ast.walk(node):
        if isinstance(child, ast.Name):
            words.add(child.id)
        elif isinstance(child, ast.Attribute):
            words.add("." + child.attr)
        elif isinstance(child, ast.Constant) and child.value is not None:
            words.add(repr(child.value)[:80])
    return frozenset(words)


def summary_of(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    """The first line of the docstring, or else the first asserted expression: what a reader judges by."""
    docstring = ast.get_docstring(node)
    if docstring:
        return docstring.strip().splitlines()[0]
    for child in ast.walk(node):
        if isinstance(child, ast.Assert):
            return "assert " + ast.unparse(child.test)
    return "(no docstring, no assert)"


def asserted_strings(node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
    """The string constants of ``ASSERTED_AT_LEAST`` characters or more inside the test's asserts."""
    found: dict[str, None] = {}
    for child in ast.walk(node):
        if isinstance(child, ast.Assert):
            found.update((text, None) for text in strings_in(child.test) if len(text) >= ASSERTED_AT_LEAST)
    return tuple(found)


def strings_in(node: ast.AST) -> list[str]:
    """Every string constant under a node."""
    return [part.value for part in ast.walk(node) if isinstance(part, ast.Constant) and isinstance(part.value, str)]


def normalised(node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.Module:
    """The function without its name, its docstrings and its marker decorators, as a module to dump."""
    copy = ast.parse(ast.unparse(node)).body[0]
    assert isinstance(copy, ast.FunctionDef | ast.AsyncFunctionDef)
    copy.name = "_"
    copy.decorator_list = [d for d in copy.decorator_list if is_parametrize(d)]
    stripped = DocstringStripper().visit(copy)
    return ast.Module(body=[stripped], type_ignores=[])


def listed_tests(path: str, source: str) -> Iterator[ListedTest]:
    """Every test function of one module, with its class path."""

    def walk(body: Iterable[ast.stmt], prefix: str) -> Iterator[ListedTest]:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test"):
                module = normalised(node)
                yield ListedTest(
                    path=path,
                    qualname=prefix + node.name,
                    tokens=tuple(tokens_of(module)),
                    vocabulary=vocabulary_of(module),
                    summary=summary_of(node),
                    asserted=asserted_strings(node),
                )
            elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                yield from walk(node.body, f"{prefix}{node.name}::")

    yield from walk(ast.parse(source, filename=path).body, "")


def read_revision(rev: str) -> Revision:
    """Parse every test module under tests/ at ``rev``."""
    revision = Revision()
    for path in sorted(p for p in tree(rev) if is_test_module(p)):
        try:
            revision.tests.extend(listed_tests(path, git("show", f"{rev}:{path}")))
        except SyntaxError:
            revision.unreadable.append(path)
    return revision


def jaccard(left: frozenset[str], right: frozenset[str]) -> float:
    """Shared words over all words."""
    union = len(left | right)
    return len(left & right) / union if union else 1.0


def ratio(left: Sequence[str], right: Sequence[str]) -> float:
    """difflib's similarity of two token sequences, without its heuristic that ignores frequent tokens."""
    return difflib.SequenceMatcher(None, left, right, autojunk=False).ratio()


def name_words(test: ListedTest) -> list[str]:
    """The words of a test's name without ``test``, issue numbers and the word ``issue``."""
    return [word for word in test.name.split("_") if word and not word.isdigit() and word not in ("test", "issue")]


def closest(test: ListedTest, pool: Sequence[ListedTest]) -> tuple[ListedTest, float] | None:
    """The pool's test most like ``test``, with the similarity of their bodies.

    Candidates are the ``CANDIDATES`` closest by vocabulary and the ``NAMESAKES`` closest by name.  Of those whose
    bodies reach ``THRESHOLD`` the one with the best mean of body and name similarity wins: a short body made of
    the harness's calls is as like many tests as like its own successor, whose name still says the behaviour.
    """
    if not pool:
        return None
    words = name_words(test)
    by_vocabulary = sorted(pool, key=lambda other: jaccard(test.vocabulary, other.vocabulary), reverse=True)
    by_name = sorted(pool, key=lambda other: ratio(words, name_words(other)), reverse=True)
    shortlist = {other.key: other for other in [*by_vocabulary[:CANDIDATES], *by_name[:NAMESAKES]]}.values()
    scored = [(other, ratio(test.tokens, other.tokens), ratio(words, name_words(other))) for other in shortlist]
    best = max(scored, key=lambda item: (item[1] >= THRESHOLD, (item[1] + item[2]) / 2, item[1]))
    return best[0], best[1]


def match(before: Sequence[ListedTest], after: Sequence[ListedTest]) -> list[Match]:
    """Each "before" test's match, by rules (a) to (e) in turn."""
    by_key = {test.key: test for test in after}
    claimed: set[str] = set()
    found: dict[str, Match] = {}

    for test in before:  # (a)
        if test.key in by_key:
            found[test.key] = Match(test, "kept", by_key[test.key], ratio(test.tokens, by_key[test.key].tokens))
            claimed.add(test.key)

    by_name: dict[str, list[ListedTest]] = defaultdict(list)
    by_body: dict[str, list[ListedTest]] = defaultdict(list)
    for test in after:
        by_name[test.name].append(test)
        by_body[test.body].append(test)

    for test in before:  # (b)
        if test.key in found:
            continue
        free = [other for other in by_name[test.name] if other.key not in claimed]
        best = closest(test, free)
        if best:
            found[test.key] = Match(test, "moved", best[0], best[1])
            claimed.add(best[0].key)

    for test in before:  # (c)
        if test.key in found:
            continue
        free = [other for other in by_body[test.body] if other.key not in claimed]
        if free:
            target = next((other for other in free if other.path == test.path), free[0])
            found[test.key] = Match(test, "renamed", target)
            claimed.add(target.key)

    # (d): the best pairs first, each "after" test once, again and again while some pair is left; then the rest
    # against every "after" test, since near-copies were merged.
    left = [test for test in before if test.key not in found]
    assigned = True
    while assigned:
        assigned = False
        pool = [test for test in after if test.key not in claimed]
        scored = [(test, *best) for test in left if test.key not in found and (best := closest(test, pool))]
        for test, target, similarity in sorted(scored, key=lambda item: -item[2]):
            if similarity >= THRESHOLD and target.key not in claimed:
                found[test.key] = Match(test, "changed", target, similarity)
                claimed.add(target.key)
                assigned = True
    for test in left:  # (d) sharing a target, and (e)
        if test.key in found:
            continue
        best = closest(test, after)
        if best and best[1] >= THRESHOLD:
            found[test.key] = Match(test, "changed", best[0], best[1])
        else:
            found[test.key] = Match(test, "not found", best[0] if best else None, best[1] if best else 0.0)
    return [found[test.key] for test in before]


def similarity(value: float) -> str:
    """Two decimals, rounded down: 1.00 only for identical bodies."""
    return f"{math.floor(value * 100) / 100:.2f}"


def cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return text.replace("|", "\\|").replace("`", "'")


def code(text: str) -> str:
    """Inline code, safe inside a table cell."""
    return "`" + text.replace("`", "'").replace("|", "\\|") + "`"


def grouped(matches: Sequence[Match]) -> tuple[list[str], list[Match]]:
    """One-line summaries of large files that went whole by one rule to one file, and the matches left to list."""
    files: dict[tuple[str, str | None], list[Match]] = defaultdict(list)
    for item in matches:
        files[(item.before.path, item.after.path if item.after else None)].append(item)
    before_counts = Counter(item.before.path for item in matches)
    lines: list[str] = []
    rest: list[Match] = []
    for (old, new), items in files.items():
        whole = len(items) == before_counts[old]
        if whole and len(items) > SUMMARISE_OVER and new is not None:
            low = similarity(min(item.similarity for item in items))
            lines.append(f"- all {len(items)} tests of {code(old)} → {code(new)} (least similarity {low})")
        else:
            rest.extend(items)
    return lines, rest


def table(category: str, matches: Sequence[Match], targets: Counter[str]) -> list[str]:
    """The Markdown table of one category."""
    lines, rest = grouped(matches) if category != "not found" else ([], list(matches))
    if lines:
        lines.append("")
    if category == "not found":
        lines += ["| old test | what it checked | closest now (similarity) |", "|---|---|---|"]
        for item in rest:
            near = f"{code(item.after.key)} ({similarity(item.similarity)})" if item.after else "—"
            lines.append(f"| {code(item.before.key)} | {cell(item.before.summary)} | {near} |")
        return lines
    lines += ["| old test | new test | similarity |", "|---|---|---|"]
    for item in sorted(rest, key=lambda item: item.similarity) if category in ("changed", "kept") else rest:
        assert item.after is not None
        shared = targets[item.after.key]
        note = f" (target of {shared})" if shared > 1 else ""
        lines.append(f"| {code(item.before.key)} | {code(item.after.key)} | {similarity(item.similarity)}{note} |")
    return lines


def every_string(rev: str) -> str:
    """Every string constant of every Python file under tests/ at ``rev`` and the text of its data files, joined."""
    texts: list[str] = []
    for path in tree(rev):
        try:
            source = git("show", f"{rev}:{path}")
        except UnicodeDecodeError:  # a binary fixture
            continue
        if not path.endswith(".py"):
            texts.append(source)
            continue
        try:
            module = ast.parse(source)
        except SyntaxError:
            texts.append(source)
            continue
        texts += strings_in(module)
    return "\0".join(texts)


def lost_strings(matches: Sequence[Match], after_rev: str) -> list[str]:
    """The asserted strings of the earlier tests that no string or data file of the later tests contains."""
    everything = every_string(after_rev)
    lines = ["| old test | asserted string found in no test now | its test now |", "|---|---|---|"]
    for item in matches:
        for text in item.before.asserted:
            if text not in everything:
                now = code(item.after.key) if item.after and item.category != "not found" else "—"
                shown = text if len(text) <= 100 else text[:97] + "..."
                lines.append(f"| {code(item.before.key)} | {code(repr(shown))} | {now} |")
    return lines


def data_files(before_rev: str, after_rev: str) -> list[str]:
    """The non-Python files under tests/: kept in place, moved (same blob), changed in place, or gone."""
    old = {path: blob for path, blob in tree(before_rev).items() if not path.endswith(".py")}
    new = {path: blob for path, blob in tree(after_rev).items() if not path.endswith(".py")}
    new_by_blob = {blob: path for path, blob in new.items()}
    counts: Counter[str] = Counter()
    notes: list[str] = []
    for path, blob in sorted(old.items()):
        if new.get(path) == blob:
            counts["kept"] += 1
        elif blob in new_by_blob:
            counts["moved"] += 1
            notes.append(f"- moved: {code(path)} → {code(new_by_blob[blob])}")
        elif path in new:
            counts["changed"] += 1
            notes.append(f"- changed in place: {code(path)}")
        else:
            counts["gone"] += 1
            notes.append(f"- gone: {code(path)}")
    added = sorted(set(new) - set(old) - set(new_by_blob.get(blob, "") for blob in old.values()))
    head = ", ".join(f"{counts[name]} {name}" for name in ("kept", "moved", "changed", "gone"))
    return [f"{len(old)} data files before: {head}; {len(added)} new.", "", *notes]


def report(before_rev: str, after_rev: str) -> str:
    """The whole Markdown report."""
    before, after = read_revision(before_rev), read_revision(after_rev)
    matches = match(before.tests, after.tests)
    counts = Counter(item.category for item in matches)
    targets = Counter(item.after.key for item in matches if item.after and item.category != "not found")
    reached = {item.after.key for item in matches if item.after and item.category != "not found"}
    new_only = [test for test in after.tests if test.key not in reached]
    before_sha, after_sha = (git("rev-parse", "--short", rev).strip() for rev in (before_rev, after_rev))
    lines = [
        f"Before: `{before_rev}` ({before_sha}), {len(before.tests)} test functions in "
        f"{len({t.path for t in before.tests})} files.  ",
        f"After: `{after_rev}` ({after_sha}), {len(after.tests)} test functions in "
        f"{len({t.path for t in after.tests})} files, {len(new_only)} of them matched by no earlier test.",
        "",
        "| category | rule | tests |",
        "|---|---|---|",
        f"| kept | (a) same file, same name | {counts['kept']} |",
        f"| moved | (b) same name, another file or class | {counts['moved']} |",
        f"| renamed | (c) same normalised body, another name | {counts['renamed']} |",
        f"| changed | (d) closest body, similarity ≥ {THRESHOLD} | {counts['changed']} |",
        f"| not found | (e) the rest | {counts['not found']} |",
    ]
    for path in before.unreadable + after.unreadable:
        lines.append(f"\nCould not parse {code(path)}.")
    for category in CATEGORIES[1:]:
        chosen = [item for item in matches if item.category == category]
        lines += ["", f"### {category.capitalize()} ({len(chosen)})", ""]
        lines += table(category, chosen, targets) if chosen else ["None."]
    rewritten = [item for item in matches if item.category in ("kept", "moved") and item.similarity < REWRITTEN_BELOW]
    heading = f"Kept or moved under its name, its body rewritten (similarity < {REWRITTEN_BELOW}): {len(rewritten)}"
    lines += ["", f"### {heading}", ""]
    lines += table("kept", rewritten, targets) if rewritten else ["None."]
    lost = lost_strings(matches, after_rev)
    heading = f"Asserted strings ({ASSERTED_AT_LEAST}+ characters) found in no test now: {len(lost) - 2}"
    lines += ["", f"### {heading}", "", *lost]
    lines += ["", "### Data files under tests/", "", *data_files(before_rev, after_rev)]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Print the report for two revisions."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("before", help="the earlier revision, e.g. b7d8a4a^1")
    parser.add_argument("after", nargs="?", default="HEAD", help="the later revision (default HEAD)")
    args = parser.parse_args(argv)
    sys.stdout.write(report(args.before, args.after))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
