"""The contract between the host and a kind of game, as small as pytest's with its plugins: which
members of `judge.service.hosting.kinds.GameKind` a kind must write (`REQUIRED`), the host's default for
every other (`Kind`, which a kind subclasses), and the check that registers a kind (`check`).

pytest's hook specifications are all optional and pluggy rejects a plugin's misspelt hook; here the
few members without which no game can be played are required, the rest have a default (a simple one
in the protocol itself, one that reads the host's rows or writes pages here), and a public name of a
kind that is in no specification is refused when the judge's registry is made
(`judge.bootstrap.registry`), naming it.  The specifications stay typed protocols read by mypy; a
kind is one object the host calls for its games, not a plugin among many answering each call, which
is why the registry is the host's own (`judge.service.hosting.kinds.Kinds`) rather than pluggy's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import get_close_matches
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from judge.commands.parse import History
from judge.language import gettext as _
from judge.service.config import Settings
from judge.service.hosting import host
from judge.service.hosting.kinds import Commands, Demo, GameKind, Lobby, Pages, Phases, Records
from judge.service.hosting.turn import Turn
from judge.service.outgoing.outbox import queue
from judge.service.outgoing.preferences import writing_to
from judge.service.templates import seat_word, when
from judge.store.models import Game, Player
from judge.web.pages import make_folder, render_page
from judge.web.public import GameFacts, summary

SPECIFICATIONS = (Lobby, Phases, Commands, Pages, Records, Demo)
"""The protocols a kind implements, by concern: their members are every public name a kind may define."""
MEMBERS = frozenset(name for spec in SPECIFICATIONS
                    for name in (*spec.__annotations__, *(key for key, value in vars(spec).items() if callable(value)))
                    if not name.startswith("_"))
"""Every member of `GameKind`: a kind's public name that is none of these is a mistake (`check`)."""
REQUIRED = ("name", "title", "capacity", "durations", "start", "waiting", "process", "read", "commands", "status")
"""The members without which no game can be played, which a kind must write: what CREATE names it by
and what it is called, how many play, how long its phases last, how a game starts, who must act and
what closing a phase does, the lines it reads and what they do, and what STATUS tells a seat.  Every
other member has the host's default."""
NAME = re.compile(r"[A-Za-z][A-Za-z0-9]{1,11}")
"""A player's name, by default (`Kind.name_problem`): 2 to 12 letters or digits, a letter first."""
HOST_WORDS = frozenset({"MASTER", "GM", "M", "ALL", "KEY"})
"""Words the host gives a meaning where a seat is named: no player may be named so."""


def check(kind: GameKind) -> None:
    """TypeError naming what is wrong if the host cannot host ``kind``: it must be a `Kind` (whose
    defaults it inherits), write every `REQUIRED` member itself, and define no public name that is in
    no specification (``def publicaton``: a misspelt member would be a method the host never calls),
    as pluggy's ``check_pending`` checks a plugin's hooks; its private helpers (``_name``) are its own."""
    kind_class = type(kind)
    if Kind not in kind_class.__mro__:
        raise TypeError(f"{kind_class.__name__} is no Kind: a kind of game subclasses judge.api.Kind")
    own = [cls for cls in kind_class.__mro__ if cls not in Kind.__mro__]
    for cls in own:
        for name in (*vars(cls), *vars(cls).get("__annotations__", {})):
            if not name.startswith("_") and name not in MEMBERS:
                near = get_close_matches(name, MEMBERS, n=1)
                raise TypeError(f"{kind_class.__name__}.{name} is no member of a kind of game"
                                + (f": did you mean {near[0]}?" if near else ""))
    missing = [name for name in REQUIRED if name not in vars(kind) and not any(name in vars(cls) for cls in own)]
    if missing:
        raise TypeError(f"{kind_class.__name__} lacks what every kind of game must write: {', '.join(missing)}")


