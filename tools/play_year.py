"""Play a game year by real SMTP against ``judge serve``, as players would, and leave the judge's
mail in a Maildir to read: a thirteen-player Absence of Plague year (``aop``) or an Exchange
Payola year with five investors (``exchange``).

    .venv/bin/python tools/play_year.py aop /tmp/aop-year
    .venv/bin/python tools/play_year.py exchange /tmp/exchange-year

The judge runs as ``judge serve`` in a process of its own on the data directory given (created
empty), on a free port of loopback, with a short tick.  The script mails the players' letters
and the game master's commands, waits for the judge's answers and results, and writes every mail
the judge sent, as text, to ``DATA/read/`` (one file a mail, numbered in the order sent, with its
recipient and subject), then stops the judge.  The letters exercise what a player should see:
bribes, a copied (Cc) letter, WAIT, an assassination, a resignation, a takeover, an observer, a
siege, warnings in the answers; what each shows is said where it is sent.  The evidence is the
mail: read it.
"""

from __future__ import annotations

import argparse
import email
import email.policy
import re
import shutil
import smtplib
import socket
import subprocess
import sys
import time
from email.message import EmailMessage
from pathlib import Path

from play_by_mail import text_of  # this folder's: a mail read as a client shows it

from judge.mail.outbound import MaildirOutbox

DOMAIN = "example.org"
GM = f"gm@{DOMAIN}"
OBSERVER = f"watcher@{DOMAIN}"
NEWCOMER = f"newcomer@{DOMAIN}"


class Judge:
    """``judge serve`` on ``data``, mailed by SMTP, its Maildir read."""

    def __init__(self, data: Path) -> None:
        self.data = data
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        config = data / "judge.toml"
        config.write_text("tick-seconds = 1\nmax-phase-changes-per-hour = 100\n")
        self.process = subprocess.Popen(
            [str(Path(sys.executable).with_name("judge")), "serve", "--data-dir", str(data), "--port", str(self.port),
             "--domain", DOMAIN, "--config", str(config), "--log-file", str(data / "judge.log")])
        self.read: list[EmailMessage] = []
        self.files: set[str] = set()
        deadline = time.monotonic() + 60
        while True:
            try:
                with smtplib.SMTP("127.0.0.1", self.port, timeout=5):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=90)

    def send(self, sender: str, body: str, subject: str = "letter", cc: str | None = None) -> None:
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = sender, f"judge@{DOMAIN}", subject
        if cc:
            message["Cc"] = cc
        message.set_content(body)
        with smtplib.SMTP("127.0.0.1", self.port, timeout=30) as client:
            client.send_message(message)

    def mails(self) -> list[EmailMessage]:
        for path in MaildirOutbox(self.data / "outbox").files(known=self.files):
            message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            assert isinstance(message, EmailMessage)
            self.files.add(path.name)
            self.read.append(message)
        return list(self.read)

    def wait_for(self, subject: str, to: str | None = None, timeout: float = 120) -> EmailMessage:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for message in self.mails():
                if str(message["Subject"]).startswith(subject) and to in (None, message["To"]):
                    return message
            time.sleep(0.1)
        raise TimeoutError(f"no mail '{subject}' to {to} after {timeout:g} s")

    def answer(self, sender: str, body: str, subject: str = "letter", cc: str | None = None,
               timeout: float = 120) -> EmailMessage:
        """Mail ``body`` and return the judge's answer (the next ``Re:`` mail to ``sender``)."""
        before = sum(m["To"] == sender for m in self.mails())
        self.send(sender, body, subject, cc)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            mine = [m for m in self.mails() if m["To"] == sender][before:]
            found = next((m for m in mine if str(m["Subject"]).startswith("Re:")), None)
            if found is not None:
                return found
            time.sleep(0.1)
        raise TimeoutError(f"no answer to {sender} after {timeout:g} s")

    def confirm(self, address: str) -> None:
        message = self.wait_for("Please confirm:", address)
        token = next(line for line in text_of(message).splitlines() if line.startswith("CONFIRM "))
        self.send(address, token)
        self.wait_for("Re:", address)

    def dump(self) -> Path:
        """Every mail sent, as text, one file each, in ``data/read``."""
        out = self.data / "read"
        out.mkdir(exist_ok=True)
        for number, message in enumerate(self.mails(), 1):
            name = re.sub(r"[^A-Za-z0-9@.-]+", "_", f"{message['To']}--{message['Subject']}")[:120]
            parts = [f"To: {message['To']}\nSubject: {message['Subject']}\n"]
            parts.append(text_of(message))
            parts += [f"[attached: {part.get_filename()} {part.get_content_type()}]"
                      for part in message.iter_attachments()]
            (out / f"{number:04d}-{name}.txt").write_text("\n".join(parts))
        return out


