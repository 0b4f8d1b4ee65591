"""Settings of a judge installation, from defaults, a TOML file, the environment and the command line.

Later sources win: built-in defaults, then ``--config FILE`` (keys as below, at the top level
or under ``[judge]``), then ``JUDGE_<KEY>`` environment variables (``JUDGE_DATABASE``,
``JUDGE_RELAY``, ...), then command-line options.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from email.utils import formataddr
from pathlib import Path
from typing import Any

from judge.commands.parse import MAPS_CHOICES, MAX_DURATION_HOURS, MIN_PHASE_HOURS
from judge.language import offered
from judge.peers import networks

DEFAULT_DURATIONS = {"movement": 48.0, "retreat": 24.0, "adjustment": 24.0, "grace": 0.0}


class ConfigError(ValueError):
    """A setting that cannot be used; the message names it."""


@dataclass(frozen=True)
class Settings:
    """Everything a judge installation can be told: each setting's docstring is its entry in the
    configuration reference, which the documentation generates from this class."""

    data_dir: Path = Path("judge-data")
    """The judge's data directory: the SQLite database (unless ``database`` is set), the Maildir ``outbox``
    (unless ``relay`` is set) and the public pages ``web``."""

    database: str | None = None
    """Any SQLAlchemy URL (``postgresql+psycopg://payola@/judge``); none: SQLite in ``data_dir``."""

    domain: str = "localhost"
    """The mail domain: the judge is ``judge@domain``."""

    host: str = "127.0.0.1"
    """The address ``judge serve`` listens on for SMTP."""

    port: int = 2525
    """The port ``judge serve`` listens on for SMTP."""

    max_size: int = 256 * 1024
    """Bytes of one inbound mail; a larger one is refused (at ``MAIL FROM`` when the client declares SIZE)."""

    max_sessions: int = 100
    """SMTP sessions at once; one more connection is told 421 (try again later)."""

    max_sessions_per_client: int = 10
    """SMTP sessions at once from one address (IPv6: one /64), the trusted clients aside."""

    reserved_sessions: int = 20
    """Of ``max_sessions``, those only trusted clients may take: a flood from elsewhere leaves them."""

    trusted_clients: tuple[str, ...] = ("127.0.0.1", "::1")
    """The judge's own front ends, exempt from the per-client limits: the MTA that hands it mail, a web server
    proxying to ``judge web`` (addresses or networks, see `judge.peers`)."""

    idle_timeout: float = 60.0
    """Seconds an SMTP session may go without a command (or finishing DATA)."""

    session_lifetime: float = 300.0
    """Seconds an SMTP session may go without finishing a mail (NOOP does not count)."""

    relay: str | None = None
    """``HOST:PORT`` of the outgoing SMTP relay; none: mail is written to the Maildir ``data_dir/outbox``."""

    relay_starttls: bool = False
    """Use STARTTLS with the relay."""

    relay_user: str | None = None
    """The user name to log in to the relay with (none: no login)."""

    relay_password: str | None = None
    """The password to log in to the relay with."""

    tick_seconds: float = 60.0
    """How often the daemon looks at deadlines (seconds); it wakes at a game's deadline too."""

    deadline_workers: int = 0
    """Processes that run the deadlines due at once, each game in one of them (0: one per core, at most 4)."""

    lock_seconds: float = 10.0
    """How long a deadline worker or the applier may hold the database's write lock (a transaction that has
    written) before ``judge serve`` kills it: what it was doing is rolled back and done again by another.  A
    transaction of the judge's takes milliseconds; keep this well under the 30 s other writers wait."""

    stall_seconds: float = 60.0
    """How long a deadline worker or the applier may go without a word while it has work (a game, a run of
    mail) before ``judge serve`` takes it for stalled and kills it; a deadline run claims its game for twice
    this, so that no other judge takes a game this one may still be running.  Keep it above 30 s: a process
    waiting for the database's lock waits that long, saying nothing."""

    max_lateness: float = 24.0
    """Hours past a deadline (and grace) after which a game is paused and its master told, not processed."""

    retry_days: float = 4.0
    """How long a temporarily refused outgoing mail is retried (days)."""

    attachment_days: float = 7.0
    """How long a sent mail's attachments (a phase's maps) are kept for ``judge resend --again`` (days); then
    the deadline clock drops them (`judge.service.outgoing.outbox`)."""

    durations: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_DURATIONS))
    """A new game's phase lengths and grace period in hours (a TOML table: ``movement``, ``retreat``,
    ``adjustment``, ``grace``); a phase lasts at least an hour, nothing longer than 90 days."""

    admin: str | None = None
    """Who hears of mail the judge could not handle; none: ``postmaster@domain``."""

    max_commands_per_mail: int = 500
    """Command lines read in one mail; the rest is not read, and the reply says so."""

    max_password_checks_per_mail: int = 10
    """SIGNON, CREATE, JOIN and SET PASSWORD lines in one mail: each costs a scrypt."""

    max_press_per_mail: int = 10
    """Press messages in one mail."""

    max_mails_per_mail: int = 50
    """Mails one mail's commands may queue (press, notices, the results it causes)."""

    max_reply_bytes: int = 512 * 1024
    """Bytes of one reply, its attachments included: with the mail read (200,000 characters at most) and what its
    commands set off (a phase's results and maps), one mail never stores a megabyte."""

    max_phase_changes_per_hour: int = 10
    """PROCESS, ROLLBACK and ROLLFORWARD in one game in an hour."""

    max_creates_per_day: int = 3
    """Games one address may create in a day."""

    max_creates_per_hour: int = 20
    """Games all addresses together may create in an hour."""

    max_joins_per_day: int = 10
    """Games one address may join in a day."""

    max_replies_per_hour: int = 30
    """Answers to one address in an hour; beyond, its mail is applied but not answered (no mail loop)."""

    quarantine_days: float = 7.0
    """How long a quarantined mail keeps its passwords, for ``judge quarantine retry`` (days)."""

    max_confirmations_per_day: int = 5
    """Confirmation tokens mailed to one address in a day (`judge.service.incoming.handlers.consent`)."""

    max_observers: int = 50
    """Observers of one game."""

    max_games_observed: int = 20
    """Games one address observes at once."""

    max_lookups_per_mail: int = 10
    """LIST, WHOGAME and GET INFO lines answered in one mail."""

    judge_name: str = "The judge"
    """The display name in the From of the judge's mail, and its replies' signature."""

    maps: bool = True
    """Results mails carry the maps of the phase (PNG and SVG); off: no mail carries a map."""

    maps_default: str = "png"
    """The pictures a game's mail carries to an address that never sent ``SET MAPS``: ``png``, one picture
    (the phase's orders drawn on the board, or the board where there are none); ``svg``, that picture as
    SVG; ``all``, every picture the game offers (the orders, the board after as PNG and as SVG); ``none``."""

    language_default: str = "en"
    """The language the judge writes in to an address that never sent ``SET LANGUAGE``, in a game whose
    master set none (``SET GAME LANGUAGE``): one of those it offers (``HELP LANGUAGES``: ``en``, ``fr``, ``it``)."""

    web: bool = True
    """The games' public pages are written into ``data_dir/web`` after every change."""

    web_url: str | None = None
    """Where ``data_dir/web`` is seen from outside: results mails link to the game's page (none: no link)."""

    one_click: bool = False
    """Observers' mail offers one-click unsubscribe (RFC 8058), a link to ``<web_url>/unsubscribe/...`` that
    ``judge web`` answers, writing to the database: only with an ``https://`` ``web_url``, and only once the
    operator has made that path reach ``judge web`` and let it write (docs/operators/pages.md): off by default,
    so that no mail offers a button that fails."""

    docs_url: str | None = None
    """Where the judge's documentation is published: HELP and ``judge help`` point to it (none: they name no
    address)."""

    settle_seconds: float = 300.0
    """After a restart, or once the listener can store mail again after answering 451 (its database down, its
    disk full), how long the deadlines that passed meanwhile wait for the mail the MTA held (seconds)."""

    mta_flush: str | None = "postqueue -f"
    """The command that asks the judge's MTA to deliver at once the mail it holds for the judge, run by ``judge
    serve`` as its own user once it listens, and again once it can store mail after answering 451 (Postfix:
    ``postqueue -f``, which needs the group ``postdrop`` where the setgid bit does not apply, as in the systemd
    unit's sandbox); none: the MTA tries again on its own schedule, which after a long outage can be an hour."""

    mta_hostname: str | None = None
    """The name the judge's own MTA writes after "by" in its Received: header (Postfix: ``myhostname``): mail
    it accepted before a deadline counts as on time, however late it reaches the judge."""

    mta_authenticates: bool = False
    """The MTA writes an Authentication-Results header (RFC 8601: SPF, DKIM, DMARC) with ``mta_hostname`` as
    its authserv-id above each mail's own headers, and drops any that came with the mail: an address that
    confirmed once is then obeyed at once in mail the MTA vouches for; otherwise every request that enrols an
    address anew waits for a token mailed to it (`judge.service.incoming.handlers.consent`)."""

    log_file: Path | None = None
    """Where ``judge serve`` writes its log; none: standard error (the journal under systemd).  Opened again
    when moved (a log rotation), and on SIGHUP, which then no longer stops the judge."""

    def __post_init__(self) -> None:
        """Refuse a ``maps_default`` that is no choice of SET MAPS, or a ``language_default`` the judge does not
        write (and write each in lower case)."""
        choice = str(self.maps_default).lower()
        if choice not in MAPS_CHOICES:
            raise ConfigError(f"maps-default must be one of {', '.join(MAPS_CHOICES)}: {self.maps_default!r}")
        object.__setattr__(self, "maps_default", choice)
        language = str(self.language_default).lower()
        if language not in offered():
            raise ConfigError(f"language-default must be one of {', '.join(offered())}: {self.language_default!r}")
        object.__setattr__(self, "language_default", language)

    @property
    def judge_address(self) -> str:
        return f"judge@{self.domain}"

    @property
    def judge_from(self) -> str:
        """The From of the judge's mail: ``The judge <judge@domain>``, or the name the operator set (judge-name)."""
        return formataddr((self.judge_name, self.judge_address))

    @property
    def admin_address(self) -> str:
        return self.admin or f"postmaster@{self.domain}"

    @property
    def database_url(self) -> str:
        return self.database or f"sqlite:///{(self.data_dir / 'judge.db').resolve()}"

    @property
    def maildir(self) -> Path:
        return self.data_dir / "outbox"

    @property
    def relay_address(self) -> tuple[str, int] | None:
        if not self.relay:
            return None
        host, _, port = self.relay.rpartition(":")
        if not host or not port.isdigit():
            raise ConfigError(f"relay '{self.relay}' must be HOST:PORT")
        return host, int(port)


