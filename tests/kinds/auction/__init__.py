"""A sealed-bid auction: the minimal example of a kind of game, in one folder, on the host's API alone.

Each player starts with coins; the lots are sold one a phase (``L1``, ``L2``, ...): every player
sends one sealed ``BID n``, the highest bid buys the lot at its price (a tie goes to the seat first in
the game's order), and once every lot is sold the player with the most lots wins (the most coins
left breaks a tie).  Bids are secret until the game ends; each lot's buyer and price are public.

It is what ``docs/architecture/new-kind.md`` walks through: `core` is the pure rules, `kind` the plug
between them and the host (`judge.api`), ``templates/`` its mails and page.  The suite registers it
beside the judge's own kinds with one line (`tests.kinds.registry`) and plays it through the kinds'
conformance suite (``tests/kinds/test_conformance.py``).
"""
