"""The classic Machiavelli board: Italy in 1454, from the Rhône to Albania and from Vienna to Tunis.

A Lambert conformal conic centred on 12.5°E 42°N (standard parallels 38°N and 46°N), 1200
units wide, with lenses where the board packs its provinces: a broad one on the north and the
centre of Italy, and smaller ones on Lombardy, on Rome and Naples, on Venice and its Lagoon,
and on the few areas too small for their marks (Saluzzo, Marseilles, Naples, Ragusa,
Piombino); the rim (Provence's Alps, Hungary, Albania, Tunis, Sicily) keeps its true shape.
Read from the rules core's ``boards/classic.json`` (``game="machiavelli"``).  The seeds are
the cities the areas are named after and the towns of the regions they held in 1454 (the
Valtellina is Milan's, Carmagnola Saluzzo's, Rovigo Ferrara's, Reggio and the Garfagnana
Modena's, the Romagna toscana Florence's); the seas lie at their real waters (the Gulf of
Lyons west and east of a line from Toulon to Corsica, the Ligurian and Tyrrhenian seas, the
Gulf of Naples down the Calabrian coast to the Strait of Messina, the Ionian and Adriatic
seas, the Bay of Tunis between Cape Bon and Sicily).

The game differs from geography where the board does: Venice is an island (drawn larger than
life) in a Lagoon that runs along the coast from Chioggia to Caorle, reachable from the
Lagoon alone; Marseilles is an enclave of Provence on the coast between Provence's two
coasts; Piombino is its headland and Elba (larger than life), with the Eastern Tyrrhenian
Sea reaching Pisa's coast through the channel between them (the Piombino strait, drawn as a
gate across the channel); the Strait of Messina, where the Gulf of Naples meets the Ionian
Sea, is open water (drawn as a gate from Messina to the Calabrian shore); Istria meets
Dalmatia across the islands of the Kvarner (a crossing from Lošinj to Rab) and Croatia holds
the neck of the Istrian peninsula, so that Istria borders no other province by land; the
Carinthia of the board runs along the southern Alps from Styria to the Tonale, where it meets
Milan; Bosnia and Slavonia are kept apart by the Sava's neutral lands.  Everything outside the
board's provinces (France beyond the Rhône, Germany, Serbia, Greece, Africa beyond Tunis) is
neutral land.
"""

from __future__ import annotations

from boards import BoardSpec, Lens, LonLat

