"""Named identity profiles on disk: who this player is, kept between games.

A profile is an Ed25519 private key in ``<config dir>/identities/<profile>.key`` (unencrypted
PKCS#8 PEM, mode 0600), where the config dir is ``$P2PGAMES_HOME`` if set, else
``$XDG_CONFIG_HOME/p2pgames``, else ``~/.config/p2pgames``.

A process that uses a profile holds an exclusive lock on ``<profile>.lock`` (``fcntl.flock``) until
it closes it, so one identity never sits at a table twice. Two players in two terminals of one
machine still work out of the box: without an explicit name the first unlocked of ``default``,
``default-2``, ``default-3``, … is used (created if missing), and the :class:`Profile` says so::

    with open_profile(args.profile) as profile:
        if profile.fell_back:
            print(f"profile 'default' is in use; playing as '{profile.name}'")
        run(profile.identity)

POSIX only (``fcntl``).
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
from pathlib import Path
from types import TracebackType

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from .crypto import Identity

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "DEFAULT_PROFILE",
    "Profile",
    "ProfileError",
    "ProfileInUse",
    "check_profile_name",
    "config_dir",
    "default_profiles",
    "identities_dir",
    "open_profile",
    "read_identity",
]

DEFAULT_PROFILE = "default"
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
_MAX_FALLBACK = 99  # default-2 … default-99: beyond that something else is wrong
_DEFAULT_NAMES = [DEFAULT_PROFILE] + [f"{DEFAULT_PROFILE}-{i}" for i in range(2, _MAX_FALLBACK + 1)]
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # opening a FIFO must not wait for a writer
_MAX_KEY_FILE = 64 * 1024  # an Ed25519 PKCS#8 PEM key is 119 bytes


class ProfileError(Exception):
    """A profile can't be used: bad name, in use, unsafe permissions, unreadable key file.

    Its text is the message for the user: it names the file or directory, what is wrong with it
    and what to do. Every ``OSError`` of the file system becomes one.
    """


class ProfileInUse(ProfileError):
    """The profile ``name`` is held by another process: ``pid`` (``None`` if its lock file doesn't
    say), doing what it said when it took the profile (``doing``: "" if it said nothing)."""

    def __init__(self, name: str, pid: int | None, doing: str) -> None:
        self.name, self.pid, self.doing = name, pid, doing
        super().__init__(f"profile {name!r} is in use by another p2pgames process{self.held_by}; choose another with --profile NAME")

    @property
    def held_by(self) -> str:
        """`` (pid 4242, hosting Beltpunk Haberdasher)``: who holds it, as far as is known."""
        known = [f"pid {self.pid}"] if self.pid is not None else []
        known += [self.doing] if self.doing else []
        return f" ({', '.join(known)})" if known else ""


def config_dir() -> Path:
    """``$P2PGAMES_HOME``, else ``$XDG_CONFIG_HOME/p2pgames``, else ``~/.config/p2pgames``.

    Empty variables count as unset, and so does a relative ``XDG_CONFIG_HOME`` (as the XDG
    specification says). Raises :class:`ProfileError` if the home directory can't be found.
    """
    home = os.environ.get("P2PGAMES_HOME")
    if home:
        try:
            return Path(home).expanduser()
        except RuntimeError:  # "~someone" who has no home directory here
            raise ProfileError(
                f"P2PGAMES_HOME is {home}, but there is no home directory for {home.split('/')[0]}; "
                "set it to a directory you can write"
            ) from None
    xdg = os.environ.get("XDG_CONFIG_HOME")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "p2pgames"
    try:
        return Path.home() / ".config" / "p2pgames"
    except RuntimeError:
        raise ProfileError(
            "can't find your home directory to keep identities in; set P2PGAMES_HOME to a directory you can write"
        ) from None


def identities_dir() -> Path:
    """Where profiles' key files live: ``config_dir() / "identities"``."""
    return config_dir() / "identities"


def check_profile_name(name: str) -> str:
    """Return ``name`` if it is a valid profile name (``[a-z0-9][a-z0-9_-]{0,31}``).

    Raises :class:`ProfileError` otherwise.
    """
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ProfileError(
            f"invalid profile name {name!r}: use 1 to 32 of a-z, 0-9, '_' and '-', "
            "starting with a letter or digit"
        )
    return name


