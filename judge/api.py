"""The host's API for kinds of game: everything a kind reaches of the host, in one module.

A kind of game (``judge/games/<kind>/``, or a package of its own) imports the host through this
module and nothing else of it (``.importlinter``'s contract "kinds": `judge.service`, `judge.store`,
`judge.web`, `judge.mail` and `judge.commands` are the host's own).  What is here is the contract
the host keeps with every kind; the rest of the host may change without a kind noticing.

What a kind implements and returns:

- `Kind`, which a kind subclasses: it writes the few members without which no game can be played
  (`judge.service.hosting.contract.REQUIRED`) and inherits the host's default for every other; the members
  are specified by concern in `Lobby` (its words at CREATE and JOIN, its seats), `Phases` (its
  phases: what opening and closing one does, who must act, its end's `Publication`), `Commands`
  (its command table of `Entry` rows, its grammar, STATUS and the answers about a game), `Pages`,
  `Records` and `Demo`, and a public name in none of them is refused when the kind is registered;
  the host owns the game's course (`judge.service.hosting.course`: the state, ROLLBACK and ROLLFORWARD,
  the end and its publication, results marked as sent again);
- `PhaseChange` from closing a phase; `Closing` says why it closes and what its mails say first;
  `Form`, a seat's form to fill in the phase (`Commands.form`), which the host lays out at the end of
  a mail queued with ``opens=seat``;
- `GameError` for what the game's state does not allow (its message is for the player).

What a kind is handed: a `Turn` while one mail is applied (the answer to each line, the seat's
block of lines, what to send and announce); the `Settings`; the host's rows of a game (`Game`,
`Player`, `PhaseRow`, `Submission`) and the session they were read in.

What a kind may ask of the host: the game's seats and players, phases and submissions
(`current_phase`, `seats`, `submit`, `latest_texts`, ...), opening a phase (`open_phase`), writing
the host's columns of its rows (`processed`, `keep_setting`, `drop_setting`, `assign_seat`: a kind
writes none itself), its story (`record`), the end by its rules between phases (`end_game`, a vote),
a publication before the end
(`publish`: Payola's REVEAL), queueing a mail in the transaction (`queue`), rendering a template
(`render`, and `when`, `counted`, `duration` for the words), writing a mail in its reader's language
(`writing_to`, and `by_language` for one text per language of many readers: the messages themselves
are `judge.language`'s), the pages' helpers, the demo's judge.

The names are imported lazily, when a kind first asks for them (`__getattr__`); the typed imports
below are what type checkers read, and a test holds them to the table the module resolves.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what type checkers read; at run time, `__getattr__` imports each name when asked for
    from judge.commands.parse import (
        MASTER_WORDS,
        BadCommand,
        Command,
        GameLine,
        History,
        Line,
        Press,
        SetDuration,
        Unknown,
        parse_duration,
        parse_lines,
        press_tokens,
        read_count,
        read_phase_length,
    )
    from judge.mail.outbound import Attachment, Drawn, Role
    from judge.service.config import Settings
    from judge.service.dispatch import ANYONE, MASTER, PLAYER, SIGNED_ON, Entry
    from judge.service.hosting.absences import absence_lines
    from judge.service.hosting.contract import Kind
    from judge.service.hosting.course import end as end_game
    from judge.service.hosting.course import publish
    from judge.service.hosting.host import (
        answer_list,
        answer_summary,
        assign_seat,
        close_seat,
        current_phase,
        drop_setting,
        duration,
        game_facts,
        is_played,
        keep_setting,
        latest_accepted,
        latest_submission,
        latest_submissions,
        latest_texts,
        observers,
        open_phase,
        open_seat,
        phase_data_now,
        phase_seed,
        phases_by_id,
        players,
        processed,
        processed_names,
        processed_phases,
        public_seat,
        record,
        seat_state,
        seats,
        submit,
        who_played,
    )
    from judge.service.hosting.kinds import (
        Closing,
        Commands,
        Demo,
        Lobby,
        Pages,
        PhaseChange,
        Phases,
        Publication,
        Records,
        Standing,
        ranked,
    )
    from judge.service.hosting.scripts import DemoJudge, show, text_of
    from judge.service.hosting.silent_seats import ended_deserted
    from judge.service.hosting.turn import Turn
    from judge.service.logs import log_on_commit
    from judge.service.operators.cli import Tool, json_tool
    from judge.service.options import GAME_FLAGS, Rules, rules_of, split_options
    from judge.service.outgoing.forms import Form, note_list
    from judge.service.outgoing.outbox import queue
    from judge.service.outgoing.preferences import by_language, writing_to
    from judge.service.states import RUNNING, GameError, GameState
    from judge.service.templates import counted, render, seat_state_word, when
    from judge.service.templates import duration as in_words
    from judge.store.models import Base, Game, Outbox, PhaseRow, Player, Submission
    from judge.web.pages import (
        make_folder,
        render_page,
        write_file,
        write_game_folder,
    )
    from judge.web.public import GameFacts, Seat, page_url, summary

_SOURCES: dict[str, tuple[str, str]] = {
    "BadCommand": ("judge.commands.parse", "BadCommand"),
    "Command": ("judge.commands.parse", "Command"),
    "GameLine": ("judge.commands.parse", "GameLine"),
    "History": ("judge.commands.parse", "History"),
    "Line": ("judge.commands.parse", "Line"),
    "MASTER_WORDS": ("judge.commands.parse", "MASTER_WORDS"),
    "Press": ("judge.commands.parse", "Press"),
    "SetDuration": ("judge.commands.parse", "SetDuration"),
    "Unknown": ("judge.commands.parse", "Unknown"),
    "parse_duration": ("judge.commands.parse", "parse_duration"),
    "parse_lines": ("judge.commands.parse", "parse_lines"),
    "press_tokens": ("judge.commands.parse", "press_tokens"),
    "read_count": ("judge.commands.parse", "read_count"),
    "read_phase_length": ("judge.commands.parse", "read_phase_length"),
    "Attachment": ("judge.mail.outbound", "Attachment"),
    "Drawn": ("judge.mail.outbound", "Drawn"),
    "Role": ("judge.mail.outbound", "Role"),
    "absence_lines": ("judge.service.hosting.absences", "absence_lines"),
    "Tool": ("judge.service.operators.cli", "Tool"),
    "json_tool": ("judge.service.operators.cli", "json_tool"),
    "Settings": ("judge.service.config", "Settings"),
    "Kind": ("judge.service.hosting.contract", "Kind"),
    "end_game": ("judge.service.hosting.course", "end"),
    "ended_deserted": ("judge.service.hosting.silent_seats", "ended_deserted"),
    "publish": ("judge.service.hosting.course", "publish"),
    "ANYONE": ("judge.service.dispatch", "ANYONE"),
    "Entry": ("judge.service.dispatch", "Entry"),
    "MASTER": ("judge.service.dispatch", "MASTER"),
    "PLAYER": ("judge.service.dispatch", "PLAYER"),
    "SIGNED_ON": ("judge.service.dispatch", "SIGNED_ON"),
    "answer_list": ("judge.service.hosting.host", "answer_list"),
    "answer_summary": ("judge.service.hosting.host", "answer_summary"),
    "assign_seat": ("judge.service.hosting.host", "assign_seat"),
    "drop_setting": ("judge.service.hosting.host", "drop_setting"),
    "keep_setting": ("judge.service.hosting.host", "keep_setting"),
    "processed": ("judge.service.hosting.host", "processed"),
    "current_phase": ("judge.service.hosting.host", "current_phase"),
    "duration": ("judge.service.hosting.host", "duration"),
    "game_facts": ("judge.service.hosting.host", "game_facts"),
    "is_played": ("judge.service.hosting.host", "is_played"),
    "latest_accepted": ("judge.service.hosting.host", "latest_accepted"),
    "latest_submission": ("judge.service.hosting.host", "latest_submission"),
    "latest_submissions": ("judge.service.hosting.host", "latest_submissions"),
    "latest_texts": ("judge.service.hosting.host", "latest_texts"),
    "observers": ("judge.service.hosting.host", "observers"),
    "open_phase": ("judge.service.hosting.host", "open_phase"),
    "open_seat": ("judge.service.hosting.host", "open_seat"),
    "close_seat": ("judge.service.hosting.host", "close_seat"),
    "phase_data_now": ("judge.service.hosting.host", "phase_data_now"),
    "phase_seed": ("judge.service.hosting.host", "phase_seed"),
    "phases_by_id": ("judge.service.hosting.host", "phases_by_id"),
    "players": ("judge.service.hosting.host", "players"),
    "processed_names": ("judge.service.hosting.host", "processed_names"),
    "processed_phases": ("judge.service.hosting.host", "processed_phases"),
    "public_seat": ("judge.service.hosting.host", "public_seat"),
    "record": ("judge.service.hosting.host", "record"),
    "seat_state": ("judge.service.hosting.host", "seat_state"),
    "seats": ("judge.service.hosting.host", "seats"),
    "submit": ("judge.service.hosting.host", "submit"),
    "who_played": ("judge.service.hosting.host", "who_played"),
    "Closing": ("judge.service.hosting.kinds", "Closing"),
    "Commands": ("judge.service.hosting.kinds", "Commands"),
    "Demo": ("judge.service.hosting.kinds", "Demo"),
    "Lobby": ("judge.service.hosting.kinds", "Lobby"),
    "Pages": ("judge.service.hosting.kinds", "Pages"),
    "PhaseChange": ("judge.service.hosting.kinds", "PhaseChange"),
    "Phases": ("judge.service.hosting.kinds", "Phases"),
    "Publication": ("judge.service.hosting.kinds", "Publication"),
    "Records": ("judge.service.hosting.kinds", "Records"),
    "Standing": ("judge.service.hosting.kinds", "Standing"),
    "ranked": ("judge.service.hosting.kinds", "ranked"),
    "GameError": ("judge.service.states", "GameError"),
    "GameState": ("judge.service.states", "GameState"),
    "RUNNING": ("judge.service.states", "RUNNING"),
    "log_on_commit": ("judge.service.logs", "log_on_commit"),
    "GAME_FLAGS": ("judge.service.options", "GAME_FLAGS"),
    "Rules": ("judge.service.options", "Rules"),
    "rules_of": ("judge.service.options", "rules_of"),
    "split_options": ("judge.service.options", "split_options"),
    "Form": ("judge.service.outgoing.forms", "Form"),
    "note_list": ("judge.service.outgoing.forms", "note_list"),
    "queue": ("judge.service.outgoing.outbox", "queue"),
    "by_language": ("judge.service.outgoing.preferences", "by_language"),
    "writing_to": ("judge.service.outgoing.preferences", "writing_to"),
    "counted": ("judge.service.templates", "counted"),
    "in_words": ("judge.service.templates", "duration"),
    "render": ("judge.service.templates", "render"),
    "seat_state_word": ("judge.service.templates", "seat_state_word"),
    "when": ("judge.service.templates", "when"),
    "DemoJudge": ("judge.service.hosting.scripts", "DemoJudge"),
    "show": ("judge.service.hosting.scripts", "show"),
    "text_of": ("judge.service.hosting.scripts", "text_of"),
    "Turn": ("judge.service.hosting.turn", "Turn"),
    "Base": ("judge.store.models", "Base"),
    "Game": ("judge.store.models", "Game"),
    "Outbox": ("judge.store.models", "Outbox"),
    "PhaseRow": ("judge.store.models", "PhaseRow"),
    "Player": ("judge.store.models", "Player"),
    "Submission": ("judge.store.models", "Submission"),
    "make_folder": ("judge.web.pages", "make_folder"),
    "render_page": ("judge.web.pages", "render_page"),
    "write_file": ("judge.web.pages", "write_file"),
    "write_game_folder": ("judge.web.pages", "write_game_folder"),
    "GameFacts": ("judge.web.public", "GameFacts"),
    "Seat": ("judge.web.public", "Seat"),
    "page_url": ("judge.web.public", "page_url"),
    "summary": ("judge.web.public", "summary"),
}
"""Where each name of the API lives in the host: it is imported when first asked for (`__getattr__`), so
that a kind's command-line tool (``judge adjudicate``) starts without the host's database, mail and pages."""

__all__ = [  # the API's names: what a kind may use of the host (a test holds them to the table above)
    "ANYONE", "GAME_FLAGS", "MASTER", "MASTER_WORDS", "PLAYER", "RUNNING", "SIGNED_ON", "Attachment", "BadCommand",
    "Base", "Closing", "Command", "Commands", "Demo", "DemoJudge", "Drawn", "Entry", "Form", "Game", "GameError",
    "GameFacts", "GameLine", "GameState", "History", "Kind", "Line", "Lobby", "Outbox", "Pages", "PhaseChange",
    "PhaseRow", "Phases", "Player", "Press", "Publication", "Records", "Role", "Rules", "Seat", "SetDuration",
    "Settings", "Standing", "Submission", "Tool", "Turn", "Unknown", "absence_lines", "answer_list",
    "answer_summary", "assign_seat", "by_language", "close_seat", "counted", "current_phase", "drop_setting",
    "duration", "end_game", "ended_deserted", "game_facts", "in_words", "is_played", "json_tool", "keep_setting",
    "latest_accepted", "latest_submission", "latest_submissions", "latest_texts", "log_on_commit",
    "make_folder", "note_list",
    "observers", "open_phase", "open_seat", "page_url", "parse_duration", "parse_lines", "phase_data_now",
    "phase_seed", "phases_by_id", "players", "press_tokens", "processed", "processed_names", "processed_phases",
    "public_seat", "publish", "queue", "ranked", "read_count", "read_phase_length", "record", "render",
    "render_page", "rules_of", "seat_state", "seat_state_word", "seats", "show", "split_options", "submit", "summary",
    "text_of", "when", "who_played", "write_file", "write_game_folder", "writing_to",
]
FOR_NEW_KINDS = ("ANYONE", "Demo", "Pages", "Records")
"""The API's names that no kind of this judge uses yet, kept for a new kind (a test holds every other name
to a use by some kind): ``ANYONE``, who may send a command anyone may send (as LIST); `Pages`, `Records`
and `Demo`, the protocols of those concerns, for a kind written by concern as the four kinds write their
`Lobby`, `Phases` and `Commands`."""


def __getattr__(name: str) -> Any:
    """The API's ``name``, imported from its place in the host on first use (PEP 562)."""
    if name not in _SOURCES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attribute = _SOURCES[name]
    value = getattr(import_module(module), attribute)
    globals()[name] = value
    return value
