"""Exchange Payola's script for ``judge demo exchange`` (`judge.service.operators.demo` runs the judge).

Three investors (Ann, Bob, Cat) join a game on the standard board with 60 AgP each, and the game
master starts it.  In the first Exchange phase (Winter 1900) they bid for France's and Germany's
stock, buy the investor order and vote, as in the worked year of the rulings (section 3.2): Bob
becomes France's CEO, Cat Germany's.  In Spring 1901 Bob sends France's offer sheet with its
worths, Cat Germany's, Ann a private offer; the phase closes once both CEOs have sent theirs.
Then the game master ends the game, and everything is published.  Shown: the answer to a sheet,
the Exchange phase's results as Bob reads them (his statement, the annual reports, France's
records on taking office), Ann's Spring results, and the publication."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from judge.api import DemoJudge, show, text_of

GM = "gm@example.org"
NAMES = ("Ann", "Bob", "Cat")
SHEETS_1900 = {
    "Ann": ("BID 6 FRANCE AT 5", "BID 2 GERMANY AT 3", "ELECT FRANCE ME", "ELECT GERMANY CAT"),
    "Bob": ("PRIORITY 2", "BID 5 FRANCE AT 5", "BID 5 GERMANY AT 4", "ELECT FRANCE ME", "ELECT GERMANY ME"),
    "Cat": ("PRIORITY 3", "BID 4 GERMANY AT 4", "BID 3 FRANCE AT 6", "ELECT GERMANY ME", "ELECT FRANCE ME"),
}
SHEETS_1901 = {
    "Ann": ("2 : A MUN - RUH",),
    "Bob": ("FOR FRANCE", "WORTH PAR 24 MAR 14 BRE 10", "0 : A PAR - PIC", "0 : A MAR - SPA", "0 : F BRE - MAO",
            "END"),
    "Cat": ("FOR GERMANY", "0 : F KIE - HOL", "0 : A BER - KIE", "3 : A MUN - BUR", "END"),
}


def _address(name: str) -> str:
    return f"{name.lower()}@example.org"


def _signed(name: str, *lines: str) -> str:
    return "\n".join((f"SIGNON {name}@demo pw-{name.lower()}", *lines))


def _send_sheets(judge: DemoJudge, sheets: Mapping[str, Sequence[str]], shown: str) -> None:
    """Every investor's sheet of ``sheets``, each in a mail of its own; the answer to ``shown``'s is printed."""
    for name in NAMES:
        answer = judge.answer(_address(name), _signed(name, *sheets[name]))
        if name == shown:
            show(answer)


def play(judge: DemoJudge) -> None:
    """The script, against ``judge``, printing as it goes."""
    judge.send(GM, "CREATE demo gm-secret exchange INVESTORS=3 FUNDS=60")
    judge.confirm(GM)
    for name in NAMES:
        judge.send(_address(name), f"JOIN demo pw-{name.lower()} {name}")
    for name in NAMES:
        judge.confirm(_address(name))
    judge.send(GM, "SIGNON MASTER@demo gm-secret\nSTART")
    start = judge.wait_for("demo starts", _address("Ann"))
    print("Three investors joined a game of Exchange Payola by mail, each under a name of their own; the\n"
          "game master started it. Ann's mail:\n")
    show(start)

    print("\nIn the first Exchange phase every corporation's pool is offered at 1 AgP a share. Each investor\n"
          "sends a sealed sheet: bids, the AgP spent on the investor order, ballots. Cat's, and the answer:\n")
    _send_sheets(judge, SHEETS_1900, "Cat")
    results = judge.wait_for("demo W1900X results", _address("Bob"))
    print("\nOnce every investor had sent a sheet the phase was processed. Bob's results: the public part,\n"
          "his own statement, the annual reports of the corporations he holds, and France's records, as\n"
          "he is its CEO now:\n")
    show(results)

    print("\nSpring 1901: Bob writes France's offer sheet and worths in a FOR FRANCE block, Cat Germany's,\n"
          "and Ann bribes a German army with her own money. Bob's answer:\n")
    _send_sheets(judge, SHEETS_1901, "Bob")
    spring = judge.wait_for("demo S1901M results", _address("Ann"))
    print("\nThe judge waited only for the two CEOs (E20). Ann's results, with the map attached (each\n"
          "corporation's CEO named in its legend):\n")
    show(spring)

    ask = judge.answer(GM, "SIGNON MASTER@demo gm-secret\nTERMINATE")
    code = re.search(r"send TERMINATE (\S+)", text_of(ask))
    assert code is not None, text_of(ask)
    judge.send(GM, f"SIGNON MASTER@demo gm-secret\nTERMINATE {code.group(1)}")
    end = judge.wait_for("demo has ended", _address("Ann"))
    print("\nThe game master ended the game. Everything is published to everyone (E41): the sheets of every\n"
          "phase and what became of each line, the share register, the money, every ledger. Its start:\n")
    print("    " + "\n    ".join(text_of(end).strip().splitlines()[:40]) + "\n    ...")
    print()
