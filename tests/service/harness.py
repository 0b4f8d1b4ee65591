"""The old path of `tests.support.harness`, kept while other branches still import it; removed at the end."""

from tests.support.harness import *  # noqa: F403
from tests.support.harness import (  # noqa: F401
    Judge,
    Sent,
    fresh_database_url,
    inject_confirming,
    raw_mail,
    seed_sqlite,
    tokens,
    two_player_game,
    vouching,
)
