"""A mail judge for Payola Diplomacy."""

__version__ = "0.4.0"  # each release bumps it (pyproject.toml reads it from here)


def core_build() -> str:
    """How the engine and the Payola core run here: as the optional compiled build (mypyc
    extension modules, see setup.py) or as pure Python."""
    from importlib.machinery import EXTENSION_SUFFIXES
    from importlib.util import find_spec

    found = find_spec("judge.engine.resolver")  # where it would load from: nothing of it is run
    compiled = ((found.origin if found is not None else None) or "").endswith(tuple(EXTENSION_SUFFIXES))
    return "compiled (mypyc)" if compiled else "pure Python"
