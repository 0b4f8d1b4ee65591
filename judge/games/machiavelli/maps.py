"""Where the map of a Machiavelli game is attached: the one place every mail and page asks for it.

The renderer (``judge.games.machiavelli.render``, drawn from real geography, on its own branch)
has not landed yet: until it does, `position_map` attaches nothing and the mails and pages say
so (`MAP_NOTE`).  Once it lands, `position_map` draws ``position`` (and the campaign's operations
from ``record``) with it, as Payola's ``maps.position_map`` does, and nothing else changes.
"""

from __future__ import annotations

from judge.games.machiavelli.core.board import Board
from judge.games.machiavelli.core.campaign import CampaignRecord
from judge.games.machiavelli.core.position import Position
from judge.mail.outbound import Attachment
from judge.service.config import Settings

MAP_NOTE = "(the map is not drawn yet: the board is listed above)"
"""What a mail says where its map would be, while there is none."""


def position_map(settings: Settings, game: str, board: Board, position: Position,
                 record: CampaignRecord | None = None) -> list[Attachment]:
    """The map of ``position`` on ``board`` for the mails of game ``game`` (with the operations
    of ``record``, a campaign that led to it), when the judge draws maps (``settings.maps``);
    none until the renderer lands."""
    return []
