"""A Machiavelli country whose player goes silent, under the game master's policy for silent seats
(SET SILENCE): the judge declares it abandoned and hands it to the game's own rule for a leader
who leaves, 18.3 and M62, as M65 says (a substitute leader may take it over until the campaign
ends; meanwhile the defaults of 17.2 and M50; then it is eliminated, 4.3, and never offered as
vacant again); a game every country of which is eliminated ends at once as deserted (H1).

The classic board, started 2026-01-05 12:00 UTC: the spring letter (SP1454A) is due 72 hours
later, Thursday 2026-01-08 12:00; the spring campaign (SP1454C) 96 hours after that, Monday
2026-01-12 12:00."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from judge.service.hosting.kinds import kind_of
from judge.store.models import Game
from tests.support.harness import Judge, start_game
from tests.support.people import ALICE, BOB, CAROL, GM, OBSERVER

COUNTRIES = ("Austria", "Florence", "France", "Milan", "Naples", "Papacy", "Turkey", "Venice")
"""The classic board's eight countries."""
MASTER = "SIGNON MASTER@m1 gm-secret"


def address(country: str) -> str:
    return f"{country.lower()}@example.org"


def state(judge: Judge) -> tuple[str, str | None]:
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == "m1")).one()
        return game.state, game.phase


def two_countries(tmp_path: Path) -> Judge:
    """m1 with Alice as Venice and Bob as Milan (the six others dummies), Olga observing, and a
    policy that abandons a country at its first missed deadline, without an extension."""
    judge = start_game(Judge(tmp_path), "m1", "machiavelli", ((ALICE, "VENICE"), (BOB, "MILAN")))
    judge.send(GM, f"{MASTER}\nSET SILENCE ON\nSET SILENCE EXTENSIONS 0\nSET SILENCE ABANDON 1")
    judge.send(OBSERVER, "OBSERVE m1")
    judge.new_mail()
    return judge


def test_M65_the_abandonment_notice_names_the_campaign_at_whose_end_the_country_is_eliminated(
        tmp_path: Path) -> None:
    """Alice sends nothing for the spring letter: at its deadline Venice is abandoned.  The
    campaign that eliminates it is SP1454C, whose deadline is Monday 2026-01-12 12:00 UTC; its
    former player, the master, Milan's player and the observer are each told so, in one mail."""
    judge = two_countries(tmp_path)
    judge.send(BOB, "SIGNON Milan@m1 bob-pw\npay A mil")
    judge.later(72)
    judge.tick()
    mails = judge.new_mail()
    told = {m.to: m.body.replace("\n", " ") for m in mails if m.subject == "m1: Venice declared abandoned"}
    assert set(told) == {ALICE, GM, BOB, OBSERVER}
    said = ("unless a substitute leader takes it over before Spring 1454's campaign (SP1454C) is carried out, at its "
            "deadline, 2026-01-12 12:00 UTC, Venice is eliminated then, its units becoming independent (18.3, 4.3, "
            "M62)")
    assert all(said in body for body in told.values()), told
    assert all("plays by the defaults (17.2, M50)" in body for body in told.values())
    assert "You have not acted in SP1454A of m1, so the judge has declared Venice abandoned" in told[ALICE]


def test_M65_a_substitute_leader_who_comes_in_time_keeps_the_country_alive(tmp_path: Path) -> None:
    judge = two_countries(tmp_path)
    judge.later(72)
    judge.tick()  # Venice and Milan abandoned
    judge.later(1)
    judge.send(CAROL, "WHOGAME m1")
    assert "Venice: vacant (its player left), open for TAKEOVER" in judge.last_to(CAROL).body
    judge.confirmed(CAROL)
    judge.send(CAROL, "TAKEOVER VENICE@m1 carol-pw")
    assert judge.outcome_of("TAKEOVER VENICE@m1 ****") == ("ok", None)
    assert "m1: your briefing as Venice" in [m.subject for m in judge.new_mail() if m.to == CAROL]
    judge.later(95)
    judge.tick()  # SP1454C: Milan, with no substitute, is eliminated; Venice plays on
    judge.send(CAROL, "SIGNON Venice@m1 carol-pw\nSTATUS")
    assert judge.outcome_of("STATUS")[0] == "info"
    assert "eliminated" not in judge.last_to(CAROL).body.split("> STATUS")[1].split("\n")[1]


