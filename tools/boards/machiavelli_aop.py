"""Absence of Plague's board: Italy in 1459, from Lyon to Durazzo and from Innsbruck to Gabes.

Read from the rules core's ``boards/aop.json`` (``game="machiavelli"``; a reconstruction of
the AoP map: design notes, machiavelli.md section 3) and labelled with the names that file
gives (``names=True``: Firenze, Kärnten, Ungarn, the seas as Appendix A names them), not codes.

Projection.  A Lambert conformal conic centred on 12°E 41°N (standard parallels 36°N and
46°N), 1400 units wide, reaching south to Gabes (33.9°N) and north to Innsbruck, Zürich and
Lake Balaton; a magnifier on the north gives Piedmont, Lombardy, the Veneto, Emilia and Tuscany
1.7 times the rim's scale (Sicily and Tunisia are flattened north-south by about a quarter in
return), and lenses give room where the board packs its areas (Emilia and Tuscany, Lombardy,
the Lagoon, the Istrian neck, Bolzano and Trento, Saluzzo and Nizza, Geneva, Massa, Naples,
Ragusa, Piombino, the straits of Bonifacio and Messina) and to San Marino.

Seeds.  Each area's seeds are the towns of the lands it held in 1459 and the city it is named
after (Lyon with the Bresse and the Pays de Gex; Avignon with the Comtat, the Dauphiné and Haute
Provence; Nizza with Barcelonnette; Savoia with Chambéry, Annecy, the Maurienne and the
Tarentaise; Ventimiglia with the western Riviera up to Mondovì and Ceva; Massa with Carrara;
Reggio between Parma and Modena; Prato between Firenze, Pistoia and Bologna; Bolzano with the
Etsch, the Eisack and the Vinschgau; Trieste with the Karst; Fiume with the Vinodol down the
Velebit channel to Zara; Spalato with Trogir and Omiš; Kalabria from the Pollino to Reggio;
Siracusa with Catania and Noto; Gabes with Sfax); the seas lie at their real waters, their
borders meeting the coasts where the board's edges ask (the Ligurian Sea and the Sea of Toulon
on Nizza's coast and on Corsica's west coast; the Upper and Central Adriatic on Ancona's and
Zara's; the Central and Lower Adriatic on Aquila's and, in the Korčula channel, on
Herzegovina's; the Bay of Naples and the Eastern Tyrrhenian past Lipari to Messina's coast; the
Ionian Sea and the Bay of Tunis through Malta and Lampedusa; the Bay of Tunis and the Western
Mediterranean through Pantelleria).  The Adriatic's islands go to the area whose coast they lie
off (Cres and Lošinj to Istria, Krk and Rab to Fiume, Pag, Ugljan and Dugi Otok to Zara, Brač,
Hvar, Šolta and Vis to Spalato, Korčula to Herzegovina, whose coast alone touches both seas
round it, Mljet and Lastovo to Ragusa); islands too small to matter are sunk.  Everything
beyond the board (France west of the Rhône, Germany, Hungary's east, Serbia, Greece, Algeria,
Libya, and the Sava's lands between Slavonia and Bosnia, which the board keeps apart) is
neutral land.

Drawn larger than life: Venice, an island in a Lagoon that runs along the coast from Chioggia to
Caorle (reachable from the Lagoon alone: AoP 14); Elba, Piombino's (the Eastern Tyrrhenian Sea
reaches Pisa through the channel between Elba and the headland, where Piombino's gate is drawn);
San Marino, in the hills between Rimini and Urbino; Lipari, Pantelleria and Lampedusa, each one
fleet's place (AoP 1.3), and Malta, with its fortified port and garrison, each on the border of
its two seas, their names written in the sea beside them; the shores of the Strait of Bonifacio,
squared off so that its gate and its crossing find room.

Where the board's adjacency is no plane map, the drawing keeps every edge of aop.json (the
adjacency is the game; the drawing serves it) and shows how the pair touches:

* Crossings, for fleets only (M17 a): Ajaccio-Sassari over the Strait of Bonifacio and
  Messina-Kalabria from Messina to Reggio, each a dotted sea route (the file marks them
  ``"fleet"``); no army crosses them but by transport.  No land link was needed: every pair
  adjacent on the board that real geography does not let touch is drawn at a junction below.
* Gates: Piombino's across the channel between Elba and the headland; Messina's across the
  narrows from the Faro to Scilla, where the Bay of Naples meets the Ionian Sea (it controls that
  border and the crossing south of it); Bonifacio's across the strait beside the crossing,
  controlled by nobody (M17 d).
* Junctions, four areas at a point with both diagonal pairs adjacent: Geneva (Lyon and Savoia,
  Schweiz and Avignon: the four are each other's neighbours, Avignon reaching the lake by a
  corridor between Lyon and Savoia), Gorizia (Kärnten, Krain, Trieste and Friuli: all six pairs
  adjacent), the Lagoon's south end at Brondolo (Ferrara touches the Lagoon, AoP 14, and Padova
  the Upper Adriatic: the two pairs cross there).
* Pinches, junctions where one area is both of a diagonal, in two pieces named once: Tirol at
  the Reschen pass, where Schweiz (the Lower Engadine) meets Bolzano (the Vinschgau) between
  Tirol's Inn valley and its western piece (the Upper Engadine, Bergell and Ticino, which the
  classic board gives Tyrolea and by which it borders Como, Milano and Torino); Kärnten at
  Salurn, where Bolzano meets Trento between Kärnten's Fiemme and its western piece (the Val di
  Non and the Val di Sole, the classic Carinthia's way to the Tonale, by which it borders
  Milano).  With Bolzano set between Tirol and Trento (3.4) and Tirol bordering Como and
  Steiermark, Bolzano-Schweiz and Kärnten-Milano have no plane drawing but a pinch or a link
  drawn over a third area; a pinch keeps each on a real pass.
* Corners, four areas at a point with neither diagonal adjacent: Saluzzo (Torino, Monferrato,
  Ventimiglia, Saluzzo), the Istrian neck (Trieste, Krain, Fiume, Istria), Corsica's west coast
  (the Ligurian Sea, Bastia, Ajaccio, the Sea of Toulon) and Sardinia's (the Sea of Toulon,
  Sassari, Cagliari, the Western Mediterranean).
"""

