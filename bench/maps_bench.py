"""Maps benchmark: the bytes of a Payola results mail per board, by SET MAPS choice, against the
targets of issue 69, item 3 (a results mail with the default picture is at most 150 KB on the standard
board and 300 KB on World, Known World 901 and Empire).

For each board and choice, a judge on a temporary SQLite data directory, drawing maps, with that choice
as its ``maps-default``, plays Spring 1901 (901 on Known World) by mail, every seat joined and every
player's sheet in (the last sheet completes the phase): on the standard board the demo's seven sheets
(`judge.games.payola.demo.SPRING`), elsewhere the sheets of the evening bench (`evening_setup.payola_sheet`:
two offers for each own unit and three for others', of the engine's legal orders, a fixed seed).  It
prints the largest results mail to a player as the judge wrote it into its Maildir (the text and the
pictures, base64-encoded), whose it is, the pictures it carries, and for the default choice (PNG) the
target and whether the mail is within it; then each choice's size beside the default's.  The pictures are
drawn as the judge draws them.  Numbers only; nothing is asserted (`tests/games/payola/test_mail_weight_by_mail.py`
holds the targets).

Run: .venv/bin/python bench/maps_bench.py [--boards standard,world,known_world_901,empire] [--choices png,all]
"""

from __future__ import annotations

import argparse
import email
import email.policy
import random
import tempfile
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path

from evening_setup import payola_sheet  # a sibling script: a careful player's sheet of legal orders

from judge.bootstrap import open_database
from judge.engine.map import load_map
from judge.engine.position import Position
from judge.games.payola.demo import PLAYERS, SPRING
from judge.mail.outbound import MaildirOutbox
from judge.service.config import Settings
from judge.service.outgoing.sender import deliver_pending, transport_for
from judge.service.running.app import inject
from judge.store.models import ConfirmedAddress

GM = "gm@example.org"
MX = "mx.bench"  # the judge's MTA, which vouches for the bench's senders (their Authentication-Results)
BOARDS = ("standard", "world", "known_world_901", "empire")
TARGETS = {"standard": 150_000}  # bytes of a results mail with the default picture (issue 69.3)...
BIG_BOARD_TARGET = 300_000  # ...and on every other board measured here


def mail(sender: str, body: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, "judge@localhost", "orders"
    message["Authentication-Results"] = f"{MX}; dmarc=pass header.from={sender.rpartition('@')[2]}"
    message.set_content(body)
    return message.as_bytes()


def sheets(board: str) -> dict[str, tuple[str, str]]:
    """Each playing power's address and its sheet for the board's first phase."""
    if board == "standard":
        return {power: (PLAYERS[power], SPRING[power]) for power in PLAYERS}
    game_map = load_map(board)
    position = Position.initial(game_map)
    rng = random.Random(board)
    return {power: (f"{power.lower().replace('_', '-')}@example.org", payola_sheet(position, power, rng))
            for power, info in game_map.powers.items() if not info.dummy}


def results_mails(data: Path, board: str, choice: str) -> list[bytes]:
    """The players' results mails of the first phase on ``board``, on a judge whose default is ``choice``."""
    settings = Settings(data_dir=data, web=False, maps=True, maps_default=choice, mta_hostname=MX,
                        mta_authenticates=True)
    db = open_database(settings)
    now = datetime(2026, 3, 1, 9, 0)
    seats = sheets(board)
    with db.transaction() as session:
        for address in [GM, *(address for address, _ in seats.values())]:
            session.add(ConfirmedAddress(address=address, confirmed_at=now))

    def send(sender: str, body: str) -> None:
        inject(db, settings, mail(sender, body), now)
        deliver_pending(db, settings, transport_for(settings), now, limit=100_000)

    send(GM, f"CREATE maps gm-secret {board}")
    for power, (address, _) in seats.items():
        send(address, f"JOIN maps pw-{power.lower()} {power}")
    send(GM, "SIGNON MASTER@maps gm-secret\nSTART")
    for power, (address, sheet) in seats.items():
        send(address, f"SIGNON {power}@maps pw-{power.lower()}\n{sheet}")
    players = {address for address, _ in seats.values()}
    found = []
    for raw in MaildirOutbox(settings.maildir).messages():
        message = email.message_from_bytes(raw, policy=email.policy.default)
        if str(message["Subject"]).endswith("M results") and message["To"] in players:
            found.append(raw)
    if len(found) != len(players):
        raise SystemExit(f"{board}: {len(found)} results mails to {len(players)} players: the phase did not complete")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", default=",".join(BOARDS), help=f"the boards (default {','.join(BOARDS)})")
    parser.add_argument("--choices", default="png,all", help="the SET MAPS choices to measure (default png,all)")
    args = parser.parse_args()
    for board in args.boards.split(","):
        target = TARGETS.get(board, BIG_BOARD_TARGET)
        sizes: dict[str, int] = {}
        print(f"{board}: the largest results mail to a player of the first phase, by SET MAPS choice:")
        for choice in args.choices.split(","):
            with tempfile.TemporaryDirectory(prefix="maps-bench-") as folder:
                mails = results_mails(Path(folder), board, choice)
            raw = max(mails, key=len)
            message = email.message_from_bytes(raw, policy=email.policy.default)
            assert isinstance(message, EmailMessage)
            files = [f"{part.get_filename()} ({len(part.get_payload(decode=True)):,} B)"
                     for part in message.iter_attachments()]
            sizes[choice] = len(raw)
            verdict = (f"; target {target:,}: {'within' if len(raw) <= target else 'OVER'}"
                       if choice == "png" else "")
            print(f"  {choice.upper():5} {len(raw):>9,} bytes (to {message['To']}; {len(mails)} players' mails, "
                  f"the smallest {min(map(len, mails)):,})   {', '.join(files) or 'no pictures'}{verdict}")
        if "png" in sizes and "all" in sizes:
            ratio = sizes["png"] / sizes["all"]
            print(f"  PNG / ALL: {ratio:.2f} (ALL is {1 / ratio:.1f} times PNG)")


if __name__ == "__main__":
    main()
