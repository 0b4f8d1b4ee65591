"""The JSON commands import only the core: no database, mail or template libraries at start-up."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).parent / "examples" / "s1901m.json"
SERVICE_LIBRARIES = ("sqlalchemy", "alembic", "aiosmtpd", "jinja2")

# Run one command in a fresh interpreter, then report what it returned and which of the
# service's libraries ended up imported.
PROBE = """
import contextlib, io, json, sys
from judge.bootstrap import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    status = main(sys.argv[1:])
heavy = sorted({name.split(".")[0] for name in sys.modules} & set(json.loads(sys.stdin.read())))
print(json.dumps({"status": status, "answer": json.loads(out.getvalue()), "imported": heavy}))
"""


def run_probe(*args: str) -> dict[str, object]:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        input=json.dumps(SERVICE_LIBRARIES), capture_output=True, text=True, check=True,
    )
    result: dict[str, object] = json.loads(proc.stdout)
    return result


@pytest.mark.parametrize("command", ["adjudicate", "orders", "payola"])
def test_json_commands_do_not_import_the_service(command: str, tmp_path: Path) -> None:
    request = json.loads(EXAMPLE.read_text())
    if command == "payola":
        request["powers"] = {"FRANCE": {"balance": 10, "sheet": "3 : A PAR - BUR"}}
    source = tmp_path / "request.json"
    source.write_text(json.dumps(request))
    result = run_probe(command, str(source))
    assert result["status"] == 0 and "error" not in result["answer"]  # type: ignore[operator]
    assert result["imported"] == []


# Run several host commands in one fresh interpreter, then report which games' modules ended up imported.
HOST_PROBE = """
import contextlib, io, json, sys
from judge.bootstrap import main
for arguments in json.loads(sys.stdin.read()):
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        with contextlib.suppress(SystemExit):
            main(arguments)
print(json.dumps(sorted(name for name in sys.modules if name.startswith(("judge.games.", "judge.engine.")))))
"""


def test_host_commands_that_read_no_game_import_no_kind(tmp_path: Path) -> None:
    """``judge --version``, ``--help`` and the operator's commands start without the kinds of game (some
    two thirds of a second): only ``judge demo``'s parser names them (``--pirates``), and the games' tools
    import their cores when run (the Diplomacy engine too: 0.04 s of ``judge --version``'s 0.09)."""
    data = ["--data-dir", str(tmp_path)]
    commands = [["--version"], ["--help"], ["db", "upgrade", *data], ["db", "version", *data], ["status", *data]]
    proc = subprocess.run([sys.executable, "-c", HOST_PROBE], input=json.dumps(commands), capture_output=True,
                          text=True, check=True)
    imported = json.loads(proc.stdout)
    assert [name for name in imported if name.endswith(".kind") or ".core" in name] == []
    assert [name for name in imported if name.startswith("judge.engine.")] == []
    assert "judge.games.machiavelli.cli" in imported  # the probe did import the games' tools
    assert (tmp_path / "judge.db").exists()  # made by db upgrade, so that db version and status read one


# Run one host command in a fresh interpreter, then report which of the given modules ended up imported.
IMPORTED_PROBE = """
import contextlib, io, json, sys
from judge.bootstrap import main
watched = json.loads(sys.stdin.read())
with contextlib.redirect_stdout(io.StringIO()):
    status = main(sys.argv[1:])
print(json.dumps({"status": status, "imported": sorted(name for name in watched if name in sys.modules)}))
"""


@pytest.mark.parametrize("command", ["tick", "inject"])
def test_a_tick_and_an_inject_on_sqlite_start_without_the_listener_and_postgresql(command: str, tmp_path: Path) -> None:
    """``judge tick`` (from a timer, every minute) and ``judge inject`` import neither what only ``judge serve``
    runs (the SMTP listener, its workers) nor PostgreSQL's dialect on a SQLite judge: an eighth of a tick's
    CPU with nothing to do."""
    watched = ["aiosmtpd", "judge.mail.smtp_in", "judge.service.running.daemon", "judge.service.running.workers",
               "sqlalchemy.dialects.postgresql"]
    mail = tmp_path / "mail.eml"
    mail.write_bytes(b"From: someone@example.org\nTo: judge@localhost\nSubject: help\nMessage-ID: <p@example.org>\n\n"
                     b"HELP\n")
    files = [str(mail)] if command == "inject" else []
    proc = subprocess.run([sys.executable, "-c", IMPORTED_PROBE, command, "--data-dir", str(tmp_path / "data"), *files],
                          input=json.dumps(watched), capture_output=True, text=True, check=True, cwd=tmp_path)
    result = json.loads(proc.stdout)
    assert result == {"status": 0, "imported": []}
    assert (tmp_path / "data" / "judge.db").exists()  # the command did open (and make) the judge's database
