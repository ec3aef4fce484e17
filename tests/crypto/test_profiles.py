from __future__ import annotations

import errno
import os
import signal
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


# -- what is wrong with a key file, its lock or its directory, in words (issue 7) -------------------


def refusal(name: str | None = None) -> str:
    with pytest.raises(ProfileError) as caught:
        open_profile(name)
    return str(caught.value)


def test_a_key_path_that_is_a_directory(home: Path) -> None:
    (home / "identities" / "default.key").mkdir(parents=True)
    path = home / "identities" / "default.key"
    assert refusal() == f"the identity key {path} is a directory, not a key file; move it away or choose another --profile"
    assert refusal("default") == refusal()  # the lock was released: the same answer, not "in use"


def test_a_key_path_that_is_a_dangling_symlink_names_its_target(home: Path, tmp_path: Path) -> None:
    (home / "identities").mkdir(parents=True)
    path = home / "identities" / "amy.key"
    path.symlink_to(tmp_path / "usb" / "amy.key")
    expected = (
        f"the identity key {path} is a symbolic link to {tmp_path / 'usb' / 'amy.key'}, which does not exist; "
        f"put your key file back at {tmp_path / 'usb' / 'amy.key'}, or remove the link to make a new identity"
    )
    assert refusal("amy") == expected
    assert refusal("amy") == expected  # trying again gives the same answer
    assert path.is_symlink() and not list((home / "identities").glob("*.tmp"))  # nothing replaced


def test_a_relative_dangling_symlink_is_named_from_its_directory(home: Path) -> None:
    (home / "identities").mkdir(parents=True)
    path = home / "identities" / "amy.key"
    path.symlink_to(Path("..") / "backup" / "amy.key")
    target = home / "identities" / ".." / "backup" / "amy.key"
    assert refusal("amy") == (
        f"the identity key {path} is a symbolic link to {target}, which does not exist; "
        f"put your key file back at {target}, or remove the link to make a new identity"
    )


def test_a_key_path_that_is_a_symlink_loop(home: Path) -> None:
    (home / "identities").mkdir(parents=True)
    path = home / "identities" / "bea.key"
    path.symlink_to(path)
    assert refusal("bea") == (
        f"the identity key {path} is a symbolic link to {path}, which leads round in a loop; "
        "point it at your key file, or remove it to make a new identity"
    )


def test_a_symlink_to_a_key_file_is_followed(home: Path, tmp_path: Path) -> None:
    open_profile("cy").close()
    kept = tmp_path / "kept.key"
    (home / "identities" / "cy.key").rename(kept)
    (home / "identities" / "cy.key").symlink_to(kept)
    with open_profile("cy") as profile:
        assert not profile.created


def test_a_key_path_that_is_a_fifo_is_refused_without_waiting(home: Path) -> None:
    (home / "identities").mkdir(parents=True)
    path = home / "identities" / "dee.key"
    os.mkfifo(path, 0o600)

    def waited(*_: object) -> None:
        pytest.fail("opening the FIFO waited for a writer")

    previous = signal.signal(signal.SIGALRM, waited)
    signal.alarm(20)
    try:
        message = refusal("dee")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert message == (
        f"the identity key {path} is not a regular file, so not a key file; move it away or choose another --profile"
    )


def test_an_empty_key_file(home: Path) -> None:
    (home / "identities").mkdir(parents=True)
    path = home / "identities" / "eve.key"
    path.write_bytes(b"")
    path.chmod(0o600)
    assert refusal("eve") == (
        f"the identity key {path} is empty, not a PEM private key; put back a copy of your key, "
        "or delete the file to make a new identity"
    )


def test_a_key_file_far_too_big(home: Path) -> None:
    (home / "identities").mkdir(parents=True)
    path = home / "identities" / "fay.key"
    path.write_bytes(b"x" * 100_000)
    path.chmod(0o600)
    assert refusal("fay") == (
        f"the identity key {path} is 100000 bytes, far too big for a key file (an Ed25519 key file is about "
        "120 bytes); move it away or choose another --profile"
    )


def test_a_key_file_others_can_write_is_refused_in_words(home: Path) -> None:
    open_profile("gus").close()
    path = home / "identities" / "gus.key"
    path.chmod(0o602)
    assert refusal("gus") == f"other users can access the identity key {path} (mode 602); protect it with: chmod 600 {path}"


@pytest.mark.parametrize(
    "make, kind",
    [
        ("ec", "an EC key (secp256r1)"),
        ("rsa", "an RSA key (2048 bits)"),
    ],
)
def test_a_key_of_another_kind_is_named_with_its_article(home: Path, make: str, kind: str) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec, rsa

    key = ec.generate_private_key(ec.SECP256R1()) if make == "ec" else rsa.generate_private_key(65537, 2048)
    (home / "identities").mkdir(parents=True)
    path = home / "identities" / "hugo.key"
    path.write_bytes(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ))
    path.chmod(0o600)
    assert refusal("hugo") == f"the identity key {path} holds {kind}, not an Ed25519 key"


