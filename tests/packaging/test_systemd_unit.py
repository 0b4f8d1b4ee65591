"""``deploy/judge.service``: hardened as the README says, and clean for ``systemd-analyze verify``
(where systemd is installed; the judge's own path is replaced by a stand-in, as /opt/judge may
not exist here)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parents[2] / "deploy" / "judge.service"


def test_the_unit_is_hardened() -> None:
    lines = set(UNIT.read_text("utf-8").splitlines())
    for wanted in ("UMask=0077", "StateDirectory=judge", "StateDirectoryMode=0700", "ProtectHome=true",
                   "PrivateTmp=true", "NoNewPrivileges=true", "ProtectSystem=strict", "Type=notify", "User=judge"):
        assert wanted in lines, wanted
    assert any(line.startswith("After=") and "postfix.service" in line.split() for line in lines)


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_systemd_analyze_verify_is_clean(tmp_path: Path) -> None:
    judge = tmp_path / "judge"
    judge.write_text("#!/bin/sh\n")
    judge.chmod(0o755)
    unit = tmp_path / "judge.service"
    unit.write_text(UNIT.read_text("utf-8").replace("/opt/judge/bin/judge", str(judge)))
    done = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout + done.stderr) == (0, "")
