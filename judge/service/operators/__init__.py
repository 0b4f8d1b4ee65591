"""The operators' tools: the ``judge`` command line, ``judge status``, backups and restores, exports,
imports and replays of a game's record, and the demo."""
