"""Taking a seat again after this program stopped mid-game: a joiner rejoins its host, a host
listens again and waits for its joiners — from the seat saved as the game ran (``*.p2pseat``)."""

from __future__ import annotations

import functools
import os
import socket
from pathlib import Path
from typing import Callable, Sequence

import trio

from p2pgames.bots import bot_for
from p2pgames.crypto import Identity, PublicKey, fingerprint_matches
from p2pgames.games import get_game, get_presentation
from p2pgames.invocation import command
from p2pgames.net._joincode import JoinCode
from p2pgames.net._launch import (
    LAUNCHED_BOTS, SetupError, _connect_problem, _forwardable, _is_loopback, _listen_problem, _no_connection, _outgoing_address,
    ask_router_as_successor, lan_address, listening_address, successor_listeners, table_codes,
)
from p2pgames.net._portmap import MappingError, PortMapper, PortMapping, hold_port_mapping, no_mapping_line
from p2pgames.net._node import NetSettings, Node, open_host_listeners
from p2pgames.net._players import drive_bot
from p2pgames.net._seat_file import read_saved_seat, saved_seats
from p2pgames.session import ResumeError, SavedSeat, SavedSeatError, Session, TranscriptError, records_before_cut
from p2pgames.words import duration

__all__ = ["GameGone", "find_saved_seats", "resume_seat"]