class Kind(GameKind):
    """A kind of game with the host's default for each member that reads the host's rows or writes
    pages: a kind subclasses it (`judge.api.Kind`) and writes the `REQUIRED` members, and any other
    it plays differently.  By default a seat is its player's name as joined (any case when named
    later: ``SIGNON alice@game``, ``PRESS TO Alice``), in the order of the names, as in Pirates'
    Proposal, Exchange Payola and the example kind."""

    def name_problem(self, session: Session, game: Game, name: str) -> str | None:
        """The default of `Lobby.name_problem`: the shape of `NAME`, no word of the commands, and no name
        taken in the game whatever the case."""
        if not NAME.fullmatch(name):
            return _("'{name}' is not a name here: 2 to 12 letters or digits, a letter first", name=name[:20])
        if name.upper() in HOST_WORDS:
            return _("'{name}' cannot be a player's name: MASTER, GM, M, ALL and KEY are words of the commands",
                     name=name)
        if name.casefold() in {(p.requested or "").casefold() for p in host.players(session, game)}:
            return _("a player of {game} is already named '{name}' (names differ whatever the case): choose another",
                     game=game.name, name=name)
        return None

    def seat(self, session: Session, game: Game, word: str) -> str:
        """The default of `Lobby.seat`: the seat whose name is ``word``, whatever the case."""
        found = next((name for name in host.seats(session, game) if name.casefold() == word.casefold()), None)
        if found is None:
            raise ValueError(_("there is no {seat} named '{name}' in {game}", seat=seat_word(
                self.player_word or self.seat_word), name=word[:20], game=game.name))
        return found

    def seat_order(self, session: Session, game: Game) -> list[str]:
        """The default of `Lobby.seat_order`: the seats' names, whatever the case."""
        return sorted(host.seats(session, game), key=str.casefold)

    def brief(self, turn: Turn, game: Game, seat: str, player: Player, address: str) -> None:
        """The default of `Commands.brief`: the game and its phase as the seat's new player meets them, how
        to sign on and see the seat as it stands (STATUS), and the seat's form where the kind gives one."""
        with writing_to(turn.session, turn.settings, address, game):  # the new player's own language
            title = self.seat_title(seat)
            label = self.label(game.phase) if game.phase else ""
            lines = [_("You now play {seat} in {game}, a game of {kind}.", seat=title, game=game.name, kind=self.title)]
            if game.phase and label:
                lines.append(_("The game is in its phase {phase} ({label}).", phase=game.phase, label=label))
            elif game.phase:
                lines.append(_("The game is in its phase {phase}.", phase=game.phase))
            if game.deadline is not None:
                lines.append(_("The phase's deadline is {deadline}.", deadline=when(game.deadline)))
            lines.append(_("Sign on with SIGNON {word}@{game} and your password: STATUS then shows what {seat} has and "
                           "has sent.", word=seat, game=game.name, seat=title))
            queue(turn.session, turn.settings, to=address, subject=_("{game}: your briefing as {seat}", game=game.name,
                                                                     seat=title),
                  kind="notice", now=turn.now, game_id=game.id, body="\n".join(lines), opens=seat)

    def results_mails(self, session: Session, game: Game) -> int:
        """The default of `Phases.results_mails`: one to each played seat, each observer and the game master."""
        played = sum(1 for player in host.seats(session, game).values() if host.is_played(player))
        return played + len(host.observers(session, game)) + 1

    def list_lines(self, turn: Turn, game: Game) -> list[str]:
        """The default of `Commands.list_lines`: the host's listing (`judge.service.hosting.host.answer_list`)
        of the seats in their order."""
        seated = host.seats(turn.session, game)
        return host.answer_list(game, self.title, self.label(game.phase) or None if game.phase else None,
                                [(seat, seated.get(seat)) for seat in self.seat_order(turn.session, game)])

    def history(self, turn: Turn, text: str, game: Game, command: History) -> None:
        """The default of `Commands.history`: the phases processed so far, by name."""
        names = [name for _row, name in host.processed_names(turn.session, game)]
        turn.answer_long(text, f"{game.name}-history.txt", "\n".join(names) or _("no phase processed yet"),
                         "the history", game=game)

    def summary(self, turn: Turn, text: str, game: Game) -> None:
        """The default of `Commands.summary`: the host's (`judge.service.hosting.host.answer_summary`)."""
        host.answer_summary(turn, text, game, "summary", self.title, self.label(game.phase or "") or game.phase)

    def info(self, game: Game) -> list[str]:
        """The default of `Commands.info`: the kind's title."""
        return [self.title]

    def help(self, settings: Settings) -> str:
        """The default of `Commands.help`: the kind's title and the first words of its lines."""
        if self.words:
            return _("{kind}: its lines start {words}.", kind=self.title, words=", ".join(self.words)) + "\n"
        return _("{kind}: the judge's commands.", kind=self.title) + "\n"

    def facts(self, session: Session, game: Game, acting: bool = True,
              seated: Sequence[Player] | None = None) -> GameFacts:
        """The default of `Pages.facts`: the host's (`judge.service.hosting.host.game_facts`), the seats in their
        order."""
        joined = host.players(session, game) if seated is None else seated
        by_seat = {player.seat: player for player in joined if player.seat}
        order = self.seat_order(session, game) if seated is None else sorted(by_seat, key=str.casefold)
        return host.game_facts(game, self.title, joined, [host.public_seat(game, seat, by_seat.get(seat))
                                                          for seat in order],
                               self.label(game.phase) or None if game.phase else None)

    def write_pages(self, root: Path, record: Any, force: bool = False) -> Path:
        """The default of `Pages.write_pages`: one page of the game's `facts` (what `gather` read, by
        default), the host's ``web/game.html.j2``."""
        facts: GameFacts = record
        folder = root / "games" / facts.name
        for path in (root, root / "games", folder):
            make_folder(path)
        render_page(folder / "index.html", "game.html.j2", set(), game=summary(facts), root="../../")
        return folder / "index.html"
