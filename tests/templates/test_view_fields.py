"""How templates read a view's fields (`judge.service.templates.ViewEnvironment`): as Jinja2 reads them, sooner."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jinja2 import Environment, StrictUndefined, UndefinedError

from judge.service.templates import ViewEnvironment, environment

_NAMES = st.sampled_from(["power", "order", "items", "get", "keys", "values", "__class__", "__len__", "copy",
                          "missing", "units"])


def _read(env: Environment, obj: Any, name: str) -> Any:
    """What ``env`` gives a template for ``obj.name``: the value, or that it is undefined."""
    found = env.getattr(obj, name)
    return ("undefined", name) if isinstance(found, StrictUndefined) else found


@given(st.dictionaries(_NAMES, st.integers()), _NAMES)
def test_a_views_field_reads_as_jinja2_reads_it(view: dict[str, int], name: str) -> None:
    """A dict's key, a dict's method whether or not a key has its name, a missing field: what the judge's
    environment gives is what Jinja2's own gives."""
    assert _read(ViewEnvironment(undefined=StrictUndefined), view, name) == \
        _read(Environment(undefined=StrictUndefined), view, name)


def test_a_dicts_methods_stay_its_methods_in_the_mails_templates() -> None:
    """A view with a key named ``items`` or ``get`` still has its methods called in a template; a field it
    lacks is an error, as StrictUndefined makes it."""
    template = environment().from_string("{{ view.get('power') }} {% for k, v in view.items() %}{{ k }}{% endfor %}"
                                         " {{ view.power }}")
    assert template.render(view={"power": "FRANCE", "items": 3, "get": 4}) == "FRANCE poweritemsget FRANCE"
    with pytest.raises(UndefinedError):
        environment().from_string("{{ view.order }}").render(view={"power": "FRANCE"})