SEEDS: dict[str, list[LonLat]] = {
    # seas
    "wgl": [(4.5, 42.9), (5.5, 42.6), (6.3, 42.4), (7.5, 41.6), (7.6, 40.5), (4.6, 41.6), (3.9, 43.2), (5.5, 43.0)],
    "egl": [(7.3, 43.4), (8.3, 43.8), (9.2, 43.7), (9.7, 43.95), (8.0, 43.1), (9.3, 43.2), (6.8, 43.25), (9.9, 43.6)],
    "wts": [(9.9, 42.6), (10.5, 41.5), (10.9, 40.5), (10.4, 39.5), (11.3, 39.3), (12.2, 38.6), (12.9, 38.4),
        (10.1, 43.2), (10.3, 42.3)],
    "ets": [(10.8, 42.55), (11.3, 42.2), (12.0, 41.5), (12.5, 40.6), (13.2, 39.8), (14.3, 38.6), (13.8, 39.3),
        (10.45, 42.88), (10.58, 43.05), (11.9, 40.8)],
    "gon": [(13.6, 41.05), (14.15, 40.72), (14.6, 40.35), (15.3, 39.8), (15.7, 38.9), (15.55, 38.35), (14.8, 39.3)],
    "ion": [(17.5, 38.5), (17.0, 37.0), (19.5, 38.5), (16.6, 38.3), (17.2, 39.8), (19.2, 40.0), (15.6, 37.0),
        (15.55, 37.95), (16.0, 36.2), (18.5, 36.5), (20.2, 37.2)],
    "las": [(15.2, 43.0), (16.3, 42.6), (17.5, 42.0), (18.3, 41.5), (16.8, 41.6), (19.0, 41.1), (14.6, 42.6)],
    "uas": [(13.0, 44.5), (13.5, 45.35), (12.7, 45.0), (14.2, 44.2), (13.3, 44.0), (12.7, 44.3), (14.0, 43.8),
        (14.3, 44.75), (15.2, 43.6), (13.2, 45.62), (13.45, 45.68)],
    "lag": [(12.18, 45.33), (12.52, 45.53), (12.9, 45.64)],
    "bot": [(11.6, 37.0), (12.5, 36.8), (13.5, 36.6), (11.2, 36.6), (14.5, 36.5), (12.8, 37.2)],
    "wms": [(5.5, 39.5), (7.5, 38.5), (6.5, 37.8), (9.0, 38.5), (8.5, 37.5), (10.0, 37.8), (10.4, 37.15), (11.5, 38.0),
        (12.2, 37.7)],
    # France and Savoy
    "avi": [(4.81, 43.95), (4.19, 43.57), (4.89, 44.93), (5.72, 45.19), (5.92, 45.57), (6.5, 45.05), (6.08, 44.56),
        (6.13, 45.9), (4.4, 43.84)],
    "pro": [(5.45, 43.62), (5.93, 43.12), (6.47, 43.54), (6.23, 44.09), (6.65, 44.39), (4.63, 43.68), (5.94, 44.2),
        (6.85, 44.65), (4.85, 43.45), (5.0, 43.57)],
    "mar": [(5.37, 43.3), (5.05, 43.4), (5.6, 43.28), (5.3, 43.45)],
    "sav": [(7.27, 43.7), (7.6, 43.79), (8.02, 43.89), (8.21, 44.05), (7.59, 44.09), (7.55, 44.39), (8.03, 44.39),
        (7.72, 44.6)],
    "slz": [(7.49, 44.64), (7.27, 44.68), (7.1, 44.6), (7.37, 44.47), (7.39, 44.66)],
    "tur": [(7.69, 45.07), (7.05, 45.14), (7.32, 45.74), (7.88, 45.47), (8.42, 45.32), (8.29, 46.12), (8.05, 45.56),
        (7.1, 44.85), (7.72, 44.85), (8.45, 45.95), (7.68, 44.77), (7.95, 45.85), (8.15, 45.85)],
    "mon": [(8.45, 45.13), (8.21, 44.9), (8.03, 44.7), (8.47, 44.68)],
    "gen": [(8.93, 44.41), (8.48, 44.31), (9.32, 44.32), (9.82, 44.1), (9.9, 44.12), (8.95, 44.55), (8.6, 44.45)],
    "swi": [(7.45, 46.95), (8.31, 47.05), (8.54, 47.37), (6.14, 46.2), (6.63, 46.52), (7.36, 46.23), (7.99, 46.32),
        (8.64, 46.88)],
    # Milan and Lombardy
    "com": [(9.09, 45.81), (8.83, 45.82), (8.62, 45.45), (8.56, 45.76)],
    "pav": [(9.16, 45.19), (8.86, 45.32), (8.74, 45.25)],
    "for": [(10.1, 44.69), (9.39, 44.77), (8.86, 44.9), (9.2, 44.82), (9.73, 44.63)],
    "mil": [(9.19, 45.46), (9.39, 45.85), (9.27, 45.58), (9.5, 45.31), (9.87, 46.17), (10.17, 46.21), (10.37, 46.47),
        (10.33, 46.18), (9.3, 46.0), (9.4, 46.1), (9.9, 46.05)],
    "ber": [(9.67, 45.7), (9.95, 45.89), (10.07, 45.81), (10.3, 45.95)],
    "bre": [(10.21, 45.54), (10.52, 45.6), (9.93, 45.54), (10.4, 45.7)],
    "cre": [(10.02, 45.13), (9.69, 45.36), (10.42, 44.99)],
    "man": [(10.79, 45.16), (10.49, 45.39), (11.14, 45.07), (11.07, 44.89), (10.6, 44.95)],
    "par": [(10.33, 44.8), (10.06, 44.86), (10.4, 44.88), (10.3, 44.45)],
    "pia": [(9.69, 45.05), (9.55, 44.95)],
    "pon": [(9.88, 44.37), (9.97, 44.21), (10.05, 44.38)],
    # Emilia, Tuscany and the Papal States
    "mod": [(10.93, 44.65), (10.41, 44.11), (10.14, 44.03), (10.62, 44.2), (10.78, 44.54), (10.63, 44.7),
        (10.05, 44.07)],
    "luc": [(10.5, 43.84), (10.25, 43.87), (10.7, 44.1)],
    "pst": [(10.92, 43.93), (11.1, 43.88), (10.85, 43.85)],
    "psa": [(10.4, 43.72), (10.31, 43.55), (10.52, 43.31), (10.86, 43.4), (10.54, 43.1), (10.8, 43.72)],
    "flo": [(11.25, 43.77), (11.39, 43.96), (11.61, 44.07), (11.8, 43.75), (12.05, 43.72)],
    "are": [(11.88, 43.46), (11.98, 43.27), (12.14, 43.57)],
    "sie": [(11.33, 43.32), (11.11, 42.76), (11.49, 43.06), (10.89, 43.05), (11.21, 42.44)],
    "pio": [(10.52, 42.93), (10.49, 42.99), (10.33, 42.81), (10.24, 42.75), (10.4, 42.76), (10.6, 43.0),
        (10.15, 42.76)],
    "bol": [(11.34, 44.49), (11.71, 44.35), (11.91, 44.42), (10.98, 44.15), (12.1, 44.57), (11.29, 44.73)],
    "fer": [(11.62, 44.84), (12.19, 44.69), (11.79, 45.07), (12.06, 45.05), (11.5, 44.98)],
    "rma": [(12.2, 44.42), (12.04, 44.22), (12.24, 44.14), (12.57, 44.06), (12.91, 43.91), (11.88, 44.29)],
    "urb": [(12.64, 43.73), (12.81, 43.69), (12.68, 43.5)],
    "per": [(12.39, 43.11), (12.58, 43.35), (12.24, 43.46), (12.41, 42.78), (12.11, 42.72), (12.35, 42.5)],
    "anc": [(13.52, 43.62), (13.45, 43.3), (13.72, 43.16), (13.58, 42.85), (13.22, 43.71), (13.24, 43.52)],
    "spo": [(12.74, 42.73), (12.7, 42.95), (13.09, 42.79), (12.86, 42.4), (13.09, 41.93), (12.8, 43.2), (12.85, 43.4),
        (12.75, 42.25)],
    "rme": [(12.5, 41.9), (12.42, 42.2), (12.62, 42.08), (12.35, 42.0)],
    "pat": [(12.1, 42.42), (11.8, 42.09), (11.9, 42.6), (12.2, 41.85)],
    "tiv": [(12.8, 41.96), (12.89, 41.84), (12.63, 41.45), (13.25, 41.29), (13.35, 41.64), (12.78, 41.69),
        (12.4, 41.7)],
    # Venice and the Terraferma
    "ven": [(12.36, 45.45)],
    "pad": [(11.88, 45.41), (12.2, 45.2), (11.66, 45.23), (12.05, 45.3)],
    "ver": [(10.99, 45.44), (11.31, 45.19), (10.69, 45.44), (10.81, 45.76), (11.45, 45.1)],
    "vic": [(11.55, 45.55), (11.73, 45.77), (11.51, 45.88), (11.91, 46.02), (12.22, 46.14), (12.4, 46.2)],
    "trv": [(12.24, 45.67), (11.93, 45.67), (12.3, 45.89), (12.49, 45.78)],
    "fri": [(13.23, 46.06), (12.66, 45.96), (13.37, 45.77), (13.43, 46.09), (13.14, 46.28), (13.1, 45.7), (13.02, 46.4),
        (12.55, 46.1)],
    "trt": [(11.12, 46.07), (11.04, 45.89), (10.84, 45.89), (10.73, 46.04), (10.76, 46.16)],
    # the Alps, Austria and Hungary
    "cri": [(14.31, 46.62), (13.85, 46.61), (12.77, 46.83), (11.94, 46.8), (11.35, 46.5), (12.14, 46.54),
        (10.91, 46.35), (15.2, 46.5), (14.84, 46.84), (11.16, 46.67), (10.77, 46.63), (10.65, 46.33), (13.0, 46.62),
        (13.4, 46.68), (12.5, 46.65)],
    "tyr": [(11.39, 47.27), (10.57, 47.14), (9.53, 46.85), (9.84, 46.5), (9.02, 46.19), (12.17, 47.58), (10.4, 46.85),
        (8.59, 46.63), (9.35, 46.45), (8.8, 46.2), (8.9, 46.05), (8.6, 46.25)],
    "aus": [(16.37, 48.21), (15.44, 47.07), (14.29, 48.0), (15.09, 47.38), (16.24, 47.81), (13.3, 47.7), (15.9, 46.75),
        (14.2, 47.45)],
    "hun": [(19.04, 47.5), (17.63, 47.69), (18.42, 47.19), (18.23, 46.3), (20.0, 46.5)],
    "sla": [(15.98, 45.81), (16.34, 46.31), (18.69, 45.55), (17.68, 45.34)],
    "crn": [(14.51, 46.05), (13.77, 45.65), (15.17, 45.8), (14.21, 45.78)],
    # the eastern Adriatic
    "cro": [(14.44, 45.33), (14.9, 44.99), (15.07, 44.53), (15.55, 45.49), (15.87, 44.81), (13.73, 45.55),
        (13.97, 45.41), (14.6, 45.05)],
    "ist": [(13.85, 44.87), (13.64, 45.08), (13.59, 45.23), (13.94, 45.24), (14.12, 45.09), (14.4, 44.96),
        (14.45, 44.55)],
    "dal": [(15.23, 44.12), (16.44, 43.51), (15.89, 43.73), (16.25, 44.05), (15.05, 44.45), (14.76, 44.76),
        (15.0, 44.0), (16.6, 43.32), (16.6, 43.15), (16.9, 42.95)],
    "bos": [(18.41, 43.86), (17.27, 44.34), (17.19, 44.77), (17.67, 44.23)],
    "her": [(17.81, 43.34), (17.62, 42.92), (18.45, 42.85), (18.78, 43.5)],
    "rag": [(18.09, 42.65), (17.7, 42.84), (18.22, 42.58), (17.45, 42.95), (18.35, 42.52), (18.1, 42.78),
        (17.85, 42.88)],
    "alb": [(19.51, 42.07), (18.84, 42.29), (19.64, 41.78)],
    "dur": [(19.45, 41.32), (19.82, 41.33), (20.08, 41.11), (19.49, 40.47)],
    # the south
    "aqu": [(13.4, 42.35), (13.93, 42.05), (13.7, 42.66), (14.17, 42.35), (14.66, 41.56), (15.55, 41.46),
        (15.92, 41.63), (14.71, 42.11), (14.78, 41.13)],
    "cap": [(14.21, 41.11), (13.57, 41.21), (13.83, 41.49), (13.61, 41.72)],
    "nap": [(14.27, 40.85), (14.53, 40.93), (14.45, 40.78), (14.35, 40.95), (14.6, 40.85), (14.2, 40.97),
        (14.12, 40.83)],
    "slr": [(14.77, 40.68), (15.06, 40.62), (15.8, 40.64), (15.65, 40.99), (15.53, 40.07), (15.76, 40.12)],
    "bar": [(16.87, 41.12), (16.28, 41.32), (16.55, 40.83), (17.3, 40.95)],
    "otr": [(18.49, 40.15), (18.17, 40.35), (17.94, 40.63), (17.24, 40.47), (16.25, 39.3), (16.59, 38.91),
        (15.65, 38.11), (16.63, 39.58), (16.2, 39.82), (15.9, 38.68), (17.12, 39.08)],
    "pal": [(13.36, 38.12), (12.51, 38.02), (12.44, 37.8), (13.58, 37.31), (14.06, 37.49), (15.29, 37.08),
        (15.09, 37.5), (14.28, 37.57), (14.73, 36.93), (14.02, 38.04)],
    "mes": [(15.55, 38.19), (15.24, 38.22), (15.29, 37.85), (14.96, 38.14), (15.1, 37.95)],
    "tun": [(10.18, 36.8), (9.87, 37.27), (11.1, 36.85), (10.61, 36.4)],
    "cor": [(8.74, 41.92), (9.45, 42.7), (9.15, 42.31), (9.16, 41.39), (8.76, 42.57)],
    "sar": [(9.11, 39.22), (8.56, 40.73), (8.59, 39.9), (9.33, 40.32), (9.5, 40.92)],
}