from __future__ import annotations

import math

from boards import BoardSpec, Lens, LonLat, Magnifier

SEEDS: dict[str, list[LonLat]] = {
    # seas
    "sot": [(4.5, 42.9), (5.5, 42.6), (6.3, 42.4), (7.5, 41.6), (7.6, 40.8), (4.6, 41.6), (3.9, 43.2), (5.5, 43.0),
        (6.8, 43.2), (8.2, 41.2), (8.1, 40.5), (8.4, 41.95)],
    "lig": [(7.6, 43.55), (8.3, 43.8), (9.2, 43.7), (9.7, 43.95), (8.4, 43.1), (9.3, 43.2), (9.9, 43.7),
        (8.3, 42.5), (9.6, 43.15), (8.0, 42.8), (8.45, 42.35)],
    "wts": [(9.9, 42.6), (10.5, 41.5), (10.9, 40.5), (10.4, 39.5), (11.3, 39.3), (12.2, 38.6), (12.9, 38.4),
        (10.15, 43.25), (10.3, 42.3), (9.9, 41.3), (9.8, 40.3), (9.9, 39.5), (9.6, 38.8), (8.5, 41.05),
        (12.0, 38.3)],
    "ets": [(10.8, 42.55), (11.3, 42.2), (12.0, 41.5), (12.5, 40.6), (12.6, 39.7), (13.5, 38.6), (13.0, 39.2),
        (10.45, 42.88), (10.58, 43.05), (11.9, 40.8), (14.3, 38.3)],
    "bon": [(13.6, 41.05), (14.15, 40.72), (14.6, 40.35), (15.3, 39.8), (15.7, 38.9), (14.6, 39.3), (14.2, 39.7),
        (13.2, 40.6), (15.55, 38.35), (15.35, 38.5)],
    "ion": [(17.5, 38.5), (17.0, 37.0), (19.5, 38.5), (16.6, 38.3), (17.2, 39.8), (19.2, 39.8), (15.6, 37.0),
        (15.55, 37.95), (16.0, 36.2), (18.5, 36.5), (20.2, 37.2), (15.7, 35.0), (17.0, 34.5), (14.9, 36.3),
        (13.1, 35.2), (12.8, 34.8), (15.62, 38.2), (15.6, 38.15)],
    "las": [(16.3, 42.4), (17.5, 42.0), (18.3, 41.5), (16.8, 41.6), (19.0, 41.1), (17.2, 42.6), (18.6, 40.8),
        (17.38, 43.06), (17.25, 43.06), (17.05, 42.85), (17.0, 43.025), (16.85, 43.035), (16.75, 43.0)],
    "cas": [(14.5, 43.2), (15.2, 42.9), (15.8, 42.6), (14.3, 42.6), (15.8, 43.2), (16.6, 43.15), (14.0, 43.5),
        (16.9, 43.25), (16.75, 43.1), (17.15, 43.16), (17.0, 43.095), (16.8, 43.09), (16.55, 43.08)],
    "uas": [(13.0, 44.5), (13.5, 45.35), (12.7, 45.0), (14.2, 44.2), (13.3, 44.0), (12.7, 44.3), (14.0, 43.8),
        (14.3, 44.75), (13.2, 45.62), (13.45, 45.68), (14.55, 45.2), (12.4, 45.15)],
    "lag": [(12.18, 45.33), (12.52, 45.53), (12.9, 45.64)],
    "bot": [(12.4, 36.7), (13.5, 36.6), (11.2, 36.4), (14.5, 36.5), (12.6, 37.3), (11.0, 35.5), (11.9, 36.4),
        (11.3, 34.6), (12.2, 35.7), (13.5, 35.8), (10.7, 34.2), (12.3, 35.2)],
    "wms": [(5.5, 39.5), (7.5, 38.5), (6.5, 37.8), (9.0, 38.5), (8.5, 37.5), (10.0, 37.8), (10.4, 37.15), (11.5, 37.5),
        (12.0, 37.7), (4.5, 40.5), (7.6, 39.6), (8.1, 40.0), (11.7, 37.2), (11.5, 36.9)],
    # France and Savoy
    "lyo": [(4.83, 45.76), (4.83, 46.3), (5.22, 46.2), (4.87, 45.52), (4.39, 45.43), (5.25, 45.85), (5.75, 46.35),
        (4.4, 46.0), (6.02, 46.25)],
    "avi": [(4.81, 43.95), (4.36, 43.84), (4.89, 44.93), (5.72, 45.19), (6.08, 44.56), (6.64, 44.9), (4.43, 43.5),
        (5.05, 44.35), (5.4, 44.2), (5.6, 45.55), (5.7, 45.9), (6.3, 44.45), (4.19, 43.57), (6.02, 46.13),
        (5.55, 45.75), (5.85, 46.05)],
    "mar": [(5.37, 43.3), (5.45, 43.53), (5.93, 43.12), (6.47, 43.54), (6.06, 43.4), (5.0, 43.5), (6.2, 43.75),
        (6.7, 43.45)],
    "niz": [(7.27, 43.7), (6.92, 43.66), (6.65, 44.39), (7.0, 44.1), (7.3, 44.05), (6.85, 44.4)],
    "sav": [(6.0, 45.58), (6.18, 45.9), (6.39, 45.68), (6.35, 45.28), (6.67, 45.2), (6.53, 45.48), (6.6, 46.1),
        (6.8, 46.05), (6.26, 46.12)],
    "aos": [(7.32, 45.74), (7.0, 45.75), (7.6, 45.72), (7.2, 45.65)],
    "slz": [(7.49, 44.64), (7.27, 44.62), (7.37, 44.5), (7.39, 44.66), (7.55, 44.52)],
    "tor": [(7.69, 45.07), (7.05, 45.14), (7.88, 45.47), (8.42, 45.32), (8.05, 45.56), (7.34, 44.88), (8.29, 46.12),
        (7.1, 44.85), (7.72, 44.85), (8.15, 45.85), (8.0, 46.0), (7.95, 45.8), (7.6, 44.7), (7.05, 44.7),
        (6.95, 44.55)],
    "mon": [(8.45, 45.13), (8.21, 44.9), (8.03, 44.7), (8.47, 44.68), (7.8, 44.68)],
    "vnt": [(7.6, 43.79), (7.78, 43.82), (8.21, 44.05), (8.34, 44.17), (7.82, 44.39), (8.03, 44.39), (7.7, 44.1),
        (7.78, 44.5)],
    "gen": [(8.93, 44.41), (8.48, 44.31), (9.32, 44.32), (9.82, 44.1), (8.95, 44.55), (8.6, 44.45), (9.55, 44.25)],
    "sch": [(7.45, 46.95), (8.31, 47.05), (8.54, 47.37), (6.63, 46.52), (7.36, 46.23), (7.99, 46.32), (8.64, 46.88),
        (9.53, 46.85), (9.83, 46.8), (10.3, 46.8), (6.9, 46.75), (6.26, 46.28), (9.1, 47.1)],
    # Lombardy, Emilia and Liguria
    "com": [(9.09, 45.81), (8.83, 45.82), (8.62, 45.45), (8.56, 45.76)],
    "pav": [(9.16, 45.19), (8.86, 45.32), (8.74, 45.25)],
    "for": [(10.1, 44.69), (9.39, 44.77), (8.86, 44.9), (9.2, 44.82), (9.73, 44.63), (9.6, 44.55)],
    "mil": [(9.19, 45.46), (9.39, 45.85), (9.27, 45.58), (9.5, 45.31), (9.87, 46.17), (10.17, 46.21), (10.33, 46.18),
        (9.4, 46.1), (9.7, 46.12), (10.3, 46.3)],
    "ber": [(9.67, 45.7), (9.95, 45.89), (10.07, 45.81), (10.3, 45.95)],
    "bre": [(10.21, 45.54), (10.52, 45.6), (9.93, 45.54), (10.4, 45.7), (10.55, 45.75)],
    "cre": [(10.02, 45.13), (9.69, 45.36), (10.42, 44.99)],
    "man": [(10.79, 45.16), (10.49, 45.39), (11.14, 45.07), (11.07, 44.89), (10.75, 45.0), (10.5, 44.97)],
    "par": [(10.33, 44.8), (10.06, 44.86), (10.38, 44.93), (10.27, 44.61), (10.1, 44.5)],
    "reg": [(10.63, 44.7), (10.69, 44.6), (10.4, 44.43), (10.5, 44.55)],
    "pia": [(9.69, 45.05), (9.55, 44.95)],
    "pon": [(9.88, 44.37), (9.95, 44.25), (10.0, 44.4), (9.75, 44.45), (10.15, 44.3)],
    "mas": [(10.14, 44.03), (10.1, 44.08), (9.98, 44.11), (10.2, 44.1), (10.05, 44.17)],
    "mod": [(10.93, 44.65), (10.78, 44.54), (10.83, 44.33), (10.41, 44.11), (10.6, 44.25), (10.95, 44.45)],
    # Tuscany, the Romagna and the Papal States
    "luc": [(10.5, 43.84), (10.25, 43.87), (10.23, 43.96), (10.62, 44.05), (10.45, 44.0), (10.72, 44.1)],
    "pst": [(10.92, 43.93), (10.8, 43.87), (10.85, 44.0)],
    "pra": [(11.1, 43.88), (11.12, 43.98)],
    "pis": [(10.4, 43.72), (10.31, 43.55), (10.52, 43.31), (10.86, 43.4), (10.54, 43.1), (10.8, 43.72)],
    "fir": [(11.25, 43.77), (11.39, 43.96), (11.61, 44.07), (11.8, 43.75), (12.05, 43.72), (11.4, 44.12),
        (11.0, 43.75)],
    "are": [(11.88, 43.46), (11.98, 43.27), (12.14, 43.57)],
    "sie": [(11.33, 43.32), (11.11, 42.76), (11.49, 43.06), (10.89, 43.05), (11.21, 42.44)],
    "pio": [(10.52, 42.93), (10.49, 42.99), (10.33, 42.81), (10.24, 42.75), (10.4, 42.76), (10.6, 43.0),
        (10.15, 42.76)],
    "bol": [(11.34, 44.49), (11.71, 44.35), (11.91, 44.42), (10.98, 44.15), (12.1, 44.57), (11.29, 44.73),
        (10.85, 44.17), (11.1, 44.3)],
    "fer": [(11.62, 44.84), (12.19, 44.69), (11.79, 45.07), (12.06, 45.05), (11.5, 44.98), (12.22, 45.17),
        (12.27, 45.185)],
    "rav": [(12.2, 44.42), (12.04, 44.22), (12.24, 44.14), (12.57, 44.09), (12.91, 43.91), (11.88, 44.29),
        (12.18, 44.07), (12.77, 43.9), (12.62, 43.98), (12.15, 43.96)],
    "smr": [(12.45, 43.93)],
    "urb": [(12.64, 43.73), (12.81, 43.69), (12.68, 43.5), (12.3, 43.78), (12.18, 43.86)],
    "per": [(12.39, 43.11), (12.58, 43.35), (12.24, 43.46), (12.41, 42.78), (12.11, 42.72), (12.35, 42.5)],
    "anc": [(13.52, 43.62), (13.45, 43.3), (13.72, 43.16), (13.58, 42.85), (13.22, 43.71), (13.24, 43.52)],
    "spo": [(12.74, 42.73), (12.7, 42.95), (13.09, 42.79), (12.86, 42.4), (13.09, 41.93), (12.8, 43.2),
        (12.85, 43.4), (12.75, 42.25)],
    "rom": [(12.5, 41.9), (12.42, 42.2), (12.62, 42.08), (12.35, 42.0)],
    "pat": [(12.1, 42.42), (11.8, 42.09), (11.9, 42.6), (12.2, 41.85)],
    "tiv": [(12.8, 41.96), (12.89, 41.84), (12.63, 41.45), (13.25, 41.29), (13.35, 41.64), (12.78, 41.69),
        (12.4, 41.7)],
    # Venice and the Terraferma
    "ven": [(12.36, 45.45)],
    "pad": [(11.88, 45.41), (12.2, 45.26), (12.26, 45.225), (11.66, 45.23), (12.05, 45.3)],
    "ver": [(10.99, 45.44), (11.31, 45.19), (10.69, 45.44), (10.81, 45.76), (11.45, 45.1)],
    "vic": [(11.55, 45.55), (11.73, 45.77), (11.51, 45.88), (11.91, 46.02), (12.22, 46.14), (12.4, 46.2)],
    "trv": [(12.24, 45.67), (11.93, 45.67), (12.3, 45.89), (12.49, 45.78)],
    "fri": [(13.23, 46.06), (12.66, 45.96), (13.1, 45.75), (13.14, 46.28), (13.02, 46.4), (12.55, 46.1),
        (13.35, 46.2), (13.45, 45.85)],
    "trt": [(11.12, 46.07), (11.04, 45.89), (10.84, 45.89), (10.73, 46.04), (10.76, 46.16), (11.1, 46.15),
        (10.7, 45.85)],
    # the Alps
    "blz": [(11.35, 46.5), (11.16, 46.67), (10.77, 46.63), (10.6, 46.68), (11.66, 46.72), (11.43, 46.9),
        (11.3, 46.35), (11.0, 46.6)],
    "kar": [(14.31, 46.62), (13.85, 46.61), (12.77, 46.83), (11.94, 46.8), (12.14, 46.54), (15.2, 46.5),
        (14.84, 46.84), (13.0, 46.62), (13.4, 46.68), (12.5, 46.65), (11.7, 46.43), (11.46, 46.29),
        (11.05, 46.37), (10.8, 46.33), (10.67, 46.36), (10.95, 46.45), (13.5, 46.1), (11.08, 46.33),
        (11.35, 46.2)],
    "tir": [(11.39, 47.27), (10.57, 47.14), (12.17, 47.45), (12.4, 47.4), (10.9, 47.3), (11.9, 47.1),
        (13.2, 47.35), (10.58, 46.92), (10.42, 46.72), (10.13, 46.54), (10.37, 46.5), (9.84, 46.5), (9.55, 46.33),
        (9.2, 46.35), (9.02, 46.19),
        (8.8, 46.17), (8.95, 46.0), (10.45, 46.65)],
    "ste": [(15.44, 47.07), (15.09, 47.38), (14.66, 47.17), (16.24, 47.6), (14.2, 47.45), (15.9, 46.75),
        (13.9, 47.3)],
    "ung": [(19.04, 47.5), (17.63, 47.69), (18.42, 47.19), (18.23, 46.3), (20.0, 46.5), (17.3, 46.8)],
    "sla": [(15.98, 45.81), (16.34, 46.31), (18.69, 45.55), (17.68, 45.34), (15.6, 46.2)],
    "kra": [(14.51, 46.05), (14.36, 46.24), (15.17, 45.8), (14.86, 45.64), (14.21, 45.78), (13.8, 46.05),
        (14.15, 45.58)],
    "tri": [(13.77, 45.65), (13.75, 45.8), (13.85, 45.6), (13.95, 45.56)],
    # the eastern Adriatic
    "ist": [(14.4, 44.95), (14.45, 44.55), (13.85, 44.87), (13.64, 45.08), (13.59, 45.23), (13.94, 45.24),
        (14.12, 45.09), (13.95, 45.4)],
    "fiu": [(14.6, 45.08), (14.75, 44.77), (14.44, 45.33), (14.3, 45.34), (14.2, 45.4), (14.95, 44.95), (15.1, 44.7),
        (15.25, 44.5), (14.6, 45.25)],
    "cro": [(15.55, 45.49), (15.87, 44.81), (15.55, 44.7), (15.2, 45.25), (15.5, 45.0)],
    "zar": [(15.0, 44.5), (15.0, 44.0), (15.15, 44.08), (15.23, 44.12), (15.89, 43.73), (16.2, 44.04), (15.6, 44.03),
        (15.5, 44.3)],
    "spa": [(16.6, 43.32), (16.6, 43.15), (16.3, 43.38), (16.15, 43.05), (16.44, 43.51), (16.25, 43.52), (16.69, 43.44),
        (16.64, 43.7), (16.9, 43.4)],
    "bos": [(18.41, 43.86), (17.27, 44.34), (17.19, 44.77), (17.67, 44.23), (17.0, 43.83)],
    "her": [(17.81, 43.34), (17.62, 43.0), (18.45, 42.85), (18.78, 43.5), (17.45, 43.05), (17.15, 43.22),
        (16.9, 42.95)],
    "rag": [(17.5, 42.75), (16.85, 42.75), (18.09, 42.65), (17.7, 42.84), (18.22, 42.58), (17.35, 42.95),
        (18.35, 42.52), (18.1, 42.78)],
    "alb": [(19.51, 42.07), (18.84, 42.29), (19.64, 41.78), (19.1, 42.1), (19.26, 42.44)],
    "dur": [(19.45, 41.32), (19.82, 41.33), (20.08, 41.11), (19.49, 40.47)],
    # the south
    "aqu": [(13.4, 42.35), (13.93, 42.05), (13.7, 42.66), (14.17, 42.35), (14.66, 41.56), (15.55, 41.46),
        (15.92, 41.63), (14.71, 42.11), (14.78, 41.13)],
    "cap": [(14.21, 41.11), (13.57, 41.21), (13.83, 41.49), (13.61, 41.72)],
    "nap": [(14.27, 40.85), (14.53, 40.93), (14.45, 40.78), (14.35, 40.95), (14.6, 40.85), (14.2, 40.97),
        (14.12, 40.83)],
    "slr": [(14.77, 40.68), (15.06, 40.62), (15.8, 40.64), (15.65, 40.99), (15.53, 40.07), (15.76, 40.12)],
    "bar": [(16.87, 41.12), (16.28, 41.32), (16.55, 40.83), (17.3, 40.95)],
    "otr": [(18.49, 40.15), (18.17, 40.35), (17.94, 40.63), (17.24, 40.47), (16.6, 40.67), (16.6, 39.75),
        (16.7, 40.25), (16.5, 39.95)],
    "kal": [(16.25, 39.3), (16.59, 38.91), (15.65, 38.11), (15.9, 38.68), (17.12, 39.08), (16.04, 39.36),
        (16.0, 39.7), (16.0, 38.4)],
    "pal": [(13.36, 38.12), (12.51, 38.02), (12.44, 37.8), (13.58, 37.31), (14.06, 37.49), (14.02, 38.04),
        (13.0, 37.6)],
    "mes": [(15.55, 38.19), (15.24, 38.22), (15.29, 37.85), (14.96, 38.14), (15.1, 37.95)],
    "sir": [(15.29, 37.08), (15.09, 37.5), (15.07, 36.89), (14.73, 36.93), (14.25, 37.07), (14.6, 37.3)],
    "tun": [(10.18, 36.8), (9.87, 37.27), (11.1, 36.85), (10.61, 36.4), (10.64, 35.83), (9.5, 36.7)],
    "gab": [(10.1, 33.88), (10.76, 34.74), (10.3, 34.3), (9.8, 34.5)],
    "aja": [(8.74, 41.92), (8.97, 41.62), (9.28, 41.59), (9.16, 41.42), (9.0, 42.0), (8.8, 42.05), (9.35, 41.95)],
    "bas": [(9.45, 42.7), (9.15, 42.31), (9.4, 42.95), (9.45, 42.3), (8.76, 42.57), (8.8, 42.4)],
    "sas": [(8.56, 40.73), (8.32, 40.56), (9.5, 40.92), (9.33, 40.32), (9.1, 40.9), (8.7, 40.45)],
    "cag": [(9.11, 39.22), (8.59, 39.9), (8.54, 39.31), (9.65, 39.93), (9.0, 39.6), (8.7, 40.1)],
    # the islands
    "lip": [(14.95, 38.48)],
    "pan": [(11.95, 36.8)],
    "mal": [(14.4, 35.9)],
    "lam": [(12.6, 35.5)],
}

