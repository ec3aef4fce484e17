"""Starting tables: hosting (with bot peers and a LAN announcement), joining."""

from __future__ import annotations

import errno
import functools
import ipaddress
import os
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Awaitable, Callable, Sequence, TypeVar

import trio

from p2pgames.bots import bot_for
from p2pgames.crypto import Identity
from p2pgames.engine import Game, Ruleset
from p2pgames.games import get_game, get_presentation
from p2pgames.invocation import command
from p2pgames.net._discovery import _own_addresses, announce
from p2pgames.net._joincode import JoinCode
from p2pgames.net._node import NetSettings, Node, open_host_listeners
from p2pgames.net._players import LOOPBACK, drive_bot
from p2pgames.net._portmap import (
    MappingError, PortMapper, PortMapping, hold_port_mapping, is_private_wan_address, no_mapping_line,
)
from p2pgames.net._seat_file import hosted_games
from p2pgames.session import Session
from p2pgames.session._session import DEFAULT_WATCHERS
from p2pgames.session._messages import MAX_ADDRESSES

__all__ = [
    "OtherHost", "SetupError", "TableCodes", "UnprovenRefusal", "at_one_of", "host_table", "join_table",
    "join_table_at_one_of", "lan_address", "join_address", "table_codes",
]

_Joined = TypeVar("_Joined")  # what at_one_of's attempt returns


class SetupError(Exception):
    """A table could not be hosted or joined; the text is the player's message, naming the
    address, port or host concerned and what to do. ``network`` tells a network problem (no
    answer, an address that can't be used) from a refusal (the host said no, or is not the host
    the join code names)."""

    def __init__(self, message: str, *, network: bool = True) -> None:
        super().__init__(message)
        self.network = network


class OtherHost(SetupError):
    """What answered at a join code's address has another key (``fingerprint``) than the one the
    code names: not its host."""

    def __init__(self, message: str, fingerprint: str) -> None:
        super().__init__(message, network=False)
        self.fingerprint = fingerprint


class UnprovenRefusal(SetupError):
    """What answered at a join code's address refused us before proving it has the key the code
    names (a reject not signed by that key): anyone can answer at an address and say no, so
    this is no answer of the host's."""

    def __init__(self, message: str) -> None:
        super().__init__(message, network=False)


def _listen_problem(error: OSError, bind: str | None, port: int) -> SetupError:
    """``error`` from listening on ``bind``:``port``, in words a host can act on."""
    where = bind or "all addresses"
    if isinstance(error, socket.gaierror):
        return SetupError(f"can't listen on {bind!r}: no such address ({error.strerror}); use one of this machine's addresses, or leave out --bind")
    if error.errno == errno.EADDRNOTAVAIL:
        return SetupError(f"can't listen on {bind}: it is not an address of this machine; leave out --bind to listen on all of them")
    if error.errno == errno.EADDRINUSE:
        return SetupError(f"can't listen on port {port} ({where}): the port is already in use (another program, or another p2pgames table); choose another --port, or leave it out for any free port")
    if error.errno in (errno.EACCES, errno.EPERM) and 0 < port < 1024:
        return SetupError(f"can't listen on port {port} ({where}): ports below 1024 need administrator rights; choose a port from 1024 to 65535, or leave out --port")
    return SetupError(f"can't listen on port {port} ({where}): {error.strerror or error}")


def _connect_problem(error: OSError, code: JoinCode) -> SetupError:
    """Why connecting to ``code`` failed, in words a joiner can act on."""
    reason, advice = _no_connection(error, code.host)
    return SetupError(f"can't connect to {code.host}:{code.port}: {reason}" + (f"; {advice}" if advice else ""))


