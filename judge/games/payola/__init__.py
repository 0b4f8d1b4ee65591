"""Payola Diplomacy's edges on the host: the plug (`kind`), its life and processing
(`lifecycle`), its commands (`commands`: the grammar; `handlers`, `submissions`: acting on them),
what each reader sees (`views`, `public`), its maps and pages (`maps`, `pages`) and its script
for ``judge demo`` (`demo`).  Its rules cores are `judge.engine` and `judge.payola`."""