NEUTRAL_SEEDS: list[LonLat] = [
    (3.5, 44.0), (3.8, 45.0), (3.8, 46.0), (4.5, 46.9), (5.5, 47.3), (6.5, 47.5),  # France beyond the Rhône
    (9.5, 47.7), (10.5, 47.7), (12.0, 47.8), (13.5, 47.8),  # Swabia, Bavaria, Salzburg
    (16.5, 48.0), (20.8, 47.2), (21.0, 46.0), (20.0, 44.6), (21.0, 43.5), (20.5, 42.5), (21.0, 41.5),
    (20.5, 39.8),  # the east
    (16.9, 45.1), (17.5, 45.1), (18.3, 45.05), (19.0, 45.0),  # the Sava's lands between Slavonia and Bosnia
    (8.5, 36.3), (9.0, 35.0), (9.0, 34.0), (11.5, 33.0), (8.0, 34.5),  # Africa beyond Tunis and Gabes
]

MAGNIFIERS = (Magnifier(centre=(11.0, 44.5), gain=0.7, radius=0.2),)  # the north and the centre

LENSES = (
    Lens(centre=(10.6, 44.2), gain=0.9, radius=0.04),  # Emilia and Tuscany
    Lens(centre=(9.7, 45.3), gain=0.5, radius=0.03),  # Lombardy
    Lens(centre=(12.36, 45.44), gain=1.5, radius=0.02),  # Venice and its Lagoon
    Lens(centre=(13.9, 45.6), gain=0.6, radius=0.025),  # Gorizia, Trieste, Istria and Fiume
    Lens(centre=(10.9, 46.45), gain=0.6, radius=0.03),  # Bolzano and Trento
    Lens(centre=(7.5, 44.4), gain=0.6, radius=0.025),  # Saluzzo, Nizza and Ventimiglia
    Lens(centre=(6.3, 45.9), gain=0.5, radius=0.025),  # Geneva, Savoia and Aosta
    Lens(centre=(12.45, 43.93), gain=1.8, radius=0.015),  # San Marino
    Lens(centre=(10.1, 44.08), gain=0.6, radius=0.012),  # Massa
    Lens(centre=(14.3, 40.85), gain=0.6, radius=0.02),  # Naples
    Lens(centre=(18.05, 42.7), gain=0.6, radius=0.02),  # Ragusa
    Lens(centre=(18.1, 42.66), gain=0.5, radius=0.01),  # Ragusa itself
    Lens(centre=(10.35, 42.8), gain=0.5, radius=0.02),  # Piombino and Elba
    Lens(centre=(9.2, 41.33), gain=1.0, radius=0.02),  # Bonifacio
    Lens(centre=(15.6, 38.2), gain=0.6, radius=0.02),  # Messina
)