def _no_connection(error: OSError, host: str) -> tuple[str, str]:
    """Why dialling ``host`` failed with ``error`` ("nothing is listening there (connection
    refused)"), and what a joiner given a join code can do about it ("" if nothing particular)."""
    if isinstance(error, socket.gaierror):
        return f"no such host {host!r}", "check the join code"
    # trio tries every address of the host, and keeps each attempt's error in the cause.
    errnos = _errnos(error)
    if errno.ECONNREFUSED in errnos:
        return "nothing is listening there (connection refused)", "check the join code, and that the host is still running"
    if errno.ENETUNREACH in errnos or errno.EHOSTUNREACH in errnos:
        return "that network can't be reached from here", "check the address in the join code"
    return ", ".join(os.strerror(number) for number in errnos) or str(error), ""


def _errnos(error: BaseException | None) -> list[int]:
    """The error numbers in ``error``, the groups it wraps and its causes, each once."""
    found: dict[int, None] = {}
    pending = [error]
    while pending:
        current = pending.pop()
        if current is None:
            continue
        if isinstance(current, OSError) and current.errno:
            found[current.errno] = None
        if isinstance(current, BaseExceptionGroup):
            pending.extend(current.exceptions)
        pending.append(current.__cause__)
    return list(found)

class _UnwantedGame(KeyError):
    """The host's game, refused by ``join_table``'s ``check_game`` (the session takes it for a game it
    doesn't know, and stops before asking for a seat)."""


def lan_address() -> str:
    """The address for this machine's join codes: a global IPv6 address when it has one (nobody's
    router to cross: issue 13), else its IPv4 address on the local network (127.0.0.1 if none)."""
    return join_address(_outgoing_address(socket.AF_INET6), _outgoing_address(socket.AF_INET))


def join_address(ipv6: str | None, ipv4: str | None) -> str:
    """Of this machine's outgoing IPv6 and IPv4 addresses (``None``: none), the one a join code
    names: the IPv6 one if it is global (:func:`global_ipv6`), else the IPv4 one, else 127.0.0.1."""
    return global_ipv6(ipv6) or ipv4 or LOOPBACK


def global_ipv6(address: str | None) -> str | None:
    """``address`` if it is a global IPv6 address (not a unique-local ``fd00::/8``, link-local or
    loopback one, which others can't reach from elsewhere), without a zone; else ``None``."""
    if address is None:
        return None
    try:
        parsed = ipaddress.IPv6Address(address.partition("%")[0])
    except ValueError:
        return None
    return str(parsed) if parsed.is_global else None


def _forwardable(bind: str | None) -> bool:
    """Whether a router could forward to a host listening on ``bind``: every interface, or one
    private IPv4 address (not loopback, not IPv6, which needs no forwarding)."""
    if _every_interface(bind):
        return True
    try:
        address = ipaddress.ip_address(bind)
    except ValueError:
        return False
    # The same private ranges as a router's inside (a public address needs no router's help).
    return address.version == 4 and is_private_wan_address(bind) and not address.is_loopback


def _outgoing_address(family: socket.AddressFamily) -> str | None:
    """The address this machine would send from to the internet in ``family``, or ``None``."""
    # No packet is sent: connecting a UDP socket only picks the outgoing interface. The targets
    # are documentation addresses (RFC 5737, RFC 3849): never anyone's.
    target = ("2001:db8::1", 9) if family == socket.AF_INET6 else ("192.0.2.1", 9)
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect(target)
            return str(probe.getsockname()[0])
    except OSError:
        return None


ON_THIS_MACHINE = "on this machine"


@dataclass(frozen=True)
class TableCodes:
    """The join codes of a table, as its host prints them: ``main`` (``Join code: …``), then
    ``others``, each ``(where it works, code)``, for the lines in brackets below it."""

    main: JoinCode
    others: tuple[tuple[str, JoinCode], ...] = ()

    def dials(self, host: str | None, port: int | None) -> bool:
        """Whether one of the codes names ``host``:``port``: a joiner that dials there still
        reaches the table."""
        return any((code.host, code.port) == (host, port) for code in (self.main, *(code for _, code in self.others)))


def listening_address(bind: str | None) -> str:
    """The address a table bound to ``bind`` is dialled at from this machine: the one address it
    listens on (``localhost`` as 127.0.0.1), or loopback when it listens on every interface."""
    if _every_interface(bind) or bind == "localhost":
        return LOOPBACK
    return bind  # type: ignore[return-value]


