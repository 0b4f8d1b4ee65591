"""The people of the tests: one address each, the same in every layer, so a failure's mail reads alike."""

from __future__ import annotations

GM = "gm@example.org"
ALICE = "alice@example.org"
BOB = "bob@example.org"
CAROL = "carol@example.org"
PLAYERS = {"FRANCE": "fred@example.org", "GERMANY": "gus@example.org"}  # a two-power game's players, by power
OBSERVER = "olga@example.org"  # watches a game without playing
