"""The contract between the host and a kind of game (`judge.service.hosting.contract`): the few members a kind
must write, the host's default for every other, a misspelt member refused at registration, and no
column of the host written by a kind.

`Highest` is the smallest kind the contract allows, defined here: it writes only the `REQUIRED`
members, and is created, joined, started, played for a phase and ended by mail like any other."""

from __future__ import annotations

import ast
import email
import email.policy
import inspect
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from functools import cache
from pathlib import Path
from types import MappingProxyType

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from judge import api
from judge.bootstrap import hosted, registry
from judge.mail.outbound import MaildirOutbox
from judge.service.config import Settings
from judge.service.hosting.contract import MEMBERS, REQUIRED, Kind
from judge.service.hosting.kinds import Kinds
from judge.store.models import Game
from tests.kinds import test_conformance, test_every_command, test_flowed_text, test_help_of_every_kind
from tests.kinds.scripts import Script
from tests.support.clock import Clock
from tests.support.daemon import Running
from tests.support.flowed import meant
from tests.support.harness import Judge, fresh_database_url

GM = "gm@example.org"
ANN, BOB = "ann@example.org", "bob@example.org"
PICK = "pick"
"""The kind of a player's submission: the number it picked."""


@dataclass(frozen=True)
class Pick:
    """``PICK n``: a player's number; the highest wins."""

    number: int


def picks(session: Session, game: api.Game) -> dict[str, int]:
    """The number each seat picked in the phase now."""
    return {seat: int(text) for (seat, kind), text in api.latest_texts(session, game, game.phase or "").items()
            if kind == PICK}


def pick(turn: api.Turn, text: str, command: Pick) -> None:
    """A player's pick, standing until a later one replaces it."""
    game, seat = turn.game, turn.seat
    assert game is not None and seat is not None and game.phase is not None
    api.submit(turn.session, game, game.phase, seat, PICK, str(command.number), {}, turn.now, turn.accepted)
    turn.echo(text, "ok", f"you picked {command.number}")


class Highest(api.Kind):
    """Each player picks a number in each of two rounds; the highest pick of the last round wins."""

    name = "highest"
    title = "Highest number"
    durations = MappingProxyType({"round": 24.0})
    commands = (api.Entry(Pick, pick, api.PLAYER, closed_after_the_end=True),)

    def capacity(self, game: api.Game) -> int:
        return 4

    def start(self, session: Session, game: api.Game, settings: api.Settings, now: datetime) -> None:
        for player in api.players(session, game):
            api.assign_seat(player, player.requested)
        api.open_phase(session, game, ROUNDS[0], {}, now)
        for player in api.players(session, game):
            assert player.address is not None
            api.queue(session, settings, to=player.address, subject=f"{game.name} starts", kind="start", now=now,
                      game_id=game.id, body=f"Game {game.name} starts: send PICK and a number for {ROUNDS[0]}.")

    def waiting(self, session: Session, game: api.Game) -> list[str]:
        chosen = picks(session, game)
        return [seat for seat, player in api.seats(session, game).items() if api.is_played(player)
                and seat not in chosen]

    def process(self, session: Session, game: api.Game, settings: api.Settings, now: datetime,
                closing: api.Closing) -> api.PhaseChange:
        row = api.current_phase(session, game)
        assert row is not None
        chosen = picks(session, game)
        api.processed(row, {"picks": chosen}, now)
        said = [f"  {seat}: {number}" for seat, number in sorted(chosen.items())] or ["  nobody picked"]
        body = "\n".join([*closing.lines, f"The picks of {row.name}:", *said])
        readers = [player.address for player in api.seats(session, game).values()
                   if player.address and api.is_played(player)]
        for address in [*readers, *api.observers(session, game), game.gm_address]:
            api.queue(session, settings, to=address, subject=closing.subject(game.name, row.name), kind="results",
                      body=body, now=now, game_id=game.id)
        if row.name != ROUNDS[-1]:
            api.open_phase(session, game, ROUNDS[ROUNDS.index(row.name) + 1], {}, now)
            return api.PhaseChange(row.name, game.phase)
        best = max(chosen, key=lambda seat: chosen[seat]) if chosen else None
        return api.PhaseChange(row.name, None, best, f"{best} picked the highest number" if best else "no pick")

    def read(self, text: str, game: api.Game | None) -> api.Command:
        words = text.split()
        if words[0].upper() == "PICK" and len(words) == 2 and words[1].isdigit():
            return Pick(int(words[1]))
        return api.Unknown(f"unknown command '{words[0][:20]}': PICK n")

    def status(self, turn: api.Turn) -> list[str]:
        assert turn.game is not None and turn.seat is not None
        return [f"your pick: {picks(turn.session, turn.game).get(turn.seat, 'none yet')}"]


ROUNDS = ("R1", "R2")
"""Highest's phases."""