class Profile:
    """An open profile: its identity, and the lock that reserves it for this process.

    ``name`` is the profile used; ``fell_back`` is true when no name was asked for and ``default``
    was in use, so another was chosen; ``created`` is true when its key was made just now. Close it
    (or leave its ``with`` block) to release the lock.
    """

    __slots__ = ("name", "path", "identity", "created", "fell_back", "_lock_fd")

    def __init__(
        self,
        name: str,
        path: Path,
        identity: Identity,
        created: bool,
        fell_back: bool,
        lock_fd: int,
    ) -> None:
        self.name = name
        self.path = path
        self.identity = identity
        self.created = created
        self.fell_back = fell_back
        self._lock_fd: int | None = lock_fd

    @property
    def closed(self) -> bool:
        return self._lock_fd is None

    def close(self) -> None:
        """Release the profile's lock. Closing twice is harmless."""
        if self._lock_fd is not None:
            fd, self._lock_fd = self._lock_fd, None
            os.close(fd)  # closing the descriptor releases the flock

    def __enter__(self) -> Profile:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else "open"
        return (
            f"<Profile {self.name!r} {self.identity.public_key.fingerprint()} {state}"
            f"{' created' if self.created else ''}{' fell back' if self.fell_back else ''}>"
        )


def open_profile(name: str | None = None, *, doing: str = "") -> Profile:
    """Lock and load (creating it if missing) a profile's identity; ``doing`` (one line: "hosting
    Beltpunk Haberdasher") is kept with the lock, to tell another process that wants the profile.

    With a ``name``, that profile or a :class:`ProfileInUse` if another process holds it. With
    ``None``, the first of ``default``, ``default-2``, ``default-3``, … that no process holds.
    Also raises :class:`ProfileError` for an invalid name, a key file other users can access, a
    key file that is not an unencrypted Ed25519 PKCS#8 PEM key (a directory, a dangling symbolic
    link, an empty or huge file …), and files or directories that can't be read or created.
    """
    if name is not None:
        check_profile_name(name)
        candidates = [name]
    else:
        candidates = _DEFAULT_NAMES
    directory = _make_identities_dir()
    for candidate in candidates:
        lock_path = directory / f"{candidate}.lock"
        lock_fd = _try_lock(lock_path, doing)
        if lock_fd is None:
            if name is not None:
                raise ProfileInUse(name, *_holder(lock_path))
            continue
        try:
            key_path = directory / f"{candidate}.key"
            created = not _key_exists(key_path)
            identity = _create_identity(key_path) if created else _load_identity(key_path)
        except BaseException:
            os.close(lock_fd)
            raise
        return Profile(candidate, key_path, identity, created, candidate != candidates[0], lock_fd)
    raise ProfileError(
        f"profiles {candidates[0]!r} to {candidates[-1]!r} are all in use; "
        "choose one with --profile NAME"
    )


# --- files ----------------------------------------------------------------------------------------


def _why(error: OSError) -> str:
    """An ``OSError``'s reason as part of a sentence: "permission denied"."""
    text = error.strerror or str(error)
    return text[:1].lower() + text[1:]


def _cannot_write(what: str, path: Path, error: OSError) -> ProfileError:
    """Creating or writing ``path`` failed: say why, and where p2pgames could write instead."""
    if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return ProfileError(
            f"can't {what} {path}: {_why(error)}; make {path.parent} writable for you, "
            "or set P2PGAMES_HOME to a directory you can write"
        )
    return ProfileError(f"can't {what} {path}: {_why(error)}")


def _make_identities_dir() -> Path:
    directory = identities_dir()
    for path in (directory.parent, directory):
        # A file (or a link to nothing) where a directory belongs: mkdir would only say "exists".
        if os.path.lexists(path) and not path.is_dir():
            raise ProfileError(
                f"{path} is not a directory; p2pgames keeps its identity keys in {directory}: "
                "move it away, or set P2PGAMES_HOME to another directory"
            )
    try:
        directory.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        directory.mkdir(mode=0o700, exist_ok=True)
    except OSError as error:
        if error.errno in (errno.ENOTDIR, errno.EEXIST):
            raise ProfileError(
                f"can't create {directory}: a part of that path is not a directory; "
                "set P2PGAMES_HOME to another directory"
            ) from None
        if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise ProfileError(
                f"can't create {directory}: {_why(error)}; set P2PGAMES_HOME to a directory you can write"
            ) from None
        raise ProfileError(f"can't create {directory}: {_why(error)}") from None
    return directory


