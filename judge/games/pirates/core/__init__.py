"""Pirates' Proposal: the rules core (pure, like `judge.payola`).

`match` holds the match and its phases, `commands` reads a player's mail and checks it against
the match, `views` says what each reader may see and when, `notation` turns the match and a
phase's submissions into plain JSON-ready data and back.
"""