def _every_interface(bind: str | None) -> bool:
    """Whether ``bind`` (``--bind``) means listening on every interface."""
    return bind in (None, "", "0.0.0.0", "::")


def table_codes(
    bind: str | None, port: int, fingerprint: str, mapped: PortMapping | MappingError | None, *, lan: str, ipv4: str | None,
) -> TableCodes:
    """The codes of a table listening on ``bind``:``port`` (``mapped``: what the router said when
    asked to forward the port), ``lan`` being this machine's address for join codes
    (:func:`lan_address`) and ``ipv4`` its outgoing IPv4 address, if any. ``host`` and ``resume``
    print these, for the same ``--bind`` and ``--port`` the same ones.

    Bound to one address, the main code names it (``[::1]`` for IPv6 loopback); on every
    interface it names the router's internet address when the router forwards the port (unless
    ``lan`` is a global IPv6 address, which needs no router), else ``lan``; and the others say how
    IPv4-only friends, friends on this network and players on this machine join."""
    one_address = not _every_interface(bind)
    internet = JoinCode(mapped.external_address, mapped.external_port, fingerprint) if isinstance(mapped, PortMapping) else None
    if one_address:
        main = JoinCode(listening_address(bind), port, fingerprint)
    elif internet is not None and ":" not in lan:  # a global IPv6 address needs no router: it goes first
        main = internet
    else:
        main = JoinCode(lan, port, fingerprint)
    others: list[tuple[str, JoinCode]] = []
    if internet is not None and main != internet:
        others.append(("over IPv4, through your router", internet))
    if not one_address:
        if ":" in main.host and ipv4 is not None:  # a global IPv6 code: IPv4-only friends need this
            others.append(("over IPv4 on your network", JoinCode(ipv4, port, fingerprint)))
        elif main == internet and ipv4 is not None:
            others.append(("on your network", JoinCode(ipv4, port, fingerprint)))
        others.append((ON_THIS_MACHINE, JoinCode(LOOPBACK, port, fingerprint)))
    return TableCodes(main, tuple(others))


LAUNCHED_BOTS = "bots"  # the folder, in the host's folder of saved seats, of the seats of the bots it launched


async def _bot_peer(
    ruleset: Ruleset, host: str, port: int, identity: Identity, name: str, settings: NetSettings, kind: str | None = None,
    seat_dir: Path | None = None, *, task_status=trio.TASK_STATUS_IGNORED,
) -> None:
    """A bot at the table: its own key, its own TCP connection, playing until the game ends.
    Started (``nursery.start``) once the host has seated it, or has not. With ``seat_dir``, its
    seat is saved there with its key, for its host to launch it again if it resumes the game."""
    game = get_game(ruleset.game)
    session = Session(identity, name, get_game, bot=True)
    node = Node(session, settings=settings, seat_dir=seat_dir, seat_identity=identity if seat_dir is not None else None)
    async with trio.open_nursery() as nursery:
        await nursery.start(node.connect, host, port)
        nursery.start_soon(drive_bot, node, bot_for(game, os.urandom(16), kind))
        with trio.move_on_after(settings.connect_timeout):
            await node.wait_until(lambda: session.seated or session.stage != "lobby")
        task_status.started()


async def _bot_peers(
    host: Node, address: str, port: int, bots: int, kind: str | None, nursery: trio.Nursery
) -> None:
    """Start ``bots`` bot peers dialling ``address`` for ``host``, which knows them for bots it launched
    (:meth:`Node.bot_note`), each once the one before is seated, so that they sit in the order
    of their names."""
    ruleset = host.session.ruleset
    seat_dir = host.seat_dir / LAUNCHED_BOTS if host.seat_dir is not None else None
    for number in range(bots):
        identity = Identity.generate()
        host.launched_bots.add(identity.public_key.raw)
        await nursery.start(_bot_peer, ruleset, address, port, identity, f"bot-{number + 1}", host.settings, kind, seat_dir)


