"""A game of each kind with players reading English, Italian and French, played by SMTP through `judge
serve` (issue 72's Show): each player's mail wholly in their language, every figure the same as in English,
nothing secret moved between them.

The story, for each kind the judge hosts (`tests.service.every_kind.KINDS`, the registry's order): the
seats' players chose their language (``SET LANGUAGE it``, ``fr``; English the default) before the game
began, in turn English, Italian, French (Pirates' fourth player English again).  The game is handed to `judge
serve`; each seat sends its part of the first phase by SMTP (`Kind.sent`), the clock moves past the deadline
and every seat gets the first phase's results; the first seat then sends a line of the second phase
(`Kind.later`) and reads the answer.

The checks, each over every mail of the story (the answers to SET LANGUAGE apart: written, as they say,
before the switch):

- no mail to an Italian or French reader carries a piece of an English sentence of any catalogue, no mail
  to an English reader a piece of an Italian or French one, nor an Italian reader a French one
  (`catalogue_fragments.leftovers`);
- nor two words in a row that only another language's messages write: English put into an Italian
  sentence by a value (``inviata da ... from an unknown IP address``), which no catalogue holds whole
  (`catalogue_fragments.foreign_runs`);
- the same game played in English alone on the harness (the twin, its draws the same: CREATE's seed is
  fixed) gives each seat the same mails: no line of an Italian or French reader's mail is the twin's with
  English words in it (a sentence no catalogue holds yet), an English reader's mails are the twin's word
  for word (a subject included), and each mail's numbers (`catalogue_fragments.figures`) are the twin's
  for the same seat and mail: every figure identical across the languages, and no seat reads a figure
  its English twin does not (whose secrecy the kinds' own tests hold)."""

from __future__ import annotations

import difflib
import re
import secrets
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.service.every_kind import KINDS, Kind
from tests.support.catalogue_fragments import Fragment, figures, foreign_runs, grouped, leftovers
from tests.support.forms_by_smtp import Mail, Served
from tests.support.harness import Sent
from tests.support.wait import wait_until

pytestmark = pytest.mark.integration

LANGUAGES = ("en", "it", "fr")
SEED = 7


def language(seat: int) -> str:
    return LANGUAGES[seat % len(LANGUAGES)]


@dataclass(frozen=True)
class Read:
    """The mails a seat's player read of the story, in the order they came: the game's start, the answer
    to its first phase's part (if it sent one), the first phase's results, the answer to its second phase's
    line (the first seat's); an answer's text alone (its subject is the one the player wrote)."""

    start: str
    first: str | None
    results: str
    second: str | None

    def mails(self) -> dict[str, str]:
        found = {"start": self.start, "first phase's answer": self.first, "results": self.results,
                 "second phase's answer": self.second}
        return {name: text for name, text in found.items() if text is not None}


def untranslated(mail: str, english: str) -> list[str]:
    """The pieces of lines of ``mail`` (an Italian or French reader's) that its English twin ``english`` writes
    the same, a piece being a whole line or the line cut at its colons and semicolons (``OK : you joined...`` is
    the twin's ``OK: you joined...``), and that have words of English in them: at least three lowercase words of
    four letters or more, once an area's code in brackets is left out (``Padua (pad)``).  A form's frame
    (``%%``) and the lines of the commands' grammar (``transfer 5 to <player>``) are every reader's alike."""
    twin = {piece for line in english.split("\n")
            for piece in (line.strip().lstrip("% "), *_PIECE.split(line.strip().lstrip("% ")))}
    return [piece for line in mail.split("\n") if not line.lstrip().startswith((">", "%%")) and "<" not in line
            for piece in dict.fromkeys((line.strip().lstrip("% "), *_PIECE.split(line.strip().lstrip("% "))))
            if piece in twin and len(_WORD.findall(_CODE.sub("", piece))) >= 3]


_PIECE = re.compile(r"\s*[:;]\s+")
_WORD = re.compile(r"(?<![\w@.<])[a-z]{4,}(?![\w@.>])")
_CODE = re.compile(r"\([a-z/]+\)")


def text(mail: Mail | Sent) -> str:
    """A mail's subject and text (an answer's subject is the mail's it answers: its text alone is read)."""
    return f"{mail.subject}\n{mail.body}"


