"""Frozen values that are their canonical text.

A location, a unit or an order is fully described by how it is written in canonical
notation (``STP/SC``, ``F STP/SC``, ``A PAR S A MAR - BUR``).  A :class:`TextValue`
computes that text once, when it is built, and is compared, hashed and printed by it:
comparing two orders is one string comparison (none at all when both are the same
interned object), hashing one is a string's cached hash, and writing one costs nothing.
Values of different classes are never equal, even when they are written alike (a move
and a retreat, ``A BEL - PIC``).  Each class writes its text with a static ``write``
taking its fields, so the text of a value is known before the value is built: the
map's :class:`~judge.engine.orders.Lexicon` finds its shared values by it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar


class TextValue:
    """Base of the engine's frozen dataclasses: equality, hash and ``str`` by ``text``.

    A subclass declares ``text`` as a field with ``init=False``, defines ``write`` (a static
    method from its fields to its text) and sets ``text`` in ``__post_init__`` with
    :meth:`_set_text`.
    """

    __slots__ = ()
    text: str
    write: ClassVar[Callable[..., str]]

    def _set_text(self, text: str) -> None:
        object.__setattr__(self, "text", text)

    def __str__(self) -> str:
        return self.text

    def __eq__(self, other: object) -> bool:
        return self is other or (
            isinstance(other, TextValue) and other.__class__ is self.__class__ and other.text == self.text
        )

    def __hash__(self) -> int:
        return hash(self.text)
