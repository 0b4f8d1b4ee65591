"""`judge payola`: offers in, orders and statements out, errors in-band."""

from __future__ import annotations

import io
import json

from judge.games.payola.cli import adjudicate_data
from judge.payola.notation import payola_from_data
from judge.service.operators.cli import run_json

REQUEST = {
    "variant": "standard",
    "phase": "S1901M",
    "units": {"ENGLAND": ["F LON", "F EDI", "A LVP"], "FRANCE": ["F BRE", "A PAR", "A MAR"]},
    "seed": 7,
    "powers": {
        "ENGLAND": {"balance": 48, "accept": "EFGIART", "sheet": "8 : F LON - NTH\n10 $\n"},
        "FRANCE": {"balance": 48, "sheet": "3 : F LON - ENG\n5 : A PAR - BUR\n2 : F EDI - XXX"},
    },
}


def test_issue_example_and_orders_feed_adjudication() -> None:
    out = payola_from_data(REQUEST)
    assert out["units"]["F LON"] == {"owner": "ENGLAND", "order": "F LON - NTH", "total": 8, "paid": {"ENGLAND": 8}}
    england = out["powers"]["ENGLAND"]
    assert (england["balance"], england["spent"], england["new_balance"], england["reductions"]) == (48, 8, 40, 0)
    assert england["accepted"] == [{"unit": "F LON", "order": "F LON - NTH", "offered": 8, "reduced": 8, "refund": 0,
                                   "paid": 8}]
    # France's sheet has a bad line, so it is rejected whole: its units hold on rule 3.3 defaults.
    assert out["powers"]["FRANCE"]["errors"] == [
        {"line": 3, "text": "2 : F EDI - XXX", "error": "unknown province 'XXX'"}]
    assert out["orders"]["FRANCE"] == ["F BRE H", "A PAR H", "A MAR H"]
    adjudicated = adjudicate_data({**REQUEST, "orders": out["orders"]})
    assert {r["order"]: r["result"] for r in adjudicated["results"]}["F LON - NTH"] == "succeeds"


def test_blind_statement_names_only_nationality() -> None:
    request = {**REQUEST, "options": ["BLIND"]}
    out = payola_from_data(request)
    assert out["powers"]["ENGLAND"]["accepted"] == [{"nationality": "ENGLAND", "offered": 8, "reduced": 8, "refund": 0,
                                                       "paid": 8}]


def test_loyal_units_take_direct_orders_and_only_dummies_are_bribed() -> None:
    request = {
        "phase": "S1901M",
        "units": {"ENGLAND": ["F LON"], "GERMANY": ["F KIE"]},
        "options": "LOYAL_UNITS",
        "powers": {
            "ENGLAND": {"balance": 10, "sheet": "4 : F KIE - HOL", "orders": ["F LON - NTH"]},
            "GERMANY": {"dummy": True},
        },
    }
    out = payola_from_data(request)
    assert out["orders"] == {"ENGLAND": ["F LON - NTH"], "GERMANY": ["F KIE - HOL"]}
    assert out["powers"]["ENGLAND"]["spent"] == 4


def test_bad_requests_give_an_error_and_the_batch_goes_on() -> None:
    variants = [REQUEST, {**REQUEST, "options": ["NOPE"]}, {**REQUEST, "phase": "S1901R"}]
    lines = [json.dumps(v) for v in variants]
    out = io.StringIO()
    run_json(payola_from_data, io.StringIO("\n".join(lines)), out, jsonl=True)
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert "units" in answers[0]
    assert answers[1]["error"].startswith("unknown option 'NOPE'")
    assert answers[2] == {"error": "order determination happens in movement phases only"}


def test_rule_4_4_a_dummy_power_sends_no_sheet() -> None:
    """A dummy's unit must keep its own default HOLD for ties (ruling 4): a sheet from a dummy is
    an error, not a crash on the first tie."""
    request = {**REQUEST, "powers": {"FRANCE": {"balance": 48, "dummy": True, "sheet": "0 : A PAR H"},
                                     "ENGLAND": {"balance": 48, "sheet": "1 : A PAR - BUR"}}}
    out = io.StringIO()
    run_json(payola_from_data, io.StringIO(json.dumps(request)), out, jsonl=False)
    assert "a dummy power has no player and sends no offer sheet" in json.loads(out.getvalue())["error"]


def test_rule_6_2_judge_payola_on_a_variant_board() -> None:
    """`judge payola` with "variant": Void's symbols in the acceptance lists, its units bribed."""
    request = {
        "variant": "void",
        "phase": "F1900M",
        "units": {"ALBANIA": ["A ALB"], "APULIA": ["A APU"], "W_MEDITERRANEAN_SEA": ["F WES"]},
        "seed": 3,
        "powers": {
            "ALBANIA": {"balance": 9, "accept": "C+?", "sheet": "4 : A ALB - TRI\n"},
            "W_MEDITERRANEAN_SEA": {"balance": 9, "sheet": "5 : A ALB - GRE\n3 : F WES - TUN\n"},
        },
    }
    out = payola_from_data(request)
    assert out["units"]["A ALB"]["order"] == "A ALB - GRE"
    assert out["units"]["F WES"]["order"] == "F WES - TUN"
    assert out["acceptance"]["ALBANIA"].startswith("C+") and len(out["acceptance"]["ALBANIA"]) == 36
    assert out["powers"]["W_MEDITERRANEAN_SEA"]["new_balance"] == 1
    adjudicated = adjudicate_data({**request, "orders": out["orders"]})
    assert adjudicated["next_phase"] == "W1900A"


def test_a_power_of_two_words_is_read_however_its_words_are_joined() -> None:
    for british in ("British Columbia", "BRITISH-COLUMBIA", "BRITISHCOLUMBIA"):
        out = payola_from_data({"variant": "empire", "phase": "S1999M", "units": {british: ["A VAN"]}, "seed": 1,
                                "powers": {british: {"balance": 10, "sheet": "2 : A VAN - WAS"}}})
        assert out["orders"] == {"BRITISH_COLUMBIA": ["A VAN - WAS"]}, british
        assert out["powers"]["BRITISH_COLUMBIA"]["spent"] == 2
