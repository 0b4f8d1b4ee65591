"""Machiavelli, in the 13-player variant Absence of Plague: its pure rules core (``core``), the
``judge machiavelli`` subcommand (``cli``, JSON in and out), and the game by mail on the host's
seam: ``kind`` (the plug), ``lifecycle`` (the phases and their mails), ``handlers`` (the letters,
STATUS), ``views`` (what each reader is told), ``maps`` (where the map goes), ``pages`` and
``demo``."""
