"""``deploy/judge.service`` and ``deploy/judge-web.service``: hardened as the README says, and clean
for ``systemd-analyze verify`` (where systemd is installed; the judge's own path is replaced by a
stand-in, as /opt/judge may not exist here)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from judge.web.server import SPARE_DESCRIPTORS, Limits

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
UNIT = DEPLOY / "judge.service"
WEB_UNIT = DEPLOY / "judge-web.service"
HARDENED = ("UMask=0077", "ProtectHome=true", "PrivateTmp=true", "NoNewPrivileges=true", "ProtectSystem=strict",
            "User=judge")


def test_the_unit_is_hardened() -> None:
    lines = set(UNIT.read_text("utf-8").splitlines())
    for wanted in (*HARDENED, "StateDirectory=judge", "StateDirectoryMode=0700", "Type=notify"):
        assert wanted in lines, wanted
    assert any(line.startswith("After=") and "postfix.service" in line.split() for line in lines)


def test_22_9_the_web_unit_is_hardened_and_has_descriptors_for_its_connections() -> None:
    lines = set(WEB_UNIT.read_text("utf-8").splitlines())
    for wanted in (*HARDENED, "ReadOnlyPaths=/var/lib/judge", "Restart=on-failure"):
        assert wanted in lines, wanted
    limit = [int(line.split("=", 1)[1]) for line in lines if line.startswith("LimitNOFILE=")]
    assert limit and limit[0] >= Limits().connections + SPARE_DESCRIPTORS  # the cap, not the descriptors, is met


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
@pytest.mark.parametrize("unit", [UNIT, WEB_UNIT], ids=lambda unit: unit.name)
def test_systemd_analyze_verify_is_clean(tmp_path: Path, unit: Path) -> None:
    judge = tmp_path / "judge"
    judge.write_text("#!/bin/sh\n")
    judge.chmod(0o755)
    copy = tmp_path / unit.name
    copy.write_text(unit.read_text("utf-8").replace("/opt/judge/bin/judge", str(judge)))
    done = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout + done.stderr) == (0, "")
