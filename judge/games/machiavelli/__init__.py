"""Machiavelli, in the 13-player variant Absence of Plague: its pure rules core (``core``)."""
