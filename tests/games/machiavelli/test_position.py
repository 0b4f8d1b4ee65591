"""The position model: places, control as AoP 4.1 reads the markers, seasons."""

from __future__ import annotations

import pytest

from judge.games.machiavelli.core.position import (
    Campaign,
    Independent,
    Owner,
    Place,
    Position,
    Season,
    Unit,
    UnitKind,
    owner_key,
)

SPRING = Season(1454, Campaign.SPRING)


def A(owner: Owner, area: str) -> Unit:
    return Unit(UnitKind.ARMY, owner, area)


def F(owner: Owner, area: str) -> Unit:
    return Unit(UnitKind.FLEET, owner, area)


def G(owner: Owner, area: str) -> Unit:
    return Unit(UnitKind.GARRISON, owner, area)


def position(*units: Unit, control: dict[str, Owner] | None = None,
             rebellions: dict[str, Owner] | None = None) -> Position:
    return Position.build(SPRING, units, control=control, rebellions=rebellions)


def test_a_garrison_stands_in_the_city_beside_an_army_in_the_province() -> None:
    start = position(A("Venice", "pad"), G("Milan", "pad"))
    assert start.province_unit("pad") == A("Venice", "pad")
    assert start.garrison("pad") == G("Milan", "pad")
    assert start.unit_at(Place("pad", city=True)) == G("Milan", "pad")


def test_two_units_in_one_place_are_refused() -> None:
    with pytest.raises(ValueError):
        position(A("Venice", "pad"), F("Milan", "pad"))


def test_4_1_army_and_garrison_of_different_owners_leave_province_and_city_to_nobody() -> None:
    start = position(A("Venice", "pad"), G("Milan", "pad"), control={"pad": "Venice"})
    assert start.split("pad")
    assert start.controller("pad") is None and start.city_controller("pad") is None


def test_4_1_a_garrison_controls_its_city_in_a_rebelling_province() -> None:
    start = position(G("Venice", "pad"), control={"pad": "Venice"}, rebellions={"pad": "Venice"})
    assert start.controller("pad") is None
    assert start.city_controller("pad") == "Venice"
    assert not start.city_rebelling("pad")
    ungarrisoned = position(control={"pad": "Venice"}, rebellions={"pad": "Venice"})
    assert ungarrisoned.city_controller("pad") is None and ungarrisoned.city_rebelling("pad")


def test_4_1_the_marker_names_the_last_sole_occupant_and_a_sea_only_its_fleet() -> None:
    start = position(F("Turkey", "ion"), control={"pad": "Venice", "fer": Independent("fer")})
    assert start.controller("pad") == "Venice" and start.controller("fer") == Independent("fer")
    assert start.sea_controller("ion") == "Turkey" and start.sea_controller("las") is None


def test_seasons_run_spring_summer_fall_then_the_next_spring() -> None:
    assert SPRING.next() == Season(1454, Campaign.SUMMER)
    assert SPRING.next().next() == Season(1454, Campaign.FALL)
    assert SPRING.next().next().next() == Season(1455, Campaign.SPRING)
    assert str(Season(1459, Campaign.FALL)) == "Fall 1459"
    assert Season(1454, Campaign.FALL).sort_key() < Season(1455, Campaign.SPRING).sort_key()


def test_units_by_owner_and_owners_in_order() -> None:
    start = position(A("Venice", "pad"), G("Venice", "pad"), A(Independent("man"), "man"))
    assert start.units_of("Venice") == (A("Venice", "pad"), G("Venice", "pad"))
    assert sorted([Independent("man"), "Venice", "Milan"], key=owner_key) == ["Milan", "Venice", Independent("man")]
    assert start.home_countries("Venice") == frozenset()


def test_a_position_is_a_frozen_value() -> None:
    start = position(A("Venice", "pad"))
    moved = start.with_units([A("Venice", "vic")])
    assert start.province_unit("pad") is not None and moved.province_unit("vic") is not None
    assert moved == Position.build(SPRING, [A("Venice", "vic")])
    with pytest.raises(TypeError):
        start.control["pad"] = "Venice"  # type: ignore[index]
