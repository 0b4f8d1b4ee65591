"""The host's part of every game: its seats and phases (`host`), its course from START to its end
(`course`), its deadlines and weekly clock, silent seats, players' records and the game's record
(`archive`); and the port a kind of game plugs into (`kinds`, `contract`, `turn`, `scripts`)."""
