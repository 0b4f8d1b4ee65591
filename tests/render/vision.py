"""How different two colours look, for the tests of the maps' colours: CIEDE2000 (Sharma, Wu and
Dalal, "The CIEDE2000 color-difference formula", 2005), between colours as seen with normal
vision or with a colour-vision deficiency simulated as Machado, Oliveira and Fernandes do it
("A physiologically-based model for simulation of color vision deficiency", 2009: their
matrices at full severity, applied to linear RGB).

CIEDE2000 is about 1 where two colours side by side are only just told apart, 2 to 3 where it
takes a look, 10 where they are plainly two colours and 20 and more where nobody mistakes one
for the other.
"""

from __future__ import annotations

import math

RGB = tuple[float, float, float]

MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
"""Machado et al.'s matrices for each dichromacy at severity 1.0 (their Table 1)."""
VISIONS = ("normal", *MACHADO)


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _encoded(c: float) -> float:
    c = min(1.0, max(0.0, c))
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def rgb(colour: str) -> RGB:
    """``#RRGGBB`` as sRGB in 0..1."""
    return int(colour[1:3], 16) / 255, int(colour[3:5], 16) / 255, int(colour[5:7], 16) / 255


def seen(colour: str, vision: str) -> RGB:
    """``colour`` as a reader with ``vision`` (``normal`` or one of `MACHADO`) sees it, in sRGB."""
    encoded = rgb(colour)
    if vision == "normal":
        return encoded
    matrix, linear = MACHADO[vision], [_linear(c) for c in encoded]
    red, green, blue = (_encoded(sum(row[i] * linear[i] for i in range(3))) for row in matrix)
    return red, green, blue


def lab(colour: RGB) -> tuple[float, float, float]:
    """sRGB to CIE L*a*b* (D65)."""
    r, g, b = (_linear(c) for c in colour)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def ciede2000(first: tuple[float, float, float], second: tuple[float, float, float]) -> float:
    """ΔE00 between two L*a*b* colours (kL = kC = kH = 1)."""
    l1, a1, b1 = first
    l2, a2, b2 = second
    mean_c = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(mean_c**7 / (mean_c**7 + 25**7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1 = math.degrees(math.atan2(b1, a1)) % 360 if c1 else 0.0
    h2 = math.degrees(math.atan2(b2, a2)) % 360 if c2 else 0.0
    if c1 * c2 == 0:
        dh, mean_h = 0.0, h1 + h2
    else:
        dh = h2 - h1 if abs(h2 - h1) <= 180 else h2 - h1 - 360 if h2 > h1 else h2 - h1 + 360
        mean_h = (h1 + h2) / 2 if abs(h1 - h2) <= 180 else (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    dl, dc = l2 - l1, c2 - c1
    big_dh = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    mean_l, mean_c2 = (l1 + l2) / 2, (c1 + c2) / 2
    t = (1 - 0.17 * math.cos(math.radians(mean_h - 30)) + 0.24 * math.cos(math.radians(2 * mean_h))
         + 0.32 * math.cos(math.radians(3 * mean_h + 6)) - 0.20 * math.cos(math.radians(4 * mean_h - 63)))
    rotation = 30 * math.exp(-(((mean_h - 275) / 25) ** 2))
    rc = 2 * math.sqrt(mean_c2**7 / (mean_c2**7 + 25**7))
    sl = 1 + 0.015 * (mean_l - 50) ** 2 / math.sqrt(20 + (mean_l - 50) ** 2)
    sc, sh = 1 + 0.045 * mean_c2, 1 + 0.015 * mean_c2 * t
    rt = -math.sin(math.radians(2 * rotation)) * rc
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (big_dh / sh) ** 2 + rt * (dc / sc) * (big_dh / sh))


def difference(first: str, second: str, vision: str = "normal") -> float:
    """How different two ``#RRGGBB`` colours look to a reader with ``vision`` (CIEDE2000)."""
    return ciede2000(lab(seen(first, vision)), lab(seen(second, vision)))


def least_difference(first: str, second: str) -> float:
    """The least difference of two colours with normal vision and each simulated deficiency."""
    return min(difference(first, second, vision) for vision in VISIONS)