# Land that is part of no province: the rim of the board.
NEUTRAL_SEEDS: list[LonLat] = [
    (3.5, 44.0), (4.0, 45.0), (4.8, 45.8), (5.5, 46.5), (6.2, 47.3),  # France beyond the Rhône
    (8.5, 48.0), (10.0, 47.8), (12.0, 48.1), (13.5, 48.6),  # Swabia, Bavaria
    (20.8, 47.2), (21.0, 46.0), (20.0, 44.6), (21.0, 43.5), (20.5, 42.5), (21.0, 41.5), (20.5, 39.8),  # the east
    (16.9, 45.1), (17.5, 45.1), (18.3, 45.05), (19.0, 45.0),  # the Sava's lands between Slavonia and Bosnia
    (8.5, 36.3), (9.3, 35.8), (10.3, 35.5),  # Africa beyond Tunis
]

LENSES = (
    Lens(centre=(11.0, 44.4), gain=1.1, radius=0.09),  # the north and the centre
    Lens(centre=(10.2, 45.2), gain=0.5, radius=0.04),  # Lombardy
    Lens(centre=(13.1, 41.65), gain=0.8, radius=0.04),  # Rome and Naples
    Lens(centre=(12.36, 45.44), gain=1.6, radius=0.024),  # Venice and its Lagoon
    Lens(centre=(7.4, 44.62), gain=0.7, radius=0.02),  # Saluzzo
    Lens(centre=(5.35, 43.35), gain=0.8, radius=0.02),  # Marseilles
    Lens(centre=(14.3, 40.85), gain=0.6, radius=0.02),  # Naples
    Lens(centre=(18.05, 42.7), gain=0.6, radius=0.02),  # Ragusa
    Lens(centre=(10.35, 42.8), gain=0.5, radius=0.02),  # Piombino and Elba
)

