"""A season of Absence of Plague by mail through a running judge (the daemon ``judge serve``
runs, by SMTP on loopback): thirteen addresses join an AoP game, the game master starts it, and
every player writes the first spring's letter (A orders) and the spring campaign's letter (C
orders); three write in the summer, and the game master closes the summer (PROCESS).  Each
player's private statement is checked to the ducat against figures worked out by hand from the
rules, and nothing of another player's treasury or letters reaches a player.

The letters (`SPRING`, `CAMPAIGN`, `SUMMER`) and the sums:

* SP1459A, the first spring: 15 ducats each, no income, at most three units raised (AoP 3, M48),
  3 ducats a unit (7.3).  Savoy sells Pontremoli to Milan for 3 (A.5: at least its tax income,
  1 ducat, a province without a city: 6, M2, M10); Milan taxes Como by force (A.6: its province's
  1 ducat again, and Como rebels against Milan: 5.3, M11); Dalmatia gives Turkey 6 (A.4), which
  Turkey spends in A.7 (M31); the Pope excommunicates Genoa (A.7, 15).  France 15 - 9 = 6;
  Savoy 15 + 3 - 6 = 12; Genoa 6; the Holy Roman Empire 6; Milan 15 - 3 + 1 - 9 = 4; Venice 6;
  Ferrara 6; Florence 15 - 3 = 12; Papacy 6; Naples 6; Sicily 6; Dalmatia 15 - 6 - 6 = 3;
  Turkey 15 + 6 - 6 = 15.
* SP1459C, every player's letter.  D.1: Naples (whose corrected letter leaves its transfer out:
  the transfer of its first letter stands, 17.1, M35), Sicily 6 each and Savoy 3 to Turkey;
  the Holy Roman Empire 3 to Ferrara; Sicily's 6 to itself is refused as it is read (8.1); Genoa's
  3 to Savoy is not carried out nor charged (Genoa is excommunicated until the campaign ends: 15,
  M32).  D.2: Turkey, with 15 + 6 + 6 + 3 = 30, assassinates Venice for 30 (no bodyguard for
  Venice: 30 is 30 above nothing, 10); Dalmatia's bodyguard 3 is charged though nobody tries
  (10).  Venice's D.4 counter-bribe is skipped, not charged, and its units hold (10, M20, M40),
  their orders not disclosed (M61).  D.3: Genoa starts a rebellion in Massa, a province an
  independent unit controls: 3 ducats (11.1).  D.4: Florence's bribe of 12 makes the Papal army
  in Perugia independent (minimum 9, 12b: 3 above it, not smaller than the Pope's counter-bribe
  of 3, 12); both are charged.  F: Florence's army takes Siena's province
  (the independent garrison keeps the city); the Pope's order to the army bribed away is ignored
  (8.2); Milan's army enters its rebelling Como.  France 6; Savoy 12 - 3 = 9; Genoa 6 - 3 = 3; the
  Empire 6 - 3 = 3; Milan 4 - 3 = 1 (a counter-bribe); Venice 6; Ferrara 6 + 3 = 9; Florence
  12 - 12 = 0; Papacy 6 - 3 = 3; Naples 6 - 6 = 0; Sicily 6 - 6 = 0; Dalmatia 3 - 3 = 0; Turkey
  15 + 15 - 30 = 0.
* SU1459C: Florence besieges Siena (9.4); Milan's army holds in Como and puts the rebellion down
  (11.3, M45); the Pope writes too; the ten others send nothing: no expenditure, every unit
  holds (17.2, M50).  The game master closes the phase before its deadline.  No ducat moves.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from judge.bootstrap import kinds
from judge.service.hosting.scripts import DemoJudge, text_of
from judge.service.operators.demo import demo_judge

GAME = "plague"
GM = "gm@example.org"
PLAYERS = {"France": "fra", "Savoy": "sav", "Genoa": "gen", "Holy Roman Empire": "hre", "Milan": "mil",
           "Venice": "ven", "Ferrara": "fer", "Florence": "flo", "Papacy": "pap", "Naples": "nap",
           "Sicily": "sic", "Dalmatia": "dal", "Turkey": "tur"}
SPRING = {
    "France": ["raise A lyo", "raise F mar", "raise A avi"],
    "Savoy": ["sell Pontremoli to Milan for 3", "raise A tor", "raise F niz"],
    "Genoa": ["raise F gen", "raise A mon", "raise F vnt"],
    "Holy Roman Empire": ["raise A ste", "raise G tir", "raise F tri"],
    "Milan": ["buy Pontremoli from Savoy for 3", "tax Como", "raise A mil", "raise A pav", "raise G cre"],
    "Venice": ["raise F ven", "raise A pad", "raise A ver"],
    "Ferrara": ["raise A fer", "raise A bol", "raise G mod"],
    "Florence": ["raise A are"],
    "Papacy": ["raise A per", "raise A urb", "raise F anc", "excommunicate Genoa"],
    "Naples": ["raise F nap", "raise A slr", "raise A bar"],
    "Sicily": ["raise F pal", "raise F mes", "raise A sir"],
    "Dalmatia": ["transfer 6 to Turkey", "raise F zar", "raise A spa"],
    "Turkey": ["raise F dur", "raise F mal"],
}
NAPLES_FIRST = ["transfer 6 to Turkey", "F nap H", "A slr H", "A bar H"]  # corrected below (17.1, M35)
CAMPAIGN = {
    "France": ["F mar - sot", "A lyo H", "A avi H"],
    "Savoy": ["transfer 3 to Turkey", "A tor H", "F niz H"],
    "Genoa": ["transfer 3 to Savoy", "rebellion Massa", "F gen - lig", "A mon H", "F vnt H"],
    "Holy Roman Empire": ["transfer 3 to Ferrara", "A ste H", "G tir H", "F tri H"],
    "Milan": ["counter-bribe 3 G cre", "A mil - com", "A pav H", "G cre H"],
    "Venice": ["counter-bribe 3 A ver", "F ven - lag", "A pad - vic", "A ver H"],
    "Ferrara": ["A fer H", "A bol H", "G mod H"],
    "Florence": ["bribe 12 independent A per", "A are - sie"],
    "Papacy": ["counter-bribe 3 A per", "A per - sie", "A urb H", "F anc H"],
    "Naples": ["F nap - bon", "A slr H", "A bar H"],
    "Sicily": ["transfer 6 to Sicily", "transfer 6 to Turkey", "F pal H", "F mes H", "A sir H"],
    "Dalmatia": ["bodyguard 3", "F zar H", "A spa H"],
    "Turkey": ["assassinate Venice 30", "F dur H", "F mal H"],
}
SUMMER = {
    "Florence": ["A sie besiege", "A are H"],
    "Milan": ["A com H", "A pav H", "G cre H"],
    "Papacy": ["A urb H", "F anc H"],
}
SPRING_TREASURIES = {"France": (15, 6), "Savoy": (15, 12), "Genoa": (15, 6), "Holy Roman Empire": (15, 6),
                     "Milan": (15, 4), "Venice": (15, 6), "Ferrara": (15, 6), "Florence": (15, 12),
                     "Papacy": (15, 6), "Naples": (15, 6), "Sicily": (15, 6), "Dalmatia": (15, 3),
                     "Turkey": (15, 15)}
CAMPAIGN_TREASURIES = {"France": (6, 6), "Savoy": (12, 9), "Genoa": (6, 3), "Holy Roman Empire": (6, 3),
                       "Milan": (4, 1), "Venice": (6, 6), "Ferrara": (6, 9), "Florence": (12, 0),
                       "Papacy": (6, 3), "Naples": (6, 0), "Sicily": (6, 0), "Dalmatia": (3, 0),
                       "Turkey": (15, 0)}
PRESS = "Who paid the Turk? Ask for me at the Rialto."


def address(country: str) -> str:
    return f"{PLAYERS[country]}@example.org"


def signon(country: str) -> str:
    """The SIGNON line, as the start mail writes it: a name of three words joined by hyphens."""
    return f"SIGNON {country.replace(' ', '-')}@{GAME} pw-{PLAYERS[country]}"


@dataclass(frozen=True)
class Season:
    """What the judge sent: to each address, every mail's subject and text, oldest first."""

    mails: dict[str, list[tuple[str, str]]]
    replies: dict[str, str]  # the answer to the Naples correction and the third letter, by name

    def results(self, country: str, phase: str) -> str:
        [text] = [body for subject, body in self.mails[address(country)] if subject == f"{GAME} {phase} results"]
        return text


