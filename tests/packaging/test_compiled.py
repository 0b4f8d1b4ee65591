"""The optional compiled build (setup.py, ``JUDGE_COMPILE=1``): CI installs that wheel into a fresh
virtual environment and runs the core's tests against it from a copy of the tests, with
``JUDGE_TEST_COMPILED=1``.  This test makes sure that run really exercised compiled modules, not
Python sources that crept in beside them."""

from __future__ import annotations

import importlib
import os
import pkgutil

import pytest

import judge
import judge.engine
import judge.payola

pytestmark = pytest.mark.skipif(not os.environ.get("JUDGE_TEST_COMPILED"),
                                reason="checks the compiled build: CI sets JUDGE_TEST_COMPILED=1 where it installed it")


def test_every_core_module_is_an_extension_module() -> None:
    assert judge.core_build() == "compiled (mypyc)"
    names = [f"{package.__name__}.{info.name}" for package in (judge.engine, judge.payola)
             for info in pkgutil.iter_modules(package.__path__) if not info.ispkg]
    assert len(names) >= 20  # the engine's and the Payola core's modules
    pure = [name for name in names if (importlib.import_module(name).__file__ or "").endswith(".py")]
    assert pure == []
