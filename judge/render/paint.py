"""Cairo painting of the few SVG elements the pictures' changing layer is made of.

The changing part of a picture (centers, units, orders, title, legend) is written as SVG
like the rest, but rasterising it with cairosvg costs more than the whole picture may
(its per-element work is Python).  Its vocabulary is small and ours: ``g`` and ``svg``
with ``translate``, ``path`` made of absolute ``M``/``L``/``Z`` (implicit lines too),
``circle`` and ``text``, with the usual presentation attributes, and ``title`` (a reader's
tooltip, which draws nothing).  This module paints exactly that with Cairo's own calls, as
cairosvg would (same toy text API, same fill-then-stroke order), and refuses anything else,
so that the SVG stays the one description of the picture.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from functools import lru_cache

import cairocffi as cairo

_TOKENS = re.compile(r"[MLZ]|-?\d+(?:\.\d+)?")
_TRANSLATE = re.compile(r"\s*translate\(\s*(-?[\d.]+)[\s,]+(-?[\d.]+)\s*\)\s*")
_CAPS = {"butt": cairo.LINE_CAP_BUTT, "round": cairo.LINE_CAP_ROUND, "square": cairo.LINE_CAP_SQUARE}
_JOINS = {"miter": cairo.LINE_JOIN_MITER, "round": cairo.LINE_JOIN_ROUND, "bevel": cairo.LINE_JOIN_BEVEL}


class UnsupportedSvg(ValueError):
    """Markup outside the vocabulary this painter knows."""


def rgb(colour: str) -> tuple[float, float, float]:
    """A ``#RRGGBB`` (or ``white``) colour as Cairo's three fractions."""
    if colour == "white":
        return 1.0, 1.0, 1.0
    if not re.fullmatch(r"#[0-9A-Fa-f]{6}", colour):
        raise UnsupportedSvg(f"colour {colour!r}")
    return int(colour[1:3], 16) / 255, int(colour[3:5], 16) / 255, int(colour[5:7], 16) / 255


def _path(context: cairo.Context, data: str) -> None:
    """Absolute ``M``/``L``/``Z`` (`_steps`), drawn."""
    for command, x, y in _steps(data):
        if command == "Z":
            context.close_path()
        else:
            (context.move_to if command == "M" else context.line_to)(x, y)


@lru_cache(maxsize=4096)
def _steps(data: str) -> tuple[tuple[str, float, float], ...]:
    """Path data read into its steps; coordinates after an ``M`` or ``L`` without a letter of
    their own are lines (as SVG reads them: the boards' area outlines are written so).  Read
    once: a board's centers and units are the same paths in every picture."""
    tokens = _TOKENS.findall(data)
    steps: list[tuple[str, float, float]] = []
    i, last = 0, ""
    while i < len(tokens):
        command = tokens[i]
        if command == "Z":
            steps.append(("Z", 0.0, 0.0))
            i += 1
        elif command in ("M", "L") or (last in ("M", "L") and command not in ("M", "L", "Z")):
            if command in ("M", "L"):
                i += 1
            else:
                command = "L"
            steps.append((command, float(tokens[i]), float(tokens[i + 1])))
            i += 2
        else:
            raise UnsupportedSvg(f"path data {data[:40]!r}")
        last = command
    return tuple(steps)


def _fill_and_stroke(context: cairo.Context, element: ET.Element, outline: Callable[[], None]) -> None:
    """Fill then stroke the outline drawn by ``outline``, as the element's attributes say."""
    fill, stroke = element.get("fill", "#000000"), element.get("stroke", "none")
    outline()
    if fill != "none":
        context.set_source_rgba(*rgb(fill), float(element.get("fill-opacity", "1")))
        rule = cairo.FILL_RULE_EVEN_ODD if element.get("fill-rule") == "evenodd" else cairo.FILL_RULE_WINDING
        context.set_fill_rule(rule)
        context.fill_preserve()
    if stroke != "none":
        context.set_source_rgba(*rgb(stroke), float(element.get("stroke-opacity", "1")))
        context.set_line_width(float(element.get("stroke-width", "1")))
        dashes = element.get("stroke-dasharray")
        context.set_dash([float(v) for v in dashes.split()] if dashes else [])
        context.set_line_cap(_CAPS[element.get("stroke-linecap", "butt")])
        context.set_line_join(_JOINS[element.get("stroke-linejoin", "miter")])
        context.stroke_preserve()
    context.new_path()


def _text(context: cairo.Context, element: ET.Element) -> None:
    family = element.get("font-family", "sans-serif").split(",")[0].strip()
    slant = cairo.FONT_SLANT_ITALIC if element.get("font-style") == "italic" else cairo.FONT_SLANT_NORMAL
    weight = cairo.FONT_WEIGHT_BOLD if element.get("font-weight") == "bold" else cairo.FONT_WEIGHT_NORMAL
    context.select_font_face(family, slant, weight)
    context.set_font_size(float(element.get("font-size", "12")))
    text = element.text or ""
    x, y = float(element.get("x", "0")), float(element.get("y", "0"))
    anchor = element.get("text-anchor", "start")
    if anchor in ("middle", "end"):  # a text that starts at x is never measured: most of a frame's words
        advance = context.text_extents(text)[4]
        x -= advance / 2 if anchor == "middle" else advance
    context.set_source_rgb(*rgb(element.get("fill", "#000000")))
    context.move_to(x, y)
    context.show_text(text)
    context.new_path()


def paint(context: cairo.Context, element: ET.Element) -> None:
    """Paint ``element`` and its children in the context's current user space (a ``title``, a
    reader's tooltip, paints nothing)."""
    tag = element.tag.rsplit("}", 1)[-1]
    if tag == "title":
        return
    context.save()
    transform = element.get("transform")
    if transform:
        match = _TRANSLATE.fullmatch(transform)
        if match is None:
            raise UnsupportedSvg(f"transform {transform!r}")
        context.translate(float(match.group(1)), float(match.group(2)))
    if tag in ("svg", "g"):
        for child in element:
            paint(context, child)
    elif tag == "path":
        _fill_and_stroke(context, element, lambda: _path(context, element.get("d", "")))
    elif tag == "circle":
        cx, cy, r = (float(element.get(k, "0")) for k in ("cx", "cy", "r"))
        _fill_and_stroke(context, element, lambda: context.arc(cx, cy, r, 0, 2 * math.pi))
    elif tag == "text":
        _text(context, element)
    else:
        raise UnsupportedSvg(f"element <{tag}>")
    context.restore()
