"""The games' public pages: what anyone may read of a game and its history, as static files.

``public`` decides what a page may show (pure functions beside :mod:`judge.service.views`),
``pages`` writes the pages and maps into ``<data-dir>/web``, ``server`` serves that folder for
a small install (``judge web``), and ``cli`` is ``judge web`` and ``judge publish``.
"""