async def host_table(
    nursery: trio.Nursery,
    *,
    identity: Identity,
    name: str,
    ruleset: Ruleset,
    port: int = 0,
    bind: str | None = None,
    bots: int = 0,
    transcripts: Path | None = None,
    settings: NetSettings = NetSettings(),
    say: Callable[[str], None] = lambda text: None,
    announce_on_lan: bool = True,
    bot_kind: str | None = None,
    bot: bool = False,
    seat_dir: Path | None = None,
    port_mappers: Sequence[PortMapper] = (),
    watchers: int = DEFAULT_WATCHERS,
    watcher_chat: bool = False,
) -> Node:
    """Host a table: listen, print the join code, start ``bots`` bot peers (of the kind
    ``bot_kind`` names, or the game's default); return our node. ``bot``: our own seat is played
    by a bot (the lobby shows it as one). With ``seat_dir`` the seat is saved there as the game
    runs, so that it can be resumed if this process stops (``resume_seat``).

    Unless it listens on loopback only, the table is announced on the LAN (mDNS/DNS-SD) while
    seats are free, so ``p2pgames join`` with no code finds it. With ``port_mappers`` (and seats
    for people, and listening where a router can forward to), the router is asked to forward the
    port while the table listens (:func:`hold_port_mapping`: after the game too, while ``serve``
    answers a seat coming back for it), and the join code names the router's internet address;
    when it can't, one line says why and what to do instead.
    """
    if not 0 <= bots < ruleset.players:
        raise ValueError(f"{bots} bots don't fit a table of {ruleset.players} with you at it")
    try:
        listeners = await open_host_listeners(port, bind)
    except OSError as error:
        raise _listen_problem(error, bind, port) from None
    actual_port = listeners[0].socket.getsockname()[1]
    # A seat opened for a player gone for good plays as our bots do.
    session = Session(identity, name, get_game, ruleset=ruleset, bot=bot, open_seat_bot=bot_kind, watchers=watchers,
                      watcher_chat=watcher_chat, presentation=get_presentation)
    unfinished = hosted_games(seat_dir, identity.public_key.raw) if seat_dir is not None else frozenset()
    if unfinished:
        # Its players dialling back for a game saved here are told to wait, not that it is over.
        session.keep_seats_of(unfinished)
        say("You have an unfinished game you hosted; its players who dial in are told their seats are kept "
            f"until you take it up again: {command('resume')}")
    node = Node(session, settings=settings, transcript_dir=transcripts, seat_dir=seat_dir)
    fingerprint = identity.public_key.fingerprint()
    local_only = bind in ("127.0.0.1", "localhost", "::1")
    here = listening_address(bind)
    humans = ruleset.players - 1 - bots
    # A person at the table (not a bot's process, which ends with the game) still answers a seat
    # coming back for a game that stopped, while the table is on their screen: it forgets its seat.
    await nursery.start(functools.partial(node.serve, after_the_game=not bot), listeners)
    ipv4 = _outgoing_address(socket.AF_INET)
    mapped: PortMapping | MappingError | None = None
    if humans and port_mappers and _forwardable(bind):
        say(f"Asking your router to forward port {actual_port} to this machine …")

        def moved(mapping: PortMapping) -> None:
            say(f"Your router's internet address changed: friends joining now need  p2pgames join "
                f"{JoinCode(mapping.external_address, mapping.external_port, fingerprint)}")

        mapped = await nursery.start(
            functools.partial(hold_port_mapping, port_mappers, actual_port, node.stopped_serving, say=say, on_moved=moved)
        )
    codes = table_codes(bind, actual_port, fingerprint, mapped, lan=lan_address(), ipv4=ipv4)
    node.address = (codes.main.host, actual_port)  # saved with the seat: a resumed host listens there again
    if humans:
        say(f"Join code: {codes.main}")
        say(f"Others join with:  p2pgames join {codes.main}")
        if isinstance(mapped, PortMapping):
            say(f"(your router forwards port {mapped.external_port} of {mapped.external_address} to this machine "
                f"by {mapped.method} while the game runs)")
        for where, code in codes.others:
            # Typed here, the command is this program's as it runs here; elsewhere, the others' own.
            typed = command("join", str(code)) if where == ON_THIS_MACHINE else f"p2pgames join {code}"
            say(f"({where}:  {typed})")
        if isinstance(mapped, MappingError):
            say(no_mapping_line(mapped, actual_port, ipv4 or here))
    if bots:
        nursery.start_soon(_bot_peers, node, here, actual_port, bots, bot_kind, nursery)
    if (humans or watchers) and not local_only and announce_on_lan:
        nursery.start_soon(announce, functools.partial(table_announcement, session, actual_port))
    return node


