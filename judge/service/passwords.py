"""Password hashing with scrypt (standard library): only hashes are ever stored.

scrypt is slow on purpose (tens of milliseconds), which a judge that reads every player's
SIGNON in every mail would pay again and again.  So a successful check is remembered for the
life of the process: as an HMAC, under a secret the process draws at start, of the stored hash
and the password — never the password itself, and never a failure (a wrong guess always costs
its scrypt).  A changed password has a new stored hash, so the old entry no longer matches.
A hash this process made (JOIN, CREATE, SET PASSWORD) is remembered as checked too: its
scrypt has just been paid, and the player's first sign-on need not pay it again.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections import OrderedDict

_N, _R, _P = 2**14, 8, 1
_SECRET = secrets.token_bytes(32)
_REMEMBERED = 10_000  # successful checks kept, the oldest forgotten first
_verified: OrderedDict[bytes, None] = OrderedDict()
_lock = threading.Lock()


def hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=_N, r=_R, p=_P)
    stored = f"scrypt${_N}${_R}${_P}${salt.hex()}${digest.hex()}"
    _remember(_key(password, stored))
    return stored


def verify_password(password: str, stored: str | None) -> bool:
    if not stored:
        return False
    key = _key(password, stored)
    with _lock:
        if key in _verified:
            _verified.move_to_end(key)
            return True
    if not _scrypt_matches(password, stored):
        return False
    _remember(key)
    return True


def _key(password: str, stored: str) -> bytes:
    """What is remembered of a right password: an HMAC of it with its stored hash."""
    return hmac.new(_SECRET, f"{stored}\0{password}".encode("utf-8", "surrogatepass"), hashlib.sha256).digest()


def _remember(key: bytes) -> None:
    with _lock:
        _verified[key] = None
        if len(_verified) > _REMEMBERED:
            _verified.popitem(last=False)


def _scrypt_matches(password: str, stored: str) -> bool:
    try:
        _, n, r, p, salt, digest = stored.split("$")
        actual = hashlib.scrypt(password.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p))
    except ValueError:
        return False
    return hmac.compare_digest(actual.hex(), digest)