# The Lagoon: a band of water along the coast from Chioggia to Marano, in two halves that leave
# out the island of Venice.
VENICE: list[LonLat] = [(12.2, 45.4), (12.21, 45.5), (12.42, 45.53), (12.52, 45.45), (12.42, 45.37)]
LAGOON: list[list[LonLat]] = [
    [(12.31, 45.21), (12.22, 45.27), (12.08, 45.33), (12.08, 45.45), (12.2, 45.45), (12.2, 45.4), (12.42, 45.37),
     (12.52, 45.45), (12.62, 45.45), (12.48, 45.31), (12.33, 45.215)],
    [(12.08, 45.45), (12.18, 45.56), (12.45, 45.62), (12.75, 45.66), (12.95, 45.7), (12.98, 45.62), (12.8, 45.56),
     (12.68, 45.5), (12.62, 45.45), (12.52, 45.45), (12.42, 45.53), (12.21, 45.5), (12.2, 45.45)],
]
# Elba, Piombino's, larger than life so that its marks find room on it.
ELBA: list[LonLat] = [(9.98, 42.8), (10.1, 42.9), (10.32, 42.9), (10.44, 42.84), (10.48, 42.68), (10.38, 42.5),
                      (10.1, 42.52)]


def _blob(lon: float, lat: float, half_lon: float, half_lat: float) -> list[LonLat]:
    """An ellipse about a point (16 sides): a small island drawn larger than life."""
    return [(lon + half_lon * math.cos(i * math.pi / 8), lat + half_lat * math.sin(i * math.pi / 8)) for i in range(16)]


