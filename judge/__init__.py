"""A mail judge for Payola Diplomacy."""


def core_build() -> str:
    """How the engine and the Payola core run here: as the optional compiled build (mypyc
    extension modules, see setup.py) or as pure Python."""
    from judge.engine import resolver

    return "pure Python" if resolver.__file__.endswith(".py") else "compiled (mypyc)"
