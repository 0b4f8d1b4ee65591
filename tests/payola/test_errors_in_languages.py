"""The Payola core's refusals a player reads (an acceptance list, a transfer, a CREATE option) are written in
the reader's language (issue 72): each a whole sentence of the host's catalogue, the powers' initials, the
amounts and the option words as written."""

from __future__ import annotations

import pytest

from judge.language import reading
from judge.payola.acceptance import AcceptanceError, parse_acceptance
from judge.payola.options import OptionError, parse_options
from judge.payola.treasury import TreasuryError, transfer

LETTERS = {"ENGLAND": "E", "FRANCE": "F", "GERMANY": "G"}
BALANCES = {"ENGLAND": 5, "FRANCE": 0, "GERMANY": 3}


def refusal(call: object, *args: object) -> str:
    with pytest.raises((AcceptanceError, TreasuryError, OptionError)) as caught:
        call(*args)  # type: ignore[operator]
    return str(caught.value)


def test_the_cores_refusals_are_written_in_italian_and_french() -> None:
    cases = [
        ((parse_acceptance, "ACCEPT EX?", LETTERS), "'X' non è una potenza di questa partita (potenze: EFG)",
         "« X » n'est pas une puissance de cette partie (puissances : EFG)"),
        ((parse_acceptance, "ACCEPT EF", LETTERS),
         "manca la potenza G: elenca ogni potenza o metti un '?' per le altre",
         "la puissance G manque : citez chaque puissance ou mettez un « ? » pour les autres"),
        ((parse_acceptance, "ACCEPT E", LETTERS),
         "mancano le potenze FG: elenca ogni potenza o metti un '?' per le altre",
         "les puissances FG manquent : citez chaque puissance ou mettez un « ? » pour les autres"),
        ((transfer, BALANCES, "GERMANY", "ENGLAND", 9), "il saldo (3 AgP) è inferiore a 9 AgP",
         "le solde (3 AgP) est inférieur à 9 AgP"),
        ((transfer, BALANCES, "GERMANY", "RUSSIA", 1), "in questa partita non c'è nessuna potenza RUSSIA",
         "il n'y a aucune puissance RUSSIA dans cette partie"),
        ((parse_options, ["INCOME=FIXED"]), "INCOME=FIXED richiede un importo per centro, ad es. INCOME=FIXED:7",
         "INCOME=FIXED demande un montant par centre, par exemple INCOME=FIXED:7"),
    ]
    for (call, *args), italian, french in cases:
        with reading("it"):
            assert refusal(call, *args) == italian
        with reading("fr"):
            assert refusal(call, *args) == french
    assert refusal(parse_acceptance, "ACCEPT EF", LETTERS) == ("power G is missing: list every power or put one '?' "
                                                              "for the rest")
    assert refusal(transfer, BALANCES, "GERMANY", "ENGLAND", 9) == "the balance (3 AgP) is smaller than 9 AgP"
    with reading("it"):
        assert refusal(parse_options, ["NOSUCH"]).startswith("opzione sconosciuta 'NOSUCH' (quelle note: ")
