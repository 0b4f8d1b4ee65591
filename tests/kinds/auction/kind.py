"""The auction as a kind of game the host runs: a `judge.api.Kind` that writes the members every kind must
and those it plays its own way, the host's defaults doing the rest, on the host's API alone (`judge.api`),
its rules in `tests.kinds.auction.core`, its mails and page in ``templates/``.

``CREATE game password auction [LOTS=n] [COINS=n]`` (3 lots and 100 coins each by default); ``JOIN game
password name``; the game master's START draws nothing: the seats are the names, in their order.  A
phase is a lot (``L1`` ...), lasting ``SET LOT hours`` (24 by default); ``BID n`` is a player's sealed
bid, the latest standing.  The phase closes once every player has bid (unless one asks to WAIT), at its
deadline, or on PROCESS; the host does the rest (the state, ROLLBACK and ROLLFORWARD, the end and its
publication, results sent again marked as such).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import MappingProxyType

from sqlalchemy import Connection
from sqlalchemy.orm import Session

from judge import api
from tests.kinds.auction import core

log = logging.getLogger("judge")
BID = "bid"
"""The kind of a player's submission: its bid on the lot on sale."""
LOTS, COINS = 3, 100


@dataclass(frozen=True)
class Record:
    """What the game's page is made of (`Auction.gather`): its facts, and once it has ended every bid."""

    facts: api.GameFacts
    published: tuple[str, ...] = ()


@dataclass(frozen=True)
class Bid:
    """``BID n``: a player's sealed bid on the lot on sale."""

    amount: int


def read(text: str, game: api.Game | None) -> api.Command:
    """A line the host does not read: ``BID n``, ``SET LOT hours`` (the game master), or an unknown command."""
    words = text.split()
    if words[0].upper() == "SET":
        return api.read_phase_length(text, words, {"LOT": "lot"}, "SET LOT hours")
    if words[0].upper() != "BID":
        return api.Unknown(f"unknown command '{words[0][:20]}': HELP lists the commands of an auction")
    if len(words) != 2 or not re.fullmatch(r"\d{1,5}", words[1]):
        return api.BadCommand("BID takes a number of coins: BID 25")
    return Bid(int(words[1]))


def auction_of(row: api.PhaseRow) -> core.Auction:
    """The auction as the phase of ``row`` opened, or as it left it once processed."""
    return core.from_data(row.result["auction"] if row.status == "processed" and row.result else row.position)


def auction_now(session: Session, game: api.Game) -> core.Auction | None:
    row = api.current_phase(session, game)
    return None if row is None else auction_of(row)


def bids_of(session: Session, game: api.Game, phase: str) -> dict[str, int]:
    return {seat: int(text) for (seat, kind), text in api.latest_texts(session, game, phase).items() if kind == BID}


def status_of(session: Session, game: api.Game, seat: str) -> list[str]:
    """What STATUS tells ``seat`` of the auction: its coins, its lots, its bid standing."""
    auction = auction_now(session, game)
    if auction is None:
        return ["the auction has not started"]
    standing = bids_of(session, game, game.phase or "").get(seat)
    return [f"your coins: {auction.coins.get(seat, 0)}, lots won: {auction.won.get(seat, 0)}",
            f"your bid: {standing if standing is not None else 'none yet'}"]


def setting(game: api.Game, word: str, default: int) -> int:
    return next((int(option.partition("=")[2]) for option in game.options or () if option.startswith(f"{word}=")),
                default)


def bid(turn: api.Turn, text: str, command: Bid) -> None:
    """A player's bid: checked against its coins, then standing until a later one replaces it."""
    game, seat = turn.game, turn.seat
    assert game is not None and seat is not None
    auction = auction_now(turn.session, game)
    if game.state not in api.RUNNING or auction is None or game.phase is None:
        turn.echo(text, "error", "the auction is not running", code="NOT_RUNNING")
        return
    if problem := core.check_bid(auction, seat, command.amount):
        turn.echo(text, "error", problem, code="BAD_BID")
        return
    if why := turn.superseded(api.latest_accepted(turn.session, game, game.phase, seat, BID), "your bid"):
        turn.echo(text, "ignored", why, code="SUPERSEDED")
        return
    api.submit(turn.session, game, game.phase, seat, BID, str(command.amount), {}, turn.now, turn.accepted)
    turn.echo(text, "ok", f"your bid of {command.amount} on lot {auction.lot} stands, sealed")


