"""``deploy/judge.service``, ``judge-web.service``, and the tick and backup services and their
timers: hardened as the operator's guide says, and clean for ``systemd-analyze verify`` and ``security``
(where systemd is installed; the judge's own path is replaced by a stand-in, as /opt/judge may
not exist here)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from judge.web.server import SPARE_DESCRIPTORS, Limits

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
SERVICES = ("judge.service", "judge@.service", "judge-tick.service", "judge-backup.service")
WEB_UNIT = "judge-web.service"
TIMERS = ("judge-tick.timer", "judge-backup.timer")
# What issue 24 item 11 asked for on top of the first unit's settings ("the cheap settings").
SANDBOX = ("NoNewPrivileges=true", "ProtectSystem=strict", "ProtectHome=true", "PrivateTmp=true", "UMask=0077",
           "CapabilityBoundingSet=", "ProtectClock=true", "ProtectKernelLogs=true", "ProtectHostname=true",
           "ProtectProc=invisible", "ProcSubset=pid", "RestrictNamespaces=true", "RestrictRealtime=true",
           "SystemCallArchitectures=native", "SystemCallFilter=@system-service", "PrivateMounts=true",
           "RemoveIPC=true", "IPAddressDeny=any", "IPAddressAllow=localhost", "LogsDirectory=judge",
           "StateDirectory=judge", "StateDirectoryMode=0700", "User=payola", "Group=payola")
needs_systemd = pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")


def lines(name: str) -> set[str]:
    return set((DEPLOY / name).read_text("utf-8").splitlines())


def test_the_unit_is_hardened() -> None:
    unit = lines("judge.service")
    for wanted in ("Type=notify", *SANDBOX):
        assert wanted in unit, wanted
    assert any(line.startswith("After=") and "postfix.service" in line.split() for line in unit)


def test_the_judge_asks_postfix_for_held_mail_as_its_own_user() -> None:
    """``postqueue -f`` (mta-flush), run by the judge itself once it listens or stores mail again
    after a 451, needs the group postdrop: NoNewPrivileges keeps its setgid bit from applying.
    Nothing of the unit runs as root any more (it ran postqueue as root once the judge listened)."""
    unit = lines("judge.service")
    assert "SupplementaryGroups=postdrop" in unit and "NoNewPrivileges=true" in unit
    assert not [line for line in unit if line.startswith("ExecStart") and "=+" in line.replace("-", "")]


def test_a_further_judge_is_the_first_ones_unit_on_the_port_its_instance_names() -> None:
    first, further = lines("judge.service"), lines("judge@.service")
    assert "ExecStart=/opt/judge/bin/judge serve --config /etc/judge/judge.toml --port %i" in further
    assert {line for line in first ^ further if not line.startswith("#")} == {
        "ExecStart=/opt/judge/bin/judge serve --config /etc/judge/judge.toml",
        "ExecStart=/opt/judge/bin/judge serve --config /etc/judge/judge.toml --port %i",
        "Description=Payola Diplomacy mail judge", "Description=Payola Diplomacy mail judge, listening on port %i"}


def test_the_web_unit_is_hardened_and_has_descriptors_for_its_connections() -> None:
    unit = lines(WEB_UNIT)
    writing = ("LogsDirectory=judge", "StateDirectory=judge", "StateDirectoryMode=0700")  # it only reads
    for wanted in ("ReadOnlyPaths=/var/lib/judge", "Restart=on-failure", *(line for line in SANDBOX
                                                                         if line not in writing)):
        assert wanted in unit, wanted
    limit = [int(line.split("=", 1)[1]) for line in unit if line.startswith("LimitNOFILE=")]
    assert limit and limit[0] >= Limits().connections + SPARE_DESCRIPTORS  # the cap, not the descriptors, is met


def test_the_tick_and_the_backup_run_from_timers_under_the_same_sandbox() -> None:
    tick = lines("judge-tick.service")
    for wanted in ("Type=oneshot", "ExecStart=/opt/judge/bin/judge tick --config /etc/judge/judge.toml", *SANDBOX):
        assert wanted in tick, wanted
    assert {"OnCalendar=*:0/5", "Persistent=true", "WantedBy=timers.target"} <= lines("judge-tick.timer")
    backup = lines("judge-backup.service")
    for wanted in ("Type=oneshot", "StateDirectory=judge judge-backups", *SANDBOX):
        assert wanted in backup or wanted == "StateDirectory=judge", wanted
    assert "ExecStart=/opt/judge/bin/judge backup /var/lib/judge-backups --keep 14 --config /etc/judge/judge.toml" \
        in backup
    assert {"OnCalendar=daily", "Persistent=true", "WantedBy=timers.target"} <= lines("judge-backup.timer")


def test_no_unit_runs_as_a_user_named_like_the_mail_address() -> None:
    for name in (*SERVICES, "judge-web.service"):
        users = sorted(line for line in lines(name) if line.startswith(("User=", "Group=")))
        assert users == ["Group=payola", "User=payola"], (name, users)


def stand_ins(tmp_path: Path) -> list[Path]:
    """The units with a stand-in for /opt/judge/bin/judge, in ``tmp_path``."""
    judge = tmp_path / "judge"
    judge.write_text("#!/bin/sh\n")
    judge.chmod(0o755)
    units = []
    for name in (*SERVICES, WEB_UNIT, *TIMERS):
        unit = tmp_path / name.replace("@.", "@2526.")  # a template, as its instance
        unit.write_text((DEPLOY / name).read_text("utf-8").replace("/opt/judge/bin/judge", str(judge)))
        units.append(unit)
    return units


@needs_systemd
def test_systemd_analyze_verify_is_clean(tmp_path: Path) -> None:
    done = subprocess.run(["systemd-analyze", "verify", *map(str, stand_ins(tmp_path))], capture_output=True,
                          text=True, timeout=60)
    assert (done.returncode, done.stdout + done.stderr) == (0, "")


@needs_systemd
def test_the_services_expose_little_to_systemd_analyze_security(tmp_path: Path) -> None:
    for unit in stand_ins(tmp_path)[:len(SERVICES) + 1]:  # and the web unit's
        done = subprocess.run(["systemd-analyze", "security", "--offline=true", str(unit)], capture_output=True,
                              text=True, timeout=60)
        if "--offline" in done.stderr:  # systemd before 250 cannot judge a unit file that is not loaded
            pytest.skip("this systemd-analyze has no --offline")
        exposure = re.search(r"Overall exposure level for \S+: (\d+\.\d)", done.stdout)
        assert exposure is not None, done.stdout + done.stderr
        assert float(exposure.group(1)) <= 2.0, done.stdout  # 6.5 MEDIUM before; "OK" is below 3


def test_without_systemd_cron_runs_the_timers_commands_as_payola_and_logrotate_needs_no_signal() -> None:
    tick = "/opt/judge/bin/judge tick --config /etc/judge/judge.toml"
    backup = "/opt/judge/bin/judge backup /var/lib/judge-backups --keep 14 --config /etc/judge/judge.toml"
    assert f"ExecStart={tick}" in lines("judge-tick.service") and f"ExecStart={backup}" in lines("judge-backup.service")
    jobs = [line.split(None, 6) for line in lines("judge.cron") if line and line[0] in "*0123456789"]
    assert sorted((job[5], job[6]) for job in jobs) == [("payola", f"{backup} >>/var/log/judge/backup.log 2>&1"),
                                                        ("payola", f"{tick} >>/var/log/judge/tick.log 2>&1")]
    rotate = {line.strip() for line in lines("judge.logrotate")}
    assert {"/var/log/judge/*.log {", "create 0640 payola payola", "su payola payola"} <= rotate
    assert not any("postrotate" in line or "judge " in line for line in rotate if not line.startswith("#"))
    install = (DEPLOY.parent / "docs" / "operators" / "install.md").read_text("utf-8")
    block = install.split("Without systemd, start it", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    assert "/var/lib/judge-backups" in block.splitlines()[0]  # where the cron line's backups go
    assert "--log-file /var/log/judge/serve.log" in block
    assert "install -m 0644 deploy/judge.cron /etc/cron.d/judge" in block


def test_the_recipe_for_a_second_judge_makes_units_with_nothing_of_the_first_ones(tmp_path: Path) -> None:
    """docs/operators/install.md, "A second domain, with a judge of its own": its loop run as written
    (into a folder of the test's), each unit the first one's but for the second judge's settings, data
    directory and backups' folder."""
    guide = (ROOT / "docs" / "operators" / "install.md").read_text("utf-8")
    recipe = guide.split("**A second domain, with a judge of its own.**", 1)[1].split("```sh\n", 1)[1]
    loop = recipe.split("for unit in", 1)[1].split("\ndone\n", 1)[0]
    script = f"for unit in{loop}\ndone\n".replace("/etc/systemd/system/", f"{tmp_path}/")
    subprocess.run(["sh", "-c", script], cwd=ROOT, check=True, timeout=60)
    made = sorted(path.name for path in tmp_path.iterdir())
    assert made == ["judge-second-backup.service", "judge-second-backup.timer", "judge-second-tick.service",
                    "judge-second-tick.timer", "judge-second.service"]
    for name in made:
        unit = (tmp_path / name).read_text("utf-8")
        first = (DEPLOY / name.replace("judge-second", "judge")).read_text("utf-8")
        assert "/etc/judge/judge.toml" not in unit and "/var/lib/judge/" not in unit and "/var/lib/judge\n" not in unit
        assert not re.search(r"^StateDirectory=judge( |$)", unit, re.M) and " judge-backups" not in unit
        if "ExecStart=" in first:
            assert "--config /etc/judge/second.toml" in unit
    service = (tmp_path / "judge-second.service").read_text("utf-8")
    assert "StateDirectory=judge-second\n" in service and "WorkingDirectory=/var/lib/judge-second\n" in service
    backup = (tmp_path / "judge-second-backup.service").read_text("utf-8")
    assert "judge backup /var/lib/judge-second-backups" in backup
    assert "StateDirectory=judge-second judge-second-backups" in backup