def default_profiles() -> list[str]:
    """The profiles ``open_profile(None)`` may choose that exist (have a key file): ``default``,
    ``default-2``, … in that order. Raises :class:`ProfileError` if the directory can't be read."""
    directory = identities_dir()
    try:
        present = {path.stem for path in directory.glob("*.key")}
    except OSError as error:
        raise ProfileError(f"can't read {directory}: {_why(error)}") from None
    return [name for name in _DEFAULT_NAMES if name in present]


def read_identity(name: str) -> Identity | None:
    """Profile ``name``'s identity, read without taking the profile (another process may hold
    it); ``None`` if it has none. Raises :class:`ProfileError` as :func:`open_profile` does for
    a name or key file it can't use."""
    path = identities_dir() / f"{check_profile_name(name)}.key"
    return _load_identity(path) if _key_exists(path) else None


def _try_lock(lock_path: Path, doing: str = "") -> int | None:
    """An open descriptor holding ``lock_path``'s exclusive lock (the file then says who holds it
    and what for: ``doing``), or ``None`` if it is held."""
    if fcntl is None:
        raise ProfileError("profiles need a POSIX system (fcntl is not available)")
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | _O_CLOEXEC | _O_NONBLOCK, 0o600)
    except IsADirectoryError:
        raise ProfileError(
            f"the profile's lock file {lock_path} is a directory; move it away or choose another --profile"
        ) from None
    except OSError as error:
        raise _cannot_write("open the profile's lock file", lock_path, error) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise ProfileError(
                f"the profile's lock file {lock_path} is not a regular file; move it away or choose another --profile"
            )
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        os.close(fd)
        if error.errno in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES):
            return None
        raise ProfileError(f"can't lock {lock_path}: {_why(error)}") from None
    # Record the holder so a second process can say who has the profile, and what it is doing.
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n{' '.join(doing.split())}\n".encode("utf-8"), 0)
    except OSError as error:
        os.close(fd)
        raise _cannot_write("write the profile's lock file", lock_path, error) from None
    return fd


def _holder(lock_path: Path) -> tuple[int | None, str]:
    """What the lock file says of its holder: its pid (``None`` if unknown) and what it is doing
    ("" if it didn't say: a p2pgames before issue 22 wrote the pid alone)."""
    try:
        lines = lock_path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None, ""
    pid = int(lines[0]) if lines and lines[0].strip().isdigit() else None
    return pid, lines[1].strip()[:200] if len(lines) > 1 else ""


def _key_exists(path: Path) -> bool:
    """Whether there is a key file at ``path`` to load (``False``: make one).

    A symbolic link counts only if it leads to something: a link to nothing is refused, never
    replaced, since it may be the way back to a key (on a disk not mounted now, say).
    """
    try:
        os.lstat(path)
    except FileNotFoundError:
        return False
    except OSError as error:
        raise ProfileError(f"can't look at the identity key {path}: {_why(error)}") from None
    try:
        os.stat(path)
    except OSError as error:
        if not os.path.islink(path):
            raise ProfileError(f"can't look at the identity key {path}: {_why(error)}") from None
        target = path.parent / os.readlink(path)  # a relative link is relative to its directory
        if error.errno == errno.ELOOP:
            raise ProfileError(
                f"the identity key {path} is a symbolic link to {target}, which leads round in a loop; "
                "point it at your key file, or remove it to make a new identity"
            ) from None
        if error.errno in (errno.ENOENT, errno.ENOTDIR):
            raise ProfileError(
                f"the identity key {path} is a symbolic link to {target}, which does not exist; "
                f"put your key file back at {target}, or remove the link to make a new identity"
            ) from None
        raise ProfileError(
            f"the identity key {path} is a symbolic link to {target}, which can't be reached: {_why(error)}"
        ) from None
    return True