@cache
def with_highest() -> Kinds:
    """The judge's own kinds, and `Highest`: the one line a newcomer adds to the registry."""
    return registry([*hosted(), Highest()])


HIGHEST = Script("highest", "highest", (("Ann", "Ann", "Ann"), ("Bob", "Bob", "Bob")), lambda _, __: ["PICK 7"],
                 kinds=with_highest)
"""How the kinds' conformance suite plays `Highest`: the script a newcomer writes for a new kind."""


@pytest.fixture
def script() -> Script:
    """The conformance suite's tests collected below play `Highest`, and `Highest` alone, here."""
    return HIGHEST


# The kinds' conformance suite (tests.kinds.test_conformance, test_every_command, test_help_of_every_kind,
# test_flowed_text), collected here again for `Highest`: each of its tests that plays a kind's script.
for _suite in (test_conformance, test_every_command, test_help_of_every_kind, test_flowed_text):
    globals().update({name: test for name, test in vars(_suite).items()
                      if name.startswith("test_") and "script" in inspect.signature(test).parameters})


def written(kind: type) -> set[str]:
    """The public names ``kind``'s own class defines."""
    return {name for name in (*vars(kind), *vars(kind).get("__annotations__", {})) if not name.startswith("_")}


def test_a_kind_must_write_ten_members_of_its_seventy_three() -> None:
    assert len(REQUIRED) == 10 and len(MEMBERS) == 73
    assert set(REQUIRED) <= MEMBERS
    assert written(Highest) == set(REQUIRED)


def test_a_kind_of_only_the_required_members_is_created_joined_started_played_and_ended_by_mail(
        tmp_path: Path) -> None:
    judge = Judge(tmp_path, kinds=registry([*hosted(), Highest()]))
    judge.send(GM, "CREATE h1 gm-pw highest")
    judge.send(ANN, "JOIN h1 ann-pw Ann")
    judge.send(BOB, "JOIN h1 bob-pw Bob")
    judge.send(GM, "SIGNON MASTER@h1 gm-pw\nSTART")
    assert judge.outcome_of("START")[0] == "ok"
    judge.send(ANN, "SIGNON Ann@h1 ann-pw\nPICK 7\nSTATUS")
    assert judge.outcome_of("PICK 7") == ("ok", None)
    assert "your pick: 7" in judge.last_to(ANN).body
    judge.send(BOB, "SIGNON Bob@h1 bob-pw\nPICK 9")  # the last pick closes the first round
    assert "The picks of R1:\n  Ann: 7\n  Bob: 9\n" in judge.last_to(ANN).body
    judge.send(ANN, "SIGNON Ann@h1 ann-pw\nPICK 7")
    judge.send(BOB, "SIGNON Bob@h1 bob-pw\nPICK 3")  # the last pick of the last round: the game is over
    with judge.db.transaction() as session:
        game = session.scalars(select(Game).where(Game.name == "h1")).one()
        assert (game.state, game.winner) == ("finished", "Ann")
    end = judge.last_to(BOB)
    assert "Ann picked the highest number" in end.body and "Ann" in end.subject + end.body


def test_a_kind_defined_here_is_played_by_smtp_through_judge_serve(tmp_path: Path) -> None:
    """The newcomer's path to its end: `Highest`, registered beside the judge's own kinds by one line
    (the registry), is played over real SMTP through `judge serve`'s daemon, whose applier (a process
    of its own) finds the kind as it finds the judge's."""
    settings = Settings(data_dir=tmp_path, database=fresh_database_url(), port=0, tick_seconds=3600)
    judge = Running(settings, Clock(datetime(2026, 1, 5, 12, 0)), registry([*hosted(), Highest()]))
    try:
        judge.send(GM, "CREATE h1 gm-pw highest")
        judge.confirm(GM)
        for address, name in ((ANN, "Ann"), (BOB, "Bob")):
            judge.send(address, f"JOIN h1 {name.lower()}-pw {name}")
            judge.confirm(address)
        judge.settled()
        judge.send(GM, "SIGNON MASTER@h1 gm-pw\nSTART")
        for ann, bob in ((1, 2), (7, 3)):  # Bob picks the higher number first, Ann in the last round
            judge.send(ANN, f"SIGNON Ann@h1 ann-pw\nPICK {ann}")
            judge.send(BOB, f"SIGNON Bob@h1 bob-pw\nPICK {bob}")  # the last pick of a round closes it
            judge.settled()
        ended = {}
        for raw in MaildirOutbox(settings.maildir).messages():
            mail = email.message_from_bytes(raw, policy=email.policy.default)
            assert isinstance(mail, EmailMessage)
            body = mail.get_body(preferencelist=("plain",))
            if mail["Subject"] == "h1 has ended" and body is not None:
                ended[str(mail["To"])] = meant(str(body.get_content()))
        assert set(ended) == {GM, ANN, BOB}
        assert all("Ann picked the highest number" in text for text in ended.values())
    finally:
        judge.stop()


