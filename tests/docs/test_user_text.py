"""What users read cites no issue numbers: the README, the documentation's pages, the mail and web
templates, and the modules' headers the architecture pages pull in.  (Rules and rulings keep
their numbers: "rule 6.8", "E11", "DATC 4.E.1" are what the reader can look up.)"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ISSUE = re.compile(r"\bissues?\s+#?\d+(?:\.\d+)?|#\d{2,}\b")


def _cited(text: str) -> list[str]:
    return ISSUE.findall(text)


def test_the_pattern_finds_issue_numbers_and_leaves_rules_alone() -> None:
    assert _cited("as issue 43.15 asked; see issues 23.7, and #42") == ["issue 43.15", "issues 23.7", "#42"]
    assert _cited("rule 6.8, ruling E11, DATC 4.E.1, an issue of 2 shares (E11)") == []


def test_no_readme_page_or_template_cites_an_issue_number() -> None:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
             *sorted((ROOT / "judge" / "templates").rglob("*.j2"))]  # (the stylesheet's #000 is a colour)
    assert len(files) > 60
    cited = [f"{path.relative_to(ROOT)}: {hit}" for path in files
             for hit in _cited(path.read_text("utf-8")) if "drafts" not in path.parts]
    assert cited == []


def test_no_module_header_the_documentation_pulls_in_cites_an_issue_number() -> None:
    pages = sorted((ROOT / "docs").rglob("*.md"))
    modules = {name for page in pages for name in re.findall(r"automodule:: ([\w.]+)", page.read_text("utf-8"))}
    assert len(modules) >= 10
    cited = [f"{name}: {hit}" for name in sorted(modules)
             for hit in _cited(ast.get_docstring(ast.parse(inspect.getsource(importlib.import_module(name)))) or "")]
    assert cited == []
