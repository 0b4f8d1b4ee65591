"""The games' public pages: what anyone may read of a game and its history, as static files.

``public`` decides what the index and any game's page head may show, ``pages`` writes the
index and keeps every game's pages (written by its kind: `judge.games`) up to date in
``<data-dir>/web``, ``server`` serves that folder for a small install (``judge web``), and
``cli`` is ``judge web`` and ``judge publish``.
"""