def test_4_3_an_eliminated_country_is_given_no_form_and_a_country_playing_on_is(tmp_path: Path) -> None:
    judge = two_countries(tmp_path)
    judge.later(72)
    judge.tick()  # Venice and Milan abandoned
    judge.confirmed(CAROL)
    judge.send(CAROL, "TAKEOVER VENICE@m1 carol-pw")
    judge.later(96)
    judge.tick()  # SP1454C: Milan, with no substitute, is eliminated; Venice plays on
    assert state(judge) == ("active", "SU1454C")
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == "m1")).one()
        kind = kind_of(session, game)
        venice, milan = kind.form(session, game, "Venice"), kind.form(session, game, "Milan")
    assert venice is not None and venice.phase == "SU1454C" and venice.lines
    assert milan is None


def test_M65_a_campaign_that_would_eliminate_a_leaderless_country_waits_for_the_deadline_its_notice_named(
        tmp_path: Path) -> None:
    """Venice is abandoned at the spring letter's deadline, Thursday 2026-01-08 12:00, its notice
    naming SP1454C's deadline, Monday 12th 12:00.  Milan's campaign letter is in at once, the only
    one awaited, but SP1454C does not close early: on Saturday 10th Carol takes Venice over, and once
    her letter is in too the campaign closes, and Venice plays on."""
    judge = two_countries(tmp_path)
    judge.send(BOB, "SIGNON Milan@m1 bob-pw\npay A mil")
    judge.later(72)
    judge.tick()
    judge.send(BOB, "SIGNON Milan@m1 bob-pw\nA mil H")
    judge.later(1)
    judge.tick()
    assert state(judge) == ("active", "SP1454C")
    judge.later(45)
    judge.confirmed(CAROL)
    judge.send(CAROL, "TAKEOVER VENICE@m1 carol-pw")
    assert judge.outcome_of("TAKEOVER VENICE@m1 ****") == ("ok", None)
    assert state(judge) == ("active", "SP1454C")
    judge.send(CAROL, "SIGNON Venice@m1 carol-pw\nA ven H")
    assert state(judge) == ("active", "SU1454C")
    judge.send(CAROL, "WHOGAME m1")
    assert "Venice: played by carol@example.org" in judge.last_to(CAROL).body


def test_M65_an_eliminated_country_is_never_offered_as_vacant(tmp_path: Path) -> None:
    """Venice abandoned at the spring letter's deadline, eliminated when the spring campaign ends:
    WHOGAME, LIST and the game's pages say so, and do not offer it for TAKEOVER."""
    judge = two_countries(tmp_path)
    judge.send(GM, f"{MASTER}\nSET OPENING Florence")  # a dummy opened: still offered
    judge.send(BOB, "SIGNON Milan@m1 bob-pw\npay A mil")
    judge.later(72)
    judge.tick()
    judge.send(BOB, "SIGNON Milan@m1 bob-pw\nA mil H")
    judge.later(96)
    judge.tick()
    judge.send(CAROL, "WHOGAME m1\nLIST m1")
    answer = judge.last_to(CAROL).body
    assert "Venice: vacant" not in answer and answer.count("Venice: out of the game") == 2
    assert "Florence: a dummy, open for TAKEOVER" in answer
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == "m1")).one()
        shown = {seat.name: seat for seat in kind_of(session, game).facts(session, game).seats}
    assert (shown["Venice"].status, shown["Venice"].open) == ("out", False)  # the pages: eliminated


