"""What a source checkout and its distributions hold for a deployment (issue 24 items 12, 15, 16)."""

from __future__ import annotations

import re
from pathlib import Path

from judge import __version__
from judge.store.database import SCHEMA

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "operators"  # the operator's guide


def guide() -> str:
    """Every page of the documentation, one after another."""
    return "\n".join(page.read_text("utf-8") for page in sorted((ROOT / "docs").rglob("*.md")))


def test_the_settings_example_suggests_no_editable_install_and_ci_cites_a_real_section() -> None:
    assert "pip install -e" not in (ROOT / "deploy" / "judge.toml").read_text("utf-8")
    cites = re.findall(r'(docs/[\w/-]+\.md), "([^"]+)"', (ROOT / ".ci" / "run").read_text("utf-8"))
    assert cites
    for page, cited in cites:
        assert cited in (ROOT / page).read_text("utf-8"), (page, cited)


def test_the_upgrades_table_gives_this_release_its_schema_and_every_quoted_upgrade_ends_there() -> None:
    upgrades = (GUIDE / "upgrades.md").read_text("utf-8")
    rows = re.findall(r"^\| (\d+\.\d+\.\d+)[^|]*\| (\d{4}) \|$", upgrades, re.M)
    assert rows[0] == ("0.1.0", "0007") and rows[-1] == (__version__, SCHEMA)  # a release, or a schema, adds a row
    quoted = re.findall(r"database upgraded from \d{4} to (\d{4})", guide())
    assert quoted and set(quoted) == {SCHEMA}


def test_the_disk_section_counts_the_public_pages_and_says_they_are_never_pruned() -> None:
    """The pages grow by a page and two maps (PNG and SVG) a phase, which `judge prune` never touches
    (tests/web/test_pages.py counts the maps): the guide's Disk section must say what they weigh."""
    disk = (GUIDE / "disk.md").read_text("utf-8")
    row = re.search(r"^\| the public pages, `<data-dir>/web` \(never pruned\) \| (\d+\.\d+) MB \| (\d+) MB \|$",
                    disk, re.M)
    assert row and abs(float(row.group(1)) * 1000 - int(row.group(2))) <= 10  # per phase, and a year of 1,000
    assert "bench/disk_bench.py --pages" in disk and "--pages" in (ROOT / "bench" / "disk_bench.py").read_text()
    assert "`web = false`" in disk and "judge publish" in disk


def test_every_pg_dump_of_the_guide_writes_a_private_file_into_the_backups_folder() -> None:
    """A dump holds password hashes, addresses and mail: written by root's shell (runuser's
    redirection) with root's umask it was readable by every user of the machine."""
    dumps = [line.strip() for line in guide().splitlines() if "pg_dump -" in line]
    assert dumps
    for line in dumps:
        assert re.fullmatch(r"runuser -u payola -- sh -c 'umask 077 && pg_dump -Fc \w+ > /var/lib/judge-backups/\S+'",
                            line), line