def table_announcement(session: Session, port: int) -> dict | None:
    """What a host announces of its table on the LAN (§B13), or ``None`` to withdraw it: while
    seats are free, how many are taken; once it is full or its game is on, as full — for
    watchers (§B19), while it takes some; once the game is over (or stopped), nothing."""
    ruleset = session.ruleset
    assert ruleset is not None and session.game is not None
    free = session.stage == "lobby" and session.lobby_size < ruleset.players
    watched = session.max_watchers > 0 and session.stage in ("lobby", "starting", "playing")
    if not free and not watched:
        return None
    game = session.game_loader(ruleset.game)
    return {
        "game": game.name, "title": game.title, "host": session.name, "port": port,
        "fingerprint": session.identity.public_key.fingerprint(),
        "seated": session.lobby_size if free else ruleset.players, "seats": ruleset.players,
    }


async def join_table(
    nursery: trio.Nursery,
    *,
    identity: Identity,
    name: str,
    code: JoinCode,
    transcripts: Path | None = None,
    settings: NetSettings = NetSettings(),
    say: Callable[[str], None] = lambda text: None,
    random_bytes: Callable[[int], bytes] = os.urandom,
    bot: bool = False,
    check_game: Callable[[Game], None] | None = None,
    seat_dir: Path | None = None,
    listen: bool = True,
    port_mappers: Sequence[PortMapper] = (),
) -> Node:
    """Join the table at ``code``: connect, check the host's key against the join code, and
    return our node once the host has given us a seat. With ``listen`` we listen (on a free port,
    where the code's host is reachable from: loopback, or every interface) and tell the table
    where, so that a host that leaves can hand us the table (§B15); with ``port_mappers`` too
    (and a table not on loopback), once we are the seat the table would go to, the router is
    asked to forward where we listen, and the table told its address (:func:`map_port_as_successor`). ``random_bytes`` supplies our secrets;
    ``bot``: our seat is played by a bot (the lobby shows it as one). With ``seat_dir`` the seat is
    saved there as the game runs, so that it can be taken again if this process stops.

    ``check_game(game)`` is called with the host's game as soon as the host names it, before we
    ask for a seat: what it raises (``join --bot KIND`` for a game without that kind of bot) is
    raised here once the connection is closed, and we never took a seat (which could have
    filled the table and started a game without us).

    Raises :class:`SetupError` when nothing answers at ``code`` (or not within
    ``settings.connect_timeout`` seconds), when the host's key doesn't match, or when the host
    refuses us (the table is full, the game has begun …); nothing is left running then.
    """
    unwanted: list[Exception] = []

    def load_game(game_name: str) -> Game:
        game = get_game(game_name)
        if check_game is not None:
            try:
                check_game(game)
            except Exception as error:
                unwanted.append(error)
                # A game the session can't load (KeyError) ends the joining before our hello.
                raise _UnwantedGame(game_name) from None
        return game

    session = Session(identity, name, load_game, expected_host=code.fingerprint, random_bytes=random_bytes, bot=bot,
                      presentation=get_presentation)
    node = Node(session, settings=settings, transcript_dir=transcripts, seat_dir=seat_dir)
    listeners = await successor_listeners(session, code.host) if listen else []
    where = f"{code.host}:{code.port}"
    say(f"Connecting to {where} …")
    try:
        with trio.fail_after(settings.connect_timeout):
            await nursery.start(functools.partial(node.connect, code.host, code.port, listeners=listeners))
    except trio.TooSlowError:
        raise SetupError(f"can't connect to {where}: no answer within {settings.connect_timeout:.0f} s; check the join code, and the host's firewall") from None
    except OSError as error:
        raise _connect_problem(error, code) from None
    say("Connected; waiting for the host to seat you …")
    with trio.move_on_after(settings.connect_timeout):
        await node.wait_until(lambda: session.seated or session.stage != "lobby")
    if not session.seated:
        hung_up = session.stage == "closed"  # the connection ended (not yet the node: it lingers)
        node.leave("could not join")
        with trio.move_on_after(settings.linger):
            await node.finished.wait()
        if unwanted:
            raise unwanted[0]
        if session.rejection is not None and session.rejection_unproven and code.fingerprint is not None:
            # Refused before it proved its key: this may not be the host the join code names.
            raise UnprovenRefusal(
                f"could not join the table at {where}: something there (its key not checked against the "
                f"join code) refused: {session.rejection}"
            )
        if session.other_host is not None:
            raise OtherHost(f"could not join the table at {where}: {session.rejection}", session.other_host)
        if session.rejection is not None:
            raise SetupError(f"could not join the table at {where}: {session.rejection}", network=False)
        if session.fault is not None:
            raise SetupError(f"could not join the table at {where}: {session.fault.describe(None)}", network=False)
        if hung_up:
            raise SetupError(f"could not join the table at {where}: the host closed the connection")
        raise SetupError(f"could not join the table at {where}: the host did not seat us within {settings.connect_timeout:.0f} s")
    host = session.host_fingerprint
    if code.fingerprint is None:
        say(f"No key fingerprint in the join code: the host's key {host} can't be checked; ask your host whether it is theirs.")
    else:
        say(f"The host's key {host} matches the join code.")
    ask_router_as_successor(nursery, node, port_mappers, listeners, on_loopback=_is_loopback(code.host), say=say)
    return node


