"""The Diplomacy engine: the standard rules of the DATC v3.0 (Kruijswijk's preferred options) on any board
given as data; a library for the games played on Diplomacy boards (Payola, Exchange Payola)."""
