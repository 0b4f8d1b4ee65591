"""Machiavelli, in the 13-player variant Absence of Plague: its pure rules core (``core``) and the
``judge machiavelli`` subcommand (``cli``), JSON in and out."""
