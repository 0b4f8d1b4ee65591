"""Sphinx's settings for the judge's documentation (docs/decisions/sphinx-and-myst.md says why Sphinx).

Build it with ``.venv/bin/sphinx-build -W -b html docs docs/_build/html`` (``pip install -e '.[docs]'``);
tests/docs builds it so, runs its doctests and checks its links.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "_ext"))
sys.path.insert(0, str(Path(__file__).parents[1]))

from judge import __version__

project = "The judge"
author = "The judge's authors"
copyright = "the judge's authors, MIT licence"
release = version = __version__

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.doctest", "judge_reference"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "drafts", "*.png"]
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]
nitpicky = False
suppress_warnings = ["myst.header"]  # the moved guides keep their own heading levels inside a page

html_theme = "alabaster"
html_title = f"The judge {release}"
html_static_path: list[str] = []
html_favicon = "../judge/templates/web/icon.svg"  # the public pages' icon
html_sidebars = {"**": ["about.html", "searchfield.html", "navigation.html", "relations.html"]}
html_theme_options = {"description": "Payola Diplomacy and other games by email", "fixed_sidebar": False}

autodoc_default_options = {"members": False}
autodoc_mock_imports: list[str] = []

JSON_PAGE = str(Path(__file__).parent / "reference" / "json.md")
doctest_global_setup = f"""
import json
import re
from pathlib import Path


def json_example(number):
    \"\"\"The page's ``number``-th JSON example (from 1), as the reader sees it: one copy of each.\"\"\"
    page = Path({JSON_PAGE!r}).read_text("utf-8")
    return json.loads(re.findall(r"```json\\n(.*?)```", page, re.S)[number - 1])
"""