class GameGone(SetupError):
    """The seat's host is not playing its game any more (it answered our rejoin with ``gone``,
    SPEC §B12), for the host's ``reason``: the game is over, and the saved seat is forgotten
    (its file deleted)."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message, network=False)
        self.reason = reason


def find_saved_seats(
    directory: Path, *owners: Identity, host_fingerprint: str | None = None, which: str | None = None
) -> list[tuple[Path, SavedSeat]]:
    """The saved seats in ``directory`` that are one of ``owners``' (as a host, its own key; as a
    joiner, any host's), newest first: optionally only those whose host has
    ``host_fingerprint``, or whose game id starts with (or whose file is named) ``which``.
    Unreadable files are skipped."""
    own = {identity.public_key.raw for identity in owners}
    found = []
    for path, saved in saved_seats(directory):
        if isinstance(saved, str):
            continue
        if saved.key not in own:
            continue  # another identity's seat (profiles may share the directory)
        if host_fingerprint is not None and not fingerprint_matches(host_fingerprint, PublicKey(saved.host_key)):
            continue
        if which is not None and not (saved.game_id.hex().startswith(which.lower()) or path.name == which or str(path) == which):
            continue
        found.append((path, saved))
    return found


async def resume_seat(
    nursery: trio.Nursery,
    *,
    identity: Identity,
    seat_path: Path,
    name: str,
    code: JoinCode | None = None,
    port: int | None = None,
    bind: str | None = None,
    transcripts: Path | None = None,
    no_transcript: bool = False,
    settings: NetSettings = NetSettings(),
    say: Callable[[str], None] = lambda text: None,
    bot: bool = False,
    port_mappers: Sequence[PortMapper] = (),
    wait_for_host: bool = False,
    listen: bool = True,
) -> Node:
    """Take the seat saved in ``seat_path`` again and return our node, playing.

    A joiner dials its host (at ``code`` if given — its key must be the game's host's — else
    where the game was) and rejoins; it returns once the host has caught it up. With
    ``wait_for_host``, a host that is not answering yet (its program not started again) is
    waited for and dialled again, for the grace period (``settings.away_grace``) at most. A
    host that is not playing its game any more (:class:`GameGone`) makes it forget the seat (the
    file is deleted); refused otherwise, or giving up of its own accord, it keeps it. A host listens
    at the port it had (or ``port``), replays its transcript and waits for its joiners to rejoin.
    A joiner with ``listen`` listens for the others, should the table be handed to it (§B15).
    Its new transcript goes to ``transcripts`` (default: beside the old one, which it replaces;
    none with ``no_transcript``, a joiner only: a host's transcript is its log).
    A host asks its router to forward the port again with ``port_mappers`` (as ``host_table``); a
    joiner that listens asks it once it is the seat the table would go to (as ``join_table``).
    Raises :class:`SetupError` with the player's message.
    """
    try:
        saved = read_saved_seat(seat_path)
    except OSError as error:
        raise SetupError(f"can't read the saved seat {seat_path}: {error.strerror or error}", network=False) from None
    except SavedSeatError as error:
        raise SetupError(f"can't use the saved seat {seat_path}: {error}", network=False) from None
    old_transcript = Path(saved.transcript) if saved.transcript else None
    directory = transcripts or (old_transcript.parent if old_transcript is not None else None)
    if no_transcript and not saved.is_host:
        directory = None
    if saved.is_host:
        return await _resume_host(
            nursery, identity=identity, saved=saved, seat_path=seat_path, old_transcript=old_transcript,
            directory=directory, port=port, bind=bind, settings=settings, say=say, bot=bot, port_mappers=port_mappers,
        )
    if identity.public_key.raw != saved.key:
        raise SetupError("this saved seat is another identity's: use the --profile you played with", network=False)
    problem = code.other_host_than(PublicKey(saved.host_key)) if code is not None else None
    if problem is not None:
        raise SetupError(problem, network=False)
    host, where_port = (code.host, code.port) if code is not None else (saved.host, saved.port)
    if host is None or where_port is None:
        raise SetupError(f"the saved seat does not say where the host was: give its join code ({command('resume', '--code', 'CODE')})", network=False)
    session = Session(identity, name, get_game, saved=saved, bot=bot, presentation=None if bot else get_presentation)
    node = Node(
        session, settings=settings, transcript_dir=directory, seat_path=seat_path, replaces_transcript=old_transcript,
    )
    # Should the table be handed to us (§B15): where we listen (with ``listen``).
    listeners = await successor_listeners(session, host) if listen else []
    say(f"Taking your seat again at {host}:{where_port} …")
    if wait_for_host:
        await _dial_until_the_host_answers(nursery, node, saved, host, where_port, say, listeners)
    else:
        try:
            with trio.fail_after(settings.connect_timeout):
                await nursery.start(functools.partial(node.connect, host, where_port, listeners=listeners))
        except trio.TooSlowError:
            raise SetupError(f"can't reach the host at {host}:{where_port}: no answer within {settings.connect_timeout:.0f} s; is it running again?") from None
        except OSError as error:
            raise _connect_problem(error, JoinCode(host, where_port, None)) from None
    await _caught_up(node, session, settings.connect_timeout)
    if session.stage == "over":  # caught up to an end we had missed: the result is ours too
        say(f"Back at the table: caught up on {session.replica.seq} log entries; the game is over.")  # type: ignore[union-attr]
        return node
    if session.finished or not session.in_touch:
        refused = session.finished  # the host said no (else it never caught us up)
        node.leave("could not rejoin")
        if session.gone_reason is not None:  # over: the node deletes the seat as it stops; wait, then say so
            with trio.move_on_after(settings.linger):
                await node.finished.wait()
        reason = session.rejection or (session.fault.describe(None) if session.fault else "the host did not take us back")
        message = f"could not take your seat again: {reason}"
        if session.gone_reason is not None:
            raise GameGone(f"{message}; your saved seat in that game is forgotten", session.gone_reason)
        if refused:  # nothing proved the game over: the seat is kept, and the player decides
            forget = command("resume", "--forget", saved.game_id.hex()[:8])
            message += f"; your saved seat is kept (if the game is over, {forget} deletes it)"
        # Not refused: nothing there took us back in time (silent, or another key): as no answer.
        raise SetupError(message, network=not refused)
    say(f"Back at the table: caught up on {session.replica.seq} log entries.")
    ask_router_as_successor(nursery, node, port_mappers, listeners, on_loopback=_is_loopback(host), say=say)
    return node


async def _caught_up(node: Node, session: Session, patience: float) -> None:
    """Wait until the host has caught ``session`` up (or it stopped), giving up only after
    ``patience`` seconds in which no entry came: a seat taken again is sent the whole log, which
    over a slow link takes longer than any fixed time, and giving up sends ``leave``."""
    def entries() -> int:
        return session.replica.seq if session.replica is not None else -1

    while not (session.in_touch or session.finished):
        seen = entries()
        with trio.move_on_after(patience) as waited:
            await node.wait_until(lambda: session.in_touch or session.finished or entries() != seen)
        if waited.cancelled_caught:
            return


def _no_answer(error: BaseException, host: str, settings: NetSettings) -> str:
    """Why a dial of ``host`` found nobody, in a few words."""
    if isinstance(error, OSError):
        return _no_connection(error, host)[0]
    return f"no answer within {settings.connect_timeout:.0f} s"  # trio.TooSlowError


async def _dial_until_the_host_answers(
    nursery: trio.Nursery, node: Node, saved: SavedSeat, host: str, port: int, say: Callable[[str], None],
    listeners: list[trio.SocketListener],
) -> None:
    """Start ``node`` dialling the host at ``host``:``port``; while nothing answers there (its
    program not started again yet), wait for it and dial again as a running joiner does, for the
    grace period at most (``away_grace``), saying so once. Raises :class:`SetupError` if it never
    answered: the seat is kept, and the message says how to try again or to drop it."""
    grace = node.settings.away_grace
    why: list[str] = []

    def no_answer(error: BaseException) -> None:
        why.append(_no_answer(error, host, node.settings))
        say(f"The host is not answering at {host}:{port}: {why[0]}. Waiting for it to come back, for up to "
            f"{duration(grace)} (--grace sets how long; Ctrl-C stops) …")

    with trio.move_on_after(grace):
        await nursery.start(functools.partial(node.connect, host, port, keep_dialling=no_answer, listeners=listeners))
        return
    # The grace period may end during the first dial, before any failure (a dial nobody answers).
    reason = why[0] if why else "no answer"
    raise SetupError(
        f"the host at {host}:{port} did not come back within {duration(grace)}: {reason}. Your seat is kept: "
        f"{command('resume')} waits for it again (add --code CODE if it gives you a new join code); if the game "
        f"is over, {command('resume', '--forget', saved.game_id.hex()[:8])} deletes the seat"
    )


async def _resume_host(
    nursery: trio.Nursery, *, identity: Identity, saved: SavedSeat, seat_path: Path, old_transcript: Path | None,
    directory: Path | None, port: int | None, bind: str | None, settings: NetSettings,
    say: Callable[[str], None], bot: bool, port_mappers: Sequence[PortMapper],
) -> Node:
    if old_transcript is None:
        raise SetupError("this game was hosted without a transcript (--no-transcript): there is no log to resume from", network=False)
    try:
        records = records_before_cut(old_transcript.read_bytes())  # a crash may have cut the last one
        session = Session.resume_host(identity, saved, records, get_game, bot=bot, presentation=None if bot else get_presentation)
    except OSError as error:
        raise SetupError(f"can't read the game's transcript {old_transcript}: {error.strerror or error}", network=False) from None
    except (ResumeError, TranscriptError) as error:
        raise SetupError(f"can't resume the game from {old_transcript}: {error}", network=False) from None
    listen_port = port if port is not None else (saved.port or 0)
    try:
        listeners = await open_host_listeners(listen_port, bind)
    except OSError as error:
        raise _listen_problem(error, bind, listen_port) from None
    actual = listeners[0].socket.getsockname()[1]
    node = Node(
        session, settings=settings, transcript_dir=directory, seat_path=seat_path, replaces_transcript=old_transcript,
    )
    node.address = (saved.host or "", actual)  # saved with the seat from the start: where to listen again
    await nursery.start(functools.partial(node.serve, after_the_game=not bot), listeners)  # as host_table's
    say(f"Resumed the game after {session.replica.seq} log entries; listening on port {actual}.")  # type: ignore[union-attr]
    mapped = None
    if port_mappers and _forwardable(bind):
        mapped = await nursery.start(functools.partial(hold_port_mapping, port_mappers, actual, node.stopped_serving, say=say))
        if isinstance(mapped, PortMapping):
            say(f"Your router forwards port {mapped.external_port} of {mapped.external_address} to this machine by {mapped.method} again.")
    ipv4 = _outgoing_address(socket.AF_INET)
    codes = table_codes(bind, actual, identity.public_key.fingerprint(), mapped, lan=lan_address(), ipv4=ipv4)
    node.address = (codes.main.host, actual)  # as host_table saves it
    if isinstance(mapped, MappingError):
        say(no_mapping_line(mapped, actual, ipv4 or listening_address(bind)))
    # Joiners dial where the game was: while a code still names it, they come back by themselves.
    if not codes.dials(saved.host, saved.port):
        code = codes.main
        say(f"The table's address changed: give the others the new code. A player still at the table types  code {code} ;"
            f" one who quit runs  p2pgames resume --code {code}")
        for where, other in codes.others:
            say(f"({where}:  {other})")
    say("Waiting for the others to rejoin …")
    for path, bot in launched_bots(seat_path.parent, saved.game_id):
        node.launched_bots.add(bot.key)
        nursery.start_soon(functools.partial(
            _relaunch_bot, nursery, bot, path, listening_address(bind), actual, settings, say,
        ))
    return node


def launched_bots(seat_dir: Path, game_id: bytes) -> list[tuple[Path, SavedSeat]]:
    """The saved seats of the bots a host whose seats are saved in ``seat_dir`` launched for
    game ``game_id`` (each with its key: :attr:`SavedSeat.identity`)."""
    return [(path, seat) for path, seat in saved_seats(seat_dir / LAUNCHED_BOTS)
            if isinstance(seat, SavedSeat) and seat.game_id == game_id and seat.identity is not None]


async def _relaunch_bot(
    nursery: trio.Nursery, saved: SavedSeat, path: Path, host: str, port: int, settings: NetSettings,
    say: Callable[[str], None],
) -> None:
    """Launch again a bot this host launched before it stopped: it takes its saved seat back."""
    assert saved.identity is not None
    try:
        node = await resume_seat(
            nursery, identity=Identity.from_private_bytes(saved.identity), seat_path=path, name="bot",
            code=JoinCode(host, port, None), no_transcript=True, settings=settings, bot=True, listen=False,
        )
    except SetupError as error:
        say(f"The bot in seat {saved.seat} could not take its seat again: {error}")
        return
    game = get_game(saved.game)
    await drive_bot(node, bot_for(game, os.urandom(16)))
