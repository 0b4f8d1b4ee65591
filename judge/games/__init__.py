"""The games the judge hosts: one folder per kind of game (``payola``, ``pirates``, ...), each with
its rules core (``core/``, or a library it shares: `judge.engine`, `judge.payola`), its edges by
mail, its pages, templates and command line.  Each is a `judge.service.hosting.kinds.GameKind`, the
contract the host defines; the composition root (`judge.bootstrap`) lists them.  No kind imports
another, and the host imports none (the import contracts of ``.importlinter``)."""