_TYPES = {f.name: f for f in fields(Settings)}


def _coerce(name: str, value: Any) -> Any:
    kind = str(_TYPES[name].type)
    try:
        if "Path" in kind:
            return Path(value)
        if kind.startswith("int"):
            return int(value)
        if kind.startswith("float"):
            return float(value)
        if kind.startswith("bool"):
            return value if isinstance(value, bool) else str(value).lower() in ("1", "true", "yes", "on")
        if kind.startswith("tuple"):  # a TOML list, or a string of items separated by commas or spaces
            items = tuple(value.replace(",", " ").split() if isinstance(value, str) else map(str, value))
            networks(items)  # trusted_clients, the only list: each an address or a network
            return items
        if kind.startswith("dict"):
            durations = {**DEFAULT_DURATIONS, **{k: float(v) for k, v in dict(value).items()}}
            if not all(0 <= hours <= MAX_DURATION_HOURS for hours in durations.values()):
                raise ConfigError(f"durations must be between 0 and {MAX_DURATION_HOURS} hours: {value!r}")
            if any(hours < MIN_PHASE_HOURS for what, hours in durations.items() if what not in ("grace", "reminder")):
                raise ConfigError(f"a phase lasts at least {MIN_PHASE_HOURS:g} hour: {value!r}")
            return durations
    except (TypeError, ValueError):
        raise ConfigError(f"bad value for {name}: {value!r}") from None
    return None if value in ("", None) else str(value)


def load_settings(
    config_file: Path | None = None,
    environ: Mapping[str, str] | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> Settings:
    """Settings from a TOML file, ``JUDGE_*`` environment variables and explicit overrides."""
    values: dict[str, Any] = {}
    if config_file is not None:
        try:
            data = tomllib.loads(config_file.read_text("utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"cannot read {config_file}: {exc}") from None
        data = data.get("judge", data)
        for key, value in data.items():
            name = key.replace("-", "_")
            if name not in _TYPES:
                raise ConfigError(f"unknown setting '{key}' in {config_file}")
            values[name] = _coerce(name, value)
    for key, value in (os.environ if environ is None else environ).items():
        if key.startswith("JUDGE_") and key[6:].lower() in _TYPES and key != "JUDGE_TEST_DATABASE_URL":
            values[key[6:].lower()] = _coerce(key[6:].lower(), value)
    for name, value in (overrides or {}).items():
        if value is not None:
            values[name] = _coerce(name, value)
    return replace(Settings(), **values)
