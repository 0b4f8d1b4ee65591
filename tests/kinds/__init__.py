"""Kinds of game that exist for the tests: a minimal example kind, built and played by the suite."""
