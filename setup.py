"""Build script.  By default the judge builds as pure Python (every setting is in pyproject.toml).

``JUDGE_COMPILE=1`` builds the optional compiled wheel: the engine and the Payola core (both
mypy-strict, pure and free of I/O) compiled to C extensions with mypyc, for speed.  That needs a
C compiler and mypy installed beside setuptools, and pip's ``--no-build-isolation``; see
docs/operators/files.md.  The compiled modules behave as the Python ones do and are tested as such in CI.
"""

import os
from pathlib import Path

from setuptools import setup


def core_modules() -> list[str]:
    """The engine's and the Payola core's modules (the package markers stay Python)."""
    return sorted(
        str(path) for folder in ("judge/engine", "judge/payola") for path in Path(folder).glob("*.py")
        if path.name != "__init__.py"
    )


if os.environ.get("JUDGE_COMPILE") == "1":
    from mypyc.build import mypycify

    setup(ext_modules=mypycify(core_modules(), opt_level="3", group_name="judge_core"))
else:
    setup()