class Auction(api.Kind):
    name = "auction"
    title = "Sealed-bid auction"
    seat_word = "player"
    join_usage = "JOIN game password name [KEY key], the name you bid under"  # a plain string: shown as it is
    durations = MappingProxyType({"lot": 24.0})
    commands = (api.Entry(Bid, bid, api.PLAYER, closed_after_the_end=True),)
    words = ("BID",)
    restored = "the coins, the lots and the bids then standing are as they were before it was processed"

    # -- creating ------------------------------------------------------------------------------------

    def read_create(self, words: Sequence[str]) -> tuple[str, list[str]]:
        own, options = api.split_options(list(words), api.GAME_FLAGS)
        for option in options:
            word, _, number = option.upper().partition("=")
            if word not in ("LOTS", "COINS") or not number.isdigit():
                raise ValueError(f"'{option}' is no option of an auction: LOTS=n, COINS=n")
        lots, coins = (next((int(o.partition("=")[2]) for o in options if o.upper().startswith(w)), d)
                       for w, d in (("LOTS", LOTS), ("COINS", COINS)))
        core.start((), lots, coins)  # the bounds: ValueError if out of them
        return "auction", [*own, f"LOTS={lots}", f"COINS={coins}"]

    def create_help(self) -> list[str]:
        return [f"{self.title} (CREATE game password auction [LOTS=n] [COINS=n])"]

    def capacity(self, game: api.Game) -> int:
        return 6

    def info(self, game: api.Game) -> list[str]:
        return [f"{self.title}: {setting(game, 'LOTS', LOTS)} lots, {setting(game, 'COINS', COINS)} coins a player; "
                "sealed bids, the highest buys; bids are published at the end"]

    def help(self, settings: api.Settings) -> str:
        return api.render("auction/help")

    # -- phases --------------------------------------------------------------------------------------

    def start(self, session: Session, game: api.Game, settings: api.Settings, now: datetime) -> None:
        joined = api.players(session, game)
        if len(joined) < 2:
            raise api.GameError("an auction needs two players at least", "TOO_FEW_PLAYERS")
        for player in joined:
            api.assign_seat(player, player.requested)
        session.flush()
        order = self.seat_order(session, game)
        auction = core.start(order, setting(game, "LOTS", LOTS), setting(game, "COINS", COINS))
        api.open_phase(session, game, "L1", core.to_data(auction), now)
        for player in joined:
            assert player.address is not None
            api.queue(session, settings, to=player.address, subject=f"{game.name} starts", kind="start", now=now,
                      game_id=game.id, body=api.render("auction/start", game=game, auction=auction, seat=player.seat))

    def waiting(self, session: Session, game: api.Game) -> list[str]:
        played = [seat for seat, player in api.seats(session, game).items() if api.is_played(player)]
        bids = bids_of(session, game, game.phase or "")
        return [seat for seat in self.seat_order(session, game) if seat in played and seat not in bids]

    def process(self, session: Session, game: api.Game, settings: api.Settings, now: datetime,
                closing: api.Closing) -> api.PhaseChange:
        row = api.current_phase(session, game)
        assert row is not None
        order = self.seat_order(session, game)
        before = auction_of(row)
        after = core.sell(before, bids_of(session, game, row.name), order)
        api.processed(row, {"auction": core.to_data(after)}, now)
        sale = after.sales[-1]
        if not after.over:
            api.open_phase(session, game, f"L{after.lot}", core.to_data(after), now)
        api.log_on_commit(session, log, "game %s %s processed (%s); %s", game.name, row.name, closing.cause,
                          "the game has ended" if after.over else f"next {game.phase}")
        readers: list[tuple[str, str | None]] = [(player.address, seat) for seat, player in
                                                 api.seats(session, game).items() if player.address and
                                                 api.is_played(player)]
        readers += [(address, None) for address in api.observers(session, game)]
        for address, seat in [*readers, (game.gm_address, "MASTER")]:
            with api.writing_to(session, settings, address, game):  # the host's notes in the reader's language
                api.queue(session, settings, to=address, subject=closing.subject(game.name, row.name),
                          kind="results", now=now, game_id=game.id,
                          body=api.render("auction/results", game=game, sale=sale, after=after, seat=seat,
                                          notes=closing.lines, deadline=None if after.over else game.deadline))
        if not after.over:
            return api.PhaseChange(row.name, game.phase)
        won = core.winner(after, order)
        result = f"{won} won with {api.counted(after.won[won], 'lot')}" if won else "a tie for first place"
        return api.PhaseChange(row.name, None, won, result)

    def publication(self, session: Session, game: api.Game) -> api.Publication:
        """Every bid of every lot, and the ranking."""
        auction = auction_now(session, game)
        assert auction is not None
        order = self.seat_order(session, game)
        lines = [f"Lot {sale.lot}: " + ", ".join(f"{seat} bid {amount}" for seat, amount in sale.bids)
                 for sale in auction.sales]
        lines += ["", "Ranking:"]
        lines += [f"  {seat}: {api.counted(auction.won[seat], 'lot')}, {api.counted(auction.coins[seat], 'coin')}"
                  for seat in core.ranking(auction, order)]
        return api.Publication("Everything that was secret is now published: every bid of every lot.", lines)

    def notice(self, session: Session, game: api.Game, row: api.PhaseRow, seat: str, which: str,
               until: datetime, extended: datetime | None = None) -> str:
        late = "The deadline has passed" if which == "late" else "The deadline is near"
        then = f" (without it then, the lot is extended to {api.when(extended)})" if extended else ""
        return f"{late}: send BID n for lot {auction_of(row).lot} of {game.name} before {api.when(until)}{then}.\n"

    # -- mail ----------------------------------------------------------------------------------------

    def read(self, text: str, game: api.Game | None) -> api.Command:
        return read(text, game)

    def status(self, turn: api.Turn) -> list[str]:
        game, seat = turn.game, turn.seat
        assert game is not None and seat is not None
        return status_of(turn.session, game, seat)

    def master_status(self, turn: api.Turn) -> list[str]:
        game = turn.game
        assert game is not None
        bids = bids_of(turn.session, game, game.phase or "")
        return [*(f"{seat}: {'bid ' + str(bids[seat]) if seat in bids else 'no bid yet'}"
                  for seat in self.seat_order(turn.session, game))]

    def brief(self, turn: api.Turn, game: api.Game, seat: str, player: api.Player, address: str) -> None:
        turn.send(to=address, subject=f"{game.name}: your briefing as {seat}", kind="notice", game_id=game.id,
                  body="\n".join(status_of(turn.session, game, seat)) + "\n")

    def resigned(self, turn: api.Turn, game: api.Game, seat: str) -> str:
        return "its bids are nothing from now on"

    def list_lines(self, turn: api.Turn, game: api.Game) -> list[str]:
        return [f"state: {game.state}", f"phase: {game.phase or '-'}, deadline {api.when(game.deadline)}",
                *(f"{seat}: {api.seat_state(game, seat, player)}"
                  for seat, player in api.seats(turn.session, game).items())]

    def history(self, turn: api.Turn, text: str, game: api.Game, command: api.History) -> None:
        auction = auction_now(turn.session, game)
        sold = [f"lot {sale.lot}: {sale.buyer or 'nobody'} for {sale.price}" for sale in (auction.sales
                                                                                          if auction else ())]
        turn.answer_long(text, f"{game.name}-history.txt", "\n".join(sold) or "no lot sold yet", "the history")

    # -- pages ---------------------------------------------------------------------------------------

    def facts(self, session: Session, game: api.Game, acting: bool = True,
              seated: Sequence[api.Player] | None = None) -> api.GameFacts:
        joined = api.players(session, game) if seated is None else seated
        seats = [api.public_seat(game, player.seat, player)
                 for player in sorted(joined, key=lambda player: (player.seat or "").casefold()) if player.seat]
        label = f"lot {game.phase.removeprefix('L')}" if game.phase else None
        return api.game_facts(game, self.title, joined, seats, label)

    def gather(self, session: Session, game: api.Game) -> Record:
        facts = self.facts(session, game)
        return Record(facts, tuple(self.publication(session, game).lines) if facts.finished and game.phase else ())

    def write_pages(self, root: Path, record: Record, force: bool = False) -> Path:
        folder = root / "games" / record.facts.name
        for path in (root, root / "games", folder):
            api.make_folder(path)
        api.render_page(folder / "index.html", "auction/game.html.j2", set(), game=api.summary(record.facts),
                        root="../../", published=record.published)
        return folder / "index.html"

    # -- records -------------------------------------------------------------------------------------

    def totals(self, connection: Connection) -> dict[str, int]:
        """Each player's coins in every auction as it stands: a copy of the database keeps every coin."""
        return {f"{name} {seat}": int(coins) for name, data in api.phase_data_now(connection, self.name, "auction")
                for seat, coins in data.get("coins", {}).items()}

    # -- the demo ------------------------------------------------------------------------------------

    def demo(self, judge: api.DemoJudge, blind: bool = False, scenario: str | None = None) -> None:
        """Two players bid on one lot: the game master starts the auction, the two bids close it."""
        gm, ann, bob = "gm@example.org", "ann@example.org", "bob@example.org"
        judge.send(gm, "CREATE a1 gm-pw auction LOTS=1")
        judge.confirm(gm)
        judge.send(ann, "JOIN a1 ann-pw Ann")
        judge.send(bob, "JOIN a1 bob-pw Bob")
        judge.confirm(ann)
        judge.confirm(bob)
        judge.send(gm, "SIGNON MASTER@a1 gm-pw\nSTART")
        judge.wait_for("a1 starts", ann)
        judge.answers([(ann, "SIGNON Ann@a1 ann-pw\nBID 30"), (bob, "SIGNON Bob@a1 bob-pw\nBID 20")])
        print("Two players bid on one lot by mail; the highest bid bought it. Ann's results:\n")
        api.show(judge.wait_for("a1 L1 results", ann))
        print("\nThe end, published to everyone:\n")
        api.show(judge.wait_for("a1 has ended", bob))
