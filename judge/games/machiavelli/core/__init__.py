"""The pure rules core of Machiavelli in the variant *Absence of Plague* (AoP): frozen values in,
values out — no I/O, no clock, no database, no mail, no randomness.  The board, the position,
the economy and the campaign: :func:`~.spring.spring_letter` carries out a spring's A letters,
:func:`~.campaign.campaign` a campaign's C letters (phases C to F and the end of the campaign),
:func:`~.campaign.expected_letters` says whom the judge waits for, :func:`~.syntax.parse_letter`
reads a letter, and :mod:`~.notation` is the JSON contract (the ``judge machiavelli``
subcommand of :mod:`judge.games.machiavelli.cli`).  ``adjudicate`` (phase F) takes phase D's
effects as plain values (:class:`~.orders.PhaseD`).

The map of the package
----------------------

===================  ===========================================================================
``boards/*.json``    the boards as data: ``classic.json`` is the classic 1454 board, with AoP's
                     economy (trade incomes, victory, the Pope, the first spring); ``aop.json``
                     is AoP's own board of 102 areas (a reconstruction, machiavelli.md 3) and
                     its 1459 scenario (AoP 3)
``board.py``         the loader and the frozen :class:`~.board.Board` (areas, cities, coasts,
                     adjacency, straits and their passages, Venice's lagoon, the one-unit places
                     and the islands for fleets only, the sea order, the start, the economy)
``position.py``      the frozen :class:`~.position.Position`: units in province and city places,
                     owners and independents, control markers, rebellions, sieges, treasuries,
                     home countries, the season, the letter awaited, the anticipated treasuries,
                     the excommunications
``orders.py``        the six operation orders, permissions, phase D's effects
``operations.py``    who obeys whom; legality (an impossible order is a Hold with its reason);
                     friendly conflicts; transports; which unit each support helps
``resolution.py``    F.1's decisions: attacks, supports, transports, cycles (three-valued)
``preference.py``    Appendix A, the Area Preference List
``retreats.py``      F.2: the retreats the judge chooses
``action.py``        :func:`~.action.adjudicate`: F.1 and F.2, sieges, rebellions ended, control
``results.py``       the results, each with its :class:`~.results.Reason` (one per rule)
``expenditures.py``  the orders of a letter beyond the operations: A orders and expenditures
``ledger.py``        the treasuries' books: movements of ducats by flow, orders' outcomes
``income.py``        A.2's tax and trade income, forced taxation, a province's price
``spring.py``        phase A: A.1 and A.2 (:func:`~.spring.spring_opening`), A.4 to A.7
``expense.py``       phases D (D.1 to D.4) and E
``existence.py``     AoP 4 at the end of a campaign: conquest, elimination, victory, ranking
``campaign.py``      the sequencer, the letters awaited and their defaults, what is published
``syntax.py``        the letters' syntax: :func:`~.syntax.parse_letter` (the players' reference)
``review.py``        what a letter will do that its writer may still correct (17.1): the warnings
                     of its acknowledgment
``notation.py``      the JSON contract: a phase's request in, its record out, positions both ways
===================  ===========================================================================

The rules checklist (machiavelli.md section 4)
----------------------------------------------

Each row, with the modules that carry it out and the tests that hold it, in
``tests/games/machiavelli/``: ``test_board``, ``test_position``, ``test_examples`` (AoP Examples 1
to 4), ``test_rulings`` (the Action phase's rulings), ``test_reused_core`` (DATC-like situations),
``test_properties`` (Hypothesis, phase F), ``test_spring`` (phase A and income), ``test_expenditures``
(phases D and E), ``test_campaign`` (the sequencer, AoP 4, Example 5), ``test_syntax``,
``test_notation`` (JSON and the subcommand), ``test_money`` (Hypothesis: money and units over
random seasons), ``test_aop_board`` (AoP's board and its 1459 start against the documents),
``test_aop_play`` (the rules on AoP's board: Examples 5 and 6, a first spring and its campaign,
its islands and straits) and ``test_review`` (a letter's warnings).  A test is named with the
chapter or ruling it holds.

* 1.3 stacking (province and city places, one unit in Venice, Lipari, Pantelleria and Lampedusa,
  the three islands a fleet's or a rebellion's only) — ``position``, ``board``, ``operations``,
  ``retreats``, ``spring`` (raising), ``notation``; test_position, the M14/M15/M57 tests,
  test_M13_*, test_properties, test_money, test_aop_play's test_1_3_*, test_M15_*, test_11_1_*.
* 2 the phases and campaigns, sub-phases in order, orders as written, paid in full or skipped —
  ``campaign``, ``spring``, ``expense``, ``ledger``; test_2_*, test_3_*, test_M30_*, test_M31_*,
  test_money.
* 3 the start (data): at A.3, 15 ducats, at most 3 units raised — ``boards/classic.json``,
  ``boards/aop.json`` (AoP's own: thirteen players, their home countries and cities, Savoy's
  Pontremoli, the twelve independent garrisons, the three neutral cities; the tax figures as M1
  reads them), ``board``, ``spring``; test_board, test_3_*, test_M48_*, test_aop_board
  (test_3_*, test_M1_*, test_M2_*), test_aop_play (test_3_M48_*, test_6_M2_*).
* The boards' map facts (AoP 1, 9.3, 14, 17, App. A; machiavelli.md 3.1 to 3.4; M1 to M4, M15 to
  M17, M49) — ``boards/aop.json``, ``board``; test_board, test_aop_board.
* 4.1 control, updated after F.2, by trades, bribes, rebellions, spring-ups and eliminations (M5)
  — ``position``, ``action``, ``spring``, ``expense``, ``existence``; test_position, test_M5_*,
  test_M10_*, test_M39_a_bought_unit_*, test_M46_*, test_M56_*, test_M34_*.
* 4.2 victory and ranking (M6, M7), and the end by agreement (M64) — ``existence``; test_M6_*,
  test_4_2_*, test_M64_*.
* 4.3 elimination (M8, M34), and by leaving with no substitute leader (18.3, M62) —
  ``existence``; test_M8_*, test_M34_*, test_M9_controlling_*, test_M62_*.
* 4.4 conquest of home countries (M9) — ``existence``; test_M9_*.
* 5.1 tax income (M47, M53, M14) — ``income``, ``spring``; test_5_1_*, test_M47_*, test_M53_*,
  test_M14_venice_*, test_11_2_*, test_A2_*.
* 5.2 trade income (M29) — ``income``, board data; test_5_1_*, test_M29_*.
* 5.3 forced taxation (M11) — ``income``, ``spring``; test_M11_*.
* 6 trading provinces (M10) — ``spring``, ``income``; test_M10_*.
* 7 payments and raising (M12, M13, M48, M52) — ``spring``; test_M12_*, test_M13_*, test_7_2_*,
  test_M30_payments_*, test_M48_*, test_M52_*, test_8_1_a_second_payment_*.
* 8.1 expenditure validation: illegal, impossible, unclear or contradictory orders neither carried
  out nor charged; orders nullified by counter-orders charged; no partial payment; steps of 3
  (M30, M37, M38) — ``expense``, ``spring``, ``ledger``; test_M30_*, test_M38_*, test_8_1_*,
  test_M21_no_rebellion_*.
* 8.2 operation orders: bribed units obey their new owner, impossible orders hold — ``operations``;
  test_8_2_*, test_M50_*, test_M33_*, test_M39_*.
* 9.2 to 9.7, 13.1 to 13.6 the Action phase — ``operations``, ``resolution``, ``action``,
  ``retreats``, ``preference``; test_rulings, test_examples, test_reused_core, test_properties
  (see stage 1's notes below); on AoP's board its straits (Piombino, Messina with the passage
  along Calabria, Bonifacio: 9.3, 13.5, M17) and Examples 5 and 6 — test_aop_play.
* 10 assassination and bodyguards, their effects (M20, M40), the victim's orders undisclosed
  (M61) — ``expense`` (D.2, E), ``operations``; test_M20_*, test_M40_*, test_M61_*.
* 11 rebellions: their price and raising (M21), pacification, forced taxation's, the assassination's
  and the spring-up's ends, automatic support (M44), putting down (M45), liberation (M56) —
  ``expense``, ``spring``, ``resolution``, ``action``; test_M21_*, test_M44_*, test_M45_*, test_M46_*,
  test_M56_*, test_M11_*.
* 12 bribes and counter-bribes: reach (M36, M51, M17e), minimums, the comparison (M37), charging
  (M38), effects (M39), independents (M54) — ``expense``; test_12_*, test_M36_*, test_M37_*,
  test_M38_*, test_M39_*, test_M51_*, test_M54_*, test_M17_a_strait_closed_*.
* 14 Venice: its income (M14), its movement (M14, M15, M57) — ``income``, ``operations``,
  ``resolution``, ``action``; test_M14_*, test_M15_*, test_M57_*; on AoP's board Ferrara on the
  Lagoon — test_aop_play's test_14_*.
* 15 excommunication (M32) — ``spring`` (A.7 and C.2), ``expense`` (transfers blocked),
  ``campaign``, ``existence`` (the Pope eliminated); test_M32_*, test_15_*.
* 16 independents: A.1 spring-up (M46), self-maintained, bribed (M33, M39, M54), elimination's (M34)
  — ``spring``, ``expense``, ``existence``, ``operations``; test_M46_*, test_M33_*, test_M39_*,
  test_M54_*, test_M34_*.
* 17 to 18 the letters: their syntax (M49), defaults when missing (17.2, M50), who is expected
  (18.2), the warnings that come while a correction is possible (17.1) — ``syntax``,
  ``campaign``, ``review``; test_syntax, test_M50_*, test_18_2_*, test_review.  The mail layer's
  part (M35: one correction, transfers irrevocable; every line answered; deadlines; secrecy;
  leaving, M62; votes, M64; BORDERS) is the mail edge's, ``judge.games.machiavelli``
  (``handlers``, ``lifecycle``, ``views``) — test_by_mail (test_M35_*, test_M50_*, test_8_1_*,
  test_18_1_*, test_18_3_*), test_secrecy_by_mail, test_rulings_by_mail (M36, M61, M62, M64, the
  warnings, BORDERS, a siege's report), test_aop_season_by_smtp (thirteen players' first spring
  and campaigns by SMTP, to the ducat).

Not here: the mail edge and the ``judge machiavelli`` tool (``judge.games.machiavelli``), the
boards' drawings.  Speed: ``bench/machiavelli_bench.py`` (a classic campaign and a crowded AoP one).


Readings of the economy where the documents are silent (each written where its code is)
---------------------------------------------------------------------------------------

* A sub-phase is simultaneous: what a player receives from another (A.4, A.5, D.1) counts once
  the sub-phase is over, so it is spent in the later sub-phases of the letter (M31) —
  ``ledger``; and A.7's checks read the board as A.7 began — ``spring``.
* A.1 and A.2 need no letter: they are carried out when the Fall campaign ends, so that A.2's
  publication goes out with the Fall's results; the first spring has neither (AoP 3) —
  ``spring``, ``campaign``.
* An order is checked before it is paid: an illegal order is reported illegal, and costs nothing,
  even when it could not be paid either — ``expense``, ``spring``.
* An order repeating one of the same kind on the same target in one letter contradicts it, and is
  neither carried out nor charged (8.1; AoP 2 forbids alternative orders) — ``expense``, ``spring``.
* D.3: every pacification is paid before any rebellion, whatever the letter's order (M21 over
  M30); a rebellion's amount may be left out, and if written must be its price — ``expense``.
* A bribe lacking a third player's permission is charged, fails, and takes no part in the
  comparison of bribes; tied Disband bribes are still checked against the counter-bribes; of two
  units of one area made independent at once, the second bribe fails and is charged — ``expense``.
* Bribe adjacency: neighbouring areas by army or fleet; a garrison alone in its province is
  adjacent to its neighbours' units as any unit is (M36 revised), two such garrisons in
  neighbouring provinces to each other too; a strait closed to the briber (no ``allow ...
  straits``) cuts it; any change of owner by bribery — bought or made independent — liberates a
  rebelling province — ``expense``.
* Excommunication blocks the price of a trade too; the Pope lays one excommunication a letter;
  a ban ends with the Phase F of the season it names, or with the first phase A after it was
  laid, whichever comes first — ``spring``, ``campaign``.
* Forced taxation needs the rebellion it causes to be placeable: a one-unit island only empty —
  ``spring``.
* A.7: units not listed are disbanded only once the player writes any A.7 order; no unit is raised
  in a province where one of the player's units is disbanded this A.7 (unlisted, dismissed, or not
  paid earlier in the list) — ``spring``.
* M9's "the same test as M8, per home country": a home country every city of which other players
  control is lost; a player left with none is eliminated — ``existence``.  Of an eliminated
  player's garrison and army or fleet in one area, the garrison becomes the independent unit.
* Ranking's "tax income which would be currently collected" is 5.1's tax, trade left out; the
  winners are those who met the condition with the best rank among them — ``existence``.
* The anticipated treasuries move with public information only: incomes, forced taxes, salaries
  and new units — ``spring``.
* The classic board plays AoP's economy: trade incomes by AoP 5.2's power names, victory at 15 (12
  from Spring 1465) cities, the Papacy's leader the Pope, 15 ducats and at most 3 units raised in
  the first spring — ``boards/classic.json``.
* A missing C letter is no order at all (units hold without a *given* Hold, M45) — ``campaign``;
  a letter from a player no longer in the game is set aside — ``spring``, ``campaign``.
* The syntax: a word of three letters or more names the one area whose name it begins; ``disband``
  with an amount is a bribe, without one an A.7 order; ``pay`` with ``to`` is a transfer — ``syntax``.
* JSON: a living player a position leaves out of ``homes`` holds its own home country;
  ``anticipated`` left out is the treasuries — ``notation``.

Readings of the Action phase where the documents are silent (each written where its code is)
-------------------------------------------------------------------------------------------

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

Readings of AoP's board where the documents are silent (written in ``boards/aop.json``'s note,
or where the code is)
-------------------------------------------------------------------------------------------

* Codes are the board's own, three letters from the AoP name (``niz`` Nizza, ``zar`` Zara,
  ``kal`` Kalabria, ``vnt`` Ventimiglia), not the classic codes a renamed area had (``sav``, the
  classic Savoy, would read as AoP's Savoia); each area's ``source`` names its classic code.
  Canonical names: chapter 3's for the land, Appendix A's for the seas — ``boards/aop.json``.
* The Holy Roman Empire plays by that name (chapter 3: "Holy Roman Empire (Austria)"), which the
  judge writes wherever it names the power; a letter or a mail may also call it ``Austria``,
  ``HRE`` or ``Empire`` (the board's ``power_aliases``), or write its words joined —
  ``boards/aop.json``, ``board``, ``syntax``.
* Messina's strait closes a *transport* along Calabria from its Tyrrhenian side (Bay of Naples,
  Salerno) to its Ionian side (Ionian Sea, Otranto) (9.3; M17(b)'s "transport or support chain":
  a support passes no area between, so only transports are closed) — ``board``, ``operations``.
* Venice's rule (14: a superior attack from the Lagoon makes its army or fleet a garrison, the
  attacker staying) is Venice's alone: on the other one-unit islands a beaten fleet retreats and
  the attacker enters — ``resolution``.
* An army never stands on an island for fleets: the loader refuses any army edge to one, the
  raising (``FLEETS_ONLY``), a transport onto one (``ISLAND_FOR_FLEETS``) and a JSON position
  with such an army are refused; an army may pass through a fleet on one (M15) — ``board``,
  ``spring``, ``operations``, ``notation``.
* The signed-off 3.4 keeps the classic Otranto-Salerno fleet edge; with Calabria between them it
  is a Tyrrhenian-Ionian passage no strait controls.  Left as signed off.
"""