# The Lagoon: a band of water along the coast from Chioggia to Marano, in two halves that leave
# out the island of Venice.
VENICE: list[LonLat] = [(12.2, 45.4), (12.21, 45.5), (12.42, 45.53), (12.52, 45.45), (12.42, 45.37)]
LAGOON: list[list[LonLat]] = [
    [(12.22, 45.25), (12.08, 45.33), (12.08, 45.45), (12.2, 45.45), (12.2, 45.4), (12.42, 45.37), (12.52, 45.45),
     (12.62, 45.45), (12.48, 45.31), (12.3, 45.24)],
    [(12.08, 45.45), (12.18, 45.56), (12.45, 45.62), (12.75, 45.66), (12.95, 45.7), (12.98, 45.62), (12.8, 45.56),
     (12.68, 45.5), (12.62, 45.45), (12.52, 45.45), (12.42, 45.53), (12.21, 45.5), (12.2, 45.45)],
]

# Elba, drawn larger than life so that Piombino's city and units find room on it.
ELBA: list[LonLat] = [(9.98, 42.8), (10.1, 42.9), (10.32, 42.9), (10.44, 42.84), (10.48, 42.68), (10.38, 42.5),
                      (10.1, 42.52)]

FORCE_WATER: list[list[LonLat]] = LAGOON
FORCE_LAND: list[list[LonLat]] = [VENICE, ELBA]
FORCE_PROVINCE: dict[str, list[list[LonLat]]] = {"lag": LAGOON, "ven": [VENICE]}