def _load_identity(path: Path) -> Identity:
    try:
        fd = os.open(path, os.O_RDONLY | _O_CLOEXEC | _O_NONBLOCK)
    except OSError as error:
        if error.errno in (errno.EACCES, errno.EPERM):
            raise ProfileError(
                f"can't read the identity key {path}: {_why(error)}; p2pgames only uses a key file you "
                f"own and can read: check its owner, and protect it with: chmod 600 {path}"
            ) from None
        raise ProfileError(f"can't read the identity key {path}: {_why(error)}") from None
    try:
        # Check the file actually opened, so it can't be swapped between the check and the read.
        status = os.fstat(fd)
        if stat.S_ISDIR(status.st_mode):
            raise ProfileError(
                f"the identity key {path} is a directory, not a key file; move it away or choose another --profile"
            )
        if not stat.S_ISREG(status.st_mode):
            raise ProfileError(
                f"the identity key {path} is not a regular file, so not a key file; move it away or choose another --profile"
            )
        if status.st_mode & 0o077:
            raise ProfileError(
                f"other users can access the identity key {path} (mode {status.st_mode & 0o777:o}); "
                f"protect it with: chmod 600 {path}"
            )
        if hasattr(os, "getuid") and status.st_uid != os.getuid():
            raise ProfileError(
                f"the identity key {path} belongs to another user, and p2pgames only uses your own keys; choose another --profile"
            )
        try:
            data = b""
            if status.st_size <= _MAX_KEY_FILE:
                while chunk := os.read(fd, _MAX_KEY_FILE + 1 - len(data)):
                    data += chunk
        except OSError as error:
            raise ProfileError(f"can't read the identity key {path}: {_why(error)}") from None
        if max(status.st_size, len(data)) > _MAX_KEY_FILE:
            raise ProfileError(
                f"the identity key {path} is {max(status.st_size, len(data))} bytes, far too big for a key file "
                "(an Ed25519 key file is about 120 bytes); move it away or choose another --profile"
            )
    finally:
        os.close(fd)
    if not data.strip():
        raise ProfileError(
            f"the identity key {path} is empty, not a PEM private key; put back a copy of your key, "
            "or delete the file to make a new identity"
        )
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except TypeError:
        raise ProfileError(
            f"the identity key {path} is encrypted with a password; p2pgames needs an unencrypted key"
        ) from None
    except (ValueError, UnsupportedAlgorithm) as error:
        raise ProfileError(f"the identity key {path} is not a PEM private key: {error}") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise ProfileError(f"the identity key {path} holds {_key_kind(key)}, not an Ed25519 key")
    return Identity(key)


def _key_kind(key: object) -> str:
    """What sort of key ``key`` is, with its article: "an RSA key", "an EC key (secp256r1)"."""
    from cryptography.hazmat.primitives.asymmetric import dsa, ec, ed448, rsa, x448, x25519

    if isinstance(key, rsa.RSAPrivateKey):
        return f"an RSA key ({key.key_size} bits)"
    if isinstance(key, ec.EllipticCurvePrivateKey):
        return f"an EC key ({key.curve.name})"
    if isinstance(key, dsa.DSAPrivateKey):
        return "a DSA key"
    if isinstance(key, ed448.Ed448PrivateKey):
        return "an Ed448 key"
    if isinstance(key, x25519.X25519PrivateKey):
        return "an X25519 key"
    if isinstance(key, x448.X448PrivateKey):
        return "an X448 key"
    return f"a key of another kind ({type(key).__name__})"


def _create_identity(path: Path) -> Identity:
    identity = Identity.generate()
    pem = Ed25519PrivateKey.from_private_bytes(identity.private_bytes()).private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    # Write a private temporary file, then link it into place: the key file appears complete or
    # not at all, and an existing key is never overwritten. The caller holds the profile's lock,
    # so a leftover temporary file is from a crash and safe to remove.
    temporary = path.with_name(f".{path.name}.tmp")
    try:
        temporary.unlink(missing_ok=True)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_CLOEXEC, 0o600)
        try:
            view = memoryview(pem)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(temporary, path)
        except FileExistsError:
            raise ProfileError(f"the identity key {path} appeared while it was being created; try again") from None
        except OSError as error:
            if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
                raise
            os.rename(temporary, path)  # no hard links on this file system
    except OSError as error:
        raise _cannot_write("create the identity key", path, error) from None
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
    return identity
