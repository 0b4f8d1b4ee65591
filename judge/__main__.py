"""``python -m judge``: the ``judge`` command."""

import sys

from judge.bootstrap import main

sys.exit(main())
