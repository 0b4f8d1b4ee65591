"""HELP: the judge's index, a kind of game's help and its topics, and all of it at once.

Theory of operation.  The help is written once, in templates: the host's (``help_anyone``: the
commands anyone may send; ``help_topics``: the topics every game shares) and each kind's part
(`judge.service.hosting.kinds.Commands.help`): a summary, then its topics.  A topic begins at a line
``== name: title ==`` and runs to the next one, or to the end (`part`).  All of it together is
`help_mail`: what ``HELP ALL`` attaches, ``judge help`` prints and the
documentation shows.

The templates write each paragraph, and what each command does, on one line, and each command on
a line of its own above what it does, indented: a reply answering HELP is sent format=flowed
(`judge.mail.flowed`), where such a line reflows to a phone's width.  An attachment is not: all of
the help is laid out as a document (`document`), each line at most 72 characters, a long one
wrapped under its own indent.

What one ``HELP`` answers (`answer`), as njudge's GET does, short, with the way to the rest:

- ``HELP`` from a stranger (no sign-on in the mail): the index, the commands anyone may send,
  the host's topics and the kinds of game the judge hosts (`index`); after a sign-on, the game's
  own help: its kind's summary and topics (`kind_help`); ``HELP INDEX``: the index whatever the
  sign-on;
- ``HELP topic``: one of the host's topics, or after a sign-on one of the game's (a topic both
  have, the game master's, is answered with both, the host's first); a stranger asking for a
  topic that only one kind has gets that kind's;
- ``HELP KIND`` and ``HELP KIND topic``: a kind's help, or one of its topics, for anyone;
- ``HELP ALL``: all of it.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from typing import NamedTuple

from babel.numbers import format_decimal

from judge.language import current
from judge.language import gettext as _
from judge.mail.flowed import WIDTH
from judge.service.config import Settings
from judge.service.hosting.kinds import GameKind, Kinds
from judge.service.templates import render

TOPIC = re.compile(r"^== ([a-z][a-z-]*): (.+) ==$", re.MULTILINE)
"""The line a topic begins with, in the host's help and in each kind's."""
WHOLE, INDEX = "all", "index"
"""The words of HELP that are no topic: all of the help, and the index."""


class KindHelp(NamedTuple):
    """A game kind's name, its title, its part of HELP, and the rule by which it reads orders only
    from mail sent to the judge alone (empty: it reads any mail's)."""

    name: str
    title: str
    text: str
    orders_private: str = ""


def games_help(kinds: Kinds, settings: Settings) -> list[KindHelp]:
    """Every game kind's part of HELP as a document (`document`), the default kind first
    (``help.txt.j2``'s ``games``)."""
    return [KindHelp(kind.name, kind.title, document(kind.help(settings).strip()), kind.orders_private)
            for kind in kinds]


def help_mail(settings: Settings, kinds: Kinds) -> str:
    """All of the judge's help as a document (`document`), as ``HELP ALL`` attaches it, ``judge
    help`` prints it and the documentation shows it."""
    return document(render("help", settings=settings, games=games_help(kinds, settings),
                           reply_bytes=reply_bytes(settings)))


def reply_bytes(settings: Settings) -> str:
    """The most bytes a reply may weigh, as the reader's language writes a number (``5,242,880``)."""
    return format_decimal(settings.max_reply_bytes, locale=current())


def document(text: str) -> str:
    """``text`` with each line longer than `WIDTH` wrapped at spaces, each continuation indented as
    its line is: the help as a file shows it, where nothing reflows (a word longer than a line
    stays whole)."""
    lines = []
    for line in text.split("\n"):
        indent = line[:len(line) - len(line.lstrip(" "))]
        lines += textwrap.wrap(line, WIDTH, subsequent_indent=indent, break_long_words=False,
                               break_on_hyphens=False) if len(line) > WIDTH else [line]
    return "\n".join(lines)


class Topic(NamedTuple):
    """One topic of the help: its name (``HELP name``), its title and its text (the heading first)."""

    name: str
    title: str
    text: str


class Part(NamedTuple):
    """The host's or a kind's help: its summary and its topics, in order."""

    summary: str
    topics: tuple[Topic, ...]

    def topic(self, name: str) -> Topic | None:
        return next((topic for topic in self.topics if topic.name == name), None)


class NoTopic(ValueError):
    """A HELP that names no topic there is, with the topics there are."""


def part(text: str) -> Part:
    """``text`` read as a summary and the topics after it (`TOPIC`), if any: a kind's help may be a
    summary alone."""
    found = list(TOPIC.finditer(text))
    ends = [match.start() for match in found[1:]] + ([len(text)] if found else [])
    return Part(text[:found[0].start()].strip() if found else text.strip(),
                tuple(Topic(match.group(1), match.group(2), text[match.start():end].strip())
                      for match, end in zip(found, ends, strict=True)))


def host_part(settings: Settings, kinds: Kinds, games: list[KindHelp] | None = None) -> Part:
    """The host's topics, the same in every game (a seat's commands, the game master's, mail); ``games``,
    the kinds' `games_help` if the caller has made it already (rendering every kind's help is most of the cost)."""
    return part(render("help_topics", settings=settings, games=games_help(kinds, settings) if games is None else games,
                       reply_bytes=reply_bytes(settings)))


def kind_part(settings: Settings, kind: GameKind) -> Part:
    return part(kind.help(settings))


def index(settings: Settings, kinds: Kinds) -> str:
    """The stranger's HELP: the commands anyone may send, the host's topics and the kinds hosted."""
    games = games_help(kinds, settings)
    return render("help_index", settings=settings, games=games, topics=host_part(settings, kinds, games).topics)


def kind_help(settings: Settings, kind: GameKind, signed_on: bool) -> str:
    """A kind's HELP: its summary and its topics (``signed_on``: to a game of it, where ``HELP
    topic`` answers its topics)."""
    own = kind_part(settings, kind)
    return render("help_game", summary=own.summary, topics=own.topics, signed_on=signed_on, kind=kind.name)


def answer(settings: Settings, kinds: Kinds, game: GameKind | None, words: Sequence[str]) -> str:
    """What ``HELP words`` answers (see the module's header), ``game`` being the kind of the game the
    mail is signed on to, if any; `NoTopic` if the words name nothing."""
    if not words:
        return index(settings, kinds) if game is None else kind_help(settings, game, signed_on=True)
    first, rest = words[0], words[1:]
    if not rest and first == WHOLE:
        return help_mail(settings, kinds)
    if not rest and first == INDEX:
        return index(settings, kinds)
    named = kinds.in_create(first)
    if named is not None:
        return of_kind(settings, named, game, rest)
    if rest:
        raise NoTopic(_("'{word}' is no kind of game this judge hosts ({kinds})", word=first[:20],
                        kinds=", ".join(k.name for k in kinds)))
    return one_topic(settings, kinds, game, first)


def of_kind(settings: Settings, kind: GameKind, game: GameKind | None, rest: Sequence[str]) -> str:
    """``HELP KIND [topic]``, for anyone: the kind's help, or the topic of it ``rest`` names."""
    if not rest:
        return kind_help(settings, kind, signed_on=kind is game)
    own = kind_part(settings, kind)
    found = own.topic(rest[0])
    if found is None:
        raise NoTopic(_("{kind} has no topic '{word}': its topics are {topics}", kind=kind.title,
                        word=rest[0][:20], topics=", ".join(t.name for t in own.topics)))
    return found.text


def one_topic(settings: Settings, kinds: Kinds, game: GameKind | None, name: str) -> str:
    """``HELP topic``: the host's topic, and after a sign-on the game's own of that name (the host's
    first); for a stranger, the host's, else the topic of the one kind that has it."""
    hosts = host_part(settings, kinds)
    own = kind_part(settings, game) if game is not None else None
    found = [topic for topic in (hosts.topic(name), own.topic(name) if own else None) if topic is not None]
    if found:
        return "\n\n".join(topic.text for topic in found)
    if own is None and (only := of_the_kind_having(settings, kinds, name)) is not None:
        return only
    topics = [topic.name for topic in hosts.topics]
    topics += [topic.name for topic in own.topics if topic.name not in topics] if own else []
    raise NoTopic(_("there is no topic '{word}': the topics are {topics}; HELP alone lists them, HELP ALL gives "
                    "all of the help", word=name[:20], topics=", ".join(topics)))


def of_the_kind_having(settings: Settings, kinds: Kinds, name: str) -> str | None:
    """A stranger's ``HELP topic`` that only kinds have: the topic of the one kind having it, titled;
    None if none has it; `NoTopic`, with the way to each, if more than one has."""
    having = [(kind, found) for kind in kinds if (found := kind_part(settings, kind).topic(name)) is not None]
    if len(having) > 1:
        raise NoTopic(_("each kind of game has a topic '{word}': ask for one, {ways}", word=name,
                        ways=", ".join(f"HELP {kind.name} {name}" for kind, _found in having)))
    if not having:
        return None
    kind, found = having[0]
    return _("{kind}:", kind=kind.title) + f"\n\n{found.text}"
