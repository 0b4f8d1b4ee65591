"""Every number and date a mail can carry is bounded and answered in words, in every kind: a number
of 5,000 digits (Python refuses to read one of more than 4,300), 1 written with 5,000 leading zeros
(read as 1, or refused where 1 is not enough), a figure of another script (``²``, which Python calls
a digit but will not read as a number), a date at either end of the calendar (``0001-01-01`` in a
zone east of UTC is before the first moment Python can write in UTC), an offset from UTC that no
zone has.  Each line is refused with the reason in the judge's words (what the command takes),
never Python's, quoting no more of the number than the judge quotes of any word (60 characters at
most); and the mail is applied, not quarantined.  The hostile-mail budget's grammars
(`tests.service.test_hostile_mail_budget`) write the same at random.

Each line is sent alone, signed on, in a mail of its own, to each kind's game under way
(`tests.service.every_kind`), whose zone is Tokyo's (UTC+9): a date of year 1 falls before UTC's
first day, and a moment of year 9999 after its last."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.service.every_kind import KINDS, Kind
from tests.support.harness import Judge
from tests.support.people import GM

HUGE = "9" * 5_000
ZEROS = "0" * 5_000 + "1"
PYTHON = ("Exceeds the limit", "invalid literal", "could not convert", "out of range", "timedelta", "strictly between",
          "int()", "float()", "isoformat", "does not match format", "unconverted data", "Error")
"""Words of Python's own exceptions, which no answer to a player or game master may carry."""

MASTER = (
    f"SET SILENCE ABANDON {HUGE}", f"SET SILENCE ABANDON {ZEROS}", "SET SILENCE EXTENSIONS ²",
    f"SET SILENCE EXTENSION {HUGE}", f"SET GATE FINISHED {HUGE}", f"SET GATE FINISHED {ZEROS}",
    "SET GATE ABANDONED ²", f"SET GATE ONTIME {HUGE}%", f"SET CLOCK MON 12:00 EVERY {HUGE} WEEKS",
    f"SET CLOCK MON 12:00 EVERY {ZEROS} WEEKS", "SET CLOCK MON 12:00 EVERY ² WEEKS",
    "SET CLOCK MON 12:00 EVERY 2 WEEKS FROM 0001-01-01", "SET CLOCK MON 12:00 EVERY 2 WEEKS FROM 9999-12-31",
    f"SET CLOCK MON 12:00 AT LEAST {HUGE}", "SET DEADLINE 0001-01-01 00:30", "SET DEADLINE 0001-01-01 00:30 +05:00",
    "SET DEADLINE 9999-12-31 23:30 -05:00", "SET DEADLINE 2026-01-09 10:00 +99:99",
    "SET DEADLINE 2026-01-09 10:00 +23:59", f"SET GRACE {HUGE}", f"SET REMINDER {ZEROS}", f"PROCESS {HUGE}",
    f"ROLLBACK {ZEROS}",
)
"""The game master's lines."""
PLAYER = ("SET ABSENCE 0001-01-01 TO 0001-01-05", "SET ABSENCE 9999-12-01 TO 9999-12-31",
          f"SET ABSENCE {HUGE}-01-01 TO 2026-02-01", f"PHASE {HUGE}", f"HISTORY {{game}} V{HUGE}",
          "SET 0001-01-01 00:30 UTC", "SET 9999-12-31 23:59 UTC")
"""A seat's lines, the last two refused quoting a moment that Tokyo's clock cannot write."""
CREATE = {  # each kind's options that take a number, with the host's ABSENCE_DAYS
    "payola": (f"INCOME_CAP={HUGE}", f"INCOME=FIXED:{ZEROS}", f"ABSENCE_DAYS={ZEROS}", "ABSENCE_DAYS=²"),
    "exchange": (f"INVESTORS={HUGE}", f"FUNDS={ZEROS}", "SHARES=²"),
    "machiavelli": (f"ABSENCE_DAYS={HUGE}",),
    "pirates": (f"PLAYERS={HUGE}", f"GARNETS={ZEROS}", "PLAYERS=²"),
}
LENGTH = {"payola": f"SET MOVEMENT {HUGE}", "exchange": f"SET EXCHANGE {ZEROS}", "machiavelli": f"SET SPRING {HUGE}",
          "pirates": f"SET VOTING {ZEROS}"}
"""Each kind's own line of the game master's that takes a number: a phase's length."""
ORDERS = {
    "payola": (f"TRANSFER {ZEROS} TO GERMANY", f"{ZEROS} : A PAR - BUR", f"1*{ZEROS} : A PAR - BUR"),
    "exchange": (f"TRANSFER {ZEROS} TO BOB", f"PRIORITY {ZEROS}"),
    "machiavelli": (f"transfer {ZEROS} to Milan",),
    "pirates": (f"PLAN ME {ZEROS}", f"GARNETS {ZEROS}"),
}
"""Each kind's own lines of a seat's that take a number, written with 5,000 leading zeros: read as the
number they write (a Machiavelli letter may transfer 1 ducat), or refused in words."""


def _cases() -> list[tuple[Kind, str, str]]:
    cases = []
    for kind in KINDS:
        cases += [(kind, "master", line) for line in (*MASTER, LENGTH[kind.name])]
        cases += [(kind, "seat", line.format(game=kind.game)) for line in PLAYER]
        cases += [(kind, "orders", line) for line in ORDERS[kind.name]]
        cases += [(kind, "anyone", f"CREATE zz pw-zz {kind.name} {option}") for option in CREATE[kind.name]]
    return cases


def _id(case: object) -> str:
    return case.name if isinstance(case, Kind) else str(case).replace(HUGE, "<5,000 nines>").replace(
        ZEROS, "<5,000 zeros, 1>")


@pytest.mark.parametrize(("kind", "who", "line"), _cases(), ids=_id)
def test_a_huge_number_or_an_extreme_date_is_refused_in_words_and_the_mail_applied(
        tmp_path: Path, kind: Kind, who: str, line: str) -> None:
    judge = kind.begin(Judge(tmp_path))
    judge.send(GM, f"{kind.master}\nSET ZONE Asia/Tokyo")
    if who == "master":
        status = judge.send(GM, f"{kind.master}\n{line}")
    elif who in ("seat", "orders"):
        seat = kind.seats[0]
        status = judge.send(seat.address, f"{seat.signon}\n{line}")
    else:
        status = judge.send(GM, line)
    assert status == "done"
    answer = judge.answers[-1]  # the line's (a sign-on is answered before it)
    assert answer.outcome in ("error", "ignored") or who == "orders" or ZEROS in line, answer  # 0...01 is 1
    assert not [words for words in PYTHON if words in answer.message], answer.message
    assert "9" * 61 not in answer.message and "0" * 61 not in answer.message, answer.message[:100]