# The small islands, each on the border of its two seas.
ISLANDS: list[list[LonLat]] = [
    _blob(14.95, 38.5, 0.2, 0.15),  # Lipari
    _blob(11.95, 36.8, 0.2, 0.15),  # Pantelleria
    _blob(14.4, 35.92, 0.3, 0.33),  # Malta
    _blob(12.6, 35.5, 0.2, 0.15),  # Lampedusa
]

# The mainland south-west of the Lagoon, down to the junction at its south end.
CHIOGGIA: list[LonLat] = [(12.31, 45.21), (12.225, 45.268), (12.1, 45.26), (12.1, 45.1), (12.315, 45.1),
                          (12.315, 45.2)]

# The shores of the Strait of Bonifacio, squared off so that its gate and its crossing find room.
BONIFACIO: list[list[LonLat]] = [
    [(9.09, 41.46), (9.09, 41.405), (9.27, 41.405), (9.27, 41.46)],  # Corsica's south tip
    [(9.12, 41.19), (9.12, 41.245), (9.3, 41.245), (9.3, 41.19)],  # Sardinia's north shore
]

# San Marino, drawn larger than life in the hills between Rimini and Urbino.
SAN_MARINO: list[LonLat] = [(12.26, 43.93), (12.3, 44.03), (12.52, 44.04), (12.59, 43.96), (12.55, 43.83),
                            (12.38, 43.82)]
