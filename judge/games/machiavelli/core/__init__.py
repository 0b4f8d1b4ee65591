"""The pure rules core of Machiavelli in the variant *Absence of Plague* (AoP): frozen values in,
values out — no I/O, no clock, no database, no mail.  Stage 1: the board, the position and the
Action phase (F).  The economy (phases A to E), the campaign sequencer and the mail edges build on
it; ``adjudicate`` takes phase D's effects as plain values (:class:`~.orders.PhaseD`).

The map of the package
----------------------

==================  ===========================================================================
``boards/*.json``   the boards as data; ``classic.json`` is the classic 1454 board
``board.py``        the loader and the frozen :class:`~.board.Board` (areas, cities, coasts,
                    adjacency, straits, Venice's lagoon, the sea order, the start)
``position.py``     the frozen :class:`~.position.Position`: units in province and city places,
                    owners and independents, control markers, rebellions, sieges, treasuries,
                    home countries, the season
``orders.py``       the six operation orders, straits permissions, phase D's effects
``operations.py``   who obeys whom; legality (an impossible order is a Hold with its reason);
                    friendly conflicts; transports; which unit each support helps
``resolution.py``   F.1's decisions: attacks, supports, transports, cycles (three-valued)
``preference.py``   Appendix A, the Area Preference List
``retreats.py``     F.2: the retreats the judge chooses
``action.py``       :func:`~.action.adjudicate`: F.1 and F.2, sieges, rebellions ended, control
``results.py``      the results, each with its :class:`~.results.Reason` (one per rule)
==================  ===========================================================================

The rules checklist (machiavelli.md section 4) rows this stage covers
----------------------------------------------------------------------

Tests are in ``tests/games/machiavelli/``: ``test_board``, ``test_position``, ``test_examples``
(AoP Examples 1 to 4), ``test_rulings`` (one or more per ruling, named with its number),
``test_reused_core`` (the DATC-like situations) and ``test_properties`` (Hypothesis).

* 1.3 stacking (province and city places, one unit in Venice) — ``position``, ``board``,
  ``operations``, ``retreats``; test_position, the M14/M15/M57 tests, test_properties.
* 3 (data) the board and its start — ``boards/classic.json``, ``board``; test_board.
* 4.1 control, updated after F.2 (M5) — ``position`` (:meth:`~.position.Position.controller`),
  ``action``; test_position, test_M5_*, test_M56_*.
* 8.2 operation orders: bribed units obey their new owner, impossible orders hold — ``operations``;
  test_8_2_*, test_M50_*, test_M33_*, test_M39_*.
* 9.2 Hold, and a given Hold putting a rebellion down (M45) — ``action``; test_M45_*, test_M20_*.
* 9.3 Advance, transport along fleets in seas and coastal provinces, coasts, straits (M17, M24,
  M51, M55) — ``operations``, ``resolution``; test_M17_*, test_M24_*, test_M51_*, test_M55_*.
* 9.4 Besiege (M22, M47, M39) — ``operations``, ``action``; test_M22_*, test_M39_*, test_M18_*siege*.
* 9.5 Support of an area for a player (M18, M19) — ``operations``, ``resolution``; test_M18_*,
  test_M19_*, the examples.
* 9.6 Transport (M24) — ``operations``; test_M24_*.
* 9.7 Convert (M23, M43) — ``operations``, ``resolution``, ``action``; test_M23_*, test_M43_*,
  Example 2.
* 10 (its effect on F) the assassinated player's units hold (M20) — ``operations``; test_M20_*.
* 11 (its part in F) automatic support (M44), put down by a given Hold (M45), liberation (M56) —
  ``resolution``, ``action``; test_M44_*, test_M45_*, test_M56_*, test_M15_*.
* 13.1 to 13.4 strength, cutting (M25), standoffs, friendly conflicts (M26) — ``resolution``,
  ``operations``; Examples 1 to 3, test_M25_*, test_M26_*, test_reused_core.
* 13.5 retreats (M28, M41, M42, M43, M52) — ``retreats``, ``preference``; Examples 1 and 2,
  test_M28_*, test_M41_*, test_M42_*, test_M52_*, test_properties.
* 13.6 cycles (M27) — ``resolution``; Example 4, test_M27_*.
* 14 Venice, its movement (M14, M15, M57) — ``operations``, ``resolution``, ``action``; test_M14_*,
  test_M15_*, test_M57_*.
* 16 independents, their movement (M33, M39, M44) — ``operations``, ``resolution``, ``retreats``;
  test_M33_*, test_M39_*, test_M44_*, test_M28_an_independent_*.

Not in this stage: chapters 2, 4.2 to 4.4, 5 to 7, 8.1, 10 to 12 (but their effects on F), 15, 16's A.1
spring-up, 17 and 18; and AoP's own board (the next data file).

Readings where the documents are silent (each written where its code is)
------------------------------------------------------------------------

* A unit forced to retreat prevents no other attack on its target, as it cuts no support (13.5's
  cancelled order; Example 3) — ``resolution``.
* M43 applies whenever another attack wins the province of a converting garrison (Example 2's
  third case); only an equal attack stands the conversion off — ``resolution``.
* M27's "totally symmetric": two outcomes, neither containing the other's given supports and
  winning attacks; more than two, or none, is a standoff too — ``resolution``.
* An army or fleet supports only into an area it could advance into (not its own); a garrison's
  Hold is no supportable operation (nobody can attack a city) — ``operations``.
* A route the board cannot carry is an impossible order; a route whose fleets do not transport for
  the army's owner is an advance that fails (its target counts as attacked, M42); two of one
  owner's armies routed through one fleet both fail; the straits permission a transport needs is
  the army owner's — ``operations``.
* A strait is controlled by the owner of a *fleet* in its controlling area (an army there controls
  nothing); an independent fleet closes it to all — ``operations``.
* A non-victim's retreat into a rebelling province liberates it (13.5: a retreat is "one
  advance"); no retreat by conversion into the city of a rebelling province — ``action``,
  ``retreats``.
* Appendix A reads control as F began (M5), garrisons as F.1 left them; subcategory 3 is "in
  another living player's current home country"; distances are counted between areas in the
  unit's move graph (coasts merged) — ``preference``.
* Venice: every attack on it comes from the Lagoon (its only neighbour), transported armies
  included; the besieging force against a converting garrison is the besieger and the supports
  given into Venice for its owner — ``resolution``.
* A garrison's conversion is an attack in M44's "exactly one player advances" count (13.1) —
  ``resolution``.
"""
