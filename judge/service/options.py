"""The options every game takes, whatever its kind: CREATE's host flags, press, observers,
anonymity, takeovers and absences, and how the game master's SET commands change them since."""

from __future__ import annotations

from dataclasses import dataclass, replace

from judge.commands.parse import PRESS_COLOURS, read_count
from judge.store.models import Game

PRESS_FLAGS = ("NO_PARTIAL", "NO_BETWEEN_PRESS", "NO_OBSERVER_PRESS")
"""CREATE's press flags (`PressRules`): broadcasts only, no press in the phases between the main
ones, broadcasts not copied to observers."""


GAME_FLAGS = ("NO_OBSERVERS", "ANONYMOUS", "OPEN_TAKEOVER", *PRESS_FLAGS)


MAX_ABSENCE_DAYS = 60


@dataclass(frozen=True)
class PressRules:
    """What press a game allows (njudge's press options).  Press to the game master is always
    allowed and always signed; the game master's press is never restricted.

    ``colours`` is one of `PRESS_COLOURS`; ``partial``: press may go to some seats, not only to
    everyone (njudge's ``NO PARTIAL`` turns it off); ``between``: players may send press during
    the phases between the main ones (Payola's retreats and adjustments); ``observers``: the
    broadcasts are copied to the game's observers."""

    colours: str = "WHITE"
    partial: bool = True
    between: bool = True
    observers: bool = True

    def allows(self, grey: bool) -> bool:
        """Whether press to players may be sent grey (unsigned) or white."""
        return ("GREY" if grey else "WHITE") in self.colours.split("/")

    @property
    def grey_by_default(self) -> bool:
        """Whether press that names no colour is grey: where grey is allowed and named first."""
        return self.colours.startswith("GREY")

    def words(self) -> str:
        """The options as LIST and the announcements write them."""
        return ", ".join([f"{self.colours.lower()} press",
                          "press to some players" if self.partial else "broadcasts only",
                          *([] if self.between else ["no press between the main phases"]),
                          "broadcasts copied to observers" if self.observers else "broadcasts not copied to observers"])


@dataclass(frozen=True)
class Rules:
    """How a game is run by the host, whatever its kind: options given at CREATE, some of which
    the game master may switch later (kept in ``game.settings``)."""

    observers: bool = True  # NO_OBSERVERS, or SET OBSERVERS OFF
    anonymous: bool = False  # ANONYMOUS: who plays what is told only at the end
    open_takeover: bool = False  # OPEN_TAKEOVER: any vacant seat may be taken over without SET OPENING
    absence_days: int = 0  # ABSENCE_DAYS=N: days of absence a year approved without the game master
    listed: bool = True  # SET UNLISTED hides the game from LIST
    press: PressRules = PressRules()  # PRESS=..., NO_PARTIAL...; or SET PRESS ...


def split_options(words: list[str], own: tuple[str, ...] = GAME_FLAGS) -> tuple[list[str], list[str]]:
    """CREATE's option words: the host's own (``own``: ``GAME_FLAGS``, and a kind's flags that it
    lists beside them; and ``ABSENCE_DAYS=N``), and the rest, in the order written.  A bad
    ``ABSENCE_DAYS`` is an error (ValueError with a message)."""
    kept, rest = [], []
    for word in (w.strip().upper() for w in words):
        if word in own:
            kept.append(word)
        elif word.startswith("ABSENCE_DAYS="):
            days = read_count(word.partition("=")[2], MAX_ABSENCE_DAYS,
                              f"ABSENCE_DAYS takes a number of days up to {MAX_ABSENCE_DAYS}")
            kept.append(f"ABSENCE_DAYS={days}")  # as the judge writes it, whatever zeros led it
        elif word.startswith("PRESS="):
            if word.partition("=")[2] not in PRESS_COLOURS:
                raise ValueError(f"PRESS= takes one of {', '.join(PRESS_COLOURS)}")
            kept.append(word)
        elif word:
            rest.append(word)
    return kept, rest


def rules_of(game: Game) -> Rules:
    own = split_options(game.options)[0]
    days = next((int(w.partition("=")[2]) for w in own if w.startswith("ABSENCE_DAYS=")), 0)
    return Rules(observers=bool(game.settings.get("observers", "NO_OBSERVERS" not in own)),
                 anonymous="ANONYMOUS" in own, open_takeover="OPEN_TAKEOVER" in own, absence_days=days,
                 listed=not game.settings.get("unlisted", False), press=press_rules(game, own))


def press_rules(game: Game, own: list[str]) -> PressRules:
    """The game's press options: as CREATE set them (``own``: its host options), changed since
    by the game master's SET PRESS (kept in ``game.settings["press"]``)."""
    colours = next((w.partition("=")[2] for w in own if w.startswith("PRESS=")), "WHITE")
    created = PressRules(colours, "NO_PARTIAL" not in own, "NO_BETWEEN_PRESS" not in own,
                         "NO_OBSERVER_PRESS" not in own)
    changed = game.settings.get("press", {})
    return replace(created, **{key: value for key, value in changed.items() if key in PRESS_SETTINGS})


PRESS_SETTINGS = ("colours", "partial", "between", "observers")
"""The keys of ``game.settings["press"]``: the fields of `PressRules` SET PRESS changes."""