def show(title: str, message: EmailMessage) -> None:
    print(f"===== {title}: to {message['To']}: {message['Subject']}")
    print(text_of(message))


# --- Absence of Plague --------------------------------------------------------------------------

COUNTRIES = ["France", "Savoy", "Genoa", "Holy Roman Empire", "Milan", "Venice", "Ferrara", "Florence",
             "Papacy", "Naples", "Sicily", "Dalmatia", "Turkey"]


def address(country: str) -> str:
    return f"{country.split()[-1].lower()}@{DOMAIN}"


def signon(country: str, game: str = "plague") -> str:
    return f"SIGNON {country.replace(' ', '-')}@{game} pw-{country.split()[-1].lower()}"


def letter(judge: Judge, country: str, *lines: str, cc: str | None = None, subject: str = "letter") -> EmailMessage:
    return judge.answer(address(country), "\n".join((signon(country), *lines)), subject, cc)


def play_aop(judge: Judge) -> None:
    game = "plague"
    judge.send(GM, f"CREATE {game} gm-secret machiavelli aop")
    judge.confirm(GM)
    for country in COUNTRIES:
        judge.send(address(country), f"JOIN {game} pw-{country.split()[-1].lower()} {country}")
    for country in COUNTRIES:
        judge.confirm(address(country))
    judge.send(OBSERVER, f"OBSERVE {game}")
    judge.confirm(OBSERVER)
    show("start", judge.answer(GM, f"SIGNON MASTER@{game} gm-secret\nSTART"))
    show("start mail", judge.wait_for(f"{game} starts", address("Milan")))

    # SP1459A: the spring letters.
    show("BORDERS", letter(judge, "Naples", "BORDERS Kalabria"))
    show("Milan A", letter(judge, "Milan", "buy Pontremoli from Savoy for 4", "tax Como", "transfer 0 to Savoy",
                           "raise A mil", "raise A pav", "raise A cre"))
    letter(judge, "Savoy", "sell Pontremoli to Milan for 4", "raise A tor", "raise F niz")
    # M58: a letter copied to another player is not taken; its STATUS is answered; the correction stays.
    show("HRE copied", letter(judge, "Holy Roman Empire", "STATUS", "raise A ste", "raise A tir",
                              cc=address("Milan")))
    show("HRE first", letter(judge, "Holy Roman Empire", "raise A ste"))
    show("HRE correction", letter(judge, "Holy Roman Empire", "raise A ste", "raise A tir"))
    letter(judge, "Naples", "transfer 8 to Florence", "raise A nap")
    letter(judge, "Ferrara", "transfer 8 to Florence", "raise A bol")
    letter(judge, "Genoa", "transfer 5 to Florence", "raise A gen")
    letter(judge, "Florence", "raise A fir")
    letter(judge, "Papacy", "raise A per")
    letter(judge, "Venice", "raise A ver", "raise A bre", "raise F ven")
    letter(judge, "Sicily", "raise F pal")
    letter(judge, "Dalmatia", "raise A zar")
    letter(judge, "France", "raise A avi")
    # M60: Turkey asks the phase to WAIT; every letter is in, and the phase waits.
    show("Turkey WAIT", letter(judge, "Turkey", "WAIT", "raise A alb", "raise F dur"))
    time.sleep(4)
    assert not any(str(m["Subject"]).startswith(f"{game} SP1459A results") for m in judge.mails()), "WAIT ignored"
    show("GM STATUS", judge.answer(GM, f"SIGNON MASTER@{game} gm-secret\nSTATUS"))
    show("Turkey STATUS", letter(judge, "Turkey", "STATUS"))
    judge.answer(GM, f"SIGNON MASTER@{game} gm-secret\nPROCESS")
    show("SP1459A results Milan", judge.wait_for(f"{game} SP1459A results", address("Milan")))

    # SP1459C: the first campaign; the game master puts the game on AoP 18.2's week (M59).
    show("SET CLOCK AOP SLOW", judge.answer(GM, f"SIGNON MASTER@{game} gm-secret\nSET CLOCK AOP SLOW"))
    show("SET CLOCK AOP", judge.answer(GM, f"SIGNON MASTER@{game} gm-secret\nSET CLOCK AOP"))
    show("Sicily resigns", letter(judge, "Sicily", "RESIGN"))
    show("newcomer takes over", judge.answer(NEWCOMER, f"TAKEOVER Sicily@{game} pw-new"))
    judge.confirm(NEWCOMER)
    show("newcomer briefing", judge.wait_for(game, NEWCOMER))
    show("Dalmatia resigns", letter(judge, "Dalmatia", "RESIGN"))
    show("Milan C", letter(judge, "Milan", "A mil - com", "A pav H", "A pav - pia", "A ver H"))
    show("Florence C", letter(judge, "Florence", "assassinate Savoy 30", "A fir H"))
    letter(judge, "Savoy", "A tor - slz", "F niz - lig")
    show("Papacy C", letter(judge, "Papacy", "bribe 9 buy G sie", "A per H"))
    letter(judge, "Venice", "A ver - trt", "F ven H")
    show("press", judge.answer(address("Genoa"), "\n".join(
        (signon("Genoa"), "PRESS TO Florence, Milan", "Who paid the Turk?", "ENDPRESS", "A gen H"))))
    letter(judge, "Ferrara", "A bol - man")  # into Mantova, beside its independent garrison
    for country in ("France", "Holy Roman Empire", "Naples", "Turkey"):
        letter(judge, country, "none")
    judge.answer(NEWCOMER, f"SIGNON Sicily@{game} pw-new\nF pal H")
    # Dalmatia may get a substitute until the campaign's deadline (M62, M65): the campaign waits for it, so the
    # game master carries it out now.
    show("PROCESS", judge.answer(GM, f"SIGNON MASTER@{game} gm-secret\nPROCESS"))
    show("SP1459C results Milan", judge.wait_for(f"{game} SP1459C results", address("Milan")))
    show("SP1459C results observer", judge.wait_for(f"{game} SP1459C results", OBSERVER))

    # SU1459C: Venice besieges Trento; the Empire attacks Milan's army in Como, which rebels against
    # Milan: the rebellion's automatic support (M44) decides it.
    letter(judge, "Venice", "A trt besiege", "F ven H")
    show("HRE SU", letter(judge, "Holy Roman Empire", "A tir - com", "A ste H"))
    # Milan attacks Ferrara's army in Mantova: the independent garrison's automatic support (M44).
    letter(judge, "Milan", "A cre - man")
    for country in ("France", "Savoy", "Genoa", "Ferrara", "Florence", "Papacy", "Naples", "Turkey"):
        letter(judge, country, "none")
    judge.answer(NEWCOMER, f"SIGNON Sicily@{game} pw-new\nnone")
    show("SU1459C results Milan", judge.wait_for(f"{game} SU1459C results", address("Milan")))

    # FA1459C: the siege completed.
    letter(judge, "Venice", "A trt besiege", "F ven H")
    for country in ("France", "Savoy", "Genoa", "Holy Roman Empire", "Milan", "Ferrara", "Florence", "Papacy",
                    "Naples", "Turkey"):
        letter(judge, country, "none")
    judge.answer(NEWCOMER, f"SIGNON Sicily@{game} pw-new\nnone")
    show("FA1459C results Venice", judge.wait_for(f"{game} FA1459C results", address("Venice")))

    # SP1460A: a pay list that leaves units off (M12).
    show("Venice SP1460A", letter(judge, "Venice", "pay A trt"))
    answer = judge.answer(GM, f"SIGNON MASTER@{game} gm-secret\nTERMINATE")
    show("TERMINATE", answer)
    codes = re.findall(r"send (TERMINATE \w+)", text_of(answer))
    assert codes, "no TERMINATE code"
    show("TERMINATE confirmed", judge.answer(GM, f"SIGNON MASTER@{game} gm-secret\n{codes[0]}"))
    time.sleep(5)


