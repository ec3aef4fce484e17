"""Games read their data files (``tiles.toml``, ``descriptors.toml``) through their module's loader,
so a package installed as a zip reads them too (:func:`p2pgames.games._package_data.read_text`)."""

from __future__ import annotations

import importlib
import sys
import zipfile
from pathlib import Path

from p2pgames.games._package_data import read_text


def test_a_data_file_is_read_beside_a_module_on_disk_and_in_a_zip(tmp_path: Path):
    text = "name = \"Panzer la Rochelle\"\n# ünïcode\n"
    on_disk = tmp_path / "disk" / "shipped_on_disk"
    on_disk.mkdir(parents=True)
    (on_disk / "__init__.py").write_text("")
    (on_disk / "data.toml").write_text(text, encoding="utf-8")
    archive = tmp_path / "installed.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("shipped_in_zip/__init__.py", "")
        zipped.writestr("shipped_in_zip/data.toml", text.encode("utf-8"))
    sys.path[:0] = [str(tmp_path / "disk"), str(archive)]
    try:
        for name in ("shipped_on_disk", "shipped_in_zip"):
            module = importlib.import_module(name)
            assert read_text(module.__spec__, "data.toml") == text
        assert "zipimport" in type(sys.modules["shipped_in_zip"].__spec__.loader).__module__
    finally:
        del sys.path[:2]
        for name in ("shipped_on_disk", "shipped_in_zip"):
            sys.modules.pop(name, None)
