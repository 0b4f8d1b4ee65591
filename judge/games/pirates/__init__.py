"""Pirates' Proposal's edges on the host: the plug (`kind`), the match's life and mails
(`lifecycle`), its commands (`handlers`) and its page (`pages`).  Its rules core is
`judge.pirates`; it knows nothing of Payola, nor Payola of it."""