# --- Exchange Payola ----------------------------------------------------------------------------

INVESTORS = ("Ann", "Bob", "Cat", "Dee", "Eve")


def sheet(judge: Judge, name: str, *lines: str) -> EmailMessage:
    return judge.answer(f"{name.lower()}@{DOMAIN}", "\n".join((f"SIGNON {name}@bourse pw-{name.lower()}", *lines)))


def play_exchange(judge: Judge) -> None:
    game, master = "bourse", "SIGNON MASTER@bourse gm-secret"
    judge.send(GM, f"CREATE {game} gm-secret exchange INVESTORS=5 FUNDS=60")
    judge.confirm(GM)
    for name in INVESTORS:
        judge.send(f"{name.lower()}@{DOMAIN}", f"JOIN {game} pw-{name.lower()} {name}")
    for name in INVESTORS:
        judge.confirm(f"{name.lower()}@{DOMAIN}")
    judge.send(OBSERVER, f"OBSERVE {game}")
    judge.confirm(OBSERVER)
    show("start", judge.answer(GM, f"{master}\nSTART"))
    show("start mail", judge.wait_for(f"{game} starts", "ann@example.org"))

    # W1900X: BID ALL BUT k (E13); Dee asks the phase to WAIT, and the master's STATUS shows it.
    show("Ann W1900X", sheet(judge, "Ann", "BID ALL BUT 7 ENGLAND AT 2", "ELECT ENGLAND ME"))
    sheet(judge, "Bob", "PRIORITY 2", "BID 5 GERMANY AT 4", "ELECT GERMANY ME")
    sheet(judge, "Cat", "BID 4 RUSSIA AT 3", "ELECT RUSSIA ME", "BID 1 ITALY AT 1")
    show("Dee W1900X", sheet(judge, "Dee", "WAIT", "BID 5 TURKEY AT 3", "ELECT TURKEY ME"))
    sheet(judge, "Eve", "BID 4 FRANCE AT 4", "ELECT FRANCE ME")
    time.sleep(4)
    assert not any(str(m["Subject"]).startswith(f"{game} W1900X results") for m in judge.mails()), "WAIT ignored"
    show("GM STATUS", judge.answer(GM, f"{master}\nSTATUS"))
    judge.answer(GM, f"{master}\nPROCESS")
    show("W1900X results Ann", judge.wait_for(f"{game} W1900X results", "ann@example.org"))
    show("W1900X results observer", judge.wait_for(f"{game} W1900X results", OBSERVER))

    # S1901M: the CEOs' blocks; Turkey's CEO resigns (E19, E32).
    show("Dee resigns", sheet(judge, "Dee", "RESIGN"))
    show("Ann S1901M", sheet(judge, "Ann", "FOR ENGLAND", "0 : F LON - NTH", "0 : F EDI - NWG", "0 : A LVP - YOR",
                             "END"))
    show("Bob S1901M", sheet(judge, "Bob", "FOR GERMANY", "0 : F KIE - HOL", "0 : A BER - KIE",
                             "0 : A MUN - RUH", "END"))
    sheet(judge, "Cat", "FOR RUSSIA", "0 : F SEV - RUM", "0 : A WAR - GAL", "END")
    sheet(judge, "Eve", "FOR FRANCE", "0 : A PAR - BUR", "0 : F BRE - MAO", "END")
    show("S1901M results Bob", judge.wait_for(f"{game} S1901M results", "bob@example.org"))

    # F1901M: hold what was taken.
    sheet(judge, "Ann", "FOR ENGLAND", "0 : F NTH - NWY", "END")
    sheet(judge, "Bob", "FOR GERMANY", "0 : F HOL H", "0 : A KIE - DEN", "END")
    sheet(judge, "Cat", "FOR RUSSIA", "0 : F RUM H", "END")
    sheet(judge, "Eve", "FOR FRANCE", "0 : F MAO - POR", "0 : A BUR - BEL", "END")
    show("F1901M results Bob", judge.wait_for(f"{game} F1901M results", "bob@example.org"))

    # W1901A: the builds, which the prompt and the public results count.
    show("Bob W1901A", sheet(judge, "Bob", "FOR GERMANY", "BUILD A BER", "BUILD F KIE", "END"))
    for name, lines in (("Ann", ("FOR ENGLAND", "BUILD F LON", "END")), ("Cat", ("FOR RUSSIA", "BUILD F SEV", "END")),
                        ("Eve", ("FOR FRANCE", "BUILD F BRE", "BUILD A PAR", "END"))):
        sheet(judge, name, *lines)
    show("W1901A results Bob", judge.wait_for(f"{game} W1901A results", "bob@example.org"))

    # W1901X: the year's second Exchange phase.
    show("Ann W1901X", sheet(judge, "Ann", "SELL ALL BUT 1 ENGLAND AT 9", "ELECT ENGLAND ME"))
    for name in ("Bob", "Cat", "Eve"):
        sheet(judge, name, "PASS")
    show("W1901X results Ann", judge.wait_for(f"{game} W1901X results", "ann@example.org"))
    ask = judge.answer(GM, f"{master}\nTERMINATE")
    codes = re.findall(r"send (TERMINATE \w+)", text_of(ask))
    assert codes, text_of(ask)
    judge.answer(GM, f"{master}\n{codes[0]}")
    show("end", judge.wait_for(f"{game} has ended", "ann@example.org"))
    time.sleep(3)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=("aop", "exchange"))
    parser.add_argument("data", type=Path, help="the judge's data directory (emptied first)")
    arguments = parser.parse_args()
    shutil.rmtree(arguments.data, ignore_errors=True)
    arguments.data.mkdir(parents=True)
    judge = Judge(arguments.data)
    try:
        (play_aop if arguments.kind == "aop" else play_exchange)(judge)
    finally:
        time.sleep(2)
        out = judge.dump()
        judge.stop()
    print(f"The judge's mail, as text: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
