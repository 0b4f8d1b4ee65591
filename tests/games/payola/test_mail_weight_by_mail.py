"""A results mail's weight (issue 69, item 3): with the default picture (SET MAPS PNG, the phase's orders drawn
on the board) a Payola results mail is at most 150 KB on the standard board and 300 KB on World, Known World 901
and Empire, every seat joined and every unit offered an order, the picture drawn at the board's full width."""

from __future__ import annotations

import email
import email.policy
import struct
from dataclasses import replace
from email.message import EmailMessage
from pathlib import Path

import pytest

from judge.engine.legal import legal_orders
from judge.engine.map import load_map
from judge.engine.orders import Move
from judge.engine.position import Position
from judge.games.payola.demo import SPRING
from judge.mail.outbound import MaildirOutbox
from tests.support.harness import Judge, start_game

LIMITS = {"standard": 150_000, "world": 300_000, "known_world_901": 300_000, "empire": 300_000}  # bytes
WIDTHS = {"standard": 1200, "world": 1920, "known_world_901": 1920, "empire": 1200}  # 1.2 pixels a map unit


def address(power: str) -> str:
    return f"{power.lower().replace('_', '-')}@example.org"


def sheets(board: str) -> dict[str, str]:
    """Each playing power's sheet for the board's first phase: on the standard board the demo's (an offer for
    every unit, some for other powers' units); elsewhere an offer for each own unit of its first legal move
    (its hold if it has none)."""
    if board == "standard":
        return dict(SPRING)
    position = Position.initial(load_map(board))
    own: dict[str, list[str]] = {}
    for province, unit in sorted(position.units.items()):
        legal = legal_orders(position, province)
        order = next((order for order in legal if isinstance(order, Move)), legal[0])  # a unit that cannot move holds
        own.setdefault(unit.power, []).append(f"1 : {order}")
    playing = [power for power, info in position.game_map.powers.items() if not info.dummy]
    return {power: "\n".join(own[power]) for power in playing}


def results_mails(tmp_path: Path, board: str) -> list[tuple[int, EmailMessage]]:
    """The players' results mails of the first phase of a game on ``board``: each one's bytes as the judge wrote
    it into its Maildir, and the mail."""
    played = sheets(board)
    judge = Judge(tmp_path)
    start_game(judge, "g1", board, tuple((address(power), power) for power in played))
    judge.settings = replace(judge.settings, maps=True)  # the maps of the results, not of the start
    for power, sheet in played.items():
        judge.send(address(power), f"SIGNON {power}@g1 {address(power).partition('@')[0]}-pw\n{sheet}")
    judge.deliver()
    found = []
    for raw in MaildirOutbox(judge.settings.maildir).messages():
        message = email.message_from_bytes(raw, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        if str(message["Subject"]).startswith("g1 S") and str(message["Subject"]).endswith("M results"):
            found.append((len(raw), message))
    assert {str(message["To"]) for _, message in found} == {address(power) for power in played}
    return found


@pytest.mark.parametrize("board", list(LIMITS))
def test_a_results_mail_with_its_default_picture_stays_under_the_board_s_limit(tmp_path: Path, board: str) -> None:
    for size, message in results_mails(tmp_path, board):
        pictures = {str(part.get_filename()): part.get_payload(decode=True) for part in message.iter_attachments()}
        assert list(pictures) == ["g1-" + str(message["Subject"]).split()[1] + "-orders.png"]
        (png,) = pictures.values()
        assert isinstance(png, bytes) and struct.unpack(">I", png[16:20])[0] == WIDTHS[board]  # IHDR's width
        assert size <= LIMITS[board]
