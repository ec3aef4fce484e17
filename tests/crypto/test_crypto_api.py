"""The shape of the public API and the purity of the package."""

from __future__ import annotations

import ast
from pathlib import Path

import p2pgames.crypto as crypto

PACKAGE_DIR = Path(crypto.__file__).parent
# The only imports crypto may make: no I/O, clock, threads or network; os only for os.urandom.
ALLOWED_IMPORTS = {
    "__future__", "base64", "collections", "collections.abc", "contextlib", "dataclasses", "functools",
    "hashlib", "hmac", "typing", "os", "cryptography", "nacl",
}


def test_all_names_exist_and_report_the_package() -> None:
    assert len(set(crypto.__all__)) == len(crypto.__all__)
    for name in crypto.__all__:
        obj = getattr(crypto, name)
        if callable(obj) and hasattr(obj, "__module__"):
            assert obj.__module__ == "p2pgames.crypto", name


def test_private_modules_are_private() -> None:
    for path in PACKAGE_DIR.glob("*.py"):
        assert path.name == "__init__.py" or path.name.startswith("_"), path.name


def test_error_hierarchy() -> None:
    for error in (crypto.BadSignature, crypto.BadCommitment, crypto.BadCardValue, crypto.SealError):
        assert issubclass(error, crypto.CryptoError)
    assert issubclass(crypto.CryptoError, Exception)


def test_crypto_imports_nothing_that_does_io() -> None:
    for path in PACKAGE_DIR.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative: inside p2pgames
                    continue
                modules = [node.module or ""]
            else:
                continue
            for module in modules:
                assert module.split(".")[0] in ALLOWED_IMPORTS or module in ALLOWED_IMPORTS, (path.name, module)
                if module == "os":
                    assert path.name == "_random.py", "only _random.py may touch os (for os.urandom)"
        if path.name != "_random.py":
            assert "open(" not in path.read_text(encoding="utf-8").replace("open_sealed(", ""), path.name