# Where the game crosses water by land: Istria meets Dalmatia across the Kvarner's islands, from
# Lošinj to Rab.
STRAITS: dict[tuple[str, str], tuple[LonLat, LonLat]] = {("dal", "ist"): ((14.724, 44.789), (14.455, 44.625))}

# The controlled straits' gates: Piombino's across the channel from Elba to the headland, Messina's
# across the strait from the Faro to the Calabrian shore.
GATES: dict[str, tuple[LonLat, LonLat]] = {
    "Piombino": ((10.4, 42.8), (10.56, 42.96)),
    "Messina": ((15.531, 38.257), (15.746, 38.198)),
}

# Where fleets stand on split coasts: Provence's west and east of Marseilles, Croatia's on the
# Kvarner and on the Velebit channel.
COAST_POINTS: dict[str, LonLat] = {
    "pro/nc": (4.85, 43.5),
    "pro/sc": (6.05, 43.2),
    "cro/nc": (14.5, 45.3),
    "cro/sc": (15.15, 44.55),
}

SPEC = BoardSpec(
    board="classic",
    title="The classic Machiavelli board (1454)",
    game="machiavelli",
    centre=(12.5, 42.0),
    parallels=(38.0, 46.0),
    lenses=LENSES,
    extent=(-0.113, -0.104, 0.111, 0.113),
    width=1200.0,
    seeds=SEEDS,
    neutral_seeds=NEUTRAL_SEEDS,
    force_water=FORCE_WATER,
    force_land=FORCE_LAND,
    force_province=FORCE_PROVINCE,
    in_pieces=frozenset({"pio", "ist", "dal", "cro"}),  # Piombino: its headland and Elba; the Adriatic islands
    straits=STRAITS,
    gates=GATES,
    coast_points=COAST_POINTS,
)
