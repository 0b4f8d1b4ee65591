"""Which of a mail's files each SET MAPS choice keeps (`judge.service.outgoing.preferences.kept`), and the
judge-wide default (``maps-default``).  The choice played by mail, on a real game, is in
tests/games/payola/test_set_maps_by_mail.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.mail.outbound import Attachment, Drawn
from judge.service.config import ConfigError, Settings, load_settings
from judge.service.outgoing.preferences import kept

ORDERS_PNG = Drawn("orders.png", "image/png", lambda: b"", role="orders")
BOARD_PNG = Drawn("board.png", "image/png", lambda: b"", role="board")
BOARD_SVG = Drawn("board.svg", "image/svg+xml", lambda: b"", role="board")
ORDERS_SVG = Drawn("orders.svg", "image/svg+xml", lambda: b"", role="orders", spare=True)
RESULTS = [ORDERS_PNG, BOARD_PNG, BOARD_SVG, ORDERS_SVG]  # what a results mail offers
ASKED = Attachment("help.txt", "text/plain", b"help")  # a file asked for: no picture of the choice


def names(files: list[Attachment | Drawn]) -> list[str]:
    return [file.filename for file in files]


@pytest.mark.parametrize(("choice", "carried"), [
    ("png", ["orders.png"]), ("svg", ["orders.svg"]), ("all", ["orders.png", "board.png", "board.svg"]),
    ("none", []),
])
def test_each_choice_keeps_its_pictures_of_a_results_mail(choice: str, carried: list[str]) -> None:
    assert names(kept(RESULTS, choice)) == carried


def test_where_there_are_no_orders_the_one_picture_is_the_board() -> None:
    start: list[Attachment | Drawn] = [BOARD_PNG, BOARD_SVG]
    assert names(kept(start, "png")) == ["board.png"]
    assert names(kept(start, "svg")) == ["board.svg"]


def test_svg_is_the_board_s_where_the_orders_are_not_drawn_as_svg_and_the_png_where_nothing_is() -> None:
    assert names(kept([ORDERS_PNG, BOARD_PNG, BOARD_SVG], "svg")) == ["board.svg"]
    assert names(kept([BOARD_PNG], "svg")) == ["board.png"]


def test_a_file_that_is_no_picture_of_the_choice_is_always_kept() -> None:
    for choice in ("png", "svg", "all", "none"):
        assert ASKED in kept([ASKED, *RESULTS], choice)


def test_the_judge_s_default_is_png_and_a_setting_changes_it(tmp_path: Path) -> None:
    assert Settings().maps_default == "png"
    (tmp_path / "judge.toml").write_text('maps-default = "ALL"\n', "utf-8")
    assert load_settings(tmp_path / "judge.toml", environ={}).maps_default == "all"
    assert load_settings(environ={"JUDGE_MAPS_DEFAULT": "none"}).maps_default == "none"


def test_a_default_that_is_no_choice_is_refused_naming_the_choices(tmp_path: Path) -> None:
    (tmp_path / "judge.toml").write_text('maps-default = "jpeg"\n', "utf-8")
    with pytest.raises(ConfigError, match="maps-default must be one of png, svg, all, none"):
        load_settings(tmp_path / "judge.toml", environ={})
