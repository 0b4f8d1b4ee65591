"""Imported by the server the in-process daemons fork their children from (tests/conftest.py names it among
that server's modules): their appliers and deadline workers, which import the judge afresh there, then hash
passwords at the tests' cost too, as the test process does, not at the real one (some fifty hashes at 50 ms)."""

from judge.service import passwords

passwords._N = 2**8  # as tests/conftest.py's _cheap_password_hashes
