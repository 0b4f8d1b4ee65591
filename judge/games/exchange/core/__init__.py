"""Exchange Payola's rules core: pure values in, values out (no database, mail or clock; chance only
from a seed passed in).  The rules are Payola rule 6.8 as the project's rulings E1-E41 read it
(``exchange-payola.md``), with the Payola rules and rulings where those do not amend them.

The modules:

- :mod:`.state`: the game as a frozen value (investors and their order, purses and treasuries,
  the share register, CEOs, acceptance lists, the year's worths, ledgers, the money counts),
  and its opening.
- :mod:`.options`: the game's settings (INVESTORS, SHARES, FUNDS) and the Payola variations it
  plays or refuses, with why.
- :mod:`.income`: I(n), default worths, a corporation's income.
- :mod:`.zerosum`: the ZEROSUM reading (6.7): bribes owed to the bribed unit's corporation and
  the captures' money, settled at the Income step.
- :mod:`.sheet`: the value types a parsed sheet is made of, and :func:`.sheet.check`.
- :mod:`.exchange` (with :mod:`.books`, :mod:`.market`, :mod:`.elections`, :mod:`.record`): the
  Exchange phase, :func:`.exchange.run_exchange`.
- :mod:`.year`: movement (Payola's determination, the engine's adjudication), retreats and
  adjustments, the Income step, the end: :func:`.year.run_movement`, :func:`.year.run_orders`,
  :func:`.year.run_income`, :func:`.year.end_game`.
- :mod:`.accounts`: what acts when it comes: transfers, acceptance lists, resignations.
- :mod:`.phases`: which step comes next, its name, and whose submission it waits for.
- :mod:`.scoring`: the ranking by % control.
- :mod:`.views`: what each reader may see (X.11), one function per reader and moment.

The seams.  The mail edge turns text into :mod:`.sheet` values (and offer lines into Payola's
``OfferSheet`` with Payola's reader, the investor's name or the corporation as the power), keeps
each investor's last valid sheet (:func:`.sheet.standing`), and renders :mod:`.views`.  The host
keeps the state and the records, runs the step :func:`.phases.step` names at its deadline (or
when :func:`.phases.complete`), and publishes everything at the end (E41).

Where each ruling lives, and the test that holds it (``tests/games/exchange/``; the worked year
of section 3 is ``test_worked_year.py``, the properties ``test_properties.py``):

=====  =============================  ==============================================================
E1     state.name_problem, options    test_investors_and_money: test_E1_*
E2     year.determination_inputs,     test_investors_and_money: test_E2_*; test_ceo:
       exchange (E9 float, dividend)  test_E20_retreats_and_adjustments_not_ordered_*
E3     state (purses, treasuries)     test_investors_and_money: test_E3_*; test_properties
E4     options.default_funds,         test_investors_and_money: test_E4_*
       state.opening
E5     accounts.transfer              test_investors_and_money: test_E5_*
E6     exchange (priority), year      test_investors_and_money: test_E6_*; test_properties
E7     state.opening, options         test_stock: test_E7_*
E8     market                         test_stock: test_E8_*; test_worked_year 3.2, 3.7
E9     exchange (the book), market    test_stock: test_E9_*
E10    exchange (step d)              test_stock: test_E10_*; test_worked_year 3.7
E11    exchange (step e), sheet       test_stock: test_E11_*; test_worked_year 3.7
E12    market, sheet                  test_stock: test_E12_*
E13    sheet.Quantity, market         test_stock: test_E13_*
E14    elections.cast, exchange       test_elections: test_E14_*
E15    elections.elect, sheet         test_elections: test_E15_*
E16    elections.cast                 test_elections: test_E16_*
E17    elections.elect                test_elections: test_E17_*; test_worked_year 3.2, 3.7
E18    elections.elect                test_elections: test_E18_*
E19    accounts.resign, views         test_elections: test_E19_*
E20    phases.expected, year          test_ceo: test_E20_*
E21    sheet.check, accounts          test_ceo: test_E21_*
E22    sheet.worth_problems,          test_ceo: test_E22_*; test_options: test_E22_*;
       income.default_worths, year    test_worked_year 3.3, 3.6
E23    exchange (step b), sheet       test_ceo: test_E23_*; test_worked_year 3.7
E24    exchange (step i), views       test_ceo: test_E24_*
E25    year (Payola's reader)         test_offers_and_income: test_E25_*
E26    year.determination_inputs,     test_offers_and_income: test_E26_*; tests/payola/test_outsiders
       judge.payola.determination
E27    income.corporate_income, year  test_offers_and_income: test_E27_*; test_worked_year 3.6
E28    year.run_income                test_offers_and_income: test_E28_*
E29    phases, sheet, exchange        test_phases: test_E29_*
E30    exchange (step c), state       test_phases: test_E30_*; test_worked_year 3.2
E31    exchange (step a), year        test_elimination_and_end: test_E31_*; test_properties
E32    accounts.resign                test_elimination_and_end: test_E32_*
E33    market, Payola's rule 5.5      test_elimination_and_end: test_E33_*; test_stock: test_E8_*
E34    year (_after_board, end_game)  test_elimination_and_end: test_E34_*
E35    scoring                        test_elimination_and_end: test_E35_*
E36    views.public_exchange,         test_secrecy: test_E36_*; test_properties: test_E36_E40_*
       views.public_board
E37    views.annual_report            test_secrecy: test_E37_*
E38    views.ceo_view,                test_secrecy: test_E38_*; test_ceo: test_E24_*
       views.corporate_statement
E39    views.exchange_statement,      test_secrecy: test_E39_*
       views.offers_statement
E40    views                          test_secrecy: test_E40_*; test_properties: test_E40_*
E41    record (every line answered)   test_secrecy: test_E41_*
=====  =============================  ==============================================================
"""