def ask_router_as_successor(
    nursery: trio.Nursery, node: Node, port_mappers: Sequence[PortMapper], listeners: Sequence[trio.SocketListener],
    *, on_loopback: bool, say: Callable[[str], None],
) -> None:
    """A joiner (``join``, or ``resume`` of a joiner's seat) that listens for the others: once it
    is the seat the table would go to, ask its router to forward where it listens
    (:func:`map_port_as_successor`) — not for a table ``on_loopback``, nor with no way to ask."""
    if listeners and port_mappers and not on_loopback:
        nursery.start_soon(map_port_as_successor, node, port_mappers, listeners[0].socket.getsockname()[1], say)


async def map_port_as_successor(
    node: Node, mappers: Sequence[PortMapper], port: int, say: Callable[[str], None],
) -> None:
    """A joiner that listens should the table be handed to it (§B15): once it is the seat the
    table would go to (``Session.take_over_successor``: the lowest seat still playing, not the
    host, that said where it listens), ask the router to forward ``port`` as a host does
    (:func:`hold_port_mapping`, held until the node stops) and tell the table the router's
    address, first (``Node.reach_first``), so that players on the internet can reach it should
    the host leave. Only that seat asks: the others' routers are left alone. Ends with the node."""
    session = node.session
    # From the first entry on, every seat holds every reach (each comes before its seat's accept,
    # and the first entry after every accept), so every seat computes the same successor.
    await node.wait_until(lambda: session.finished or (
        session.replica is not None and session.replica.seq > 0 and session.take_over_successor() == session.seat))
    if node.finished.is_set() or session.finished:
        return

    def moved(mapping: PortMapping) -> None:
        node.reach_first((mapping.external_address, mapping.external_port))

    async with trio.open_nursery() as nursery:
        mapped = await nursery.start(functools.partial(hold_port_mapping, mappers, port, node.finished, say=say, on_moved=moved))
        if isinstance(mapped, PortMapping):
            moved(mapped)
            say(f"(your router forwards port {mapped.external_port} of {mapped.external_address} to this machine by "
                f"{mapped.method}: should the host leave, players on the internet can reach you there)")
        else:
            say(f"(your router would not forward a port to this machine — {mapped} —: should the host leave, "
                "only players on your network could reach you)")


