"""Payola's script for ``judge demo`` (`judge.service.operators.demo` runs the judge): seven players join
a game by mail and play 1901, every sheet in, so each phase is processed at once; France's mail
of Spring and the game master's chart of Fall are shown; the game master ends the game.  With
``blind``, one phase of a Tin Cup (Blind) game, and what France was told of it."""

from __future__ import annotations

from judge.api import DemoJudge, text_of

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


def play(judge: DemoJudge, blind: bool = False) -> None:
    """The script, against ``judge``, printing as it goes."""
    judge.send(GM, "CREATE demo gm-secret standard TINCUP" if blind else "CREATE demo gm-secret")
    judge.confirm(GM)
    for power, address in PLAYERS.items():
        judge.send(address, f"JOIN demo pw-{power.lower()} {power}")
    for address in PLAYERS.values():
        judge.confirm(address)
    judge.send(GM, "SIGNON MASTER@demo gm-secret\nSTART")
    judge.wait_for("demo starts")
    print("Seven players joined by mail, each confirming its address; the game master started the game.")
    for power, sheet in SPRING.items():
        judge.send(PLAYERS[power], f"SIGNON {power}@demo pw-{power.lower()}\n{sheet}")
    france = judge.wait_for("demo S1901M results", PLAYERS["FRANCE"])
    print("\nEveryone sent an offer sheet, so Spring 1901 was processed at once. France's mail:\n")
    if blind:
        print("(A Tin Cup game: France is told only what its units and home centers could see, and its\n"
              "maps show only that.)\n")
    print("    " + text_of(france).strip().replace("\n", "\n    "))
    maps = [str(part.get_filename()) for part in france.iter_attachments()]
    print(f"\n(with its map attached: {', '.join(maps)}; SET MAPS ALL adds the board after, as PNG and SVG)"
          if maps else "")
    if not blind:
        for power, sheet in FALL.items():
            judge.send(PLAYERS[power], f"SIGNON {power}@demo pw-{power.lower()}\n{sheet}")
        judge.wait_for("demo F1901M results")
        print("\nFall 1901 followed the same way. The game master's chart of it begins:\n")
        chart = text_of(judge.wait_for("demo F1901M chart")).strip().splitlines()
        print("    " + "\n    ".join(chart[:12]) + "\n    ...")
    asked = text_of(judge.answer(GM, "SIGNON MASTER@demo gm-secret\nTERMINATE"))
    code = asked.split("to confirm, send TERMINATE ", 1)[1].split()[0]
    judge.send(GM, f"SIGNON MASTER@demo gm-secret\nTERMINATE {code}")
    judge.wait_for("demo has ended")
    print("\nThe game master ended the game; every sheet and acceptance list was published"
          + (", and every order and board the powers did not see." if blind else "."))
