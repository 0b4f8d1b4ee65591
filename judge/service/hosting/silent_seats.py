"""What the judge does by itself when a phase closes, and about the seats that stay silent: each
played seat's line in its player's record, the automatic extensions, and the abandoned seats.

Theory of operation.  Every phase a kind closes (at the deadline, on the game master's PROCESS,
once complete, or processed again by ROLLFORWARD) closes inside `closing`: it reads, before the
kind closes the phase, which played seats were due to act and whether they did by the deadline
(`_outcomes`), and once the kind has closed it writes their lines in the players' records
(`judge.service.hosting.records`) and applies the game's policy (`judge.service.hosting.silence`): a seat whose
player has missed ``abandon`` deadlines in a row is declared abandoned (`abandon`).  Its player
leaves it (as by RESIGN, but told why, alone), it opens for TAKEOVER by anyone not already
playing in the game, everyone else (observers too) is told, one mail a reader for all the seats
abandoned at one deadline, and its kind says what its orders are meanwhile (its rules for a seat
that sends nothing: `judge.service.hosting.kinds.Lobby.abandoned`).  A game that ends there gives its
players a ``finished`` line.

A game master's settings cannot mark a player's judge-wide record (ruling H4).  A phase whose
deadline, as the game master set it (before the judge's automatic extensions), came less than
24 hours after it opened gives no line to anyone, on time, late or missed (`silence.judged`):
it is too short to judge a player by, either way.  A miss counts towards a seat's abandonment
only in a phase opened once the game's policy stood as it is (`silence.policy_since`; a policy
set in the mail that starts the game stands from the first phase).  The seat is then declared
abandoned in the game exactly when its record gets the ``abandoned`` line: the game and the
record never disagree, and in a game too fast to count the game master handles a silent player
(DUMMY, REPLACE, SET OPENING).

Before that, when the deadline and grace have passed and a played seat has still not acted, the
clock extends the deadline (`extend`) instead of processing, as often as the policy allows, and
tells everyone, as njudge does; who is late, only as the game's own STATUS would (ruling H2).

A game nobody plays ends (ruling H1).  When a phase has closed and no seat has a player (each
vacant, a dummy, or out of the game: `host.nobody_plays`), the phase it opened is marked
(`desertion`; such a phase does not close early, `host.closes_early`); if nobody takes a seat
over during the whole of it, it is carried out at its deadline, its results saying they are the
last, and the game ends as deserted (`deserted`, `judge.service.hosting.course.close`): no winner, no
ranking, no ``finished`` line on anyone's record, the end publication to everyone who played,
the master and the observers.  Where no seat can ever have a player again (every seat
`Lobby.no_new_player`: Machiavelli's eliminated countries) it ends at once.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from judge.language import Wording, later, ngettext, nlater
from judge.language import gettext as _
from judge.service.config import Settings
from judge.service.hosting import host, records, silence
from judge.service.hosting.deadlines import move_to, rule_for
from judge.service.hosting.kinds import kind_of
from judge.service.hosting.turn import Said, said
from judge.service.mailbox import mailbox
from judge.service.outgoing.outbox import queue
from judge.service.outgoing.preferences import language_of, writing_to
from judge.service.states import RUNNING, GameState
from judge.service.templates import duration, render, seat_word, when
from judge.store.models import Game, PhaseRow, PlayerRecord, Submission


@contextmanager
def closing(session: Session, game: Game, settings: Settings, now: datetime) -> Iterator[None]:
    """Around a kind's closing of the game's phase (`judge.service.hosting.course.close`): the seats' lines in
    their records and the seats abandoned (the game's end is in the records too: `course.end`).
    Nothing is written if the closing raises."""
    row = host.current_phase(session, game)
    judged = row is not None and game.state in RUNNING and silence.judged(game, row)  # H4: long enough to count
    seen = _outcomes(session, game, row, now) if row is not None and judged else []
    yield
    if row is None:
        return
    for seat, address, what in seen:
        records.keep(session, game, seat, address, what, now, row.name, row.id)
    if game.state == GameState.FINISHED:
        return
    session.flush()
    policy = silence.policy_of(game)
    if policy is None or not policy.abandon or game.state not in RUNNING:
        return
    seats = host.seats(session, game)
    since = silence.policy_since(game)
    gone = []
    for name in (name for name, _address, what in seen if what == "missed"):
        player = seats.get(name)
        if player is not None and host.is_played(player) and player.address is not None and (
                misses := _misses(session, game, name, player.address, since)) >= policy.abandon:
            gone.append((name, misses))
    if gone:
        abandon(session, game, settings, now, gone, row)


def _misses(session: Session, game: Game, seat: str, address: str, since: datetime) -> int:
    """How many deadlines ``address`` missed in a row as ``seat`` of ``game`` that count towards its
    abandonment (ruling H4): those of phases opened once the game's policy stood (``since``) and
    long enough to be on the record at all (`silence.judged`); a miss before the policy was set
    ends the run, as a phase the seat acted in does."""
    whats = session.execute(
        select(PlayerRecord.what, PhaseRow.opened_at).join(PhaseRow, PhaseRow.id == PlayerRecord.phase_row)
        .where(PlayerRecord.game_id == game.id, PlayerRecord.seat == seat,
               PlayerRecord.address == mailbox(address),  # records are kept by mailbox (H4)
               PlayerRecord.what.in_(("on_time", "late", "missed"))).order_by(PlayerRecord.id.desc()))
    count = 0
    for what, opened in whats:
        if what != "missed" or opened < since:
            break
        count += 1
    return count


UNPLAYED = "unplayed"
"""The key of the game's settings that marks a deserted phase (ruling H1): the phase closed at
whose deadline no seat had a player (``after``), and the phase it opened (``phase``)."""
DESERTED = "deserted"
"""The key of the game's settings that says a finished game ended deserted (ruling H1)."""


def ended_deserted(game: Game) -> bool:
    """Whether the game ended deserted (ruling H1): no winner and no ranking, which a kind's end
    publication says instead of ranking its seats."""
    return bool(game.settings.get(DESERTED))


@dataclass(frozen=True)
class Deserted:
    """A game that ends deserted as its open phase closes (ruling H1): no seat has had a player
    since the deadline of the phase ``after``, and none was taken over during the whole of
    ``phase``."""

    after: str
    phase: str

    @property
    def result(self) -> Wording:
        return later("deserted (nobody has played in it since the deadline of {after}, and nobody took a seat over "
                     "in {phase})", after=self.after, phase=self.phase)

    @property
    def note(self) -> Said:
        """What the phase's results say first, in each reader's language: they are the game's last."""
        after, phase = self.after, self.phase
        return lambda: _("These are the game's last results: nobody has played in it since the deadline of {after}, "
                         "and nobody took a seat over in {phase}, so it ends as deserted (ruling H1). Its end's "
                         "publication follows.", after=after, phase=phase)


def deserted(session: Session, game: Game) -> Deserted | None:
    """As the open phase is about to close: whether the game ends deserted with it (ruling H1), the
    phase carried out first so that its results and the game's record end at its deadline.  It
    does when no seat had a player at the deadline before this phase (`desertion` marked it),
    none has one now, and none was taken over during the whole of this phase (one taken over
    and left again counts: a newcomer came)."""
    mark = game.settings.get(UNPLAYED)
    if not isinstance(mark, dict) or mark.get("phase") != game.phase or not host.nobody_plays(session, game):
        return None
    if game.phase in game.settings.get("since", {}).values():  # taken over in this phase (`host.took_seat`)
        return None
    return Deserted(str(mark["after"]), str(game.phase))


def desertion(session: Session, game: Game, closed: str) -> Wording | None:
    """Once the phase ``closed`` has closed and the next is open (its silent seats abandoned): if
    no seat has a player, mark the new phase as the one a newcomer has to come in (`deserted`),
    or, where no seat can ever have a player again (`judge.service.hosting.kinds.Lobby.no_new_player`:
    Machiavelli's eliminated countries, 4.3, M62), return the result of the game, deserted at
    once (ruling H1); else clear the mark.  None unless the game ends here."""
    if not host.nobody_plays(session, game):
        if UNPLAYED in game.settings:
            game.settings = {key: value for key, value in game.settings.items() if key != UNPLAYED}
        return None
    kind = kind_of(session, game)
    if all(kind.no_new_player(session, game, seat) is not None for seat in host.seats(session, game)):
        return later("deserted (nobody plays in it, and no seat can be taken over again)")
    game.settings = {**game.settings, UNPLAYED: {"after": closed, "phase": game.phase}}
    return None


def _outcomes(session: Session, game: Game, row: PhaseRow, now: datetime) -> list[tuple[str, str, str]]:
    """Each played seat due to act in the phase of ``row``, its player's address, and whether it
    acted by the deadline (``on_time``), after it (``late``) or not at all (``missed``, only once the
    deadline has passed: a phase closed early misses nobody).  A seat that had nothing to do has no
    line; nor has one whose player took it over during the phase and did not act in it (they may
    have come too late to), while one who did act, by their first submission since they took it
    over, has their line like any player."""
    kind = kind_of(session, game)
    due_by = silence.on_time_by(game, row)
    waiting = set(kind.waiting(session, game))
    sent = func.coalesce(Submission.accepted_at, Submission.created_at)
    first = dict(session.execute(
        select(Submission.seat, func.min(sent))
        .where(Submission.game_id == game.id, Submission.phase == row.name).group_by(Submission.seat)).all())
    found = []
    for name, player in host.seats(session, game).items():
        if not host.is_played(player) or player.address is None or kind.out_of_game(session, game, name):
            continue
        acted = first.get(name)
        if player.joined_at > row.opened_at:  # a newcomer: what they sent since they took the seat over
            acted = session.scalar(select(func.min(sent)).where(
                Submission.game_id == game.id, Submission.phase == row.name, Submission.seat == name,
                sent >= player.joined_at)) if acted is not None else None
            if acted is None:
                continue
        if name in waiting:
            if due_by is not None and now >= due_by:
                found.append((name, player.address, "missed"))
        elif acted is not None:
            found.append((name, player.address, "on_time" if due_by is None or acted <= due_by else "late"))
    return found


def extend(session: Session, game: Game, settings: Settings, now: datetime) -> str | None:
    """At the deadline and grace: extend the deadline by the policy's ``extension`` hours if a
    played seat has still not acted and the phase has extensions left, and tell everyone (observers
    too); what the log says of it, or None (the phase is processed).  Who is late is told as the
    game's own STATUS tells who has acted (ruling H2): in a kind whose public facts list the
    seats still to act (`judge.web.public.GameFacts.waiting`: Payola's), everyone is told which
    seats; elsewhere (Exchange, Machiavelli, Pirates' Proposal, a blind game) the players and
    observers are told only that a seat is late, each late seat is told privately, and the game
    master is told which, as is the game's story only in the first case."""
    row = host.current_phase(session, game)
    policy = silence.extension_left(game, row) if row is not None else None
    if policy is None or row is None or game.deadline is None:
        return None
    kind = kind_of(session, game)
    seat = host.seats(session, game)
    late = [name for name in kind.waiting(session, game) if host.is_played(seat.get(name))]
    if not late:
        return None
    granted = len(silence.extensions(row)) + 1
    grace = timedelta(hours=host.duration(game, "grace"))
    before = game.deadline
    after = silence.extended_to(policy, before, grace)
    if after <= now:  # the judge ran late: a whole extension from now
        after = now + timedelta(hours=policy.extension)
    move_to(game, after, now)
    row.notices = [*(row.notices or []), silence.extension_mark(before, after), silence.daily_mark(now)]
    count, last = len(late), kind.seat_title(late[-1])
    names = ", ".join(kind.seat_title(name) for name in late)
    extension = policy.extension

    def listed() -> str:
        return names if count == 1 else _("{first} and {last}", first=", ".join(
            kind.seat_title(name) for name in late[:-1]), last=last)

    def how() -> str:
        return _("by {length} to {moment} (automatic extension {granted} of {extensions})",
                 length=duration(extension), moment=when(after), granted=granted, extensions=policy.extensions)

    def named() -> str:
        return ngettext("{phase} extended: {seats} has not acted yet, so the deadline of {phase} is extended "
                        "{how}", "{phase} extended: {seats} have not acted yet, so the deadline of {phase} is "
                        "extended {how}", count, phase=row.name, seats=listed(), how=how())

    if set(late) <= set(kind.facts(session, game).waiting):  # the kind shows who has acted: no secret
        tell_everyone(session, settings, game, now, [named])
        host.record(game, later("deadline extended to {moment}: {seats} late", moment=when(after), seats=names))
    else:
        addresses = {address for name in late if (address := seat[name].address) not in (None, game.gm_address)}
        tell_everyone(session, settings, game, now, [
            lambda: _("{phase} extended: not every {seat} has acted yet, so the deadline of {phase} is extended "
                      "{how}; which {seat} is late, only the game master is told", phase=row.name,
                      seat=seat_word(kind.seat_word), how=how())], master=[named], but=addresses)
        again = silence.extension_left(game, row)
        for name in late:
            title, address = kind.seat_title(name), seat[name].address
            assert address is not None
            with writing_to(session, settings, address, game):
                then = (_("Without a mail from you by {moment}, it is extended again, to {then}.",
                          moment=when(after + grace), then=when(silence.extended_to(again, after, grace)))
                        if again is not None else
                        _("Without a mail from you, it is carried out at {moment} at the latest.",
                          moment=when(after + grace)))
                queue(session, settings, to=address, subject=_("{game}: {phase} extended", game=game.name,
                                                               phase=row.name),
                      kind="notice", now=now, game_id=game.id, body=render("announcement", game=game, news=[
                          _("{phase} extended: you ({seat}) have not acted yet, so the deadline of {phase} is "
                            "extended {how}. {then}", phase=row.name, seat=title, how=how(), then=then)]))
        host.record(game, later("deadline extended to {moment}: not every {seat} had acted", moment=when(after),
                                seat=Wording(message=kind.seat_word, values={})))  # the host's word, worded too
    return f"{game.name} {row.name} extended to {after:%Y-%m-%d %H:%M} UTC: {names} late"


def abandon(session: Session, game: Game, settings: Settings, now: datetime, gone: list[tuple[str, int]],
            row: PhaseRow) -> None:
    """Declare the seats of ``gone`` abandoned at the deadline of the phase of ``row``, each with the
    deadlines its player missed in a row: each player leaves its seat and is told why, alone; each
    seat opens for TAKEOVER, its record and the game's story keep it; and everyone else (the
    players left, the game master, the observers) is told of them all in one mail, with what the
    kind does with each meanwhile (`judge.service.hosting.kinds.Lobby.abandoned`), each in their
    own language."""
    kind = kind_of(session, game)
    seats = host.seats(session, game)
    left: list[tuple[str, str, int]] = []
    for seat, misses in gone:
        player = seats[seat]
        assert player.address is not None
        left.append((seat, player.address, misses))
        host.left_seat(game, player, row.name)
        player.resigned = True
        game.settings = {**game.settings, "open": sorted({*game.settings.get("open", []), seat}),
                         "abandoned": {**game.settings.get("abandoned", {}), seat: player.address}}
        records.keep(session, game, seat, player.address, "abandoned", now, row.name, row.id)
        title = kind.seat_title(seat)
        host.record(game, later("{seat} declared abandoned: it missed the deadline of {phase}", seat=title,
                                phase=row.name) if misses == 1 else
                    nlater("{seat} declared abandoned: it missed {count} deadline in a row, up to that of {phase}",
                           "{seat} declared abandoned: it missed {count} deadlines in a row, up to that of {phase}",
                           misses, seat=title, phase=row.name))
    session.flush()
    news: list[Said] = []
    for seat, address, misses in left:
        title, word = kind.seat_title(seat), host.command_name(seat)
        with writing_to(session, settings, address, game):
            queue(session, settings, to=address, subject=_("{game}: {seat} declared abandoned", game=game.name,
                                                           seat=title),
                  kind="notice", now=now, game_id=game.id,
                  body=render("abandoned", game=game, title=title, seat=word, misses=misses, phase=row.name,
                              meanwhile=kind.abandoned(session, game, seat)))
        news.append(_abandoned_news(session, game, seat, title, word, misses, row.name))
    titles = [kind.seat_title(seat) for seat, _seat, _misses in left]

    def subject() -> str:
        if len(titles) == 1:
            return _("{seat} declared abandoned", seat=titles[0])
        named = _("{first} and {last}", first=", ".join(titles[:-1]), last=titles[-1])
        return (_("{seats} declared abandoned", seats=named) if len(named) <= 120 else
                _("{count} seats declared abandoned", count=len(titles)))

    tell_everyone(session, settings, game, now, news, subject=subject)


def _abandoned_news(session: Session, game: Game, seat: str, title: str, word: str, misses: int,
                    phase: str) -> Said:
    """The news of ``seat`` declared abandoned, for every other reader of the game, in theirs."""
    kind = kind_of(session, game)

    def news() -> str:
        meanwhile = kind.abandoned(session, game, seat)
        if misses == 1:
            return _("{seat} declared abandoned: it missed the deadline of {phase}; {meanwhile}. Anyone not playing "
                     "in {game} may take it over: TAKEOVER {word}@{game} password", seat=title, phase=phase,
                     meanwhile=meanwhile, game=game.name, word=word)
        return _("{seat} declared abandoned: it missed {misses} deadlines in a row, up to that of {phase}; "
                 "{meanwhile}. Anyone not playing in {game} may take it over: TAKEOVER {word}@{game} password",
                 seat=title, misses=misses, phase=phase, meanwhile=meanwhile, game=game.name, word=word)
    return news


def tell_everyone(session: Session, settings: Settings, game: Game, now: datetime, news: Sequence[Said],
                  subject: Said | None = None, master: Sequence[Said] | None = None, but: Collection[str] = ()) -> None:
    """Mail ``news`` to every player of the game, its game master and its observers, one mail each:
    what anyone watching the game may know (never a player's address); the game master ``master``
    instead, if given; nothing to the addresses ``but`` (told otherwise).  Its subject:
    ``subject``, else the first news up to its colon.  Each reader's mail is written in that
    reader's language (`writing_to`), once per language: a sentence made by a function (`Said`) is
    written in it."""
    played = {p.address for p in host.seats(session, game).values() if host.is_played(p) and p.address}
    readers = sorted(played | {game.gm_address}) + [a for a in host.observers(session, game)
                                                     if a not in played and a != game.gm_address]
    written: dict[tuple[str, bool], tuple[str, str]] = {}  # (language, the master's) -> subject, body
    for address in readers:
        if address in but:
            continue
        to_master = address == game.gm_address and master is not None
        with writing_to(session, settings, address, game):
            key = (language_of(session, settings, address, game), to_master)
            if key not in written:
                lines = [said(line) for line in news]
                headline = said(subject) if subject is not None else lines[0].split(": ", 1)[0]
                told = [said(line) for line in master] if to_master and master is not None else lines
                written[key] = (_("{game}: {headline}", game=game.name, headline=headline)[:200],
                                render("announcement", game=game, news=told))
            title, body = written[key]
            queue(session, settings, to=address, subject=title, kind="announcement", now=now, game_id=game.id,
                  body=body)


def lines(session: Session, game: Game) -> list[str]:
    """What STATUS and the start's announcement say of the game's clock, its policy for silent seats
    and its entry gates (nothing for a game that has none of them)."""
    kind = kind_of(session, game)
    found = [_("deadlines of {setting} phases: {rule}", setting=setting, rule=rule.words())
             for setting in kind.durations if (rule := rule_for(game, setting)) is not None]
    policy = silence.policy_of(game)
    if policy is not None:
        found.append(_("silent seats: {policy}", policy=policy.words()))
    found += [_("entry gate: {gate}", gate=gate) for gate in records.gate_words(game)]
    return found

