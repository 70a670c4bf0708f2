"""The app's readers use the art packs the config names (``[vision] pack``,
``[vision.enigma] pack``, ``[vision.code] pack``): a relative name lives in the data dir."""

from __future__ import annotations

from pathlib import Path

import pytest

from config import art_pack_folder, config_from_dict
from ui.cli import main
from ui.reading import read_code_frame
from vision.errors import ArtPackError
from vision.image_io import read_image

ALL = "0b 0w 1b 1w 2b 2w 3b 3w 4b 4w 5g 5g 6b 6w 7b 7w 8b 8w 9b 9w"


def test_pack_folders_resolve_in_the_data_dir(tmp_path: Path) -> None:
    cfg = config_from_dict({"app": {"data_dir": str(tmp_path)}})
    assert art_pack_folder(cfg, "") is None
    assert art_pack_folder(cfg, "my-tiles") == tmp_path / "my-tiles"
    assert art_pack_folder(cfg, "/srv/packs/ink") == Path("/srv/packs/ink")
    assert art_pack_folder(cfg, "~/ink") == Path.home() / "ink"


def test_a_rack_is_read_with_the_taught_tiles(tmp_path: Path) -> None:
    photo, rack = tmp_path / "all.png", tmp_path / "rack.png"
    assert main(["render", "code", ALL, "--style", "ivory", "-o", str(photo), "--seed", "2"]) == 0
    assert main(["teach", "code", str(photo), "-o", str(tmp_path / "ivory-tiles")]) == 0
    assert main(["render", "code", "1b 3w 4w 6b", "--style", "ivory", "-o", str(rack),
                 "--seed", "5"]) == 0
    cfg = config_from_dict({"app": {"data_dir": str(tmp_path)},
                            "vision": {"code": {"pack": "ivory-tiles"}}})
    reading = read_code_frame(read_image(rack), expected=4, cfg=cfg)
    assert reading.problem == ""
    assert str(reading.code) == "1b 3w 4w 6b"


def test_a_missing_taught_pack_is_named(tmp_path: Path) -> None:
    rack = tmp_path / "rack.png"
    assert main(["render", "code", "1b 3w 4w 6b", "-o", str(rack)]) == 0
    cfg = config_from_dict({"app": {"data_dir": str(tmp_path)},
                            "vision": {"code": {"pack": "nowhere"}}})
    with pytest.raises(ArtPackError, match="nowhere"):
        read_code_frame(read_image(rack), expected=4, cfg=cfg)
