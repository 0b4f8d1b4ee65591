"""``judge demo``: a judge on a temporary data directory, and a scripted game played against it
by real SMTP on loopback, so a newcomer sees the whole thing work in one command.
``judge demo --blind`` plays one phase of a Tin Cup (Blind) game instead, and shows what one
power was told of it.  The scripted players answer the judge's request to confirm their
addresses, as real ones do the first time they ask for a game's mail."""

from __future__ import annotations

import asyncio
import email
import email.policy
import shutil
import smtplib
import tempfile
import threading
import time
from email.message import EmailMessage
from pathlib import Path

from judge.mail.outbound import MaildirOutbox
from judge.service.config import Settings
from judge.service.daemon import Daemon

GM = "gm@example.org"
PLAYERS = {
    "ENGLAND": "england@example.org", "FRANCE": "france@example.org", "GERMANY": "germany@example.org",
    "ITALY": "italy@example.org", "AUSTRIA": "austria@example.org", "RUSSIA": "russia@example.org",
    "TURKEY": "turkey@example.org",
}
SPRING = {
    "ENGLAND": "ACCEPT GFEIART\n0 : F EDI - NWG\n0 : A LVP - YOR",
    "FRANCE": "2 : A PAR - BUR\n2 : A MAR - SPA\n2 : F BRE - MAO\n5 : F LON - ENG",
    "GERMANY": "2 : F KIE - DEN\n2 : A MUN - RUH\n2 : A BER - MUN\n5 : F LON - NTH",
    "ITALY": "1 : A VEN - TYR\n1 : A ROM - VEN",
    "AUSTRIA": "10 $\n20 : A VIE - GAL\n20 : A BUD - SER",
    "RUSSIA": "TRANSFER 10 TO ITALY\n1 : F SEV - RUM\n1 : A MOS - UKR",
    "TURKEY": "30 : F ANK - BLA\n30 : A CON - BUL",
}
FALL = {
    "ENGLAND": "1 : F NTH - NWY", "FRANCE": "1 : A SPA H\n1 : F MAO - POR", "GERMANY": "3 : A RUH - BEL",
    "ITALY": "1 : A TYR H", "AUSTRIA": "1 : A SER H", "RUSSIA": "1 : F RUM H", "TURKEY": "1 : A BUL H",
}


def _send(port: int, sender: str, body: str) -> None:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, "judge@localhost", "demo"
    message.set_content(body)
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
        client.send_message(message)


def _mails(settings: Settings) -> list[EmailMessage]:
    found = []
    for raw in MaildirOutbox(settings.maildir).messages():
        message = email.message_from_bytes(raw, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        found.append(message)
    return found


def _wait_for(settings: Settings, subject: str, to: str | None = None, timeout: float = 60.0) -> EmailMessage:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for message in _mails(settings):
            if message["Subject"] == subject and to in (None, message["To"]):
                return message
        time.sleep(0.2)
    raise TimeoutError(f"no mail '{subject}' after {timeout:g} s")


def _confirm(port: int, settings: Settings, address: str, timeout: float = 60.0) -> None:
    """Answer with ``CONFIRM token`` the mail that asks ``address`` to confirm it wants game mail."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for message in _mails(settings):
            if str(message["Subject"]).startswith("Please confirm:") and message["To"] == address:
                token = next(line for line in _text(message).splitlines() if line.startswith("CONFIRM "))
                _send(port, address, token)
                return
        time.sleep(0.2)
    raise TimeoutError(f"no request to confirm {address} after {timeout:g} s")


def _text(message: EmailMessage) -> str:
    """The text of a mail the judge sent (the first part when maps are attached)."""
    body = message.get_body(preferencelist=("plain",))
    return str(body.get_content()) if body is not None else ""


def run_demo(keep: bool = False, blind: bool = False) -> int:
    data = Path(tempfile.mkdtemp(prefix="judge-demo-"))
    settings = Settings(data_dir=data, port=0, tick_seconds=2)
    loop = asyncio.new_event_loop()
    daemon = Daemon(settings)
    thread = threading.Thread(target=loop.run_until_complete, args=(daemon.run(),), daemon=True)
    thread.start()
    while daemon.port is None:
        time.sleep(0.05)
    port = daemon.port
    print(f"A judge is listening on 127.0.0.1:{port} (data in {data}).")
    try:
        _send(port, GM, "CREATE demo gm-secret standard TINCUP" if blind else "CREATE demo gm-secret")
        _confirm(port, settings, GM)
        for power, address in PLAYERS.items():
            _send(port, address, f"JOIN demo pw-{power.lower()} {power}")
        for address in PLAYERS.values():
            _confirm(port, settings, address)
        _send(port, GM, "SIGNON MASTER@demo gm-secret\nSTART")
        _wait_for(settings, "demo starts")
        print("Seven players joined by mail, each confirming its address; the game master started the game.")
        for power, sheet in SPRING.items():
            _send(port, PLAYERS[power], f"SIGNON {power}@demo pw-{power.lower()}\n{sheet}")
        france = _wait_for(settings, "demo S1901M results", PLAYERS["FRANCE"])
        print("\nEveryone sent an offer sheet, so Spring 1901 was processed at once. France's mail:\n")
        if blind:
            print("(A Tin Cup game: France is told only what its units and home centers could see, and its\n"
                  "maps show only that.)\n")
        print("    " + _text(france).strip().replace("\n", "\n    "))
        maps = [str(part.get_filename()) for part in france.iter_attachments()]
        print(f"\n(with the maps attached: {', '.join(maps)})" if maps else "")
        if not blind:
            for power, sheet in FALL.items():
                _send(port, PLAYERS[power], f"SIGNON {power}@demo pw-{power.lower()}\n{sheet}")
            _wait_for(settings, "demo F1901M results")
            print("\nFall 1901 followed the same way. The game master's chart of it begins:\n")
            chart = _text(_wait_for(settings, "demo F1901M chart")).strip().splitlines()
            print("    " + "\n    ".join(chart[:12]) + "\n    ...")
        _send(port, GM, "SIGNON MASTER@demo gm-secret\nTERMINATE")
        _wait_for(settings, "demo has ended")
        mails = _mails(settings)
        print("\nThe game master ended the game; every sheet and acceptance list was published"
              + (", and every order and board the powers did not see." if blind else "."))
        print(f"The judge sent {len(mails)} mails; they are in the Maildir {settings.maildir}/new.")
    finally:
        loop.call_soon_threadsafe(daemon.stop.set)
        thread.join(timeout=30)
        if not keep:
            shutil.rmtree(data, ignore_errors=True)
            print("(The temporary data directory was removed; run `judge demo --keep` to keep it.)")
    return 0
