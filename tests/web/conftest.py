"""Two games played by mail through the game service, their pages written after every change
the way the service's hook writes them (``refresh``), and a copy of every page kept while the
games ran, for the secrecy checks.

``webgame``: six players and a dummy Italy; Spring 1901 with an acceptance list, savings, a
transfer and press; a Fall attack that dislodges France's A BUR; its retreat; builds; then
TERMINATE publishes everything.  ``tincup``: a Blind game, one phase, then TERMINATE.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from judge.web.pages import refresh, web_root
from tests.support.harness import Judge
from tests.support.people import GM

PLAYERS = {
    "ENGLAND": "eve@example.org", "FRANCE": "fred@example.org", "GERMANY": "gus@example.org",
    "AUSTRIA": "al@example.org", "RUSSIA": "rita@example.org", "TURKEY": "tom@example.org",
}  # Italy has no player: a dummy
SHEETS = {
    "ENGLAND": "ACCEPT GFEIART\n0 : F EDI - NWG\n0 : A LVP - YOR",
    "FRANCE": "2 : A PAR - BUR\n2 : A MAR - SPA\n2 : F BRE - MAO\n5 : F LON - ENG % try to get the Channel",
    "GERMANY": "2 : F KIE - DEN\n2 : A MUN - RUH\n2 : A BER - MUN\n5 : F LON - NTH",
    "AUSTRIA": "10 $\n20 : A VIE - GAL\n20 : A BUD - SER",
    "TURKEY": "30 : F ANK - BLA\n30 : A CON - BUL",
    "RUSSIA": "TRANSFER 10 TO AUSTRIA\n1 : F SEV - RUM\n1 : A MOS - UKR",
}
FALL = {
    "GERMANY": "3 : A RUH - BUR\n3 : A MUN S A RUH - BUR\n1 : F DEN H",
    "FRANCE": "1 : A BUR H\n1 : A SPA H\n1 : F MAO H",
}
PRESS = "PRESS TO GERMANY\nPRESS_SECRET: I will leave Belgium to you.\nENDPRESS"
BLIND_SHEETS = {"ENGLAND": "ACCEPT EFGIART\n7 : F LON - NTH", "FRANCE": "6 : A PAR - PIC"}


def signon(power: str, game: str = "webgame") -> str:
    return f"SIGNON {power}@{game} pw-{power.lower()}\n"


@dataclass
class Played:
    """The judge, its pages' folder, and every page as it was after each change while the games ran."""

    judge: Judge
    root: Path
    running: list[dict[str, str]] = field(default_factory=list)  # one {relative path: text} per change
    mid_spring: dict[str, str] = field(default_factory=dict)  # after three of the six sheets

    def change(self) -> dict[str, str]:
        """What the service's hook does after each change; keeps a copy of every page."""
        refresh(self.judge.db, self.judge.settings)
        pages = {str(p.relative_to(self.root)): p.read_text("utf-8") for p in sorted(self.root.rglob("*.html"))}
        self.running.append(pages)
        return pages


def play(played: Played) -> None:
    judge = played.judge
    assert judge.send(GM, "CREATE webgame gm-secret") == "done"
    assert judge.send(GM, "CREATE tincup tin-secret standard BLIND") == "done"
    played.change()
    for power, address in PLAYERS.items():
        judge.send(address, f"JOIN webgame pw-{power.lower()} {power}")
    for power in BLIND_SHEETS:
        judge.send(PLAYERS[power], f"JOIN tincup pw-{power.lower()} {power}")
    judge.send(GM, "SIGNON MASTER@webgame gm-secret\nSTART")
    judge.send(GM, "SIGNON MASTER@tincup tin-secret\nSTART")
    played.change()
    for number, (power, sheet) in enumerate(SHEETS.items()):
        judge.later(1)
        judge.send(PLAYERS[power], signon(power) + sheet)
        pages = played.change()
        if number == 2:
            played.mid_spring = pages
    judge.send(PLAYERS["FRANCE"], signon("FRANCE") + PRESS)  # all six sent sheets: S1901M was processed
    for power, sheet in FALL.items():
        judge.send(PLAYERS[power], signon(power) + sheet)
    for power, sheet in BLIND_SHEETS.items():
        judge.send(PLAYERS[power], signon(power, "tincup") + sheet)
    played.change()
    judge.later(49)  # the others never send: the deadline passes
    assert judge.process("webgame").startswith("webgame F1901M processed; next F1901R")
    played.change()
    judge.send(PLAYERS["FRANCE"], signon("FRANCE") + "A BUR - PIC")  # the only retreat: processed at once
    judge.send(PLAYERS["GERMANY"], signon("GERMANY") + "BUILD F KIE")
    judge.send(PLAYERS["FRANCE"], signon("FRANCE") + "BUILD A PAR")
    played.change()
    judge.later(25)
    assert judge.process("webgame").startswith("webgame W1901A processed; next S1902M")
    played.change()


@pytest.fixture(scope="session")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    judge = Judge(tmp_path_factory.mktemp("judge"))
    done = Played(judge, web_root(judge.settings))
    play(done)
    judge.terminate(GM, "SIGNON MASTER@webgame gm-secret")
    judge.terminate(GM, "SIGNON MASTER@tincup tin-secret")
    refresh(judge.db, judge.settings)
    return done