def test_H1_a_game_every_country_of_which_is_eliminated_ends_at_once_as_deserted(tmp_path: Path) -> None:
    """All eight countries played; seven send no spring letter and are abandoned at its deadline,
    Venice's player resigns during the spring campaign: when it is carried out every country is
    eliminated (M62), and the game ends then as deserted, without waiting a phase more."""
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE m1 gm-secret machiavelli")
    judge.send(GM, f"{MASTER}\nSET SILENCE ON\nSET SILENCE EXTENSIONS 0\nSET SILENCE ABANDON 1")
    for country in COUNTRIES:
        judge.send(address(country), f"JOIN m1 pw-{country.lower()} {country}")
    judge.send(GM, f"{MASTER}\nSTART")
    judge.send(address("Venice"), "SIGNON Venice@m1 pw-venice\npay A ven")
    judge.later(72)
    assert judge.tick() == ["m1 SP1454A processed; next SP1454C"]
    judge.send(address("Venice"), "SIGNON Venice@m1 pw-venice\nRESIGN")
    judge.later(96)
    assert judge.tick() == ["m1 SP1454C processed; next None"]
    assert state(judge)[0] == "finished"
    ended = {m.to: m.body for m in judge.new_mail() if m.subject == "m1 has ended"}
    assert set(ended) == {GM, *(address(country) for country in COUNTRIES)}
    assert "has ended: deserted (nobody plays in it, and no seat can be taken over again)" in ended[GM]


def test_H1_a_deserted_games_end_publication_has_no_winner_and_no_ranking(tmp_path: Path) -> None:
    """Venice abandoned at the spring letter's deadline, Milan's player resigns in the spring
    campaign: both are eliminated when it is carried out, and nobody plays the six dummies; nobody
    takes one over in the summer campaign, and the game ends deserted.  Its end publication ranks
    nobody (H1), where a game that ended otherwise ranks every country by 4.2."""
    judge = two_countries(tmp_path)
    judge.send(BOB, "SIGNON Milan@m1 bob-pw\npay A mil")
    judge.later(72)
    judge.tick()
    judge.send(BOB, "SIGNON Milan@m1 bob-pw\nRESIGN")
    judge.later(96)
    judge.tick()
    judge.later(96)
    judge.tick()
    assert state(judge)[0] == "finished"
    ended = next(m.body for m in judge.new_mail() if m.to == OBSERVER and m.subject == "m1 has ended")
    assert "Nobody won, and nobody is ranked: the game was deserted (ruling H1)." in ended
    assert "Ranking" not in ended and "standing" not in ended


def test_M62_the_resignation_notice_names_the_campaign_and_when_its_deadline_is_set(tmp_path: Path) -> None:
    """Alice resigns Venice during the spring letter: the campaign that eliminates it unless a
    substitute comes is SP1454C, whose deadline is set when SP1454A (due Thursday 2026-01-08
    12:00) is carried out; everyone is told so, and Alice's answer says it too."""
    judge = two_countries(tmp_path)
    judge.send(ALICE, "SIGNON Venice@m1 alice-pw\nRESIGN")
    said = ("unless a substitute leader takes Venice over before Spring 1454's campaign (SP1454C) is carried out, at "
            "the deadline it gets when the spring letter (SP1454A, due 2026-01-08 12:00 UTC) is carried out, it is "
            "eliminated then (18.3, 4.3, M62)")
    assert said in judge.answer("RESIGN").message
    news = {m.to: m.body.replace("\n", " ") for m in judge.new_mail() if m.to != ALICE}
    assert ("Venice has no leader: unless a substitute takes it over (TAKEOVER Venice@m1 password) before Spring "
            "1454's campaign (SP1454C) is carried out, at the deadline it gets when the spring letter (SP1454A, due "
            "2026-01-08 12:00 UTC) is carried out, Venice is eliminated then") in news[OBSERVER]


