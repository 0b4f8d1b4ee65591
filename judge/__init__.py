"""A mail judge for Payola Diplomacy."""


def core_build() -> str:
    """How the engine and the Payola core run here: as the optional compiled build (mypyc
    extension modules, see setup.py) or as pure Python."""
    from importlib.machinery import EXTENSION_SUFFIXES

    from judge.engine import resolver

    compiled = (resolver.__file__ or "").endswith(tuple(EXTENSION_SUFFIXES))
    return "compiled (mypyc)" if compiled else "pure Python"
