"""The weekly clock's arithmetic (`judge.service.hosting.weekly`): deadlines at a time of day, in a named
zone, on chosen weekdays, across the changes of summer time both ways.  Every expected moment is
worked out by hand from the zone's rules: Europe/Paris is UTC+1 in winter and UTC+2 in summer,
its clocks going forward on the last Sunday of March at 02:00 (2027-03-28) and back on the last
Sunday of October at 03:00 (2027-10-31); America/New_York is UTC-5 in winter and UTC-4 in summer,
going forward on the second Sunday of March (2027-03-14)."""

from __future__ import annotations

from datetime import date, datetime, time

import pytest

from judge.service.hosting.weekly import Weekly, read_rule

MONDAY_THURSDAY_PARIS = Weekly((0, 3), time(12, 0), "Europe/Paris")
TODAY = date(2027, 3, 1)


def test_a_deadline_is_the_next_weekday_at_the_time_in_the_zone_in_winter() -> None:
    """Opened Monday 2027-03-22 11:30 UTC: Thursday 25 at 12:00 Paris winter time is 11:00 UTC."""
    assert MONDAY_THURSDAY_PARIS.deadline(datetime(2027, 3, 22, 11, 30)) == datetime(2027, 3, 25, 11, 0)


def test_a_deadline_after_the_clocks_go_forward_keeps_its_wall_clock_time() -> None:
    """Opened Thursday 2027-03-25 12:05 UTC (13:05 in Paris): the next is Monday 29 at 12:00 Paris
    summer time, 10:00 UTC, the clocks having gone forward on the Sunday between."""
    assert MONDAY_THURSDAY_PARIS.deadline(datetime(2027, 3, 25, 12, 5)) == datetime(2027, 3, 29, 10, 0)


def test_a_deadline_after_the_clocks_go_back_keeps_its_wall_clock_time() -> None:
    """Opened Thursday 2027-10-28 10:05 UTC (12:05 summer time in Paris, after that day's
    12:00): Monday 2027-11-01 at 12:00 winter time is 11:00 UTC."""
    assert MONDAY_THURSDAY_PARIS.deadline(datetime(2027, 10, 28, 10, 5)) == datetime(2027, 11, 1, 11, 0)


def test_a_phase_is_never_shorter_than_the_rules_least() -> None:
    """Opened Thursday 2027-03-25 05:00 UTC: with the default 12 hours the phase may end no
    sooner than 17:00 UTC, after that Thursday's 11:00 UTC, so it is due on Monday 29 (10:00 UTC,
    summer time); with an hour at least, that Thursday's 11:00 UTC it is."""
    opened = datetime(2027, 3, 25, 5, 0)
    assert MONDAY_THURSDAY_PARIS.deadline(opened) == datetime(2027, 3, 29, 10, 0)
    shortest = Weekly((0, 3), time(12, 0), "Europe/Paris", least=1.0)
    assert shortest.deadline(opened) == datetime(2027, 3, 25, 11, 0)


def test_a_time_the_clocks_skip_is_read_an_hour_later_and_one_they_pass_twice_as_the_first() -> None:
    """Paris, every day at 02:30.  On 2027-03-28 the clocks jump from 02:00 to 03:00: 02:30 is
    read with the winter offset, 01:30 UTC (03:30 by the new clock).  On 2027-10-31 they go back
    from 03:00 to 02:00, so 02:30 comes twice: the first, summer time, is 00:30 UTC."""
    nightly = Weekly(tuple(range(7)), time(2, 30), "Europe/Paris", least=1.0)
    assert nightly.first_from(datetime(2027, 3, 27, 12, 0)) == datetime(2027, 3, 28, 1, 30)
    assert nightly.first_from(datetime(2027, 10, 30, 12, 0)) == datetime(2027, 10, 31, 0, 30)


def test_a_zone_west_of_utc_changes_on_its_own_date() -> None:
    """New York, Mondays at 09:00: Monday 2027-03-08 is winter time (14:00 UTC); Monday 15,
    after the clocks went forward on the 14th, is summer time (13:00 UTC)."""
    mondays = Weekly((0,), time(9, 0), "America/New_York")
    assert mondays.deadline(datetime(2027, 3, 5, 12, 0)) == datetime(2027, 3, 8, 14, 0)
    assert mondays.deadline(datetime(2027, 3, 8, 15, 0)) == datetime(2027, 3, 15, 13, 0)


def test_every_other_week_keeps_to_the_weeks_counted_from_its_start() -> None:
    """Thursdays of every other week from the week of Monday 2027-03-01, UTC: opened Tuesday 2nd,
    due Thursday 4th (week 0); opened Friday 5th, week 1 is skipped, due Thursday 18th (week 2)."""
    fortnightly = Weekly((3,), time(12, 0), "UTC", every=2, week0=date(2027, 3, 1))
    assert fortnightly.deadline(datetime(2027, 3, 2, 9, 0)) == datetime(2027, 3, 4, 12, 0)
    assert fortnightly.deadline(datetime(2027, 3, 5, 9, 0)) == datetime(2027, 3, 18, 12, 0)


@pytest.mark.parametrize("words", ["MON THU 12:00", "MON,THU 12:00", "monday thursdays 1200", "-M--T-- 12:00"])
def test_the_days_are_read_by_name_or_as_njudge_writes_them(words: str) -> None:
    assert read_rule(words.split(), "UTC", TODAY) == Weekly((0, 3), time(12, 0), "UTC")


def test_a_rule_reads_its_zone_its_least_and_its_weeks() -> None:
    rule = read_rule("THU 12:00 Europe/Paris AT LEAST 2d EVERY 2 WEEKS FROM NEXT WEEK".split(), "UTC",
                     date(2027, 3, 3))
    assert rule == Weekly((3,), time(12, 0), "Europe/Paris", 48.0, 2, date(2027, 3, 8))
    assert Weekly.from_data(rule.data()) == rule
    assert read_rule(["DAILY", "18:00"], "America/New_York", TODAY).zone == "America/New_York"


@pytest.mark.parametrize("words", ["12:00", "MON", "FUNDAY 12:00", "MON 25:00", "MON 12:00 Mars/Olympus",
                                   "MON 12:00 AT LEAST 10m", "MON 12:00 EVERY 9 WEEKS", "MON 12:00 SOON"])
def test_a_rule_that_cannot_be_read_is_refused_with_a_reason(words: str) -> None:
    with pytest.raises(ValueError, match=r"\w"):
        read_rule(words.split(), "UTC", TODAY)


def test_a_rule_says_itself_in_words() -> None:
    assert MONDAY_THURSDAY_PARIS.words() == "Mondays and Thursdays at 12:00 (Europe/Paris), at least 12 hours a phase"
