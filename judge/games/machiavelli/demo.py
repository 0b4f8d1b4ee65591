"""Machiavelli's scripts for ``judge demo machiavelli`` (`judge.service.operators.demo` runs the judge):
the classic board of 1454 (`play`, the default) and Absence of Plague's of 1459 (`play_aop`,
``judge demo machiavelli aop``).

The classic game: three players join, wishing for Florence, Milan and Venice;
the game master starts it, and the five other countries are dummies, which play by the defaults
(17.2, M50).  The spring letter: Florence gives Milan 3 ducats and pays two of its three units
(the third is disbanded, not being listed: M12); Milan pays its armies and raises a garrison;
Venice writes a letter, then corrects it once (17.1, M35): the transfer of its first letter
stands although the correction leaves it out.  The phase closes as soon as the three letters are
in.  The campaign letter: Florence hires a bodyguard and tries an assassination it cannot pay
for (not charged, M30), and moves an army; Milan pays a counter-bribe and moves; Venice gives
nothing.  Shown: the answer to a letter, Venice's correction, and Florence's results of each
phase: its own statement and the public results, and the maps the campaign's mail carries.

The AoP game: four of the thirteen countries are played (Milan, Savoy, the Holy Roman Empire and
Turkey), the nine others are dummies.  The first spring: no income, at most three units raised
(AoP 3, M48); Savoy sells Pontremoli to Milan for 4 (6, M2), Milan taxes Como by force (5.3:
1 ducat, and Como rebels), the Empire gives Milan 3.  Milan 15 + 3 - 4 + 1 - 9 = 6.  The
campaign: Savoy's bribe of 12 makes Milan's army in Pavia independent (12: 3 above the minimum
of 9, not smaller than Milan's counter-bribe of 3); Milan's army enters its rebelling Como.
Milan 6 - 3 = 3.  Shown: Milan's results of each phase, and the maps of the campaign.
"""

from __future__ import annotations

from email.message import EmailMessage

from judge.api import DemoJudge, show

GM = "gm@example.org"
PLAYERS = {"Florence": "ann", "Milan": "bob", "Venice": "cy"}
AOP_PLAYERS = {"Milan": "ann", "Savoy": "bob", "Holy Roman Empire": "cy", "Turkey": "dee"}


def _address(country: str, players: dict[str, str] = PLAYERS) -> str:
    return f"{players[country]}@example.org"


def _letter(judge: DemoJudge, country: str, *lines: str, players: dict[str, str] = PLAYERS,
            game: str = "demo") -> EmailMessage:
    body = "\n".join((f"SIGNON {country.replace(' ', '-')}@{game} pw-{players[country]}", *lines))
    return judge.answer(_address(country, players), body)


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
    _show_campaign(results)


def play_aop(judge: DemoJudge) -> None:
    """The AoP script, against ``judge``, printing as it goes."""
    game, players = "plague", AOP_PLAYERS
    judge.send(GM, f"CREATE {game} gm-secret machiavelli aop")
    judge.confirm(GM)
    for country, name in players.items():
        judge.send(_address(country, players), f"JOIN {game} pw-{name} {country}")
    for country in players:
        judge.confirm(_address(country, players))
    judge.send(GM, f"SIGNON MASTER@{game} gm-secret\nSTART")
    milan = _address("Milan", players)
    judge.wait_for(f"{game} starts", milan)
    print("Four players joined a game of Machiavelli on the Absence of Plague board of 1459, wishing for\n"
          "Milan, Savoy, the Holy Roman Empire and Turkey; the game master started it. The nine other\n"
          "countries are dummies. In this first spring nobody has units, nobody collects income, and each\n"
          "may raise at most three units (3 ducats each). Milan writes:\n")
    show(_letter(judge, "Milan", "buy Pontremoli from Savoy for 4", "tax Como", "raise A mil", "raise A pav",
                 "raise G cre", players=players, game=game))
    _letter(judge, "Savoy", "sell Pontremoli to Milan for 4", "raise A tor", "raise F niz", players=players,
            game=game)
    _letter(judge, "Holy Roman Empire", "transfer 3 to Milan", "raise A ste", "raise F tri", players=players,
            game=game)
    _letter(judge, "Turkey", "raise F dur", "raise F mal", "raise A alb", players=players, game=game)
    print("\nThe four letters are in: the judge carried out the spring at once. Milan's results:\n")
    show(judge.wait_for(f"{game} SP1459A results", milan))
    print("\nThe campaign: Savoy bribes Milan's army in Pavia to go independent; Milan, fearing it, pays a\n"
          "counter-bribe of 3, and sends its army from Milano into Como, which rebels against it:\n")
    show(_letter(judge, "Milan", "counter-bribe 3 A pav", "A mil - com", "A pav - pia", players=players, game=game))
    _letter(judge, "Savoy", "bribe 12 independent A pav", "A tor H", "F niz - lig", players=players, game=game)
    _letter(judge, "Holy Roman Empire", "A ste H", "F tri - uas", players=players, game=game)
    _letter(judge, "Turkey", "F dur - ion", "F mal - bot", "A alb H", players=players, game=game)
    print("\nMilan's results of the campaign:\n")
    results = judge.wait_for(f"{game} SP1459C results", milan)
    _show_campaign(results)


def _show_campaign(results: EmailMessage) -> None:
    """A campaign's results mail, and the names of the maps it carries."""
    show(results)
    maps = [str(part.get_filename()) for part in results.iter_attachments()]
    if maps:
        print(f"\n    Attached: {', '.join(maps)} (the campaign's orders carried out, failures crossed out; SET "
              "MAPS ALL adds the board after, as PNG and SVG)")
    print()