@pytest.mark.parametrize("member", REQUIRED)
def test_a_kind_without_a_required_member_is_refused_at_registration_naming_it(member: str) -> None:
    lacking = type("Lacking", (api.Kind,), {key: value for key, value in vars(Highest).items() if key != member})
    with pytest.raises(TypeError, match=f"Lacking lacks what every kind of game must write: {member}$"):
        registry([*hosted(), lacking()])


def test_a_misspelt_optional_member_is_refused_at_registration_with_the_name_meant() -> None:
    class Misspelt(Highest):
        def publicaton(self, session: Session, game: api.Game) -> api.Publication:
            return api.Publication("every pick")

    with pytest.raises(TypeError, match=re.escape("Misspelt.publicaton is no member of a kind of game: did you "
                                                  "mean publication?")):
        registry([*hosted(), Misspelt()])


def test_a_misspelt_attribute_is_refused_at_registration() -> None:
    class Misspelt(Highest):
        seat_wrod = "picker"

    with pytest.raises(TypeError, match=re.escape("Misspelt.seat_wrod is no member of a kind of game: did you mean "
                                                  "seat_word?")):
        registry([*hosted(), Misspelt()])


def test_a_kinds_private_helpers_are_its_own() -> None:
    class Helped(Highest):
        def _tie_break(self, seats: Sequence[str]) -> str:
            return min(seats)

    assert registry([*hosted(), Helped()]).named("highest").title == "Highest number"


def test_a_kind_not_built_on_the_hosts_defaults_is_refused() -> None:
    bare = type("Bare", (), {key: value for key, value in vars(Highest).items() if not key.startswith("__")})
    with pytest.raises(TypeError, match=re.escape("Bare is no Kind: a kind of game subclasses judge.api.Kind")):
        registry([*hosted(), bare()])


def test_the_judges_kinds_and_the_example_keep_to_the_contract() -> None:
    from tests.kinds.registry import with_test_kinds

    assert [kind.name for kind in with_test_kinds()] == ["payola", "auction", "exchange", "machiavelli", "pirates"]
    assert all(isinstance(kind, Kind) for kind in with_test_kinds())


# -- the host's columns ----------------------------------------------------------------------------------

HOST_COLUMNS = frozenset({"settings", "result", "processed_at", "status", "seat"})
"""The columns of the host's rows that a kind reads but writes only through the API (`api.processed`,
`api.keep_setting`, `api.drop_setting`, `api.assign_seat`)."""
KINDS = Path(api.__file__).parent / "games"
EXAMPLE = Path(__file__).parent / "auction"


def host_writes(source: str) -> list[str]:
    """Each assignment in ``source`` to a host's column (``row.status = ...``, ``game.settings[k] = ...``,
    ``row.result |= ...``, ``setattr(player, "seat", ...)``), as ``line: column``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr"
              and len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and node.args[1].value in HOST_COLUMNS):
            found.append(f"{node.lineno}: {node.args[1].value}")
        while targets:
            target = targets.pop()
            if isinstance(target, ast.Tuple | ast.List):
                targets.extend(target.elts)
            elif isinstance(target, ast.Subscript):
                targets.append(target.value)
            elif isinstance(target, ast.Attribute) and target.attr in HOST_COLUMNS:
                found.append(f"{target.lineno}: {target.attr}")
    return found


def test_the_check_finds_a_kind_writing_a_host_column() -> None:
    source = ("def process(row, game, player, now):\n"
              "    row.result, row.status = {}, 'processed'\n"
              "    game.settings['votes'] = {}\n"
              "    player.seat = 'Ann'\n"
              "    setattr(row, 'processed_at', now)\n"
              "    api.processed(row, {}, now)\n"
              "    board.status = row.status\n")
    assert sorted(host_writes(source)) == ["2: result", "2: status", "3: settings", "4: seat", "5: processed_at",
                                           "7: status"]


def test_no_kind_writes_a_host_column() -> None:
    sources = sorted([*KINDS.rglob("*.py"), *EXAMPLE.rglob("*.py")])
    assert len(sources) > 50
    writes = {str(path): found for path in sources if (found := host_writes(path.read_text()))}
    assert writes == {}


def test_the_page_on_adding_a_kind_includes_every_module_of_the_example() -> None:
    page = (Path(__file__).parents[2] / "docs" / "architecture" / "new-kind.md").read_text()
    included = set(re.findall(r"^```\{literalinclude\} \.\./\.\./tests/kinds/auction/(\w+\.py)$", page, re.M))
    assert included == {path.name for path in EXAMPLE.glob("*.py") if path.name != "__init__.py"}
