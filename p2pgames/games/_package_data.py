"""Reading a data file shipped beside a game's module (``tiles.toml``, ``descriptors.toml``)."""

from __future__ import annotations

import os
from importlib.machinery import ModuleSpec

__all__ = ["read_text"]


def read_text(spec: ModuleSpec, name: str) -> str:
    """The UTF-8 text of file ``name`` in the package of the module ``spec`` describes (its
    ``__spec__``), read through the module's own loader as ``pkgutil.get_data`` does, so a zipped
    install works too. Not ``importlib.resources``, whose import (zipfile, tempfile, ...) costs
    more than reading the file: every ``p2pgames verify`` of the game pays for what it loads.

    Raises :class:`OSError` if the file can't be read.
    """
    assert spec.loader is not None and spec.origin is not None
    return spec.loader.get_data(os.path.join(os.path.dirname(spec.origin), name)).decode("utf-8")  # type: ignore[attr-defined]
