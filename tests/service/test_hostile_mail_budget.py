"""What one hostile mail may cost, in every kind: a megabyte stored, fifty mails queued, nothing
quarantined, every refusal in the judge's words, whatever the mail says in its kind's grammar or the
host's.

Theory of operation.  For each kind (Payola, Exchange Payola, Pirates' Proposal, Machiavelli on
the classic board and on AoP's) a *scene* is played once (`harness.once`): a game started, two
observers, every seat but one having sent its sheet or letter for the open phase, so that the
last seat's mail may complete the phase and have it processed, its results mailed to every
reader.  Hypothesis then writes that last seat's mail from the kind's grammar at its extremes:
lines at and past the reading limits (200,000 characters a mail, a line as long as a mail),
numbers of thousands of digits (or of thousands of leading zeros, or a figure of another script),
dates at either end of the calendar and past it, offsets from UTC that no zone has, routes of tens
of thousands of areas, the same unit ordered hundreds of times, as many lines as the judge reads and
more, press as long as a mail (a mail that signs on with a password is kept as read, masked: what
the listener took past that is not kept).  The seat's mail may hold the host's commands that take a
number or a date too (SET ABSENCE, PHASE...); and each kind's game master writes a mail of every
command of the master's that takes one (SET DEADLINE, SET CLOCK, SET SILENCE, SET GATE, the phases'
lengths, CREATE's options), on the same scene.  Each example is the scene copied afresh and that
one mail applied; the test holds what it cost:

- the database grew by at most a megabyte (its pages in use, after a checkpoint: the stored
  mail, the sheet or letter kept, the reply, the results of a phase the mail processed and their
  maps, drawn: a route is drawn as long as it is);
- at most fifty mails were queued besides its reply (its press, the results to each reader...);
- the mail was applied, not quarantined;
- no answer to a line of it carries Python's words (``Exceeds the limit (4300 digits)``, ``invalid
  literal``...): every number and date is read by the judge's own readers, bounded, and refused in
  words.

CPU is not asserted (the machine is shared; a test of time would be flaky): the work is bounded
by what the reading refuses (a route no longer than the board, a line no longer than an order,
a number no larger than a treasury could use), and ``bench/hostile_mail_bench.py`` measures the
CPU seconds of the worst mails of each kind.
"""

from __future__ import annotations

import shutil
import tempfile
import tracemalloc
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select, text

from judge.store.models import InboundMail, Outbox
from tests.strength import examples
from tests.support.harness import Judge, once
from tests.support.scenes import GM, Mailer, address, exchange, machiavelli, payola, pirates

MEGABYTE = 1_000_000
MAILS = 50
READ = 200_000  # characters of a mail the judge reads (`judge.mail.inbound.MAX_CHARS`): a mail is cut there


@dataclass(frozen=True)
class Scene:
    """A kind's game, ready for its last seat's mail: how it is built, and that seat's sign-on."""

    build: Callable[[Mailer], None]
    writer: str  # the last seat's address
    signon: str  # its SIGNON line
    lines: st.SearchStrategy[str]  # one hostile line (or press block) of the kind's grammar


_BUILDS = {"payola": payola, "exchange": exchange, "pirates": pirates, "classic": machiavelli(""),
           "aop": machiavelli("aop")}
_BUILDS |= {f"{kind} master": build for kind, build in _BUILDS.items() if kind != "aop"}


def _scene_of(judge: Judge, kind: str) -> None:
    _BUILDS[kind](judge)


# -- the kinds' grammars at their extremes ------------------------------------------------------------------

DIGITS = st.integers(1, 6_000).map(lambda n: "9" * n)  # a number of up to 6,000 digits (Python reads 4,300)
ZEROS = st.integers(1, 6_000).map(lambda n: "0" * n + "1")  # 1, led by up to 6,000 zeros
NUMBER = st.one_of(st.sampled_from(["0", "1", "3", "500", "501", "1000000", "1000001", "²", "-1", "1.5", "1e9"]),
                   DIGITS, ZEROS)
