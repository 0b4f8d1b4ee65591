"""Payola Diplomacy's edges on the host: the plug (`kind`), its life and processing
(`lifecycle`), its commands (`commands`: the grammar; `handlers`, `submissions`: acting on them),
what each reader sees (`views`, `public`) and its maps and pages (`maps`, `pages`).  Its rules
cores are `judge.engine` and `judge.payola`."""
