"""The judge's data directory: its lock, who may work on it, and how an operator's command is
refused (`OperatorError`): what the daemon, the clock's tick, the operator's commands and the
backups share."""

from __future__ import annotations

import fcntl
import grp
import os
import pwd
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import make_url

from judge.service.config import ConfigError, Settings

LOCK_FILE = "judge.lock"


class OperatorError(Exception):
    """A command that cannot be carried out as asked; the message says why and what to do."""


class RootRefused(ConfigError):
    """Run as root on another user's data (`refuse_root`): the command did nothing, and says so
    with its own exit status, `REFUSED`, which a monitoring check reads as unknown, not a problem."""


REFUSED = 3  # the exit status of a command refused as root (Nagios: UNKNOWN); 1 is a problem, 2 no database


def refuse_root(settings: Settings) -> None:
    """Refuse to work as root on a data directory (or SQLite database) owned by another user."""
    if os.geteuid() != 0:
        return
    database = make_url(settings.database_url)
    paths = [settings.data_dir]
    if database.get_backend_name() == "sqlite" and database.database and not database.database.startswith("file:"):
        paths.append(Path(database.database))
    for path in paths:
        try:
            owner = path.stat().st_uid
        except OSError:
            continue
        if owner != 0:
            name = _user_name(owner)
            raise RootRefused(f"you are root and {path} belongs to {name}: files written now would be root's and the "
                              f"judge could not write them any more. Run it as {name}: runuser -u {name} -- judge ...")


def _user_name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def make_data_dir(folder: Path, owner_of: Path) -> None:
    """``folder`` made, the judge's alone (0700), if it is not there (a disk replaced, a data directory
    deleted), for a command that puts data back into it (``judge restore``).  The judge's user may not
    make it in a folder of root's (``/var/lib``): then `OperatorError`, saying install.md's line that
    makes it, for this user.  Root, which could, would leave it root's: refused (`RootRefused`), with
    the line for the user whose data ``owner_of`` (the backup) is."""
    if folder.is_dir():
        return
    if os.geteuid() == 0 and owner_of.stat().st_uid != 0:
        user = _user_name(owner_of.stat().st_uid)
        raise RootRefused(f"you are root and {folder} is not there: made now, it would be root's, and the judge "
                          f"could not write in it. Make it for {user}, then run this as {user} (runuser -u {user} "
                          f"-- judge ...): install -d -m 0700 -o {user} -g {_group_name(owner_of.stat().st_gid)} "
                          f"{folder}")
    try:
        folder.mkdir(mode=0o700, parents=True)
    except PermissionError:
        user, group = _user_name(os.geteuid()), _group_name(os.getegid())
        raise OperatorError(f"there is no data directory {folder}, and {user} may not make it in {folder.parent}: "
                            f"make it as root, as step 5 of the install does, then run this again: "
                            f"install -d -m 0700 -o {user} -g {group} {folder}") from None


def _group_name(gid: int) -> str:
    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return str(gid)


@contextmanager
def data_dir_lock(folder: Path, *, alone: bool) -> Iterator[None]:
    """The data directory's lock: shared by ``judge serve`` and ``judge tick`` while they run (they
    wait for a restore to end), taken ``alone`` by what replaces the data, which refuses to
    start while the judge runs here.  Only a judge on this machine and data directory is seen."""
    folder.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB if alone else fcntl.LOCK_SH)
        except BlockingIOError:
            raise OperatorError(f"the judge is running on {folder} (judge serve or judge tick): stop it first "
                                "(systemctl stop judge judge-tick.timer)") from None
        yield
    finally:
        os.close(descriptor)


@contextmanager
def pid_file(path: Path) -> Iterator[None]:
    """``path`` holding this process's id (``12345``, a line) while it runs, locked (``flock``, exclusive),
    removed when it ends: how one judge is stopped without systemd, by its own file in its own data
    directory (``pkill -L -F /var/lib/judge/serve-2525.pid``), as Postfix's ``master.pid`` and
    PostgreSQL's ``postmaster.pid`` are.  A file left by a process killed outright names a number the
    system may have given another: nobody holds its lock, and ``pkill -L`` (procps), which signals only
    the process holding the file locked, signals nothing.  A process already holding it (the same
    data directory and port) refuses the start."""
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            running = os.pread(descriptor, 20, 0).decode("ascii", "replace").strip()
            raise OperatorError(f"a judge is running with {path} already (process {running}): stop it first "
                                f"(pkill -L -F {path})") from None
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, f"{os.getpid()}\n".encode("ascii"), 0)
        try:
            yield
        finally:
            path.unlink(missing_ok=True)  # while still locked: a judge starting now makes a file of its own
    finally:
        os.close(descriptor)


def shown_url(settings: Settings) -> str:
    """The database's URL without its password."""
    return make_url(settings.database_url).render_as_string(hide_password=True)