def failing(monkeypatch: pytest.MonkeyPatch, function: str, path: Path, code: int) -> None:
    """Make ``os.<function>`` fail with ``code`` for ``path`` (as for another user, or read-only
    media: the tests may run as root, whom permissions don't stop)."""
    real = getattr(os, function)

    def fake(target, *args, **kwargs):
        if Path(target) == path:
            raise OSError(code, os.strerror(code), str(target))
        return real(target, *args, **kwargs)

    monkeypatch.setattr(os, function, fake)


def test_an_unreadable_key_file(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    open_profile("ida").close()
    path = home / "identities" / "ida.key"
    failing(monkeypatch, "open", path, errno.EACCES)
    assert refusal("ida") == (
        f"can't read the identity key {path}: permission denied; p2pgames only uses a key file you own and "
        f"can read: check its owner, and protect it with: chmod 600 {path}"
    )


@pytest.mark.parametrize("code, why", [(errno.EACCES, "permission denied"), (errno.EROFS, "read-only file system")])
def test_a_key_that_cant_be_written(home: Path, monkeypatch: pytest.MonkeyPatch, code: int, why: str) -> None:
    (home / "identities").mkdir(parents=True)
    failing(monkeypatch, "open", home / "identities" / ".jo.key.tmp", code)
    assert refusal("jo") == (
        f"can't create the identity key {home / 'identities' / 'jo.key'}: {why}; make {home / 'identities'} "
        "writable for you, or set P2PGAMES_HOME to a directory you can write"
    )


def test_a_read_only_home(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home.mkdir()
    failing(monkeypatch, "mkdir", home / "identities", errno.EROFS)
    assert refusal() == (
        f"can't create {home / 'identities'}: read-only file system; set P2PGAMES_HOME to a directory you can write"
    )


def test_a_read_only_home_with_a_key_but_no_lock_file(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    open_profile("kay").close()
    lock = home / "identities" / "kay.lock"
    lock.unlink()
    failing(monkeypatch, "open", lock, errno.EROFS)
    assert refusal("kay") == (
        f"can't open the profile's lock file {lock}: read-only file system; make {home / 'identities'} "
        "writable for you, or set P2PGAMES_HOME to a directory you can write"
    )


def test_a_home_that_is_a_file(home: Path) -> None:
    home.write_text("not a directory")
    assert refusal() == (
        f"{home} is not a directory; p2pgames keeps its identity keys in {home / 'identities'}: "
        "move it away, or set P2PGAMES_HOME to another directory"
    )


def test_a_lock_path_that_is_a_directory(home: Path) -> None:
    (home / "identities" / "lou.lock").mkdir(parents=True)
    assert refusal("lou") == (
        f"the profile's lock file {home / 'identities' / 'lou.lock'} is a directory; "
        "move it away or choose another --profile"
    )


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root can give a file away")
def test_a_key_file_of_another_user(home: Path) -> None:
    open_profile("max").close()
    path = home / "identities" / "max.key"
    os.chown(path, 65534, 65534)
    assert refusal("max") == (
        f"the identity key {path} belongs to another user, and p2pgames only uses your own keys; "
        "choose another --profile"
    )


def test_a_home_of_someone_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("P2PGAMES_HOME", "~no-such-user-here/p2p")
    assert refusal() == (
        "P2PGAMES_HOME is ~no-such-user-here/p2p, but there is no home directory for ~no-such-user-here; "
        "set it to a directory you can write"
    )


def test_a_profile_in_use_says_which_process_holds_it_and_what_it_is_doing(home: Path) -> None:
    with open_profile("frank", doing="joining the table at 192.0.2.7:4000"):
        with pytest.raises(profiles.ProfileInUse) as caught:
            open_profile("frank", doing="resuming")
    busy = caught.value
    assert (busy.name, busy.pid, busy.doing) == ("frank", os.getpid(), "joining the table at 192.0.2.7:4000")
    assert str(busy) == (
        f"profile 'frank' is in use by another p2pgames process (pid {os.getpid()}, joining the table at "
        "192.0.2.7:4000); choose another with --profile NAME"
    )


@pytest.mark.parametrize("written, pid, doing", [
    ("4242\n", 4242, ""),  # what a p2pgames before this one wrote
    ("4242\nhosting Steam Torpedo\n", 4242, "hosting Steam Torpedo"),
    ("", None, ""),
    ("not a pid\nhosting\n", None, "hosting"),
])
def test_what_a_lock_file_says_of_its_holder(home: Path, written: str, pid: int | None, doing: str) -> None:
    (home / "identities").mkdir(parents=True)
    path = home / "identities" / "gina.lock"
    path.write_text(written)
    assert profiles._holder(path) == (pid, doing)


def test_the_default_profiles_and_their_identities_are_read_without_taking_them(home: Path) -> None:
    assert profiles.default_profiles() == []
    with open_profile(None) as first, open_profile(None) as second, open_profile("other"):
        assert profiles.default_profiles() == ["default", "default-2"]
        assert profiles.read_identity("default-2").public_key == second.identity.public_key  # type: ignore[union-attr]
        assert profiles.read_identity("default").public_key == first.identity.public_key  # type: ignore[union-attr]
        assert profiles.read_identity("nobody") is None
        with pytest.raises(profiles.ProfileInUse):
            open_profile("default")  # still the first one's
    assert not (home / "identities" / "nobody.key").exists(), "reading makes no profile"
