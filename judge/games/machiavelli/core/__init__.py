"""The pure rules core of Machiavelli (Absence of Plague): the board as data, the position, and
the Action phase.  No I/O, no clock, no database, no mail: frozen values in, values out.

The package map and the rules checklist it covers are written here as the core grows.
"""