async def successor_listeners(session: Session, host: str) -> list[trio.SocketListener]:
    """Listen (a free port) where a joiner of the table at ``host`` can be dialled by the others
    should the table be handed to it (§B15) — on loopback for a table on loopback, else on every
    interface — and tell ``session`` where (:meth:`Session.set_reach`). Nothing (and nothing
    told) if we can't listen: the table just never hands itself to us."""
    loopback = _is_loopback(host)
    try:
        listeners = await open_host_listeners(0, LOOPBACK if loopback else None)
    except OSError:
        return []
    port = listeners[0].socket.getsockname()[1]
    addresses = [LOOPBACK] if loopback else reach_addresses(listening_address(None))
    session.set_reach([(address, port) for address in addresses])
    return listeners


def reach_addresses(fallback: str) -> list[str]:
    """This machine's addresses others may dial, best first (a global IPv6 address, then its
    IPv4 ones on the local networks; ``fallback`` if it has none), at most a reach's worth."""
    found = _own_addresses(None) or [fallback]
    ipv6 = [address for address in found if ":" in address and global_ipv6(address)]
    ipv4 = [address for address in found if ":" not in address]
    return (ipv6 + ipv4 + [address for address in found if address not in ipv6 + ipv4])[:MAX_ADDRESSES]


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


async def join_table_at_one_of(
    nursery: trio.Nursery, *, codes: Sequence[JoinCode], say: Callable[[str], None] = lambda text: None, **options: Any,
) -> Node:
    """:func:`join_table` at the first of ``codes`` (the places of one table, best first, all
    with its host's fingerprint) whose host answers with that key (:func:`at_one_of`). Raises
    :class:`SetupError` as :func:`join_table` does, for the last place if none answered with the
    key."""
    return await at_one_of(codes, lambda code: join_table(nursery, code=code, say=say, **options), say)


async def join_the_next_game(
    nursery: trio.Nursery, *, code: JoinCode, patience: float = 30.0, say: Callable[[str], None] = lambda text: None,
    **options: Any,
) -> Node:
    """:func:`join_table` at ``code`` once its host listens again: the table's next game (§B20),
    which the host sets up where it listened once its last game's table has closed. Until then
    nothing answers there, or the last game's table does, refusing us (it is closed): either is
    tried again, for ``patience`` seconds; then raises :class:`SetupError` as :func:`join_table`
    does."""
    say(f"Joining the next game at {code.host}:{code.port} …")
    deadline = trio.current_time() + patience
    while True:
        try:
            return await join_table(nursery, code=code, **options)
        except SetupError:
            if trio.current_time() >= deadline:
                raise
        await trio.sleep(0.2)


async def at_one_of(
    codes: Sequence[JoinCode], attempt: Callable[[JoinCode], Awaitable[_Joined]], say: Callable[[str], None],
) -> _Joined:
    """``attempt(code)`` (joining, or taking a seat again) at each of ``codes`` (the places of
    one table, best first, all with its host's fingerprint) until one succeeds: where another key
    answers (:class:`OtherHost`: anyone can announce a table's fingerprint at their own address),
    where something refuses us without proving that key (:class:`UnprovenRefusal`) or where
    nothing answers (a network :class:`SetupError`), the next one is tried, saying so. Only a
    refusal proven to be the host's (signed by its key: the table is full, the game has begun) is
    final. Raises what the last attempt raised."""
    if not codes:
        raise ValueError("no place to join the table at")
    for code in codes[:-1]:
        try:
            return await attempt(code)
        except OtherHost as other:
            say(f"Another key ({other.fingerprint}) answers at {code.host}:{code.port}, not the table's: "
                "trying its next address …")
        except UnprovenRefusal:
            say(f"Something at {code.host}:{code.port} refused us without proving it has the table's key: "
                "trying its next address …")
        except SetupError as error:
            if not error.network:
                raise
            say(f"No answer from the table at {code.host}:{code.port}: trying its next address …")
    return await attempt(codes[-1])
