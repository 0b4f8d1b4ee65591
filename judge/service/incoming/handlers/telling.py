"""What one mail causes beyond its reply: the mails its commands send, the announcements to a game's
players, master and observers (one round per game and mail, or folded into the results of the phase the
mail processes), the copies of the reply to a seat's registered address, and the notices of changed
registrations; each counted against ``max_mails_per_mail``.
"""

from __future__ import annotations

from datetime import datetime

from judge.language import gettext as _
from judge.language import ngettext
from judge.service import mailbox
from judge.service.hosting import host
from judge.service.hosting.turn import Said, said, said_in_english
from judge.service.incoming.handlers.reading import Reading
from judge.service.outgoing.outbox import queue
from judge.service.outgoing.preferences import language_of, writing_to
from judge.service.templates import render
from judge.store.models import Game


class Telling(Reading):
    """The mails and announcements the mail causes (`judge.service.hosting.turn.Causing`)."""

    now: datetime
    mails_sent: int
    rounds: dict[int, int]
    announcements: dict[int, list[Said]]
    public: dict[int, list[Said]]
    also_told: dict[int, set[str]]
    worded_apart: set[int]
    master_told: set[int]
    proven: bool
    copies: dict[str, set[int]]
    copied_games: dict[str, Game | None]
    notices: dict[str, tuple[Game | None, list[Said]]]
    settings_told: dict[tuple[int, str], str]

    def send(self, *, to: str, subject: str, body: str, kind: str, game_id: int | None = None) -> bool:
        """Queue a mail a command causes, unless this mail has already caused ``max_mails_per_mail``."""
        if self.mails_sent >= self.settings.max_mails_per_mail:
            return False
        self.mails_sent += 1
        queue(self.session, self.settings, to=to, subject=subject, body=body, kind=kind, now=self.now,
              game_id=game_id)
        return True

    def news_so_far(self, game: Game) -> tuple[int, int]:
        """Where this mail's announcements to ``game`` stand: its players' lines and its observers',
        so that a line worked out later may be put before what came meanwhile (`announce`'s ``at``)."""
        return len(self.announcements.get(game.id, [])), len(self.public.get(game.id, []))

    def announce(self, what: Said, also: str | None = None, game: Game | None = None, master: bool = True,
                 public: bool = False, observers: Said | None = None, at: tuple[int, int] | None = None,
                 setting: str | None = None) -> None:
        """Tell every player of the signed-on game (or ``game``; and ``also``, a player who just
        left it) what happened: one mail per player and mail, sent after the reply (or before a
        phase's results: `announce_now`).  The subject is ``what`` up to its first ": ".  The game
        master gets a copy (as the classic judges send it) of what its own mail did not do, as it
        must find a new player for a seat its player left and keep the deadlines: a resignation, an
        absence; not with ``master`` False, where it has a notice of its own (a takeover, a
        replacement).  ``public``: the game's observers are told too, as what anyone watching the
        game may know (the game master's changes to its clock, phases and rules), never a
        player's address or secret; ``observers``: what they are told instead, where ``what``
        names an address (a seat taken over), which then is never folded into the results.  ``at``
        (`news_so_far`): where the line goes among this mail's, by default last.

        A line makes moot what this mail announced before in the same words, and (``setting``: the
        game's setting whose new state it tells, ``deadline``, ``silence``...) what it announced of
        the same setting: that goes, as its readers need only where each setting ended, once; so
        that a mail of a thousand SET lines tells the game a few lines, not a thousand, in each of
        its mails.

        ``what`` and ``observers`` are each a text or a function that writes it (`Said`): each
        reader's mail is written in that reader's language (`writing_to`), a function called in
        it; two lines are the same line if they say the same in English."""
        game = game or self.context.game
        assert game is not None
        if game.id not in self.rounds:
            self.rounds[game.id] = self.round_size(game)
            self.mails_sent += self.rounds[game.id]
        moot = {said_in_english(what), said_in_english(observers or what)}
        if setting is not None and (told_before := self.settings_told.get((game.id, setting))) is not None:
            moot.add(told_before)
        players, watching = at or (None, None)
        news = self.announcements.setdefault(game.id, [])
        players = _without(news, moot, players)
        news.insert(len(news) if players is None else players, what)
        if public or observers:
            told = self.public.setdefault(game.id, [])
            watching = _without(told, moot, watching)
            told.insert(len(told) if watching is None else watching, observers or what)
        if setting is not None:
            self.settings_told[(game.id, setting)] = said_in_english(what)
        if observers and said_in_english(observers) != said_in_english(what):
            self.worded_apart.add(game.id)
        if also:
            self.also_told.setdefault(game.id, set()).add(also)
        if master and not self.master_of(game):
            self.master_told.add(game.id)

    def round_size(self, game: Game) -> int:
        """The most mails one announcement round to ``game`` sends: one to each of its players,
        its observers and its game master."""
        played = sum(1 for player in host.seats(self.session, game).values() if host.is_played(player))
        return played + len(host.observers(self.session, game)) + 1

    def over_budget(self, game: Game) -> str | None:
        """Why a command that announces to ``game`` may not be done in this mail: its announcement
        round would take the mail over ``max_mails_per_mail``; None if it may.  A mail's first
        round is never refused, whatever the game's size (as its first processing is not), nor a
        command whose news joins a round the mail sends already."""
        if game.id in self.rounds or not self.mails_sent:
            return None
        size, budget = self.round_size(game), self.settings.max_mails_per_mail
        if self.mails_sent + size <= budget:
            return None
        return ngettext("not done: telling the players and observers of {game} would take {count} more mail, and "
                        "this mail has already caused {sent}, over the judge's limit of {budget} mails a mail: send it "
                        "in a mail of its own",
                        "not done: telling the players and observers of {game} would take {count} more mails, and "
                        "this mail has already caused {sent}, over the judge's limit of {budget} mails a mail: send it "
                        "in a mail of its own", size, game=game.name, sent=self.mails_sent, budget=budget)

    def foldable(self, game: Game) -> int:
        """The mails of ``game``'s announcement round that `take_news` would save: all of its round
        when every piece of news is public, in the same words for every reader, and goes to no one
        who left the game (so every reader of the phase's results may read it), else none."""
        news = self.announcements.get(game.id)
        if (not news or game.id in self.also_told or game.id in self.worded_apart
                or len(self.public.get(game.id, [])) != len(news)):
            return 0
        return self.rounds.get(game.id, 0)

    def take_news(self, game: Game) -> list[Said]:
        """What this mail announced to ``game``, taken out of its announcement round to be said in
        the results of the phase it processes instead (one mail per reader, not two, each in its
        reader's language), when every reader of the results may read it (`foldable`); else nothing,
        and the round stays."""
        if not self.foldable(game):
            return []
        self.mails_sent -= self.rounds.pop(game.id)
        self.public.pop(game.id, None)
        self.master_told.discard(game.id)
        return self.announcements.pop(game.id)

    def announce_now(self, game: Game) -> None:
        """Queue what this mail announced to ``game``'s players so far now, not after the reply:
        before the results of a phase the game master's command processes, so that they read
        why (a ROLLFORWARD) before what came of it, and the mail names the phase as it is then."""
        if news := self.announcements.pop(game.id, None):
            self._announce(game.id, news, self.public.pop(game.id, []))

    def _announce(self, game_id: int, news: list[Said], public: list[Said]) -> None:
        """Queue one announcement round: each reader's mail written in that reader's language
        (`writing_to`), once per language and kind of reader (the players and master, the observers)."""
        game = self.session.get(Game, game_id)
        assert game is not None
        played = {p.address for p in host.seats(self.session, game).values() if host.is_played(p)}
        told = played | self.also_told.get(game_id, set())
        if game_id in self.master_told:
            told.add(game.gm_address)
        watching = [address for address in host.observers(self.session, game) if address not in told] if public else []
        for readers, kept in ((sorted(a for a in told if a), news), (watching, public)):
            written: dict[str, tuple[str, str]] = {}  # language -> subject, body
            for address in readers:
                with writing_to(self.session, self.settings, address, game):
                    language = language_of(self.session, self.settings, address, game)
                    if language not in written:
                        lines = [said(line) for line in kept]
                        headline = lines[0].split(": ", 1)[0] if lines else ""
                        subject = (_("{game}: {headline}", game=game.name, headline=headline) if len(lines) == 1
                                   else _("{game}: {headline} (and more)", game=game.name, headline=headline))
                        written[language] = subject[:200], render("announcement", game=game, news=lines)
                    subject, body = written[language]
                    queue(self.session, self.settings, to=address, subject=subject, kind="announcement",
                          now=self.now, game_id=game.id, body=body)

    def proved(self, address: str) -> None:
        """Note that this mail proved ``address`` is its writer's: it signed on to a seat (or as
        master) registered at it, or made a change for it.  If the reply goes there, it is sent
        whatever the hour's count of answers to that address's mailbox (`judge.service.incoming.handlers.mail`)."""
        if address and mailbox.same(address, self.mail.reply_to):
            self.proven = True

    def copy_to(self, address: str) -> None:
        """Send ``address`` (a seat's registered address, one it moves to) a copy of the reply's
        part that is being read: the lines of this sign-on, not the other sign-ons' of the same
        mail (another power's offers are not that address's to read)."""
        self.copies.setdefault(address, set()).add(self.part)
        self.copied_games.setdefault(address, self.context.game)  # whose language its reader may read

    def tell_registered(self, change: Said) -> None:
        """Note a change of the signed-on seat's registration for the address it had at sign-on,
        which is told of all of them in one notice."""
        if self.context.registered:
            self.tell_of_change(self.context.registered, change, self.context.game)

    def tell_of_change(self, address: str, change: Said, game: Game | None) -> None:
        """Note a change of a registration for ``address`` (a reader of ``game``), told of all of them in
        one notice (`notify`), written in its language: ``change`` a function that writes it there."""
        self.notices.setdefault(address, (game, []))[1].append(change)

    def notify(self) -> None:
        """Queue the notices of changed registrations, each written in its reader's language."""
        for address, (game, changes) in sorted(self.notices.items()):
            with writing_to(self.session, self.settings, address, game):
                queue(self.session, self.settings, to=address, subject=_("Your registration with the judge changed"),
                      kind="notice", now=self.now, body=render("changed", changes=[said(c) for c in changes],
                                                                mail=self.mail, now=self.now, settings=self.settings))


def _without(lines: list[Said], moot: set[str], at: int | None) -> int | None:
    """Take out of ``lines`` (a mail's news) those in ``moot`` (in English); ``at``, where a new line
    is to go, moved back past those taken out before it."""
    for index in range(len(lines) - 1, -1, -1):
        if said_in_english(lines[index]) in moot:
            del lines[index]
            if at is not None and index < at:
                at -= 1
    return at