def served_story(kind: Kind, tmp_path: Path) -> tuple[dict[int, Read], list[Mail]]:
    """The story played through `judge serve`: what each seat read, and every mail the daemon's Maildir holds."""
    judge = kind.judge(tmp_path / "served", maps=False)
    for seat, who in enumerate(kind.seats):
        if language(seat) != "en":
            judge.send(who.address, f"SET LANGUAGE {language(seat)}")
    setting = {str(mail.message["Message-ID"]) for mail in judge.all_mail()}  # answered in the language before
    kind.begin(judge)
    served = Served(judge)
    try:
        def to(address: str) -> list[Mail]:
            return [mail for mail in served.read() if mail.to == address]

        start = {seat: to(who.address)[-1] for seat, who in enumerate(kind.seats)}
        before = {seat: len(to(who.address)) for seat, who in enumerate(kind.seats)}
        first: dict[int, Mail] = {}
        for seat, line in enumerate(kind.sent):
            if line:
                who = kind.seats[seat]
                first[seat] = served.reply(who.address, start[seat], f"{who.signon}\n{line}")
        served.close(kind.game, kind.first, kind.hours + 1)

        def results_to(seat: int) -> list[Mail]:
            return [mail for mail in to(kind.seats[seat].address)[before[seat]:] if not mail.in_reply_to]

        wait_until(lambda: all(results_to(seat) for seat in range(len(kind.seats))), "every seat's results")
        results = {seat: results_to(seat)[0] for seat in range(len(kind.seats))}
        assert served.phase(kind.game) == kind.second
        who = kind.seats[0]
        second = served.reply(who.address, results[0], f"{who.signon}\n{kind.later}")
        read = {seat: Read(text(start[seat]), first[seat].body if seat in first else None, text(results[seat]),
                           second.body if seat == 0 else None) for seat in range(len(kind.seats))}
        return read, [mail for mail in served.read() if mail.message_id not in setting]
    finally:
        served.stop()


def english_story(kind: Kind, tmp_path: Path) -> tuple[dict[int, Read], list[Sent]]:
    """The same story on the harness, every player reading English (each having sent ``SET LANGUAGE en``, as
    the served story's players sent theirs): what each seat read, and every mail the judge sent."""
    judge = kind.judge(tmp_path / "english", maps=False)
    for seat, who in enumerate(kind.seats):
        if language(seat) != "en":
            judge.send(who.address, "SET LANGUAGE en")
    setting = {str(mail.message["Message-ID"]) for mail in judge.all_mail()}
    kind.begin(judge)

    def last(address: str) -> str:
        return text(judge.last_to(address))

    start = {seat: last(who.address) for seat, who in enumerate(kind.seats)}
    first = {seat: kind.send(judge, seat, line).body for seat, line in enumerate(kind.sent) if line}
    if kind.phase(judge) == kind.first:  # else it closed once every seat had acted
        judge.later(kind.hours + 1)
        judge.tick()
    results = {seat: last(who.address) for seat, who in enumerate(kind.seats)}
    second = kind.send(judge, 0, kind.later).body
    return {seat: Read(start[seat], first.get(seat), results[seat], second if seat == 0 else None)
            for seat in range(len(kind.seats))}, \
        [mail for mail in judge.all_mail() if str(mail.message["Message-ID"]) not in setting]


@pytest.mark.parametrize("kind", KINDS, ids=[kind.name for kind in KINDS])
def test_each_player_reads_the_whole_game_in_their_language_with_the_same_figures(
        kind: Kind, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(secrets, "randbelow", lambda below: SEED % below)  # CREATE's seed: the twin's draws too
    read, mails = served_story(kind, tmp_path)
    english, twins = english_story(kind, tmp_path)

    readers = {who.address: language(seat) for seat, who in enumerate(kind.seats)}  # the others (the master) en
    found: list[tuple[str, Fragment]] = []
    runs: list[str] = []
    for mail in mails:
        reader = readers.get(mail.to, "en")
        found.extend((f"{reader} {mail.to} {mail.subject}", fragment) for fragment in leftovers(text(mail), reader))
        runs.extend(f"{reader} {mail.to} {mail.subject}: {run!r}" for run in foreign_runs(text(mail), reader))
    same = []
    for seat, who in enumerate(kind.seats):
        theirs = [text(mail) for mail in mails if mail.to == who.address]
        twin = [text(mail) for mail in twins if mail.to == who.address]
        assert len(theirs) == len(twin), (theirs, twin)
        if language(seat) != "en":
            same.extend(f"{language(seat)} {who.name}, {mail.split(chr(10))[0]}: {line!r}"
                        for mail, english_mail in zip(theirs, twin, strict=True)
                        for line in untranslated(mail, english_mail))
    figured = [f"{who.name} ({language(seat)}), {name}: {figures(mail)} where English reads "
               f"{figures(english[seat].mails()[name])}"
               for seat, who in enumerate(kind.seats) for name, mail in read[seat].mails().items()
               if figures(mail) != figures(english[seat].mails()[name])]
    unlike = [f"{who.name} (en), {name}: {line}" for seat, who in enumerate(kind.seats) if language(seat) == "en"
              for name, mail in read[seat].mails().items()
              for line in difflib.unified_diff(english[seat].mails()[name].split("\n"), mail.split("\n"), n=0,
                                               lineterm="") if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    assert [mail.keys() for mail in (read[seat].mails() for seat in read)] == \
        [mail.keys() for mail in (english[seat].mails() for seat in english)]
    assert not found and not runs and not same and not figured and not unlike, "\n".join(
        [f"{catalogue}:\n  " + "\n  ".join(lines) for catalogue, lines in grouped(found).items()]
        + ["words in a row only another language writes:", *runs,
           "lines as the English twin writes them:", *same, "figures not the English twin's:", *figured,
           "an English reader's mail not the English twin's:", *unlike])
