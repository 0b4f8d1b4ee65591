"""Convoy routes per position, against brute force over sets of fleets."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from judge.engine.convoys import ConvoyNetwork, route_exists
from judge.engine.map import Terrain, load_map

M = load_map("standard")
SEAS = sorted(p for p, prov in M.provinces.items() if prov.terrain is Terrain.SEA)
COASTS = sorted(M.coastal)


def minimal_sets(start: str, dest: str, fleets: frozenset[str]) -> list[frozenset[str]]:
    """Every set of fleets that can convoy start to dest and has no smaller subset that can (DATC 6.G.19)."""
    linking = [
        frozenset(chosen)
        for size in range(1, len(fleets) + 1)
        for chosen in combinations(sorted(fleets), size)
        if route_exists(M, start, dest, chosen)
    ]
    return [s for s in linking if not any(other < s for other in linking)]


@pytest.mark.parametrize("seed", range(8))
def test_minimal_routes_and_destinations_match_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    # A cluster of fleets grown sea by sea, so that there are several routes, some long.
    fleets = {rng.choice(["NTH", "MAO", "ION", "TYS", "ENG"])}
    while len(fleets) < 8:
        fleets.add(rng.choice(sorted(n for s in fleets for n in M.sea_neighbours(s))))
    fleets.add(rng.choice(SEAS))  # and one that may stand apart
    network = ConvoyNetwork(M, frozenset(fleets))
    for start in rng.sample(COASTS, 10):
        routes = network.minimal_routes(start)
        reachable = {dest for dest in COASTS if route_exists(M, start, dest, fleets)}
        assert network.destinations(start) == reachable == set(routes)
        for dest in reachable:
            on_minimal = frozenset().union(*minimal_sets(start, dest, frozenset(fleets)))
            assert routes[dest] == on_minimal, (start, dest)
            for fleet in fleets:
                assert network.route_exists(start, dest, without=fleet) == route_exists(
                    M, start, dest, fleets - {fleet}
                )


@pytest.mark.parametrize("seed", range(8))
def test_single_questions_on_a_fresh_network_match_brute_force(seed: int) -> None:
    """Checking one order asks before any walk or destinations are known: the answers must not differ."""
    rng = random.Random(seed)
    fleets = {rng.choice(["NTH", "MAO", "ION", "TYS", "ENG"])}
    while len(fleets) < 8:
        fleets.add(rng.choice(sorted(n for s in fleets for n in M.sea_neighbours(s))))
    fleets.add(rng.choice(SEAS))
    for start in rng.sample(COASTS, 10):
        for dest in [*rng.sample(COASTS, 12), start, "PAR", "NTH"]:
            linked = route_exists(M, start, dest, fleets)
            assert ConvoyNetwork(M, frozenset(fleets)).route_exists(start, dest) == linked, (start, dest)
            on_minimal = frozenset().union(*minimal_sets(start, dest, frozenset(fleets))) if linked else frozenset()
            for fleet in [*fleets, "BLA"]:
                fresh = ConvoyNetwork(M, frozenset(fleets))
                assert fresh.on_minimal_route(start, dest, fleet) == (fleet in on_minimal), (start, dest, fleet)
                assert ConvoyNetwork(M, frozenset(fleets)).route_exists(start, dest, without=fleet) == (
                    route_exists(M, start, dest, fleets - {fleet})
                )


def test_no_fleets_no_routes() -> None:
    network = ConvoyNetwork(M, frozenset())
    assert network.destinations("LON") == frozenset() and network.minimal_routes("LON") == {}
    assert not network.route_exists("LON", "NWY")
    inland = ConvoyNetwork(M, frozenset({"NTH"}))
    assert inland.destinations("PAR") == frozenset() and inland.destinations("LON") == {
        "BEL", "DEN", "EDI", "HOL", "NWY", "YOR"
    }