def write(judge: DemoJudge, country: str, lines: list[str]) -> str:
    return text_of(judge.answer(address(country), "\n".join([signon(country), *lines])))


def write_all(judge: DemoJudge, letters: dict[str, list[str]]) -> dict[str, str]:
    """Each country's letter, all sent at once as before a deadline; the answers by the country's name in lower case."""
    mails = [(address(country), "\n".join([signon(country), *lines])) for country, lines in letters.items()]
    return {country.lower(): text_of(answer) for country, answer in zip(letters, judge.answers(mails), strict=True)}


@pytest.fixture(scope="module")
def season() -> Iterator[Season]:
    with demo_judge(kinds(), maps=False) as judge:
        judge.send(GM, f"CREATE {GAME} gm-pw machiavelli aop")
        judge.confirm(GM)
        for country, name in PLAYERS.items():
            judge.send(address(country), f"JOIN {GAME} pw-{name} {country}")
        for country in PLAYERS:
            judge.confirm(address(country))
        judge.send(GM, f"SIGNON MASTER@{GAME} gm-pw\nSTART")
        judge.wait_for(f"{GAME} starts", address("Turkey"))
        replies = {}
        write_all(judge, SPRING)
        judge.wait_for(f"{GAME} SP1459A results", address("Turkey"))
        replies["first"] = write(judge, "Naples", NAPLES_FIRST)
        replies["correction"] = write(judge, "Naples", CAMPAIGN["Naples"])
        replies["third"] = write(judge, "Naples", ["A bar - cap"])
        press = f"{signon('Venice')}\nPRESS TO Holy Roman Empire\n{PRESS}\nENDPRESS"  # a name of three words
        replies["press"] = text_of(judge.answer(address("Venice"), press))
        replies.update(write_all(judge, {country: lines for country, lines in CAMPAIGN.items() if country != "Naples"}))
        judge.wait_for(f"{GAME} SP1459C results", address("Turkey"))
        write_all(judge, SUMMER)
        judge.send(GM, f"SIGNON MASTER@{GAME} gm-pw\nPROCESS")
        judge.wait_for(f"{GAME} SU1459C results", address("Turkey"))
        mails: dict[str, list[tuple[str, str]]] = {}
        for mail in judge.mails():
            mails.setdefault(str(mail["To"]), []).append((str(mail["Subject"]), text_of(mail)))
    yield Season(mails, replies)