def test_M62_the_resignation_notice_names_the_campaigns_deadline_once_it_is_open(tmp_path: Path) -> None:
    judge = two_countries(tmp_path)
    judge.send(ALICE, "SIGNON Venice@m1 alice-pw\npay A ven")
    judge.send(BOB, "SIGNON Milan@m1 bob-pw\npay A mil")  # SP1454A closes at once: SP1454C due 96 hours on
    judge.send(ALICE, "SIGNON Venice@m1 alice-pw\nRESIGN")
    assert ("before Spring 1454's campaign (SP1454C) is carried out, at its deadline, 2026-01-09 12:00 UTC, it is "
            "eliminated then") in judge.answer("RESIGN").message


def test_the_notices_write_a_country_of_several_words_as_a_takeover_reads_it(tmp_path: Path) -> None:
    """AoP's Holy Roman Empire: a TAKEOVER names it with its words joined by hyphens, as SIGNON
    does.  Its player falls silent through the spring letter (due 72 hours after the start) and
    it is abandoned: the master's notice and its former player's give the line a newcomer can
    send as it is; Carol sends the master's, and it takes the Empire over."""
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE plague gm-secret machiavelli aop")
    judge.send(GM, "SIGNON MASTER@plague gm-secret\nSET SILENCE ON\nSET SILENCE EXTENSIONS 0\nSET SILENCE ABANDON 1")
    judge.send(ALICE, "JOIN plague alice-pw Holy Roman Empire")
    judge.send(BOB, "JOIN plague bob-pw Milan")
    judge.send(GM, "SIGNON MASTER@plague gm-secret\nSTART")
    judge.send(BOB, "SIGNON Milan@plague bob-pw\nraise A mil")
    judge.new_mail()
    judge.later(72)
    judge.tick()
    told = {m.to: m.body.replace("\n", " ") for m in judge.new_mail()
            if m.subject == "plague: Holy Roman Empire declared abandoned"}
    assert "Anyone not playing in plague may take it over: TAKEOVER Holy-Roman-Empire@plague password" in told[GM]
    assert "you may take it over yourself: TAKEOVER Holy-Roman-Empire@plague and a new password" in told[ALICE]
    judge.confirmed(CAROL)
    judge.send(CAROL, "TAKEOVER Holy-Roman-Empire@plague carol-pw")
    assert judge.outcome_of("TAKEOVER Holy-Roman-Empire@plague ****") == ("ok", None)


def test_the_resignation_notice_writes_a_country_of_several_words_as_a_takeover_reads_it(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE plague gm-secret machiavelli aop")
    judge.send(ALICE, "JOIN plague alice-pw Holy Roman Empire")
    judge.send(BOB, "JOIN plague bob-pw Milan")
    judge.send(OBSERVER, "OBSERVE plague")
    judge.send(GM, "SIGNON MASTER@plague gm-secret\nSTART")
    judge.new_mail()
    judge.send(ALICE, "SIGNON Holy-Roman-Empire@plague alice-pw\nRESIGN")
    resigned = next(m.body for m in judge.new_mail() if m.to == OBSERVER).replace("\n", " ")
    assert "(TAKEOVER Holy-Roman-Empire@plague password)" in resigned


def test_a_dummy_of_several_words_opened_is_offered_as_a_takeover_reads_it(tmp_path: Path) -> None:
    """Nobody plays AoP's Holy Roman Empire, a dummy; the master opens it for a substitute."""
    judge = Judge(tmp_path)
    judge.send(GM, "CREATE plague gm-secret machiavelli aop")
    judge.send(ALICE, "JOIN plague alice-pw Venice")
    judge.send(BOB, "JOIN plague bob-pw Milan")
    judge.send(GM, "SIGNON MASTER@plague gm-secret\nSTART")
    judge.send(GM, "SIGNON MASTER@plague gm-secret\nSET OPENING Holy-Roman-Empire")
    assert "TAKEOVER Holy-Roman-Empire@plague password" in judge.last_to(GM).body
    assert "is open for a new player: TAKEOVER Holy-Roman-Empire@plague password" in judge.last_to(ALICE).body
