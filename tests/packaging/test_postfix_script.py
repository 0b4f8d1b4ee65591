"""``deploy/postfix/setup-judge.sh`` on a copy of this machine's Postfix configuration (issue 24
item 7): a second domain keeps the first one's entries, and the script warns when two domains
go to one judge.  Needs Postfix's tools and root (``postfix check``); the live site is left alone."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

SETUP = Path(__file__).resolve().parents[2] / "deploy" / "postfix" / "setup-judge.sh"

pytestmark = pytest.mark.skipif(shutil.which("postconf") is None or os.geteuid() != 0,
                                reason="needs Postfix installed, and root")


def setup(config: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(["sh", str(SETUP), *arguments, "--config-dir", str(config)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def test_24_7_a_second_domain_keeps_the_first_and_two_domains_on_one_judge_are_told(tmp_path: Path) -> None:
    config = tmp_path / "postfix"
    shutil.copytree("/etc/postfix", config, symlinks=True)
    setup(config, "--domain", "first.test")
    same = setup(config, "--domain", "second.test")
    assert (config / "judge_transport").read_text().splitlines() == [
        "judge@first.test judge:[127.0.0.1]:2525", "judge@second.test judge:[127.0.0.1]:2525"]
    assert "judge@first.test (kept)" in same.stdout and "Warning: judge@first.test" in same.stderr
    apart = setup(config, "--domain", "second.test", "--judge", "127.0.0.1:2526")
    assert "judge@second.test judge:[127.0.0.1]:2526" in (config / "judge_transport").read_text()
    assert "same judge" not in apart.stderr
    assert sorted((config / "judge_recipients").read_text().splitlines()) == [
        "judge@first.test judge@first.test", "judge@second.test judge@second.test"]
