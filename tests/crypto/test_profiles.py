from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from p2pgames import profiles
from p2pgames.crypto import Identity
from p2pgames.profiles import ProfileError, open_profile


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("P2PGAMES_HOME", str(tmp_path / "p2p"))
    return tmp_path / "p2p"


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_config_dir_precedence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("P2PGAMES_HOME", str(tmp_path / "a"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert profiles.config_dir() == tmp_path / "a"
    monkeypatch.setenv("P2PGAMES_HOME", "")
    assert profiles.config_dir() == tmp_path / "xdg" / "p2pgames"
    monkeypatch.delenv("P2PGAMES_HOME")
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/path")
    monkeypatch.setenv("HOME", str(tmp_path / "h"))
    assert profiles.config_dir() == tmp_path / "h" / ".config" / "p2pgames"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    assert profiles.config_dir() == tmp_path / "h" / ".config" / "p2pgames"
    assert profiles.identities_dir() == tmp_path / "h" / ".config" / "p2pgames" / "identities"


def test_new_profile_is_created_privately_and_reloaded(home: Path) -> None:
    with open_profile("alice") as profile:
        assert (profile.name, profile.created, profile.fell_back) == ("alice", True, False)
        assert profile.path == home / "identities" / "alice.key"
        fingerprint = profile.identity.public_key.fingerprint()
    assert profile.closed
    assert mode(home / "identities") == 0o700
    assert mode(home / "identities" / "alice.key") == 0o600
    text = (home / "identities" / "alice.key").read_text()
    assert text.startswith("-----BEGIN PRIVATE KEY-----")
    assert not list((home / "identities").glob(".*tmp"))
    with open_profile("alice") as again:
        assert not again.created
        assert again.identity.public_key.fingerprint() == fingerprint


def test_key_file_is_standard_pkcs8(home: Path) -> None:
    from cryptography.hazmat.primitives import serialization

    with open_profile("bob") as profile:
        key = serialization.load_pem_private_key(profile.path.read_bytes(), password=None)
        assert key.private_bytes_raw() == profile.identity.private_bytes()  # type: ignore[union-attr]


def test_default_falls_back_when_locked(home: Path) -> None:
    with open_profile(None) as first:
        assert (first.name, first.fell_back) == ("default", False)
        with open_profile(None) as second:
            assert (second.name, second.fell_back, second.created) == ("default-2", True, True)
            with open_profile() as third:
                assert third.name == "default-3"
            assert second.identity.public_key != first.identity.public_key
    # Once released, default is the first choice again, with its old identity.
    with open_profile(None) as again:
        assert again.name == "default" and not again.created
        assert again.identity.public_key == first.identity.public_key


def test_explicit_name_in_use_is_an_error(home: Path) -> None:
    with open_profile("carol"):
        with pytest.raises(ProfileError) as caught:
            open_profile("carol")
    message = str(caught.value)
    assert "profile 'carol' is in use by another p2pgames process" in message
    assert f"pid {os.getpid()}" in message
    assert "--profile NAME" in message
    open_profile("carol").close()  # free again


def test_lock_is_held_against_another_process(home: Path) -> None:
    code = (
        "import sys\n"
        "from p2pgames.profiles import open_profile, ProfileError\n"
        "try:\n"
        "    open_profile('dave')\n"
        "except ProfileError as e:\n"
        "    print(e); sys.exit(3)\n"
        "p = open_profile(None); print(p.name)\n"
    )
    env = dict(os.environ, P2PGAMES_HOME=str(home))
    with open_profile("dave"), open_profile(None):
        result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
        assert result.returncode == 3, result.stderr
        assert f"(pid {os.getpid()})" in result.stdout
        code2 = code.replace("open_profile('dave')", "pass")
        result = subprocess.run([sys.executable, "-c", code2], env=env, capture_output=True, text=True, timeout=60)
        assert result.stdout.strip() == "default-2", result.stderr


@pytest.mark.parametrize("loose", [0o644, 0o640, 0o604, 0o660])
def test_key_file_readable_by_others_is_refused(home: Path, loose: int) -> None:
    open_profile("erin").close()
    path = home / "identities" / "erin.key"
    path.chmod(loose)
    with pytest.raises(ProfileError) as caught:
        open_profile("erin")
    assert str(path) in str(caught.value)
    assert f"chmod 600 {path}" in str(caught.value)
    path.chmod(0o600)
    open_profile("erin").close()
    # The refusal released the lock: the profile isn't left "in use".
    path.chmod(loose)
    with pytest.raises(ProfileError, match="chmod"):
        open_profile("erin")


def test_default_with_unsafe_key_does_not_silently_fall_back(home: Path) -> None:
    open_profile(None).close()
    (home / "identities" / "default.key").chmod(0o644)
    with pytest.raises(ProfileError, match="chmod 600"):
        open_profile(None)


@pytest.mark.parametrize(
    "content, message",
    [
        (b"garbage", "not a PEM private key"),
        (b"", "not a PEM private key"),
    ],
)
def test_unreadable_key_files(home: Path, content: bytes, message: str) -> None:
    (home / "identities").mkdir(parents=True)
    path = home / "identities" / "frank.key"
    path.write_bytes(content)
    path.chmod(0o600)
    with pytest.raises(ProfileError, match=message):
        open_profile("frank")


def test_other_key_types_are_refused(home: Path) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    (home / "identities").mkdir(parents=True)
    path = home / "identities" / "gina.key"
    path.write_bytes(
        ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    path.chmod(0o600)
    with pytest.raises(ProfileError, match="not an Ed25519 key"):
        open_profile("gina")


def test_encrypted_key_files_are_refused(home: Path) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    (home / "identities").mkdir(parents=True)
    path = home / "identities" / "hal.key"
    path.write_bytes(
        Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.BestAvailableEncryption(b"pw"),
        )
    )
    path.chmod(0o600)
    with pytest.raises(ProfileError, match="encrypted"):
        open_profile("hal")


def test_existing_key_file_is_used_not_replaced(home: Path) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    identity = Identity.from_private_bytes(bytes(range(32)))
    (home / "identities").mkdir(parents=True)
    path = home / "identities" / "ivy.key"
    path.write_bytes(
        Ed25519PrivateKey.from_private_bytes(identity.private_bytes()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    path.chmod(0o600)
    with open_profile("ivy") as profile:
        assert not profile.created
        assert profile.identity.public_key == identity.public_key


@pytest.mark.parametrize("name", ["", "Alice", "-x", "_x", "a" * 33, "a/b", "a.b", "../x", "é", "a b"])
def test_invalid_profile_names(home: Path, name: str) -> None:
    with pytest.raises(ProfileError, match="invalid profile name"):
        open_profile(name)


@pytest.mark.parametrize("name", ["a", "0", "default-2", "x_y", "a" * 32])
def test_valid_profile_names(name: str) -> None:
    assert profiles.check_profile_name(name) == name


def test_profile_repr_and_double_close(home: Path) -> None:
    profile = open_profile("kim")
    assert "'kim'" in repr(profile) and "open" in repr(profile)
    assert profile.identity.private_bytes().hex() not in repr(profile)
    profile.close()
    profile.close()
    assert "closed" in repr(profile)
