"""Maps benchmark: the bytes of a Payola results mail on the standard board, by SET MAPS choice (issue 69, item 3).

For each choice, a judge on a temporary SQLite data directory, drawing maps, with that choice as its
``maps-default``, plays the demo's seven-power Spring 1901 (`judge.games.payola.demo.SPRING`) by mail: the
last sheet completes the phase.  It prints the bytes of France's results mail as the judge wrote it into
its Maildir (the text and the pictures, base64-encoded), the pictures it carries, and each choice's size
beside the default's (PNG) and ALL's (what every mail carried before the choice).  The pictures are drawn
as the judge draws them; nothing here makes one smaller.  Numbers only; nothing is asserted.

Run: .venv/bin/python bench/maps_bench.py [--board standard] [--choices png,all]
"""

from __future__ import annotations

import argparse
import email
import email.policy
import tempfile
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path

from judge.bootstrap import open_database
from judge.games.payola.demo import PLAYERS, SPRING
from judge.mail.outbound import MaildirOutbox
from judge.service.config import Settings
from judge.service.outgoing.sender import deliver_pending, transport_for
from judge.service.running.app import inject
from judge.store.models import ConfirmedAddress

GM = "gm@example.org"
MX = "mx.bench"  # the judge's MTA, which vouches for the bench's senders (their Authentication-Results)


def mail(sender: str, body: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, "judge@localhost", "orders"
    message["Authentication-Results"] = f"{MX}; dmarc=pass header.from={sender.rpartition('@')[2]}"
    message.set_content(body)
    return message.as_bytes()


def results_mail(data: Path, board: str, choice: str) -> bytes:
    """France's results mail of Spring 1901 on ``board``, on a judge whose default is ``choice``."""
    settings = Settings(data_dir=data, web=False, maps=True, maps_default=choice, mta_hostname=MX,
                        mta_authenticates=True)
    db = open_database(settings)
    now = datetime(2026, 3, 1, 9, 0)
    with db.transaction() as session:
        for address in [GM, *PLAYERS.values()]:
            session.add(ConfirmedAddress(address=address, confirmed_at=now))

    def send(sender: str, body: str) -> None:
        inject(db, settings, mail(sender, body), now)
        deliver_pending(db, settings, transport_for(settings), now, limit=100_000)

    send(GM, f"CREATE maps gm-secret {board}")
    for power, address in PLAYERS.items():
        send(address, f"JOIN maps pw-{power.lower()} {power}")
    send(GM, "SIGNON MASTER@maps gm-secret\nSTART")
    for power, sheet in SPRING.items():
        send(PLAYERS[power], f"SIGNON {power}@maps pw-{power.lower()}\n{sheet}")
    for raw in MaildirOutbox(settings.maildir).messages():
        message = email.message_from_bytes(raw, policy=email.policy.default)
        if message["Subject"] == "maps S1901M results" and message["To"] == PLAYERS["FRANCE"]:
            return raw
    raise SystemExit("no results mail: the phase did not complete")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="standard", help="the board the game is played on (default standard)")
    parser.add_argument("--choices", default="png,all", help="the SET MAPS choices to measure (default png,all)")
    args = parser.parse_args()
    sizes: dict[str, int] = {}
    print(f"France's results mail of Spring 1901, {args.board} board, by SET MAPS choice:")
    for choice in args.choices.split(","):
        with tempfile.TemporaryDirectory(prefix="maps-bench-") as folder:
            raw = results_mail(Path(folder), args.board, choice)
        message = email.message_from_bytes(raw, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        files = [f"{part.get_filename()} ({len(part.get_payload(decode=True)):,} B)"
                 for part in message.iter_attachments()]
        sizes[choice] = len(raw)
        print(f"  {choice.upper():5} {len(raw):>9,} bytes   {', '.join(files) or 'no pictures'}")
    if "png" in sizes and "all" in sizes:
        print(f"PNG / ALL: {sizes['png'] / sizes['all']:.2f} (ALL is {sizes['all'] / sizes['png']:.1f} times PNG)")


if __name__ == "__main__":
    main()