def treasury(before: int, after: int) -> str:
    def ducats(n: int) -> str:
        return f"{n} ducat" if n == 1 else f"{n} ducats"
    return f"Your treasury: {ducats(before)} before, {ducats(after)} now."


@pytest.mark.parametrize("country", PLAYERS)
def test_3_M48_each_first_spring_statement_to_the_ducat(season: Season, country: str) -> None:
    before, after = SPRING_TREASURIES[country]
    statement = season.results(country, "SP1459A")
    assert f"For {country} alone:\n{treasury(before, after)}" in statement


@pytest.mark.parametrize("country", PLAYERS)
def test_each_campaign_statement_to_the_ducat(season: Season, country: str) -> None:
    before, after = CAMPAIGN_TREASURIES[country]
    assert f"For {country} alone:\n{treasury(before, after)}" in season.results(country, "SP1459C")


def test_6_5_3_the_trade_and_the_forced_tax_in_the_buyers_and_sellers_books(season: Season) -> None:
    assert "  +3 A.5 sale: Pontremoli (pon) sold to Milan" in season.results("Savoy", "SP1459A")
    milan = season.results("Milan", "SP1459A")
    assert "  -3 A.5 purchase: Pontremoli (pon) bought from Savoy" in milan
    assert "  +1 A.6 forced tax: Como (com) taxed by force" in milan
    public = season.results("France", "SP1459A")
    assert "  Pontremoli (pon): from Savoy to Milan\n" in public
    assert "Como (com) was taxed by force and rebels against Milan" in public


def test_15_M32_the_excommunicated_genoa_may_give_nothing_and_is_not_charged(season: Season) -> None:
    assert "Excommunicated (chapter 15):\n  Genoa" in season.results("Sicily", "SP1459A")
    assert "Excommunicated: Genoa (until the campaign of Spring 1459 is over, 15)" in season.results("Sicily",
                                                                                                  "SP1459A")
    genoa = season.results("Genoa", "SP1459C")
    assert ("transfer 3 to Savoy (D.1): not carried out, not charged: an excommunicated player may neither give "
            "nor receive ducats (15, M32)") in genoa
    assert "  -3 D.3 expenditure: rebellion Massa (mas)" in genoa


def test_8_1_sicilys_transfer_to_itself_is_refused_as_it_is_read_and_never_charged(season: Season) -> None:
    assert ("> transfer 6 to Sicily\n  ERROR: read as 'transfer 6 to Sicily': a transfer names another player, never "
            "its writer: not carried out, not charged (8.1)") in season.replies["sicily"]
    sicily = season.results("Sicily", "SP1459C")
    assert "transfer 6 to Sicily" not in sicily
    assert "  -6 D.1 transfer out: transfer to Turkey\nYour expenditures" in sicily  # its only movement


def test_10_M20_M61_turkey_assassinates_venice_with_ducats_received_in_d1_and_venices_orders_stay_secret(
        season: Season) -> None:
    turkey = season.results("Turkey", "SP1459C")
    for line in ("  +6 D.1 transfer in: transfer from Naples", "  +3 D.1 transfer in: transfer from Savoy",
                 "  +6 D.1 transfer in: transfer from Sicily", "  -30 D.2 expenditure: assassinate Venice 30"):
        assert line in turkey
    venice = season.results("Venice", "SP1459C")
    assert ("counter-bribe 3 A Verona (ver) (D.4): not carried out, not charged: the writer's leader was "
            "assassinated") in venice
    public = season.results("France", "SP1459C")
    assert "Assassinated (chapter 10):\n  the leader of Venice" in public
    assert "Venice A Padova (pad) H: its leader was assassinated" in public  # its written advance undisclosed (M61)
    assert "Vicenza (vic)" not in public.split("Assassinated")[0] and "pad - vic" not in public
    assert "Turkey" not in public.split("Assassinated (chapter 10):")[1].split("\n")[1]  # the assassin is not named


