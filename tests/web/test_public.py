"""What a public page may show, decided by judge.web.public's pure functions, on made-up facts."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from judge.engine.map import load_map
from judge.engine.position import Position
from judge.games.payola import public

FACTS = public.GameFacts(
    name="g1", variant="standard", options=("EBAYOLA",), state="active", phase="S1901M",
    deadline=datetime(2026, 1, 7, 12, 0), joined=2,
    seats=(public.Seat("ENGLAND", "played"), public.Seat("FRANCE", "dummy", open=True)),
    required=("ENGLAND", "GERMANY"), waiting=("GERMANY",),
)
BLIND = replace(FACTS, options=("BLIND",), blind=True)
DETERMINATION = {
    "units": {"F LON": {"owner": "ENGLAND", "order": "F LON - NTH", "total": 5, "paid": {"GERMANY": 5}}},
    "acceptance": {"ENGLAND": "GFEIART"},
    "sheets": {"GERMANY": "5 : F LON - NTH"},
    "chart": {"F LON": [{"order": "F LON - NTH", "total": 5, "contributions": {"GERMANY": 5}}]},
    "powers": {"ENGLAND": {"balance": 48, "spent": 0}},
}
REPORT = {
    "phase": "S1901M",
    "results": [{"power": "ENGLAND", "order": "F LON - NTH", "result": "succeeds", "reason": None, "paid": 5}],
    "automatic": ["France sent no offer sheet: each of its units was offered a zero HOLD by its own power (rule 3.3)"],
    "board": {"phase": "F1901M", "powers": [], "unowned": [], "dislodged": [], "adjustments": []},
    "statement": {"spent": 5},
}


def test_a_game_summary_shows_seats_and_a_running_blind_games_too() -> None:
    shown = public.summary(FACTS)
    assert shown["seats"] == [{"name": "ENGLAND", "seat": "played", "open": False},
                              {"name": "FRANCE", "seat": "dummy", "open": True}]
    assert shown["deadline"] == FACTS.deadline and shown["options"] == ["EBAYOLA"] and not shown["hidden"]
    assert shown["joined"] is None and shown["result"] is None  # players joined: while forming; result: at the end
    assert public.summary(replace(FACTS, state="forming"))["joined"] == 2
    assert public.summary(replace(FACTS, state="finished", result="a draw"))["result"] == "a draw"
    hidden = public.summary(BLIND)  # issue 23.33: what LIST gives anyone, the board apart
    assert hidden["hidden"] and hidden["deadline"] == FACTS.deadline and hidden["seats"] == shown["seats"]
    assert not public.summary(replace(BLIND, state="finished"))["hidden"]


def test_a_finished_game_names_who_played_and_words_a_draw_and_a_win_alike() -> None:
    seats = (public.Seat("ENGLAND", "played", played_by="eve"), public.Seat("FRANCE", "dummy"))
    running = public.summary(replace(FACTS, seats=seats))
    assert "played_by" not in running["seats"][0] and running["outcome"] is None
    ended = replace(FACTS, seats=seats, state="finished")
    assert public.summary(ended)["seats"][0]["played_by"] == "eve"
    assert public.summary(replace(ended, winner="ENGLAND", result="England has won"))["outcome"] == "Won by: England"
    assert public.summary(replace(ended, drawn=("ENGLAND", "FRANCE"), result="a draw including all survivors: "
                                  "England, France"))["outcome"] == "Draw: England, France"


def test_the_current_board_says_who_has_submitted_never_what() -> None:
    position = Position.initial(load_map("standard"))
    now = public.current(FACTS, position)
    assert now is not None
    powers = {p["power"]: p for p in now["powers"]}
    assert powers["ENGLAND"] == {"power": "ENGLAND", "seat": "played", "open": False, "played_by": None, "centers": 3,
                                 "units": 3, "acting": "submitted"}
    assert powers["GERMANY"]["acting"] == "waiting" and powers["GERMANY"]["seat"] is None
    assert powers["FRANCE"]["acting"] is None and powers["FRANCE"]["open"]
    assert now["board"]["phase"] == "S1901M"
    ended = public.current(replace(FACTS, state="finished"), position)
    assert ended is not None and all(p["acting"] is None for p in ended["powers"])
    assert public.current(BLIND, position) is None
    shown = public.current(replace(BLIND, state="finished"), position)  # the end publishes it all
    assert shown is not None and shown["board"]["phase"] == "S1901M"


def test_a_phase_shows_only_the_public_report() -> None:
    view = public.history(FACTS, REPORT, {"next_phase": "F1901M", "units": {}})
    assert view is not None
    assert view["results"] == [{"power": "ENGLAND", "order": "F LON - NTH", "result": "succeeds", "reason": None,
                                "detail": None}]  # what was paid is not copied
    assert "statement" not in view and view["next_phase"] == "F1901M" and view["title"] == "Spring 1901 movement"
    assert public.history(BLIND, REPORT, {}) is None
    assert public.history(replace(BLIND, state="finished"), REPORT, {"next_phase": "F1901M"}) == view


def test_the_publication_waits_for_the_end() -> None:
    phases = [("S1901M", DETERMINATION), ("F1901R", None)]
    for state in ("forming", "active", "paused"):
        assert public.publication(replace(FACTS, state=state), phases, {"ENGLAND": 48}) is None
    published = public.publication(replace(BLIND, state="finished", winner="ENGLAND"), phases, {"ENGLAND": 48})
    assert published is not None
    assert published["balances"] == {"ENGLAND": 48} and published["winner"] == "ENGLAND"
    [phase] = published["phases"]  # a retreat phase has no determination
    assert [(p["power"], p["acceptance"], p["sheet"], p["spent"]) for p in phase["powers"]] == [
        ("ENGLAND", "GFEIART", None, 0), ("GERMANY", None, "5 : F LON - NTH", None)]
    assert phase["chart"] == [{"unit": "F LON", "owner": "ENGLAND", "issued": "F LON - NTH", "total": 5,
                               "paid": [{"power": "GERMANY", "paid": 5}],
                               "candidates": [{"order": "F LON - NTH", "total": 5, "contributions": {"GERMANY": 5}}]}]


def test_a_games_address_for_the_mails() -> None:
    assert public.page_url(None, "g1") is None
    assert public.page_url("https://judge.example.org/payola/", "g1") == "https://judge.example.org/payola/games/g1/index.html"
    assert public.page_url("https://judge.example.org", "g1", "end.html") == "https://judge.example.org/games/g1/end.html"
