"""Passwords: only scrypt hashes are stored, and a right password costs its scrypt once per process."""

from __future__ import annotations

import hashlib

import pytest

from judge.service import passwords
from judge.service.passwords import hash_password, verify_password


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """Every scrypt computed from now on, by its password."""
    calls: list[bytes] = []
    real = hashlib.scrypt

    def counting(password: bytes, **kwargs: int | bytes) -> bytes:
        calls.append(password)
        return real(password, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(passwords.hashlib, "scrypt", counting)
    return calls


def test_a_verified_password_is_remembered_and_a_wrong_one_never_is(monkeypatch: pytest.MonkeyPatch) -> None:
    stored = hash_password("correct horse")
    passwords._verified.clear()  # as if another process (an earlier judge) had hashed it
    calls = _counted(monkeypatch)
    assert verify_password("correct horse", stored) and verify_password("correct horse", stored)
    assert len(calls) == 1  # the second sign-on did not pay for scrypt
    assert not verify_password("wrong", stored) and not verify_password("wrong", stored)
    assert len(calls) == 3  # every wrong guess does


def test_a_password_hashed_here_is_not_paid_for_again_at_its_first_sign_on(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counted(monkeypatch)
    stored = hash_password("correct horse")  # JOIN: the one scrypt
    assert verify_password("correct horse", stored) and len(calls) == 1
    assert not verify_password("correct hors", stored) and len(calls) == 2  # a wrong guess still pays
    other = hash_password("correct horse")  # the same password, a new hash (SET PASSWORD)
    assert other != stored and verify_password("correct horse", other) and len(calls) == 3
    passwords._verified.clear()
    assert verify_password("correct horse", other) and len(calls) == 4  # forgotten: checked afresh


def test_what_is_remembered_is_no_password() -> None:
    stored = hash_password("s3cret-words")
    assert verify_password("s3cret-words", stored)
    assert all(b"s3cret" not in key for key in passwords._verified)