YEAR = st.one_of(st.sampled_from(["0001", "1999", "2000", "2026", "2999", "3000", "9999"]), DIGITS)
DATE = st.one_of(st.builds("{}-{}-{}".format, YEAR, st.sampled_from(["01", "02", "12", "13", "00"]),
                           st.sampled_from(["01", "29", "31", "32"])), NUMBER)
"""A date at either end of the calendar, past it, or none at all."""
MOMENT = st.builds("{} {}".format, DATE, st.sampled_from(["00:00", "00:30", "23:59", "24:00", "99:99"]))
OFFSET = st.sampled_from(["", " UTC", " +14:00", " -14:00", " +14:01", " +23:59", " -99:99", " Asia/Tokyo",
                          " Pacific/Kiritimati", " Etc/GMT+12"])
LONG = st.integers(0, READ)  # characters of padding: a line as long as a mail


def _padded(line: str) -> st.SearchStrategy[str]:
    """``line``, and ``line`` padded with spaces or a comment up to the length of a mail."""
    return st.one_of(st.just(line), st.builds(lambda n, c: line + (" " if c else " % ") + "x" * n, LONG,
                                              st.booleans()))


def _press(to: str) -> st.SearchStrategy[str]:
    """Press as long as a mail, in lines of up to 1,000 characters or one line."""
    return st.builds(lambda n, width: f"PRESS TO {to}\n" + "\n".join(["p" * width] * (n // width + 1)) + "\nENDPRESS",
                     st.integers(0, READ), st.sampled_from([1, 72, 1_000, READ]))


def _route(start: str, areas: tuple[str, str], separator: str) -> st.SearchStrategy[str]:
    return st.builds(lambda n: start + separator + separator.join((list(areas) * (n // 2 + 1))[:n]),
                     st.integers(1, 40_000))


HOST = st.one_of(  # the host's commands a seat may send that take a number or a date
    st.builds("SET ABSENCE {} TO {}".format, DATE, DATE),
    st.builds("PHASE {}".format, NUMBER),
    st.builds("SET {}{}".format, MOMENT, OFFSET),  # no command: refused quoting a moment no zone can write
    st.builds("SET MYZONE {}".format, OFFSET.map(str.strip)),
)


def _master(phase: str) -> st.SearchStrategy[str]:
    """The game master's commands that take a number or a date (``phase``: a word of the kind's
    phases, whose length ``SET phase hours`` sets)."""
    return st.one_of(
        st.builds("SET DEADLINE {}{}".format, MOMENT, OFFSET),
        st.builds("SET ZONE {}\nSET DEADLINE {}".format, OFFSET.map(str.strip), MOMENT),
        st.builds("SET SILENCE {} {}".format, st.sampled_from(["ABANDON", "EXTENSIONS", "EXTENSION"]), NUMBER),
        st.builds("SET GATE {} {}".format, st.sampled_from(["ABANDONED", "FINISHED", "ONTIME"]), NUMBER),
        st.builds("SET GATE ONTIME {}%".format, NUMBER),
        st.builds("SET CLOCK MON 12:00 EVERY {} WEEKS".format, NUMBER),
        st.builds("SET CLOCK MON 12:00 EVERY 2 WEEKS FROM {}".format, DATE),
        st.builds("SET CLOCK MON 12:00{} AT LEAST {}".format, OFFSET, NUMBER),
        st.builds("SET {} {}".format, st.sampled_from(["GRACE", "REMINDER", phase]), NUMBER),
        st.builds("{} {}".format, st.sampled_from(["PROCESS", "ROLLBACK", "HISTORY"]), NUMBER),
        st.builds(lambda kind, option, n: f"CREATE zz pw-zz {kind} {option.format(n)}",
                  st.sampled_from(["payola", "exchange", "pirates", "machiavelli"]),
                  st.sampled_from(["ABSENCE_DAYS={}", "PLAYERS={}", "GARNETS={}", "INVESTORS={}", "FUNDS={}",
                                   "SHARES={}", "INCOME_CAP={}", "INCOME=FIXED:{}"]), NUMBER),
        HOST,
    )


PAYOLA = st.one_of(
    st.builds("{} : A PAR - BUR".format, NUMBER),
    st.builds("{}*{} : A PAR - BUR".format, NUMBER, NUMBER),
    st.builds(lambda k, a: " + ".join([f"{a}#{a}"] * k) + " : A PAR - BUR", st.integers(1, 2_000), NUMBER),
    st.builds(lambda k: "1 : A PAR - BUR" + " | A PAR - PIC" * k, st.integers(1, 5_000)),
    st.builds("{} $".format, NUMBER),
    st.builds("TRANSFER {} TO GERMANY".format, NUMBER),
    _route("A BRE", ("MAO", "ENG"), " - "),
    _padded("3 : A PAR - BUR"), _padded("F BRE - MAO"), _padded("A PAR H"),
    st.sampled_from(["A PAR - BUR", "1 : A MAR - SPA", "WAIT", "CLEAR", "MAP", "PREVIEW", "STATUS", "HISTORY pb"]),
    _press("ALL"), _press("GERMANY"),
    HOST,
)

EXCHANGE = st.one_of(
    st.builds("BID {} FRANCE AT {}".format, NUMBER, NUMBER),
    st.builds("SELL {} FRANCE TO BOB FOR {}".format, NUMBER, NUMBER),
    st.builds("BUY {} GERMANY FROM ANN FOR {}".format, NUMBER, NUMBER),
    st.builds("GIVE {} FRANCE TO ANN".format, NUMBER),
    st.builds("PRIORITY {}".format, NUMBER),
    st.builds("APPROVE FRANCE {}".format, NUMBER),
    st.builds("TRANSFER {} TO ANN".format, NUMBER),
    st.builds(lambda k: "ELECT FRANCE ME\n" * k, st.integers(1, 600)),
    st.builds(lambda k: "FOR FRANCE\n" + "1 : A PAR - BUR\n" * k + "END", st.integers(1, 600)),
    _padded("BID 1 FRANCE AT 1"), _padded("PASS"),
    _press("ALL"),
    HOST,
)

PIRATES = st.one_of(
    st.builds("PLAN ME {} Ann {}".format, NUMBER, NUMBER),
    st.builds(lambda k, n: "PLAN " + " ".join(f"Ann {n}" for _ in range(k)), st.integers(1, 20_000), NUMBER),
    st.builds("GARNETS {}".format, NUMBER),
    st.builds(lambda k: "VOTE YES" + " ME" * k + " NO" + " Ann" * k, st.integers(1, 30_000)),
    st.builds(lambda k: "GIVE TOKEN TO " + "x" * k, st.integers(1, READ)),
    _padded("PLAN ME 10"), _padded("MOVE"), st.sampled_from(["NOMOVE", "STATUS", "HISTORY pp"]),
    _press("ALL"), _press("Ann"),
    HOST,
)


def _machiavelli(board: str) -> st.SearchStrategy[str]:
    seas = ("ets", "wts")  # two seas of either board, side by side
    pisa = "psa" if board == "classic" else "pis"
    return st.one_of(
        _route("A are", seas, " - "), _route("A are", seas, "-"), _route(f"F {pisa}", seas, " - "),
        st.builds("transfer {} to Milan".format, NUMBER),
        st.builds("bribe {} buy A mil".format, NUMBER),
        st.builds("{} disband army Bologna".format, NUMBER),
        st.builds("assassinate Milan {}".format, NUMBER),
        st.builds("bodyguard {}".format, NUMBER),
        st.builds("rebellion {} Pisa".format, NUMBER),
        st.builds(lambda k: f"F {pisa} S A flo - pst" + " - pst" * k, st.integers(1, 40_000)),
        st.builds(lambda k: "allow Milan" + " bribe and" * k, st.integers(1, 20_000)),
        st.builds(lambda k: "x" * k + ":", LONG),
        _padded("A flo - pst"), _padded("G luc C A"), _padded(f"F {pisa} H"),
        st.sampled_from(["A flo H", "A are - pst", f"F {pisa} S A flo", "none", "STATUS", "HISTORY mc"]),
        _press("ALL"), _press("Milan"), HOST,
    )


SCENES = {
    "payola": Scene(payola, address("alice"), "SIGNON FRANCE@pb alice-pw", PAYOLA),
    "exchange": Scene(exchange, address("CAT"), "SIGNON CAT@xb pw-cat", EXCHANGE),
    "pirates": Scene(pirates, address("Dee"), "SIGNON Dee@pp pw-dee", PIRATES),
    "classic": Scene(machiavelli(""), address("Florence"), "SIGNON Florence@mc pw-florence", _machiavelli("classic")),
    "aop": Scene(machiavelli("aop"), address("Florence"), "SIGNON Florence@mc pw-florence", _machiavelli("aop")),
    "payola master": Scene(payola, GM, "SIGNON MASTER@pb gm-pw", _master("MOVEMENT")),
    "exchange master": Scene(exchange, GM, "SIGNON MASTER@xb gm-pw", _master("EXCHANGE")),
    "pirates master": Scene(pirates, GM, "SIGNON MASTER@pp gm-pw", _master("DISTRIBUTION")),
    "classic master": Scene(machiavelli(""), GM, "SIGNON MASTER@mc gm-pw", _master("SPRING")),
}
"""Each kind's last seat, and its game master (whose mail cannot complete the phase but may set every
number and date the game has)."""


class Text(str):
    """A mail's text, which Hypothesis reports by its length and beginning, not whole (200,000 characters)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"<{len(self):,} characters: {str.__repr__(self[:80])}...>"


def hostile_mail(lines: st.SearchStrategy[str]) -> st.SearchStrategy[Text]:
    """A mail of a few hostile lines, each repeated up to 600 times (the judge reads 500 commands),
    cut a little past what the judge reads of a mail (`cut_mail`)."""
    repeated = st.tuples(lines.map(Text), st.sampled_from([1, 2, 50, 499, 600]))
    return st.lists(repeated, min_size=1, max_size=4).map(cut_mail)


CUT = READ + 1_000
"""Characters of a hostile mail: a little past what the judge reads."""


def cut_mail(parts: Iterable[tuple[str, int]]) -> Text:
    """The first `CUT` characters of ``parts``' lines (each line, how many times over) joined, joining no more
    of them than that takes.  Joined whole, a line of 54 million characters 600 times over (Pirates' plan of
    20,000 shares of a 6,000-digit number) was 33 GB, and the test ran out of memory."""
    lines: list[str] = []
    size = -1  # the characters joined so far: no newline before the first line
    for line, times in parts:
        for _ in range(times):
            if size >= CUT:
                break
            lines.append(line[:CUT])
            size += len(lines[-1]) + 1
    return Text("\n".join(lines)[:CUT])


@pytest.mark.parametrize("parts", [
    [("a", 1)], [("STATUS", 600)], [("x" * 150_000, 2)], [("ab", 600), ("y" * 300_000, 1), ("c", 50)],
    [("z" * CUT, 1), ("w", 1)], [("z" * (CUT - 1), 1), ("w", 2)], [("PLAN Ann 1", 499), ("MOVE", 600)],
])
def test_a_hostile_mail_is_its_lines_joined_and_cut(parts: list[tuple[str, int]]) -> None:
    assert cut_mail(parts) == "\n".join(line for line, times in parts for _ in range(times))[:CUT]


def test_a_hostile_mail_of_a_long_line_many_times_over_joins_only_what_it_keeps() -> None:
    line = "PLAN " + "Ann 9 " * 200_000  # 1.2 million characters: 720 MB joined 600 times over
    tracemalloc.start()
    try:
        mail = cut_mail([(line, 600)])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert mail == line[:CUT] and peak < 5 * CUT


# -- what a mail cost ---------------------------------------------------------------------------------------


def stored(judge: Judge) -> int:
    """Bytes of the database in use, its write-ahead log checkpointed into it."""
    with judge.db.engine.connect() as connection:
        connection.execute(text("PRAGMA wal_checkpoint(TRUNCATE)"))
        pages, free, size = (connection.execute(text(f"PRAGMA {name}")).scalar_one()
                             for name in ("page_count", "freelist_count", "page_size"))
    return int((pages - free) * size)


def queued(judge: Judge) -> int:
    with judge.db.transaction() as session:
        return int(session.scalar(select(func.count(Outbox.id))) or 0)


def last_status(judge: Judge) -> str:
    with judge.db.transaction() as session:
        return str(session.scalars(select(InboundMail.status).order_by(InboundMail.id.desc()).limit(1)).one())


PYTHON = ("Exceeds the limit", "invalid literal", "could not convert", "out of range", "timedelta", "strictly between",
          "int()", "float()", "isoformat", "does not match format", "unconverted data", "Error:")
"""Words of Python's own exceptions, which no answer may carry: every number and date is answered in words."""


def cost(kind: str, body: str) -> tuple[int, int, str, str]:
    """What ``body``, the mail of ``kind``'s scene's writer, cost: bytes stored, mails queued, its status;
    and the judge's answer to it (its lines' answers, not the lines quoted)."""
    data = Path(tempfile.mkdtemp(prefix="judge-hostile-")) / "data"
    try:
        judge = once(Judge(data, max_replies_per_hour=1000, maps=True), _scene_of, kind.removesuffix(" master"))
        judge.db.checkpoint(wait=True)
        scene = SCENES[kind]
        before, mails = stored(judge), queued(judge)
        judge.send(scene.writer, f"{scene.signon}\n{body}")
        answers = "\n".join(answer.message for answer in judge.answers)
        return stored(judge) - before, queued(judge) - mails, last_status(judge), answers
    finally:
        shutil.rmtree(data.parent, ignore_errors=True)


@pytest.mark.parametrize("kind", list(SCENES))
@settings(max_examples=examples(40), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])  # no shrinking: each example is a judge applying a mail
@given(data=st.data())
def test_no_mail_of_any_kinds_grammar_stores_a_megabyte_queues_over_fifty_mails_or_is_quarantined(
        kind: str, data: st.DataObject) -> None:
    body = data.draw(hostile_mail(SCENES[kind].lines), label="mail")
    grown, mails, status, answers = cost(kind, body)
    assert status == "done"
    assert mails <= MAILS + 1  # and its reply
    assert grown <= MEGABYTE, f"{grown:,} bytes stored"
    assert not [words for words in PYTHON if words in answers], answers[:2_000]  # every refusal in the judge's words


def _routes(times: int, areas: int, separator: str = " - ") -> str:
    route = "A are" + separator + separator.join((["ets", "wts"] * (areas // 2 + 1))[:areas])
    return "\n".join([route] * times)[:READ]


WORST = {  # the costliest mails found (by this test, in CI, and by bench/hostile_mail_bench.py)
    "50 headings of 335 characters, 50 routes of 100 areas": "\n".join(["x" * 334 + ":"] * 50 + [_routes(50, 100)]),
    "500 routes of 80 areas by code": _routes(500, 80, "-"),
    "500 routes of 101 areas by code (AoP's longest)": _routes(500, 101, "-"),
}


def test_a_mail_of_499_status_lines_under_a_long_offer_stores_under_a_megabyte() -> None:
    """Each STATUS, answered when the seat's lines end, shows the seat's sheet as written (here an amount of
    1,155 digits: two kilobytes an answer): the reply stops at its limit (`max-reply-bytes`), each STATUS past
    it refused in a few words (found by the test above: the STATUS answers were not counted, and the limit was
    five megabytes; the reply weighed a megabyte)."""
    body = "\n".join(["0" * 1154 + "1 : A PAR - BUR", *["TRANSFER -1 TO GERMANY"] * 2, *["STATUS"] * 499,
                      "9" * 1026 + "*" + "9" * 2917 + " : A PAR - BUR"])
    grown, mails, status, answers = cost("payola", body)
    assert status == "done" and mails <= MAILS + 1
    assert grown <= MEGABYTE, f"{grown:,} bytes stored"
    assert "this reply has reached the judge's limit of 524,288 bytes" in answers


@pytest.mark.parametrize("kind", ["classic", "aop"])
@pytest.mark.parametrize("mail", list(WORST))
def test_the_costliest_letters_found_store_under_a_megabyte(kind: str, mail: str) -> None:
    """Each completes the phase (its maps, seven mails of results), but on the classic board the routes
    of 100 and 101 areas, longer than the board has (refused at reading: the letter is empty)."""
    grown, mails, status, _ = cost(kind, WORST[mail])
    assert status == "done" and mails <= MAILS + 1
    assert grown <= MEGABYTE, f"{grown:,} bytes stored"