FORCE_WATER: list[list[LonLat]] = LAGOON
FORCE_LAND: list[list[LonLat]] = [VENICE, ELBA, CHIOGGIA, *BONIFACIO, *ISLANDS]
FORCE_PROVINCE: dict[str, list[list[LonLat]]] = {"lag": LAGOON, "ven": [VENICE], "smr": [SAN_MARINO]}

# The crossings for fleets only (M17 a): from Bonifacio to Santa Teresa, from Messina to Reggio.

STRAITS: dict[tuple[str, str], tuple[LonLat, LonLat]] = {
    ("aja", "sas"): ((9.245, 41.418), (9.238, 41.235)),
    ("kal", "mes"): ((15.66, 38.12), (15.54, 38.18)),
}

# The straits' gates: Piombino's across the Elba channel, Messina's across the narrows from the
# Faro to Scilla, Bonifacio's across the strait west of the crossing.
GATES: dict[str, tuple[LonLat, LonLat]] = {
    "Piombino": ((10.4, 42.8), (10.56, 42.96)),
    "Messina": ((15.558, 38.27), (15.738, 38.235)),
    "Bonifacio": ((9.159, 41.417), (9.151, 41.233)),
}

# Four areas at a point, (north-west, north-east, south-east, south-west) round it: the junctions
# (both diagonals adjacent, or one area pinched in two) and the corners (neither diagonal adjacent).
JUNCTIONS: list[tuple[LonLat, tuple[str, str, str, str]]] = [
    ((6.14, 46.2), ("lyo", "sch", "sav", "avi")),  # Geneva
    ((13.62, 45.94), ("kar", "kra", "tri", "fri")),  # Gorizia
    ((12.31, 45.21), ("pad", "lag", "uas", "fer")),  # Brondolo, the Lagoon's south end
    ((10.5, 46.8), ("sch", "tir", "blz", "tir")),  # the Reschen pass: Tirol pinched
    ((11.21, 46.24), ("kar", "blz", "kar", "trt")),  # Salurn: Kärnten pinched
]

