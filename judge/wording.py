"""How the judge writes a name the boards keep in capitals, wherever people read it: shared by the
host (its templates' ``power`` filter, the public pages), the games and the libraries (the maps'
legends), so it imports nothing of any of them."""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=1024)
def power_title(power: str) -> str:
    """A power's name as players read it: ``FRANCE`` is "France", ``UNITED_STATES`` "United States",
    ``GULF_OF_BOTHNIA`` "Gulf of Bothnia" (the void board's); the maps write each in capitals.  Written once
    for each name: a World game's public report writes 85 of them, its mails and pages more."""
    words = power.replace("_", " ").title().split()
    return " ".join(w.lower() if w in ("Of", "The") and i else w for i, w in enumerate(words))
