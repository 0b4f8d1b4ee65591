"""A written page read back with the standard library's HTML parser: its title, headings,
images, links, tables and text, after checking that every element is closed in order."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

VOID = {"meta", "link", "img", "br", "hr", "input", "source", "col", "wbr"}


@dataclass
class Page:
    """What a reader (or a screen reader) finds in a page."""

    path: Path
    title: str = ""
    lang: str | None = None
    headings: list[tuple[int, str]] = field(default_factory=list)
    images: list[dict[str, str | None]] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    tables: list[list[list[str]]] = field(default_factory=list)  # rows of cell texts, header rows included
    text: str = ""
    scripts: int = 0

    def table_with(self, header: str) -> list[list[str]]:
        """The first table whose first row has the column ``header``."""
        return next(t for t in self.tables if t and header in t[0])

    def heading(self, words: str) -> bool:
        return any(words in text for _, text in self.headings)


class _Reader(HTMLParser):
    def __init__(self, page: Page) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page
        self.open: list[str] = []
        self.words: list[str] = []
        self.heading: list[str] | None = None
        self.cell: list[str] | None = None
        self.in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag not in VOID:
            self.open.append(tag)
        if tag == "html":
            self.page.lang = found.get("lang")
        elif tag == "title":
            self.in_title = True
        elif tag in ("h1", "h2", "h3", "h4"):
            self.heading = []
        elif tag == "img":
            self.page.images.append(found)
        elif tag == "a" and found.get("href"):
            self.page.links.append(str(found["href"]))
        elif tag == "table":
            self.page.tables.append([])
        elif tag == "tr":
            self.page.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell = []
        elif tag == "script":
            self.page.scripts += 1

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, f"{self.page.path}: </{tag}> closes {self.open[-1:]}"
        self.open.pop()
        if tag == "title":
            self.in_title = False
        elif tag in ("h1", "h2", "h3", "h4") and self.heading is not None:
            self.page.headings.append((int(tag[1]), " ".join("".join(self.heading).split())))
            self.heading = None
        elif tag in ("td", "th") and self.cell is not None:
            self.page.tables[-1][-1].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data: str) -> None:
        self.words.append(data)
        if self.in_title:
            self.page.title += data
        if self.heading is not None:
            self.heading.append(data)
        if self.cell is not None:
            self.cell.append(data)


def read_page(path: Path, text: str | None = None) -> Page:
    """Parse the page at ``path`` (or ``text``, a copy of it)."""
    page = Page(path)
    reader = _Reader(page)
    reader.feed(path.read_text("utf-8") if text is None else text)
    reader.close()
    assert not reader.open, f"{path}: unclosed {reader.open}"
    page.text = " ".join("".join(reader.words).split())
    return page