CORNERS: list[tuple[LonLat, tuple[str, str, str, str]]] = [
    ((7.68, 44.6), ("tor", "mon", "vnt", "slz")),  # Saluzzo
    ((14.05, 45.48), ("tri", "kra", "fiu", "ist")),  # the Istrian neck
    ((8.62, 42.2), ("lig", "bas", "aja", "sot")),  # Corsica's west coast
    ((8.45, 40.3), ("sot", "sas", "cag", "wms")),  # Sardinia's west coast
]

# Where the islands too small for their names have them: in the sea beside them.
PLACES: dict[tuple[str, str], LonLat] = {
    ("lip", "label"): (14.95, 38.74),
    ("pan", "label"): (11.95, 36.57),
    ("lam", "label"): (12.6, 35.28),
    ("mal", "label"): (14.4, 35.52),
}

SPEC = BoardSpec(
    board="aop",
    title="Absence of Plague's board (1459)",
    game="machiavelli",
    centre=(12.0, 41.0),
    parallels=(36.0, 46.0),
    magnifiers=MAGNIFIERS,
    lenses=LENSES,
    extent=(-0.1318, -0.1331, 0.1283, 0.1376),
    width=1400.0,
    seeds=SEEDS,
    neutral_seeds=NEUTRAL_SEEDS,
    force_water=FORCE_WATER,
    force_land=FORCE_LAND,
    force_province=FORCE_PROVINCE,
    in_pieces=frozenset({"pio", "tir", "kar", "ist", "fiu", "zar", "spa", "her", "rag"}),
    min_island=800,
    straits=STRAITS,
    gates=GATES,
    junctions=JUNCTIONS,
    corners=CORNERS,
    names=True,
    places=PLACES,
)
