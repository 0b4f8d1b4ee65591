"""Settings from the example config file, the environment and the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.service.config import ConfigError, load_settings

EXAMPLE = Path(__file__).parents[2] / "deploy" / "judge.toml"


def test_the_example_config_file_loads() -> None:
    settings = load_settings(EXAMPLE, environ={})
    assert settings.judge_address == "judge@example.org"
    assert settings.data_dir == Path("/var/lib/judge")
    assert settings.relay_address == ("127.0.0.1", 25)
    assert settings.max_size == 262144 and settings.durations["movement"] == 48.0


def test_environment_beats_file_and_command_line_beats_both() -> None:
    settings = load_settings(EXAMPLE, environ={"JUDGE_PORT": "2600", "JUDGE_DOMAIN": "env.example"},
                             overrides={"domain": "cli.example", "relay": None})
    assert settings.port == 2600 and settings.domain == "cli.example"
    assert settings.relay == "127.0.0.1:25"  # an option not given does not erase the file's value


def test_defaults_are_sqlite_and_the_maildir(tmp_path: Path) -> None:
    settings = load_settings(None, environ={}, overrides={"data_dir": tmp_path})
    assert settings.database_url == f"sqlite:///{(tmp_path / 'judge.db').resolve()}"
    assert settings.relay_address is None and settings.maildir == tmp_path / "outbox"


def test_bad_settings_are_named(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[judge]\nprot = 25\n')
    with pytest.raises(ConfigError, match="unknown setting 'prot'"):
        load_settings(bad, environ={})
    with pytest.raises(ConfigError, match="bad value for port"):
        load_settings(None, environ={"JUDGE_PORT": "many"})
    with pytest.raises(ConfigError, match="must be HOST:PORT"):
        _ = load_settings(None, environ={}, overrides={"relay": "nowhere"}).relay_address


def test_a_configured_phase_lasts_at_least_an_hour_and_no_grace_is_allowed(tmp_path: Path) -> None:
    config = tmp_path / "judge.toml"
    config.write_text("[judge.durations]\nmovement = 0\n")
    with pytest.raises(ConfigError, match="durations"):
        load_settings(config, environ={})
    config.write_text("[judge.durations]\nmovement = 1\ngrace = 0\n")
    assert load_settings(config, environ={}).durations["movement"] == 1.0


def test_trusted_clients_are_a_list_of_addresses_or_networks(tmp_path: Path) -> None:
    assert load_settings(EXAMPLE, environ={}).trusted_clients == ("127.0.0.1", "::1")
    config = tmp_path / "judge.toml"
    config.write_text('[judge]\ntrusted-clients = ["192.0.2.25", "2001:db8::/64"]\n')
    assert load_settings(config, environ={}).trusted_clients == ("192.0.2.25", "2001:db8::/64")
    assert load_settings(None, environ={"JUDGE_TRUSTED_CLIENTS": "10.0.0.0/8, ::1"}).trusted_clients \
        == ("10.0.0.0/8", "::1")
    assert load_settings(None, environ={"JUDGE_TRUSTED_CLIENTS": ""}).trusted_clients == ()  # no MTA in front
    with pytest.raises(ConfigError, match="bad value for trusted_clients"):
        load_settings(None, environ={"JUDGE_TRUSTED_CLIENTS": "mail.example.org"})
