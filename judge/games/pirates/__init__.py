"""Pirates' Proposal's edges on the host: the plug (`kind`), the match's life and mails
(`lifecycle`), its commands (`handlers`), its page (`pages`) and its script for ``judge demo
--pirates`` (`demo`).  Its rules core is `judge.games.pirates.core`; it knows nothing of Payola, nor Payola
of it."""
