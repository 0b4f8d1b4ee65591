"""Machiavelli's script for ``judge demo machiavelli`` (`judge.service.demo` runs the judge).

Three players join a game on the classic board of 1454, wishing for Florence, Milan and Venice;
the game master starts it, and the five other countries are dummies, which play by the defaults
(17.2, M50).  The spring letter: Florence gives Milan 3 ducats and pays two of its three units
(the third is disbanded, not being listed: M12); Milan pays its armies and raises a garrison;
Venice writes a letter, then corrects it once (17.1, M35): the transfer of its first letter
stands although the correction leaves it out.  The phase closes as soon as the three letters are
in.  The campaign letter: Florence hires a bodyguard and tries an assassination it cannot pay
for (not charged, M30), and moves an army; Milan pays a counter-bribe and moves; Venice gives
nothing.  Shown: the answer to a letter, Venice's correction, and Florence's results of each
phase: its own statement and the public results, and the maps the campaign's mail carries.
"""

from __future__ import annotations

from email.message import EmailMessage

from judge.service.scripts import DemoJudge, show

GM = "gm@example.org"
PLAYERS = {"Florence": "ann", "Milan": "bob", "Venice": "cy"}


def _address(country: str) -> str:
    return f"{PLAYERS[country]}@example.org"


def _letter(judge: DemoJudge, country: str, *lines: str) -> EmailMessage:
    body = "\n".join((f"SIGNON {country}@demo pw-{PLAYERS[country]}", *lines))
    return judge.answer(_address(country), body)


def play(judge: DemoJudge) -> None:
    """The script, against ``judge``, printing as it goes."""
    judge.send(GM, "CREATE demo gm-secret machiavelli classic")
    judge.confirm(GM)
    for country, name in PLAYERS.items():
        judge.send(_address(country), f"JOIN demo pw-{name} {country}")
    for country in PLAYERS:
        judge.confirm(_address(country))
    judge.send(GM, "SIGNON MASTER@demo gm-secret\nSTART")
    judge.wait_for("demo starts", _address("Florence"))
    print("Three players joined a game of Machiavelli on the classic board of 1454, wishing for Florence,\n"
          "Milan and Venice; the game master started it. The other five countries are dummies, which play\n"
          "by the defaults. Each player's first letter is the spring letter (A orders). Florence writes:\n")
    show(_letter(judge, "Florence", "transfer 3 to Milan", "pay A flo", "pay A are", "raise A psa"))
    print("\nVenice writes a letter, then corrects it once: a correction replaces the first letter, but the\n"
          "first letter's ducat transfers stand (17.1, M35):\n")
    _letter(judge, "Venice", "transfer 2 to Milan", "pay G ven", "pay A pad")
    show(_letter(judge, "Venice", "pay G ven", "pay A pad", "pay A ver", "pay F dal"))
    _letter(judge, "Milan", "pay A mil", "pay A pav", "pay A cre", "raise G mil")
    print("\nMilan's letter was the last awaited: the judge carried out the spring's phase A at once.\n"
          "Florence's results: its own statement, then what the rules publish:\n")
    show(judge.wait_for("demo SP1454A results", _address("Florence")))
    print("\nThe campaign letter (C orders): expenditures, then operations. Florence's:\n")
    show(_letter(judge, "Florence", "bodyguard 3", "assassinate Milan 30", "A flo - pst", "A are - pst"))
    _letter(judge, "Milan", "counter-bribe 3 A mil", "A cre - man")
    _letter(judge, "Venice", "none")
    print("\nThe campaign was carried out when Venice's (empty) letter came in. Florence's results:\n")
    results = judge.wait_for("demo SP1454C results", _address("Florence"))
    show(results)
    maps = [str(part.get_filename()) for part in results.iter_attachments()]
    if maps:
        print(f"\n    Attached: {', '.join(maps)} (the campaign's orders as given, failures crossed out; the "
              "board after)")
    print()