def test_12_florences_bribe_beats_the_popes_counter_bribe_and_both_are_charged(season: Season) -> None:
    florence = season.results("Florence", "SP1459C")
    assert "  -12 D.4 expenditure: bribe 12 independent A Perugia (per)" in florence
    assert "bribe 12 independent A Perugia (per) (D.4): carried out, charged 12 ducats: the bribe succeeded" in florence
    papacy = season.results("Papacy", "SP1459C")
    assert "  -3 D.4 expenditure: counter-bribe 3 A Perugia (per)" in papacy
    assert "your A Perugia (per) was bribed: now independent A Perugia (per)" in papacy
    public = season.results("France", "SP1459C")
    assert "Bribes (chapter 12): units that changed sides\n  Papacy A Perugia (per) is now independent" in public
    assert "A Perugia (per) - Siena (sie)" not in public  # the order to a unit bribed away is not disclosed (12, 8.2)
    assert "Florence" not in public.split("Bribes (chapter 12)")[1].split("Rebellions")[0]  # nor who bribed it


def test_11_1_a_rebellion_in_massa_and_9_4_a_siege_of_siena(season: Season) -> None:
    assert "Massa (mas) rebels against independent Massa (mas)" in season.results("Milan", "SP1459C")
    summer = season.results("France", "SU1459C")
    assert "Florence A Siena (sie) B: besieged the city: first successful season (9.4, M22)" in summer
    assert "Sieges in progress: Siena (sie) besieged by Florence for 1 season" in summer
    assert "Como (com) no longer rebels against Milan" in summer  # put down by a given Hold (11.3, M45)


def test_M35_naples_corrects_its_letter_once_and_its_first_transfer_stands(season: Season) -> None:
    assert "Kept from your first letter: transfer 6 to Turkey" in season.replies["correction"]
    assert "corrected once at most before the deadline (17.1, M35): your correction stands" in season.replies["third"]
    assert "A Bari (bar) - Capua (cap)" not in season.results("Naples", "SP1459C")
    naples = season.results("Naples", "SP1459C")
    assert "  -6 D.1 transfer out: transfer to Turkey" in naples
    assert "Naples F Napoli (nap) - Bay of Naples (bon)" in naples


def test_M50_who_sends_nothing_spends_nothing_and_every_unit_holds(season: Season) -> None:
    france = season.results("France", "SU1459C")
    assert "You sent no letter: no expenditure, and every unit holds (17.2, M50)." in france
    assert f"For France alone:\n{treasury(6, 6)}" in france
    assert "France A Lyon (lyo) H: no order was given: the unit holds (9.2, M50)" in france
    assert "The game master processed SU1459C early" in france


def test_18_1_grey_press_reaches_its_reader_without_its_senders_name(season: Season) -> None:
    [press] = [body for subject, body in season.mails[address("Holy Roman Empire")] if "press" in subject]
    assert PRESS in press and "Venice" not in press
    assert "grey press sent to Holy Roman Empire" in season.replies["press"]


def test_3_the_holy_roman_empire_is_told_its_name_and_signs_on_with_it(season: Season) -> None:
    [start] = [body for subject, body in season.mails[address("Holy Roman Empire")] if subject == f"{GAME} starts"]
    assert "You play Holy Roman Empire" in start and f"SIGNON Holy-Roman-Empire@{GAME} yourpassword" in start
    for _, body in season.mails[address("France")]:
        assert "Austria" not in body


def test_8_1_no_player_is_told_anothers_treasury_or_letters(season: Season) -> None:
    for country in PLAYERS:
        text = "\n".join(body for _, body in season.mails[address(country)])
        mine = set(SPRING[country]) | set(CAMPAIGN[country]) | set(SUMMER.get(country, []))
        mine |= set(NAPLES_FIRST) if country == "Naples" else set()
        for other in (c for c in PLAYERS if c != country):
            secret = [line for line in SPRING[other] + CAMPAIGN[other] if line not in mine
                      and not re.match(r"[AFG] ", line)]  # operations are published in F
            assert not [line for line in secret if line in text], (country, other)
            assert not re.search(rf"^.*\b{other}\b.*\btreasur.*$", text, re.M | re.I), (country, other)
            assert f"For {other} alone" not in text, (country, other)
