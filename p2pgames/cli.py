"""The ``p2pgames`` command: parses arguments, calls the layers, maps known errors to one line.

Exit codes: 0 success; 1 a game stopped on a fault, the host refused to seat you, a selfplay game
failed, a transcript did not verify (a desync report given to verify is no failure), or a file
could not be used (an identity key, the transcript directory); 2 bad usage (argparse's own code); 3
a network problem (can't listen, connect or look for tables); 130 interrupted (Ctrl-C; a seat
played by a bot, ``host``/``join --bot``, leaves the table first), 143 terminated (SIGTERM: the
same); 141 (as a Unix tool killed by SIGPIPE) when whoever reads the output stops reading
(``p2pgames id | head -c0``).
"""

from __future__ import annotations

# Only what every command needs is imported here; each command imports the rest itself, so that
# ``verify`` (timed by ``scripts/bench``, start-up included) loads no network, terminal or bot code.
import argparse
import dataclasses
import os
import sys
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, NoReturn, Sequence

from p2pgames import __version__
from p2pgames.engine import Game, RulesetError
from p2pgames.games import PLAYABLE, TEST_GAMES, UnknownGame, find_game, game_package, get_game, get_presentation
# The commands printed for the player to type, as they work where the player is.
from p2pgames.invocation import command

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_NETWORK = 0, 1, 2, 3
EXIT_INTERRUPTED = 128 + 2  # SIGINT, as a shell reports a command Ctrl-C stopped
EXIT_BROKEN_PIPE = 128 + 13  # SIGPIPE


class UsageError(Exception):
    """Bad input on the command line: the message says what and how to fix it."""


class FileProblem(Exception):
    """A file or directory the command needs can't be used (an identity key, the transcript
    directory): the message names it, what is wrong and what to do."""


class NetworkProblem(Exception):
    """The network can't be used for this command (looking for tables): the message says why."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr, like every other error."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"p2pgames: {message} (see '{self.prog} --help')\n")


# -- helpers -----------------------------------------------------------------------------------------


def data_dir() -> Path:
    if os.environ.get("P2PGAMES_HOME"):
        return Path(os.environ["P2PGAMES_HOME"])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "p2pgames"


def default_transcripts() -> Path:
    return data_dir() / "transcripts"


def default_seats() -> Path:
    """Where a game's seat is saved while it runs (secrets: owner-only files, deleted at the end)."""
    return data_dir() / "seats"


def default_name() -> str:
    import getpass

    try:
        return getpass.getuser()
    except Exception:  # no user database entry (containers)
        return "player"


def _game(name: str) -> Game:
    """The game a person named (any case, title or name; a typo gets a suggestion)."""
    try:
        return get_game(find_game(name))
    except UnknownGame as error:
        raise UsageError(str(error)) from None


def _options(game: Game, pairs: Sequence[str]) -> dict[str, Any]:
    """``NAME=VALUE`` pairs, each value converted to the type of the option's default."""
    known = {option.name: option for option in game.options}
    chosen: dict[str, Any] = {}
    for pair in pairs:
        name, equals, text = pair.partition("=")
        if not equals:
            raise UsageError(f"--option takes NAME=VALUE, not {pair!r}")
        option = known.get(name)
        if option is None:
            names = ", ".join(known) or "none"
            raise UsageError(f"{game.title} has no option {name!r} (options: {names})")
        default = option.default
        try:
            if isinstance(default, bool):
                if text.lower() not in ("true", "false", "yes", "no", "1", "0"):
                    raise ValueError
                value: Any = text.lower() in ("true", "yes", "1")
            else:
                value = type(default)(text)
        except ValueError:
            raise UsageError(f"option {name} must be one of {', '.join(map(str, option.choices))}") from None
        chosen[name] = value
    return chosen


def variants_of(game: Game) -> dict[str, Mapping[str, Any]]:
    """The variants ``game`` offers by name on the command line (``--variant NAME``): its
    :attr:`~p2pgames.engine.Game.cli_variants`. A game that declares none has no variants."""
    return dict(game.cli_variants)


def _variant(game: Game, name: str | None) -> Mapping[str, Any] | None:
    """The declaration of the variant chosen by ``--variant NAME``, if any."""
    if name is None:
        return None
    variants = variants_of(game)
    if not variants:
        raise UsageError(
            f"{game.title} has no variants (--variant {name}); it is played one way (see {command('rules', game.name)})"
            + _option_named(game, name)
        )
    if name not in variants:
        raise UsageError(f"{game.title} has no variant {name!r}; choose one of: {', '.join(variants)}" + _option_named(game, name))
    return variants[name]


def _option_named(game: Game, name: str) -> str:
    """`` (did you mean --option characters=auction?)`` when ``name``, given as a variant, is
    the value of one of ``game``'s options; else nothing."""
    for option in game.options:
        for choice in option.choices:
            if isinstance(choice, str) and choice.casefold() == name.casefold() and choice != option.default:
                return f" (did you mean --option {option.name}={choice}?)"
    return ""


def _ruleset(game: Game, players: int | None, pairs: Sequence[str], variant: str | None = None):
    """The ruleset from ``--players``, ``--option`` pairs and ``--variant``; the game checks the
    player count a variant allows."""
    options = _options(game, pairs)
    chosen = _variant(game, variant)
    if chosen is not None:
        for option, value in chosen["options"].items():
            if option in options and options[option] != value:
                raise UsageError(
                    f"--variant {variant} sets {option}={value}, but --option {option}={options[option]} says otherwise"
                )
            options[option] = value
        if players is None:
            players = chosen.get("players")
    count = players if players is not None else _default_players(game)
    try:
        return game.ruleset(count, options)
    except RulesetError as error:
        raise UsageError(_with_title(game, str(error))) from None


def _with_title(game: Game, text: str) -> str:
    return text if text.startswith(game.title) else f"{game.title}: {text}"


def _profile(name: str | None, doing: str):
    """The profile ``name`` (None: the first free default one), locked for this process, which is
    ``doing`` this (said to another p2pgames that wants the profile meanwhile)."""
    from p2pgames.profiles import ProfileError, open_profile

    _check_profile_name(name)
    try:
        return open_profile(name, doing=doing)
    except ProfileError as error:
        raise FileProblem(str(error)) from None  # the profile's files can't be used


def _check_profile_name(name: str | None) -> None:
    """A ``--profile`` that is no profile's name is a usage error (what was typed on the command line)."""
    from p2pgames.profiles import ProfileError, check_profile_name

    if name is not None:
        try:
            check_profile_name(name)
        except ProfileError as error:
            raise UsageError(str(error)) from None


def _profile_notes(profile) -> list[str]:
    """What the player should know about the identity a command uses: a new one, or another
    profile than the default because the default is in use."""
    notes = []
    if profile.fell_back:
        notes.append(
            f"Profile 'default' is in use by another p2pgames process; using profile '{profile.name}' "
            f"(choose one with --profile NAME)."
        )
    if profile.created:
        notes.append(f"Created identity '{profile.name}': {profile.identity.public_key.fingerprint()}")
    return notes


def _need_terminal(what: str) -> None:
    # The game's screen reads keys from a terminal; without one it could only fail later.
    if not sys.stdin.isatty():
        if what in ("host", "join"):  # a seat that needs no terminal: a bot's
            raise UsageError(f"'{what}' needs a terminal (without one, --bot lets a bot play your seat)")
        if what == "watch":
            raise UsageError("'watch' needs a terminal (without one, --print prints the game's log)")
        if what == "replay":
            raise UsageError("'replay' needs a terminal (without one, --at N prints the table after entry N)")
        raise UsageError(f"'{what}' needs a terminal (for bots playing each other without one: {command('selfplay', 'GAME')})")


def _color(args: argparse.Namespace) -> bool:
    return not args.no_color  # the terminal UI also honours NO_COLOR (tui.color_wanted)


def _transcripts(args: argparse.Namespace) -> Path | None:
    """Where this game's transcripts go (``None``: nowhere), checked now: a directory that can't
    hold them should stop the command before a game begins, not end the game."""
    if getattr(args, "no_transcript", False):
        return None
    directory = Path(args.transcripts) if args.transcripts else default_transcripts()
    _check_transcript_directory(directory, "choose another with --transcripts DIR, or play with --no-transcript")
    return directory


def _check_transcript_directory(directory: Path, advice: str) -> None:
    """Create ``directory`` if needed and check transcripts can be written in it; raises
    :class:`FileProblem` naming it, what is wrong, and ``advice``."""

    def problem(what: str) -> FileProblem:
        return FileProblem(f"can't save transcripts in {directory}: {what}; {advice}")

    if directory.is_symlink() and not directory.exists():
        raise problem(f"it is a symbolic link to {os.readlink(directory)}, which does not exist")
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise problem("it is a file, not a directory") from None
    except OSError as error:
        raise problem(_reason(error)) from None
    if not directory.is_dir():
        raise problem("it is not a directory")
    import tempfile

    try:  # the only sure test (permissions, a read-only file system, root's exceptions): try it
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as error:
        raise problem(_reason(error)) from None


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


# -- commands ------------------------------------------------------------------------------------------


def cmd_host(args: argparse.Namespace) -> int:
    game = _game(args.game)
    ruleset = _ruleset(game, args.players, args.option, args.variant)
    if args.no_bot_seats:
        ruleset = dataclasses.replace(ruleset, open_seats=False)
    if args.forfeit:
        if ruleset.players != 2:
            raise UsageError(f"--forfeit is for two-player tables, not {ruleset.players} players")
        ruleset = dataclasses.replace(ruleset, forfeit=True)
    if args.move_time is not None:
        ruleset = dataclasses.replace(ruleset, move_time=_move_time(args.move_time))
    if not 0 <= args.bots < ruleset.players:
        raise UsageError(f"--bots must be between 0 and {ruleset.players - 1} (you take one seat)")
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be between 1 and 65535 (or 0 for any free port), not {args.port}")
    if not 0 <= args.watchers <= MAX_WATCHERS:
        raise UsageError(f"--watchers must be between 0 and {MAX_WATCHERS}, not {args.watchers}")
    settings = _net_settings(args)
    headless = args.bot is not None
    [seat_kind] = _bot_kinds(game, args.bot or None, one_kind=_ONE_KIND_SEAT) if headless else [None]
    bots_kind = seat_kind
    if args.bots_kind is not None:
        if not args.bots:
            raise UsageError("--bots-kind names the kind of the --bots seats, and there are none (add --bots K)")
        [bots_kind] = _bot_kinds(game, args.bots_kind, option="--bots-kind")
    if not headless:
        _need_terminal("host")
    port_mappers = _port_mappers(args)
    transcripts = _transcripts(args)
    with _profile(args.profile, f"hosting {game.title}") as profile:
        from p2pgames.net import host_table

        notes = _profile_notes(profile)

        async def setup(nursery, say):
            return await host_table(
                nursery, identity=profile.identity, name=args.name or default_name(), ruleset=ruleset,
                port=args.port, bind=args.bind, bots=args.bots, transcripts=transcripts, say=say, bot_kind=bots_kind,
                bot=headless, seat_dir=default_seats(), settings=settings, port_mappers=port_mappers,
                watchers=args.watchers, watcher_chat=args.watchers_chat,
            )

        async def host_again(nursery, say, next_ruleset, port, bots):
            return await host_table(
                nursery, identity=profile.identity, name=args.name or default_name(), ruleset=next_ruleset,
                port=port, bind=args.bind, bots=bots, transcripts=transcripts, say=say,
                bot_kind=bots_kind if next_ruleset.game == ruleset.game else None, seat_dir=default_seats(),
                settings=settings, port_mappers=port_mappers, watchers=args.watchers, watcher_chat=args.watchers_chat,
            )

        if headless:
            return _run_headless(setup, lambda game: _seat_bot(game, seat_kind), notes, args.if_away, args.if_i_leave)
        return _run_terminal(setup, f"{game.title} — host", args, notes,
                             next_game=lambda plan, node: _next_hosted_game(plan, node, host_again, args.open_freed_seats))


def cmd_join(args: argparse.Namespace) -> int:
    from p2pgames.net import JoinCode, join_table_at_one_of

    notes: list[str] = []
    settings = _net_settings(args)
    port_mappers = _port_mappers(args)  # (asked only should we become the seat the table would go to)
    text, bot = args.code, args.bot
    if text is None and bot and ":" in bot:
        text, bot = bot, ""  # `join --bot CODE`: --bot took the code for a kind
    headless = bot is not None
    if headless:
        _known_kind(bot or None)
        if text is None:
            raise UsageError(f"join --bot needs the host's join code: {command('join', 'HOST:PORT/FINGERPRINT', '--bot')}")
    transcripts = _transcripts(args)  # before anything waits on the network
    if text is None:
        _need_terminal("join")  # before listening: choosing among tables asks
        table = _find_table()
        if table is None:
            return EXIT_OK
        # Its places in turn, until its host's key answers: anyone can announce its fingerprint.
        codes = table.join_codes
        # Said again inside the game: the fingerprint is what the player compares with the host's.
        notes.append(f"Joining {table.describe()}")
    else:
        try:
            codes = (JoinCode.parse(text),)
        except ValueError as error:
            raise UsageError(str(error)) from None
        if not headless:
            _need_terminal("join")
    code = codes[0]

    def seat_kind(game: Game) -> str | None:
        """The kind of bot of our seat, checked once the host has named its game."""
        try:
            [kind] = _bot_kinds(game, bot or None, one_kind=_ONE_KIND_SEAT)
        except UsageError as error:
            raise UsageError(f"the table at {code.host}:{code.port} plays {game.title}; {error}") from None
        return kind

    with _profile(args.profile, f"joining the table at {code.host}:{code.port}") as profile:
        notes += _profile_notes(profile)
        # A seat saved at this host may be in the game it plays now (its program stopped, or a new
        # join code after the host moved): try it first. The host says if it plays another.
        unfinished = _unfinished_game(profile, code.fingerprint) if code.fingerprint else None
        take_again = _resume_setup(args, profile, unfinished[0], codes, bot=headless) if unfinished is not None else None

        async def setup(nursery, say):
            if unfinished is not None:
                from p2pgames.net._resume import GameGone

                say(f"You have a seat in an unfinished game at this table ({_describe_saved(unfinished[1])}): taking it again.")
                try:
                    return await take_again(nursery, say)
                except GameGone as gone:
                    say(f"That game has stopped: {gone.reason}. Your saved seat in it is forgotten; "
                        "joining the table as a new player …")
            node = await join_table_at_one_of(
                nursery, identity=profile.identity, name=args.name or default_name(), codes=codes,
                transcripts=transcripts, say=say, bot=headless, check_game=seat_kind if headless else None,
                seat_dir=default_seats(), settings=settings, listen=not args.no_reach,
                port_mappers=[] if args.no_reach else port_mappers,
            )
            if headless and node.session.game is not None:
                # Should the table come to us (§B15), a seat we take care of is played by our kind.
                node.session.open_seat_bot = seat_kind(node.session.game)
            return node

        async def join_again(nursery, say, next_code):
            from p2pgames.net import join_the_next_game

            return await join_the_next_game(
                nursery, code=next_code, identity=profile.identity, name=args.name or default_name(),
                transcripts=transcripts, say=say, seat_dir=default_seats(), settings=settings,
                listen=not args.no_reach, port_mappers=[] if args.no_reach else port_mappers,
            )

        if headless:
            return _run_headless(setup, lambda game: _seat_bot(game, seat_kind(game)), notes, args.if_away, args.if_i_leave)
        return _run_terminal(setup, "p2pgames — joining", args, notes,
                             next_game=lambda plan, node: _next_joined_game(plan, node, join_again))


# --grace: at least a second (a scripted table of bots may want that little), at most a day.
GRACE_RANGE = (1, 24 * 3600)


def _move_time(typed: str) -> int:
    """``--move-time``'s seconds; raises :class:`UsageError`."""
    from p2pgames.engine import MAX_MOVE_TIME
    from p2pgames.words import parse_duration

    try:
        seconds = parse_duration(typed)
    except ValueError as error:
        raise UsageError(f"--move-time: {error}") from None
    if not MIN_MOVE_TIME <= seconds <= MAX_MOVE_TIME:
        raise UsageError(f"--move-time must be between {MIN_MOVE_TIME}s and {MAX_MOVE_TIME // 3600}h, not {typed!r}")
    return seconds


# The shortest move time a table may choose on the command line: time to read the choices and type.
MIN_MOVE_TIME = 10


def _net_settings(args: argparse.Namespace):
    """The network settings ``args`` ask for (``--grace``); raises :class:`UsageError`."""
    from p2pgames.net import NetSettings
    from p2pgames.words import parse_duration

    if args.grace is None:
        return NetSettings()
    try:
        seconds = parse_duration(args.grace)
    except ValueError as error:
        raise UsageError(f"--grace: {error}") from None
    low, high = GRACE_RANGE
    if not low <= seconds <= high:
        raise UsageError(f"--grace must be between {low}s and {high // 3600}h, not {args.grace!r}")
    return NetSettings(away_grace=float(seconds))


def _port_mappers(args: argparse.Namespace) -> list:
    """The ways of asking the router to forward the table's port (none with ``--no-upnp``);
    raises :class:`UsageError` for a ``P2PGAMES_GATEWAY`` that names no router, or a
    ``P2PGAMES_INTERFACE`` that names no address."""
    from p2pgames.net import chosen_interfaces, default_port_mappers

    try:
        chosen_interfaces()  # checked here, where a mistake is still the command line's: both uses read it
    except OSError as error:
        raise UsageError(error.strerror) from None
    if args.no_upnp:
        return []

    try:
        return default_port_mappers()
    except ValueError as error:
        raise UsageError(str(error)) from None


def _unfinished_game(profile, host_fingerprint: str):
    """The newest seat ``profile``'s identity saved as a joiner at the host with
    ``host_fingerprint``, as ``(path, saved)``; ``None`` if there is none."""
    from p2pgames.net._resume import find_saved_seats

    found = find_saved_seats(default_seats(), profile.identity, host_fingerprint=host_fingerprint)
    return next(((path, saved) for path, saved in found if not saved.is_host), None)


def _describe_saved(saved) -> str:
    role = "host" if saved.is_host else f"seat {saved.seat}"
    return f"{saved.game} {saved.game_id.hex()[:8]}, {role}"


def _resume(
    args: argparse.Namespace, profile, path: Path, code, notes: list[str], headless: bool, kind: str | None,
) -> int:
    """Take the seat saved in ``path`` again (``resume``), in the terminal or (``headless``) with
    a bot; a host not answering yet is waited for."""
    setup = _resume_setup(args, profile, path, (code,) if code is not None else (), bot=headless, wait_for_host=True)
    if headless:
        return _run_headless(
            setup, lambda game: _seat_bot(game, _bot_kinds(game, kind or None, one_kind=_ONE_KIND_SEAT)[0]), notes,
            args.if_away, args.if_i_leave,
        )
    _need_terminal("resume")
    return _run_terminal(setup, "p2pgames — resuming", args, notes)


def _resume_setup(args: argparse.Namespace, profile, path: Path, codes, *, bot: bool, wait_for_host: bool = False):
    """The ``setup(nursery, say)`` that takes the seat saved in ``path`` again (``resume_seat``):
    at the first of ``codes`` (where the host is now, best first: a table found on the network
    has places that may not be its host's) whose host takes it back, or with none where the game
    was; ``bot``: a bot plays it; ``wait_for_host``: a host not answering yet is waited for."""
    from p2pgames.net._launch import at_one_of
    from p2pgames.net._resume import resume_seat

    transcripts = Path(args.transcripts) if args.transcripts else None
    settings = _net_settings(args)
    port_mappers = _port_mappers(args)

    async def setup(nursery, say):
        async def take_again_at(code):
            return await resume_seat(
                nursery, identity=profile.identity, seat_path=path, name=args.name or default_name(), code=code,
                port=getattr(args, "port", None), bind=getattr(args, "bind", None), transcripts=transcripts,
                no_transcript=args.no_transcript, say=say, bot=bot, settings=settings, port_mappers=port_mappers,
                wait_for_host=wait_for_host, listen=not getattr(args, "no_reach", False),
            )

        return await at_one_of(codes, take_again_at, say) if codes else await take_again_at(None)

    return setup


def cmd_resume(args: argparse.Namespace) -> int:
    from p2pgames.net import JoinCode

    _net_settings(args)  # a bad --grace is a usage error before anything else happens
    _check_profile_name(args.profile)
    if args.forget and args.game_id is None:  # never the newest of whatever is saved: it can't be undone
        raise UsageError(
            f"--forget deletes a saved seat for good: name its game ({command('resume', '--forget', 'GAME')}, "
            "GAME the start of its id, as the message that suggested it gives it)"
        )
    code = None
    if args.code is not None:
        try:
            code = JoinCode.parse(args.code)
        except ValueError as error:
            raise UsageError(str(error)) from None
    if args.port is not None and not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be between 1 and 65535 (or 0 for any free port), not {args.port}")
    headless = args.bot is not None
    if headless:
        _known_kind(args.bot or None)
    if args.transcripts:
        _check_transcript_directory(Path(args.transcripts), "choose another with --transcripts DIR")
    found = _saved_games(args.profile, code.fingerprint if code is not None else None, args.game_id)
    if not found:
        what = f" matching {args.game_id!r}" if args.game_id else ""
        raise FileProblem(
            f"no unfinished game{what} is saved for profile '{args.profile or 'default'}' in {default_seats()} "
            "(a seat is saved there while its game runs, and deleted when it ends)"
        )
    owner, profile, path, saved = _take_profile(found)
    if args.forget:
        with profile:  # held meanwhile: no program of ours is playing that seat
            return _forget(path, saved)
    with profile:
        notes = _profile_notes(profile) + [f"Resuming {_describe_saved(saved)} (saved in {path})."]
        if owner != args.profile and owner != "default":  # found among the default profiles
            notes.insert(0, f"Using profile '{owner}', in which this game was played.")
        return _resume(args, profile, path, code, notes, headless, args.bot)


def cmd_seats(args: argparse.Namespace) -> int:
    """``seats``: the unfinished games saved for this machine's default profiles (or
    ``--profile``'s), newest first; ``seats forget ID`` deletes one, after asking."""
    _check_profile_name(args.profile)
    if args.seats_command == "forget":
        return _seats_forget(args)
    found = _saved_games(args.profile, None, None)
    if not found:
        print(f"No unfinished games: none is saved in {default_seats()} for profile '{args.profile or 'default'}'.")
        return EXIT_OK
    for owner, path, saved in found:
        print(_saved_line(owner, path, saved, several_profiles=len({name for name, _, _ in found}) > 1))
    print()
    print(f"Take one up again with {command('resume', 'ID')}; drop one for good with {command('seats', 'forget', 'ID')}.")
    return EXIT_OK


def _saved_line(owner: str, path: Path, saved, several_profiles: bool) -> str:
    """One unfinished game for ``seats``: its id, when its seat was last saved, the game, this
    seat's place at the table, who played, how far it got (from its transcript, when there is one)."""
    from p2pgames.history import players_text, when_text
    from p2pgames.session import TranscriptError, summarize_transcript

    try:
        when = when_text(path.stat().st_mtime)
    except OSError:
        when = "?"
    title, players, progress = saved.game, "", ""
    if saved.transcript:
        try:
            summary = summarize_transcript(Path(saved.transcript).read_bytes(), get_game)
        except (OSError, TranscriptError):
            pass  # gone, or never written (--no-transcript keeps none): the rest still says which game
        else:
            title, players, progress = summary.title, players_text(summary), f"{summary.entries} entries"
    where = f" at {saved.host}:{saved.port}" if saved.host and saved.port else ""
    role = f"host{where}" if saved.is_host else f"seat {saved.seat}, host{where}"
    fields = [saved.game_id.hex()[:8], when, title, role, players, progress]
    if several_profiles:
        fields.append(f"profile {owner}")
    return " · ".join(field for field in fields if field)


def _seats_forget(args: argparse.Namespace) -> int:
    found = _saved_games(args.profile, None, args.game_id)
    if not found:
        raise FileProblem(f"no unfinished game matching {args.game_id!r} is saved in {default_seats()} ({command('seats')} lists them)")
    games = {saved.game_id for _, _, saved in found}
    if len(games) > 1:
        ids = ", ".join(sorted(game_id.hex()[:8] for game_id in games))
        raise UsageError(f"{args.game_id!r} is the start of the ids of {len(games)} saved games ({ids}): give more of it")
    if len(found) > 1:
        profiles = ", ".join(name for name, _, _ in found)
        raise UsageError(f"game {args.game_id!r} is saved for several profiles ({profiles}): choose one with --profile")
    owner, profile, path, saved = _take_profile(found)
    with profile:  # held meanwhile: no program of ours is playing that seat
        if not args.yes:
            print(f"Forget your seat in {_describe_saved(saved)} ({_saved_line(owner, path, saved, False)})? "
                  "You can't take it up again. [y/N] ", end="", flush=True)
            try:
                answer = sys.stdin.readline()
            except (OSError, ValueError):
                answer = ""
            if answer.strip().lower() not in ("y", "yes"):
                print("" if answer.endswith("\n") else "\n", end="")
                print("Kept it.")
                return EXIT_OK
        return _forget(path, saved)


def _forget(path: Path, saved) -> int:
    """Delete the seat saved in ``path`` (``resume --forget``): its game can't be taken up again."""
    from p2pgames.net._resume import launched_bots

    bots = launched_bots(path.parent, saved.game_id) if saved.is_host else []  # (useless without their host)
    for file in [path, *(bot for bot, _ in bots)]:
        try:
            file.unlink()
        except FileNotFoundError:
            pass  # gone meanwhile: forgotten all the same
        except OSError as error:
            raise FileProblem(f"can't delete the saved seat {file}: {_reason(error)}") from None
    print(f"Forgot your seat in {_describe_saved(saved)}: this program can't take it up again.")
    return EXIT_OK


def _saved_games(name: str | None, host_fingerprint: str | None, which: str | None) -> list[tuple[str, Path, Any]]:
    """The unfinished games saved for profile ``name`` (None: for any of the default profiles,
    ``default``, ``default-2`` …, as a second terminal chooses them), at the host with
    ``host_fingerprint`` or the one ``which`` names, newest first, as ``(profile name, path,
    saved)``. Reads the profiles' keys without taking them: another process may hold one."""
    from p2pgames.net._resume import find_saved_seats
    from p2pgames.profiles import ProfileError, default_profiles, read_identity

    owners = {}
    try:
        for candidate in [name] if name is not None else default_profiles():
            identity = read_identity(candidate)
            if identity is not None:
                owners[identity.public_key.raw] = (candidate, identity)
    except ProfileError as error:
        raise FileProblem(str(error)) from None
    identities = [identity for _, identity in owners.values()]
    found = find_saved_seats(default_seats(), *identities, host_fingerprint=host_fingerprint, which=which)
    return [(owners[saved.key][0], path, saved) for path, saved in found]


def _take_profile(games: list[tuple[str, Path, Any]]):
    """The newest of ``games`` whose profile this process can take, as ``(profile name, open
    profile, path, saved)``. A game's profile held by another p2pgames is never replaced by
    another profile (the game is that one's); when every one is held, the message says by which
    program, and what to do. Raises :class:`FileProblem`."""
    from p2pgames.profiles import ProfileError, ProfileInUse, open_profile

    busy: ProfileInUse | None = None
    for name, path, saved in games:
        try:
            profile = open_profile(name, doing=f"resuming {_describe_saved(saved)}")
        except ProfileInUse as held:
            busy = busy or held  # maybe that program plays this game still: try the next game
            continue
        except ProfileError as error:
            raise FileProblem(str(error)) from None
        if profile.identity.public_key.raw != saved.key:  # its key file was replaced meanwhile
            profile.close()
            raise FileProblem(f"profile '{name}' has another identity than the one its game was played with")
        return name, profile, path, saved
    assert busy is not None
    stop = f"stop it (kill {busy.pid})" if busy.pid is not None else "stop it"
    raise FileProblem(
        f"profile '{busy.name}' is in use by a running p2pgames{busy.held_by}: your game may still be going on "
        f"there. Go back to that program; if it is stuck, {stop} and run {command('resume')} again"
    )


def _find_table(watching: bool = False):
    """Listen for tables announced on the LAN; pick one (asking if there are several): one with
    a free seat, or — ``watching`` — any (a full one, its game on, is announced for watchers)."""
    from p2pgames.net import find_tables

    print("Looking for tables on this network …")
    try:
        tables = [table for table in find_tables() if watching or table.seated < table.seats]
    except OSError as error:
        raise NetworkProblem(
            f"can't listen for tables on this network ({_reason(error)}); ask the host for the join code "
            f"({command('join', 'HOST:PORT/FINGERPRINT')})"
        ) from None
    if not tables:
        which = "table" if watching else "table with a free seat"
        raise NetworkProblem(
            f"no {which} announced itself on this network; ask the host for the join code "
            f"({command('watch' if watching else 'join', 'HOST:PORT/FINGERPRINT')})"
        )
    if len(tables) == 1:
        return tables[0]
    for number, table in enumerate(tables, 1):
        print(f"  {number}. {table.describe()}")
    chosen = _pick("Table number (q to quit): ", len(tables))
    return None if chosen is None else tables[chosen]


def _pick(prompt: str, count: int) -> int | None:
    """Ask for a number 1…``count`` until given one; its index, or None for q, an empty answer or
    the end of input."""
    while True:
        answer = _ask(prompt)
        if answer in (None, "q", "quit", ""):
            return None
        if answer.isdigit() and 1 <= int(answer) <= count:
            return int(answer) - 1
        print(f"Type a number from 1 to {count}, or q.")


def _ask(prompt: str) -> str | None:
    """One answer from the player, stripped and in lower case; None at the end of input."""
    try:
        return input(prompt).strip().lower()
    except EOFError:
        print()
        return None


def cmd_play(args: argparse.Namespace) -> int:
    if args.game is None:
        chosen = _menu(ask_players=args.players is None and not args.solo)
        if chosen is None:
            return EXIT_OK
        name, players = chosen
        args.players = args.players if players is None else players
    else:
        name = args.game
    game = _game(name)
    if args.solo:
        if args.variant not in (None, "solo"):
            raise UsageError(f"--solo and --variant {args.variant} don't go together; choose one")
        variants = variants_of(game)
        if not variants:
            raise UsageError(f"{game.title} has no variants (--solo); it is played one way (see {command('rules', game.name)})")
        if "solo" not in variants:
            raise UsageError(f"{game.title} has no solo variant (its variants: {', '.join(variants)})")
    ruleset = _ruleset(game, args.players, args.option, "solo" if args.solo else args.variant)
    [bot_kind] = _bot_kinds(game, args.bot)
    _need_terminal("play")
    transcripts = _transcripts(args)
    with _profile(args.profile, f"playing {game.title} on this machine") as profile:
        from p2pgames.net import host_table

        notes = _profile_notes(profile)

        async def setup(nursery, say):
            if ruleset.players == 1:
                say(f"{game.title}: a table for one, on this machine; no bots.")
            else:
                say(f"{game.title}: you and {ruleset.players - 1} bot(s), each a separate peer over loopback.")
            say("Type 'help' for the rules and commands.")
            return await host_table(
                nursery, identity=profile.identity, name=args.name or default_name(), ruleset=ruleset,
                bind="127.0.0.1", bots=ruleset.players - 1, transcripts=transcripts, say=say, bot_kind=bot_kind,
                seat_dir=default_seats(),  # (p2pgames resume takes the game up again, its bots too)
            )

        async def host_again(nursery, say, next_ruleset, port, bots):
            return await host_table(
                nursery, identity=profile.identity, name=args.name or default_name(), ruleset=next_ruleset,
                bind="127.0.0.1", port=port, bots=next_ruleset.players - 1, transcripts=transcripts, say=say,
                bot_kind=bot_kind if next_ruleset.game == ruleset.game else None, seat_dir=default_seats(),
            )

        return _run_terminal(setup, game.title, args, notes,
                             next_game=lambda plan, node: _next_hosted_game(plan, node, host_again))


def _menu(ask_players: bool) -> tuple[str, int | None] | None:
    """Ask which game (by number or name) and, with ``ask_players``, how many players; the
    game's name and the count (None: not asked), or None if the player quits."""
    games = list(PLAYABLE)
    print("p2pgames — choose a game to play against bots:\n")
    for number, name in enumerate(games, 1):
        game = get_game(name)
        count = f"{game.min_players}" if game.min_players == game.max_players else f"{game.min_players}–{game.max_players}"
        print(f"  {number}. {game.title}  ({count} players)   [{name}]")
        variants = variants_of(game)
        if variants:
            print(f"     variants: {', '.join(variants)} ({command('play', name, '--variant', 'NAME')})")
    print("\n  q. quit")
    while True:
        answer = _ask("\nGame (number or name): ")
        if answer in (None, "q", "quit", ""):
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(games):
            name = games[int(answer) - 1]
            break
        try:
            name = find_game(answer)
            break
        except UnknownGame as error:
            guess = f"Did you mean {error.suggestion}? " if error.suggestion else ""
            print(f"{guess}Type a number from 1 to {len(games)}, a game's name ({', '.join(games)}), or q.")
    if not ask_players:
        return name, None
    game = get_game(name)
    default = _default_players(game)
    low, high = game.min_players, game.max_players
    if low == high:  # Steam Torpedo: always two, nothing to ask
        return name, low
    while True:
        answer = _ask(f"Players at the table, you included ({low}–{high}, Enter for {default}): ")
        if answer in (None, "q", "quit"):
            return None
        if answer == "":
            return name, default
        if answer.isdigit() and low <= int(answer) <= high:
            return name, int(answer)
        print(f"{game.title} is for {low} to {high} players: type a number from {low} to {high}, Enter for {default}, or q.")


def _default_players(game: Game) -> int:
    return min(game.max_players, max(game.min_players, 4))


def _run_terminal(setup, title: str, args: argparse.Namespace, notes: Sequence[str] = (), next_game=None) -> int:
    """Play in the terminal; ``notes`` (which profile, which table) are said first, so they are
    in the game's log and lobby, not only above the screen that covers them. With
    ``next_game(plan, node)`` (a setup), the table may play again (§B20)."""
    from p2pgames.tui import run_terminal_game

    async def noted_setup(nursery, say):
        for note in notes:
            say(note)
        return await setup(nursery, say)

    return run_terminal_game(
        noted_setup, title=title, color=_color(args), alerts=not getattr(args, "no_alerts", False), next_game=next_game,
    )


def _next_hosted_game(plan, node, host_setup, open_freed_seats: bool = False):
    """The setup of a table's next game at its host (§B20): the game agreed, as many players,
    where the last one listened; every seat not playing again is filled with a bot (the bots of
    the last game left with it) — but, with ``open_freed_seats``, those of the players who left,
    which wait for new players (the same join code). ``host_setup(nursery, say, ruleset, port,
    bots)`` hosts it."""
    game = _game(plan.game)
    last = node.session.ruleset
    # The table's own choices carry over (bot seats, a move time; a win by forfeit, if two play).
    ruleset = dataclasses.replace(
        _ruleset(game, plan.players, [], None), open_seats=last.open_seats, move_time=last.move_time,
        forfeit=last.forfeit and plan.players == 2,
    )
    bots = plan.players - len(plan.seats)
    if open_freed_seats:
        own = node.session.identity.public_key.raw
        bots = sum(1 for info in node.session.seats if info.key.raw in node.launched_bots and info.key.raw != own)

    async def setup(nursery, say):
        with_bots = f", {bots} of its seats played by bots" if bots else ""
        free = plan.players - len(plan.seats) - bots
        open_seats = f"; {free} seat{'s' if free > 1 else ''} free for new players (the same join code)" if free else ""
        say(f"The next game at this table: {game.title}{with_bots}{open_seats}.")
        return await host_setup(nursery, say, ruleset, node.address[1], bots)

    return setup


def _next_joined_game(plan, node, join_setup):
    """The setup of a table's next game at a joiner: dial the host where it listened, with its key."""
    from p2pgames.net import JoinCode

    code = JoinCode(node.address[0], node.address[1], node.session.host_fingerprint)

    async def setup(nursery, say):
        return await join_setup(nursery, say, code)

    return setup


def _run_headless(setup, choose_bot, notes: Sequence[str] = (), if_away: str = "bot", if_i_leave: str = "end") -> int:
    """Play the seat with a bot, with no terminal: what happens on stdout (a line at a time, each
    flushed, so a script can read it as it comes), what went wrong on stderr; ``if_away``: what
    the bot answers when a seat has been away past the grace period (see ``--if-away``);
    ``if_i_leave``: what a first Ctrl-C or SIGTERM does (``--if-I-leave``)."""
    from p2pgames.net import run_headless

    async def noted_setup(nursery, say):
        for note in notes:
            say(note)
        return await setup(nursery, say)

    return run_headless(noted_setup, choose_bot, say=_say, warn=_warn, if_away=if_away, if_i_leave=if_i_leave)


def _say(text: str) -> None:
    try:
        print(text, flush=True)
    except BrokenPipeError:
        # Whoever read our output stopped; the seat plays on (the table needs it), unheard.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def _warn(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _seat_bot(game: Game, kind: str | None):
    from p2pgames.bots import bot_for

    return bot_for(game, os.urandom(16), kind)


def cmd_selfplay(args: argparse.Namespace) -> int:
    import hashlib
    import time

    from p2pgames.net import play_table_now

    game = _game(args.game)
    ruleset = _ruleset(game, args.players, args.option, args.variant)
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    kinds = _bot_kinds(game, args.bot, ruleset.players)
    options = dict(ruleset.options)
    directory = Path(args.transcripts) if args.transcripts else None
    if directory is not None:
        _check_transcript_directory(directory, "choose another with --transcripts DIR, or leave it out")
    failures = 0
    started = time.perf_counter()
    for number in range(1, args.games + 1):
        seed = hashlib.sha256(f"{args.seed}/{number}".encode()).digest() if args.seed is not None else os.urandom(32)
        began = time.perf_counter()
        table = play_table_now(
            game.name, ruleset.players, options=options, seed=seed, transcripts=directory, bot_kinds=kinds
        )
        elapsed = time.perf_counter() - began
        if table.result is not None:
            names = [seat.name for seat in table.seats]
            winners = " and ".join(names[s] for s in table.result.winners) or "nobody"
            outcome = f"{winners} won — {table.result.summary} (scores {', '.join(map(str, table.result.scores))})"
        else:
            outcome = "no result"
        verified = [seat.verified for seat in table.seats]
        if directory is None:
            checks = "all peers agreed on every state hash" if table.agreed else "peers did NOT agree"
        else:
            checks = (
                f"{sum(bool(v) for v in verified)}/{len(verified)} transcripts verified"
                + ("" if table.agreed else "; peers did NOT agree")
            )
        print(f"game {number}/{args.games}: {outcome}; {table.entries} entries; {checks}; {elapsed:.1f} s", flush=True)
        for seat in table.seats:
            if seat.transcript_note is not None:
                print(f"  seat {seat.seat} ({seat.name}): {seat.transcript_note}")
        if not table.ok:
            failures += 1
            for seat in table.seats:
                if seat.fault is not None:
                    print(f"  seat {seat.seat} ({seat.name}) stopped: {seat.fault.describe(None)}")
                if seat.verified is False:
                    print("  " + seat.verification.replace("\n", "\n  "))
    total = time.perf_counter() - started
    if failures:
        print(f"{failures} of {args.games} games FAILED ({total:.1f} s).")
        return EXIT_FAILED
    what = "every transcript verified" if directory is not None else "every state hash agreed"
    finished = "The game finished" if args.games == 1 else f"All {args.games} games finished"
    print(f"{finished}; {what} ({total:.1f} s).")
    return EXIT_OK


def cmd_verify(args: argparse.Namespace) -> int:
    from p2pgames.session import TranscriptError, desync_report_text, verify_transcript

    status = EXIT_OK
    for path in _files_to_verify(args.files):
        try:
            data = path.read_bytes()
        except OSError as error:
            print(f"{path}: can't read it ({error.strerror})")
            status = EXIT_FAILED
            continue
        try:
            report = verify_transcript(data, get_game)
        except TranscriptError as error:
            what = desync_report_text(data)
            if what is not None:  # written beside the transcripts when peers disagree: not a failure
                print(f"{path}: {what}.")
                continue
            print(f"{path}: not a valid transcript: {error}")
            status = EXIT_FAILED
            continue
        print(f"{path}:")
        print("  " + report.describe().replace("\n", "\n  "))
        if not report.ok:
            status = EXIT_FAILED
    return status


def cmd_replay(args: argparse.Namespace) -> int:
    """A transcript's game, stepped through on its screen; with ``--at N``, the table after
    entry N printed (80 columns, no colour)."""
    from p2pgames.session import TranscriptError, replay_transcript

    path = Path(args.file)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise FileProblem(f"can't read {path}: {error.strerror or error}") from None
    try:
        replay = replay_transcript(data, get_presentation)
    except TranscriptError as error:
        raise FileProblem(f"{path}: not a transcript that can be replayed: {error}") from None
    seat = replay.seat if args.seat is None else args.seat
    if seat is not None and not 0 <= seat < len(replay.names):
        raise UsageError(f"--seat {seat}: the game had seats 0 to {len(replay.names) - 1}")
    if args.at is not None:
        from p2pgames.tui._replay import replay_text  # (not the whole terminal interface)

        try:
            index = replay.step_of_entry(args.at)
        except ValueError as error:
            raise UsageError(f"--at {args.at}: {error}") from None
        sys.stdout.write(replay_text(replay, index, seat, args.every_card))
        return EXIT_OK
    _need_terminal("replay")
    from p2pgames.tui import ReplayScreen
    from p2pgames.tui._theme import color_wanted

    ReplayScreen(replay, seat, color=color_wanted(_color(args)), every_card=args.every_card).run()
    return EXIT_OK


MAX_WATCHERS = 64  # a host's --watchers at most: each watcher gets every entry (upload grows with them)


def cmd_watch(args: argparse.Namespace) -> int:
    """Watch a table's game: live on the game's screen, or ``--print`` its log to stdout."""
    import functools

    from p2pgames.net import JoinCode, SetupError, watch_headless, watch_table

    if args.code is None:
        if args.print:
            raise UsageError(f"watch --print needs the table's join code: {command('watch', 'HOST:PORT/FINGERPRINT', '--print')}")
        _need_terminal("watch")
        table = _find_table(watching=True)
        if table is None:
            return EXIT_OK
        code = table.join_codes[0]
    else:
        try:
            code = JoinCode.parse(args.code)
        except ValueError as error:
            raise UsageError(str(error)) from None
        if not args.print:
            _need_terminal("watch")
    name = args.name or default_name()
    watch = functools.partial(watch_table, code, name=name)
    try:
        if args.print:
            watcher = watch_headless(watch, _print_watched)
        else:
            from p2pgames.tui import run_watch
            from p2pgames.tui._theme import color_wanted

            watcher = run_watch(watch, color=color_wanted(_color(args)))
    except SetupError as error:
        raise NetworkProblem(str(error)) from None
    if watcher is not None and watcher.stage != "over":
        if args.print or watcher.stopped_why is None:
            return EXIT_FAILED
        print(f"Stopped watching: {watcher.stopped_why}.", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK


def _print_watched(watcher, event) -> None:
    """``watch --print``: each event of the game as a line (stdout; how it stopped: stderr)."""
    from p2pgames.session import ChatReceived, GameEnded, GameStarted, Halted, LobbyChanged, Logged, Notice, Rejected

    if isinstance(event, LobbyChanged):
        print(f"seated: {', '.join(name for name, _ in event.players)} ({len(event.players)} of {event.seats})", flush=True)
    elif isinstance(event, GameStarted):
        print(event.text(watcher.game), flush=True)
    elif isinstance(event, Logged):
        for line in event.lines:
            print(line, flush=True)
    elif isinstance(event, ChatReceived):
        print(f"{event.name}: {event.text}", flush=True)
    elif isinstance(event, GameEnded):
        print(f"Game over: {event.message}", flush=True)
    elif isinstance(event, Halted):
        print(f"p2pgames: {event.message}", file=sys.stderr, flush=True)
    elif isinstance(event, Rejected):
        print(f"p2pgames: the host turned us away: {event.reason}", file=sys.stderr, flush=True)
    elif isinstance(event, Notice):
        print(f"p2pgames: {event.text}", file=sys.stderr, flush=True)


def cmd_history(args: argparse.Namespace) -> int:
    """The games played with this machine's profiles (or ``--profile``'s), newest first, then a
    line per opponent; see :mod:`p2pgames.history`."""
    from p2pgames.history import game_line, opponent_lines, read_history

    directory = Path(args.transcripts) if args.transcripts else default_transcripts()
    if not directory.is_dir():
        if directory.exists() or args.transcripts:
            raise FileProblem(f"{directory} is not a directory of transcripts")
        print(f"No games yet: there are no transcripts in {directory}.")
        return EXIT_OK
    keys = _profile_keys(args.profile)
    try:
        played, unreadable = read_history(
            transcript_files(directory), get_game, keys=keys, with_name=args.with_name, verify=args.verify,
        )
    except OSError as error:
        raise FileProblem(f"can't read {directory}: {error.strerror or error}") from None
    if not played:
        whom = f" with {args.with_name}" if args.with_name else ""
        print(f"No games{whom} in {directory}.")
    for game in played:
        print(game_line(game))
    opponents = opponent_lines(played)
    if opponents:
        print()
        print("Together (finished games):")
        for line in opponents:
            print("  " + line)
    if unreadable:
        count = len(unreadable)
        print(
            f"p2pgames: {count} file{'s' if count != 1 else ''} in {directory} could not be read as "
            f"transcript{'s' if count != 1 else ''} ({command('verify', str(unreadable[0]))} says why)",
            file=sys.stderr,
        )
    if args.verify and any(game.verified for game in played):
        return EXIT_FAILED
    return EXIT_OK


def transcript_files(directory: Path) -> Iterator[tuple[Path, float, bytes | None]]:
    """The transcripts (``*.p2pt``) directly in ``directory``, one at a time: ``(path, when it
    was last written, its bytes)``, the bytes ``None`` for a file that can't be read (one
    ``read`` of the open file: ``scripts/bench`` times it as the floor of ``history``). Raises
    :class:`OSError` if ``directory`` can't be listed."""
    for path in sorted(directory.glob("*.p2pt")):
        try:
            with open(path, "rb") as file:
                yield path, os.fstat(file.fileno()).st_mtime, file.read()
        except OSError:
            yield path, 0.0, None


def _profile_keys(name: str | None) -> set[bytes] | None:
    """The identity keys whose games ``history`` lists: ``name``'s, or every profile's on this
    machine (``None``, meaning every transcript, when there is none)."""
    from p2pgames.profiles import ProfileError, identities_dir, read_identity

    try:
        if name is not None:
            identity = read_identity(name)
            if identity is None:
                raise UsageError(f"there is no profile {name!r} on this machine ({command('id')} shows yours)")
            return {identity.public_key.raw}
        keys = set()
        for path in sorted(identities_dir().glob("*.key")):
            try:
                identity = read_identity(path.stem)
            except ProfileError:
                continue  # not a profile this program made, or damaged: it played no game
            if identity is not None:
                keys.add(identity.public_key.raw)
    except ProfileError as error:
        raise FileProblem(str(error)) from None
    except OSError as error:
        raise FileProblem(f"can't read your profiles: {error.strerror or error}") from None
    return keys or None


def _files_to_verify(names: Sequence[str]) -> list[Path]:
    """The files named, a directory standing for the files directly in it (so ``verify DIR/*``
    takes in the ``reports`` folder beside the transcripts). An empty directory stands for itself
    (it can't be read as a file: that is what verify says of it)."""
    paths: list[Path] = []
    for name in names:
        path = Path(name)
        try:
            files = sorted(item for item in path.iterdir() if not item.is_dir()) if path.is_dir() else []
        except OSError:  # not ours to list: reading it says why
            files = []
        paths.extend(files or [path])
    return paths


def cmd_doctor(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be between 1 and 65535 (or 0 for any free port), not {args.port}")
    port_mappers = _port_mappers(args)
    import trio

    from p2pgames.net._doctor import diagnose
    from p2pgames.net import SetupError

    asking = " (asking your router takes a few seconds)" if port_mappers else ""
    print(f"Can others reach a table you host? Checking{asking} …\n", flush=True)
    try:
        findings, verdict = trio.run(diagnose, args.port, port_mappers)
    except SetupError as error:
        raise NetworkProblem(str(error)) from None
    for finding in findings:
        print(finding)
    print("\nIn short:")
    for sentence in verdict:
        print(f"- {sentence}")
    return EXIT_OK


def cmd_id(args: argparse.Namespace) -> int:
    with _profile(args.profile, "showing its identity") as profile:
        for note in _profile_notes(profile):
            print(note, file=sys.stderr)
        print(f"profile:     {profile.name}")
        print(f"key file:    {profile.path}")
        print(f"fingerprint: {profile.identity.public_key.fingerprint()}")
    return EXIT_OK


def cmd_rules(args: argparse.Namespace) -> int:
    """The rules as played (``RULES.md`` without its test citations and developer text, flowed to
    the terminal: :mod:`p2pgames.games.rules_page`), then the variants the command line names."""
    game = _game(args.game)
    import importlib
    import inspect
    from importlib import resources

    from p2pgames.games.rules_page import player_rules

    package = game_package(game.name)
    if game.name in TEST_GAMES:
        # No rulebook: a test game's rules are its module's docstring.
        print(f"# {game.title}: one of the platform's test games, not offered to players\n")
        print(inspect.cleandoc(importlib.import_module(package).__doc__ or "(no rules written)"))
        return EXIT_OK
    page = resources.files(package).joinpath("RULES.md").read_text(encoding="utf-8")
    variants = variants_of(game)
    if variants:
        page += "\n\n## Variants on the command line\n\n"
        page += f"`--variant NAME` on host, play and selfplay (`p2pgames play {game.name} --variant NAME`):\n\n"
        for name, variant in variants.items():
            options = ", ".join(f"{option}={value}" for option, value in variant["options"].items())
            page += f"- `{name}`: {variant['about']} ({options})\n"
    print(player_rules(page, _rules_width()), end="")
    return EXIT_OK


def _rules_width() -> int:
    """The columns the rules are flowed to: the terminal's when they go to one (40–100: longer
    lines read badly), else 80."""
    try:
        if sys.stdout.isatty():
            return max(40, min(100, os.get_terminal_size(sys.stdout.fileno()).columns))
    except (OSError, ValueError, AttributeError):  # no real file behind stdout
        pass
    return 80


# -- parser ------------------------------------------------------------------------------------------


def _bots_help() -> str:
    """``torpedo: heuristic, search`` for --help: the games with more than one kind of bot."""
    from p2pgames.bots import bot_kinds

    parts = [f"{name}: {', '.join(kinds)}" for name in PLAYABLE if (kinds := bot_kinds(get_game(name)))]
    return "; ".join(parts) or "each game has one"


_ONE_KIND_SEAT = "give --bot without a KIND"  # host/join: --bot alone still means a bot seat


def _bot_kinds(
    game: Game, text: str | None, seats: int = 1, *, option: str = "--bot", one_kind: str | None = None
) -> list[str | None]:
    """The kinds of bot ``option`` names for up to ``seats`` seats (one, or one per seat;
    ``[None]``: the game's default). Raises :class:`UsageError` for a kind the game lacks, and
    for any kind named when the game has one kind of bot (``one_kind`` says what to do then;
    by default, leave the option out)."""
    from p2pgames.bots import bot_kinds

    if text is None:
        return [None]
    kinds = bot_kinds(game)
    if not kinds:
        raise UsageError(f"{game.title} has one kind of bot; {one_kind or 'leave out ' + option}")
    named = [kind.strip() for kind in text.split(",")]
    for kind in named:
        if kind not in kinds:
            raise UsageError(f"{game.title} has no bot called {kind!r}; choose one of: {', '.join(kinds)}")
    if len(named) > seats:
        raise UsageError(f"{option} names {len(named)} kinds for {seats} seat{'s' if seats != 1 else ''}")
    return named  # type: ignore[return-value]


def _known_kind(kind: str | None) -> None:
    """Before the game is known (``join --bot KIND``): a kind no game has is a usage error now."""
    from p2pgames.bots import bot_kinds

    if kind is None:
        return
    if not any(kind in bot_kinds(get_game(name)) for name in PLAYABLE):
        raise UsageError(f"no game has a bot called {kind!r} ({_bots_help()}); name one of those, or give --bot without a KIND")


def _variants_help() -> str:
    """``steamcourt: party, duo, clock, solo; beltpunk: none``, for --help."""
    parts = []
    for name in PLAYABLE:
        variants = variants_of(get_game(name))
        parts.append(f"{name}: {', '.join(variants) if variants else 'none'}")
    return "; ".join(parts)


class _Later:
    """A --help text made when help is shown, not when the parser is built: the texts that name
    every game's bots or variants import every game, which would slow every command's start
    (``verify``'s counts in ``scripts/bench``). argparse only strips it and ``%``-formats it."""

    def __init__(self, make: Callable[[], str]) -> None:
        self._make = make

    def __str__(self) -> str:
        return self._make()

    def __mod__(self, params: Any) -> str:
        return self._make() % params

    def strip(self) -> str:
        return self._make().strip()

    def __contains__(self, text: str) -> bool:
        return text in self._make()


def build_parser() -> argparse.ArgumentParser:
    # Every game the commands accept, the test games named as such (tests and benchmarks use them).
    games = f"{', '.join(PLAYABLE)} (and, for tests, the platform's test games: {', '.join(TEST_GAMES)})"
    parser = _Parser(
        prog="p2pgames",
        description="Steampunk tabletop games with friends, peer to peer: no server, no trusted dealer.",
    )
    parser.add_argument("--version", action="version", version=f"p2pgames {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    def identity_options(command: argparse.ArgumentParser, profile: str = "'default', or the next free one") -> None:
        command.add_argument("--name", help="your name at the table (default: your user name)")
        command.add_argument("--profile", help=f"identity profile to use (default: {profile})")
        command.add_argument("--no-color", action="store_true", help="monochrome screen (also: NO_COLOR=1)")
        command.add_argument(
            "--no-alerts", action="store_true", help="no bell and no desktop notification when it becomes your move "
            "after others have played",
        )
        command.add_argument("--transcripts", metavar="DIR", help=f"where to save transcripts (default: {default_transcripts()})")
        command.add_argument("--no-transcript", action="store_true", help="don't save a transcript")

    def game_options(command: argparse.ArgumentParser, bot_help: str | None = None) -> None:
        command.add_argument("--players", type=int, metavar="N", help="seats at the table")
        if bot_help is None:
            command.add_argument(
                "--bot", metavar="KIND", help=_Later(lambda: f"the kind of bot to play with ({_bots_help()}); selfplay: "
                "one per seat, comma-separated (e.g. search,heuristic)"),
            )
        else:
            seat_bot_option(command, bot_help)
        command.add_argument("--variant", metavar="NAME", help=_Later(lambda: f"play a variant of the game ({_variants_help()})"))
        command.add_argument(
            "--option", action="append", default=[], metavar="NAME=VALUE", help="a ruleset option (repeatable)"
        )

    def no_upnp_option(command: argparse.ArgumentParser, who: str = "") -> None:
        command.add_argument(
            "--no-upnp", action="store_true", help=f"{who}don't ask your router to forward the port to this machine "
            "(by UPnP, PCP or NAT-PMP) for friends on the internet",
        )

    def no_reach_option(command: argparse.ArgumentParser, who: str = "") -> None:
        command.add_argument(
            "--no-reach", action="store_true", help=f"{who}don't listen for the other players, nor tell them your "
            "addresses (only the host sees them): a host that leaves can then never hand you the table",
        )

    def grace_option(command: argparse.ArgumentParser) -> None:
        command.add_argument(
            "--grace", metavar="TIME", help="how long a player may be away (lost connection) before you may end "
            "the game for everyone or play on with a bot in their seat; until then the game waits for them "
            "(default 3m; e.g. 10m, 90s, 1h)",
        )
        command.add_argument(
            "--if-I-leave", dest="if_i_leave", choices=("bot", "end"), default="end",
            help="with --bot: what Ctrl-C or SIGTERM does — hand your seat to a bot, your cards shown to all (bot; a "
            "joiner's seat, as soon as it can be), or leave at once, ending the game for everyone (end, the default)",
        )
        command.add_argument(
            "--if-away", choices=("bot", "end"), default="bot",
            help="with --bot: what your seat answers once a player has been away past the grace period — play on "
            "with a bot in their seat where it can (bot, the default; else it claims the game by forfeit at a table "
            "that plays one, else the game ends) or end the game (end)",
        )

    def seat_bot_option(command: argparse.ArgumentParser, what: str) -> None:
        # nargs="?": --bot alone is the game's default kind (""), left out None (a person plays).
        command.add_argument(
            "--bot", nargs="?", const="", metavar="KIND",
            help=_Later(lambda: f"a bot plays your seat, in this process, with no terminal: what happens is printed "
                        f"on stdout, a line at a time{what}; KIND: the kind of bot (default: the game's; {_bots_help()})"),
        )

    host = commands.add_parser("host", help="host a table others join", description="Host a table; prints a join code.")
    host.add_argument("game", metavar="GAME", help=f"one of: {games}")
    game_options(host, bot_help=" (the join code first); the --bots seats play KIND too")
    host.add_argument("--bots", type=int, default=0, metavar="K", help="fill K seats with bots")
    host.add_argument(
        "--bots-kind", metavar="KIND", help="the kind of bot of the --bots seats (default: --bot's KIND, or the game's default)"
    )
    host.add_argument("--port", type=int, default=0, metavar="P", help="TCP port to listen on (default: any free)")
    host.add_argument(
        "--watchers", type=int, default=8, metavar="N", help="how many may watch the game at once with 'p2pgames watch' "
        f"(they see what a player holding no cards sees; 0: nobody; at most {MAX_WATCHERS}; default 8)",
    )
    host.add_argument("--watchers-chat", action="store_true", help="let watchers chat (their lines reach everyone)")
    host.add_argument(
        "--open-freed-seats", action="store_true", help="playing again (a at the end), the seats of players who left "
        "wait for new players with the same join code (default: bots take them)",
    )
    host.add_argument("--bind", metavar="ADDR", help="address to listen on (default: all interfaces)")
    no_upnp_option(host)
    grace_option(host)
    host.add_argument(
        "--no-bot-seats", action="store_true", help="a table where no bot takes the seat of a player who leaves: "
        "the game ends instead (every peer enforces it; the join screens show it)",
    )
    host.add_argument(
        "--move-time", metavar="TIME", help="the longest a player may take over a move (e.g. 2m, 90s); past it, "
        "the player's own bot makes that move (every player sees the limit before the game; default: none)",
    )
    host.add_argument(
        "--forfeit", action="store_true", help="two players: when one has gone for good and no bot can take their "
        "seat, the one left may win by forfeit instead of ending the game (the join screens show it)",
    )
    identity_options(host)
    host.set_defaults(handler=cmd_host)

    join = commands.add_parser("join", help="join a table", description="Join a table by its join code.")
    join.add_argument(
        "code", metavar="CODE", nargs="?",
        help="the host's join code, HOST:PORT/FINGERPRINT (or HOST:PORT); without it, tables "
        "announced on the LAN are listed",
    )
    seat_bot_option(join, " (KIND is checked once the host's game is known)")
    grace_option(join)
    no_reach_option(join)
    no_upnp_option(join, "should the table come to you (the host leaving): ")
    identity_options(join)
    join.set_defaults(handler=cmd_join)

    resume = commands.add_parser(
        "resume", help="take your seat again in a game this program stopped in",
        description="Take your seat again in an unfinished game (your process or machine stopped mid-game): "
        "a joiner rejoins its host, a host listens again and waits for its joiners.",
    )
    resume.add_argument("game_id", metavar="GAME", nargs="?", help="which saved game: the start of its id (default: the newest)")
    resume.add_argument("--code", metavar="CODE", help="the host's new join code, if it moved (it must have the same key)")
    resume.add_argument("--port", type=int, metavar="P", help="host: listen on this port (default: the one the game had)")
    resume.add_argument("--bind", metavar="ADDR", help="host: address to listen on (default: all interfaces)")
    no_upnp_option(resume, "host, or the player the table would go to should its host leave: ")
    resume.add_argument("--bot", nargs="?", const="", metavar="KIND", help="a bot plays the seat, with no terminal")
    resume.add_argument(
        "--forget", action="store_true",
        help="don't take the seat of GAME (required): delete it (its game is over, and its host gone for good)",
    )
    grace_option(resume)
    no_reach_option(resume, "joiner: ")
    identity_options(resume, "the one of 'default', 'default-2' … the game was played in")
    resume.set_defaults(handler=cmd_resume)

    play = commands.add_parser("play", help="play against bots on this machine")
    play.add_argument("game", metavar="GAME", nargs="?", help=f"one of: {games} (default: a menu)")
    game_options(play)
    play.add_argument(
        "--solo", action="store_true", help="play alone, offline (games with a solo variant: --variant solo, one player)"
    )
    identity_options(play)
    play.set_defaults(handler=cmd_play)

    selfplay = commands.add_parser("selfplay", help="bots play each other over loopback, no terminal")
    selfplay.add_argument("game", metavar="GAME", help=f"one of: {games}")
    game_options(selfplay)
    selfplay.add_argument("--games", type=int, default=1, metavar="K", help="how many games (default 1)")
    selfplay.add_argument("--transcripts", metavar="DIR", help="save and verify every peer's transcript here")
    selfplay.add_argument(
        "--seed",
        help="fix every peer's keys, secrets and bots (moves made at the same moment may still "
        "reach the host in another order)",
    )
    selfplay.set_defaults(handler=cmd_selfplay)

    verify = commands.add_parser(
        "verify", help="check transcripts offline",
        description=(
            "Replay each transcript offline and say what it proves. A directory stands for the files in "
            "it. A desync report (which a peer writes in the reports folder beside its transcripts when "
            "the peers disagree) is named as such and is no failure: it is not signed, and there is "
            "nothing in it to verify. Exit status 1 if any transcript does not verify, or a file is "
            "neither a transcript nor a desync report."
        ),
    )
    verify.add_argument("files", metavar="FILE", nargs="+", help="transcript files (or directories of them)")
    verify.set_defaults(handler=cmd_verify)

    watch = commands.add_parser(
        "watch", help="watch a table's game, live, without a seat",
        description=(
            "Follow a table's game as it is played, on its screen, as a player holding no cards sees it: "
            "you take no seat, the table never waits for you, and no hidden card is ever sent to you. "
            "Without CODE, a table announced on this network (in its lobby, or playing if it takes watchers). "
            "With --print, its "
            "log is printed line by line instead, until the game ends. Exit status 0 once the game is "
            "over, 1 if the watching stopped before (turned away, the host gone), 3 if the table can't be reached."
        ),
    )
    watch.add_argument("code", metavar="CODE", nargs="?", help="the table's join code, HOST:PORT/FINGERPRINT")
    watch.add_argument("--print", action="store_true", help="print the game's log to stdout instead of the screen")
    watch.add_argument("--name", help="the name the host sees you by (default: your user name)")
    watch.add_argument("--no-color", action="store_true", help="monochrome screen (also: NO_COLOR=1)")
    watch.set_defaults(handler=cmd_watch)

    replay = commands.add_parser(
        "replay", help="step through a game from its transcript",
        description=(
            "Open a game's screen on its transcript and step through it: the table after each entry as the "
            "transcript's seat saw it then, or with every card the deals' audits showed. Keys: → and ← the "
            "next and previous move, ↓ and ↑ the next round and the round's start, Home and End, digits then "
            "Enter to jump to an entry, a for every card, q to quit. With --at N, print the table after entry "
            "N (80 columns, no colour) and exit."
        ),
    )
    replay.add_argument("file", metavar="FILE", help="a transcript (see 'p2pgames history' for yours)")
    replay.add_argument("--at", type=int, metavar="N", help="print the table after log entry N and exit")
    replay.add_argument("--seat", type=int, metavar="S", help="whose view (default: the transcript's own seat)")
    replay.add_argument("--every-card", action="store_true", help="show every card the audits showed")
    replay.add_argument("--no-color", action="store_true", help="monochrome screen (also: NO_COLOR=1)")
    replay.set_defaults(handler=cmd_replay)

    seats = commands.add_parser(
        "seats", help="the unfinished games you can take up again",
        description=(
            "List the unfinished games whose seats are saved here (a game stopped midway: your program or "
            f"machine stopped), newest first; take one up again with {command('resume', 'ID')}. "
            "'seats forget ID' drops one for good, after asking."
        ),
    )
    seats.add_argument("--profile", help="only this identity profile's (default: 'default', 'default-2' …)")
    seats_commands = seats.add_subparsers(dest="seats_command", metavar="forget")
    forget = seats_commands.add_parser("forget", help="drop a saved game for good, after asking")
    forget.add_argument("game_id", metavar="ID", help="the game: the start of its id, as 'seats' lists it")
    forget.add_argument("--yes", action="store_true", help="don't ask")
    forget.add_argument("--profile", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    seats.set_defaults(handler=cmd_seats)

    history = commands.add_parser(
        "history", help="the games you played, newest first",
        description=(
            "List the games played with this machine's identity profiles, newest first, from their transcripts: "
            "when, the game and its rules, who else played, the result and the length, then a line per "
            "opponent. One line per game, fields separated by ' · '. Exit status 1 if --verify finds a "
            "transcript that does not verify."
        ),
    )
    history.add_argument("--with", dest="with_name", metavar="NAME", help="only the games with a player of that name")
    history.add_argument("--verify", action="store_true", help="check every transcript listed too (slower)")
    history.add_argument("--profile", help="only the games of this identity profile (default: every profile here)")
    history.add_argument("--transcripts", metavar="DIR", help=f"where the transcripts are (default: {default_transcripts()})")
    history.set_defaults(handler=cmd_history)

    doctor = commands.add_parser(
        "doctor", help="can others reach a table you host? (addresses, router, IPv6)",
        description="Tell whether others can reach a table hosted here, in plain words: where a table listens, this "
        "machine's addresses, whether your router forwards a port when asked (by UPnP, PCP or NAT-PMP; the test "
        "mapping is removed at once), IPv6, and how tables are found on your network.",
    )
    doctor.add_argument("--port", type=int, default=0, metavar="P", help="the port to check (default: any free one)")
    no_upnp_option(doctor)
    doctor.set_defaults(handler=cmd_doctor)

    ident = commands.add_parser("id", help="show your identity's fingerprint")
    ident.add_argument("--profile", help="identity profile (default: 'default')")
    ident.set_defaults(handler=cmd_id)

    rules = commands.add_parser("rules", help="print a game's rules as played")
    rules.add_argument("game", metavar="GAME", help=f"one of: {games}")
    rules.set_defaults(handler=cmd_rules)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code = args.handler(args)
        sys.stdout.flush()  # now, while a closed pipe can still be told apart (below)
        return code
    except UsageError as error:
        print(f"p2pgames: {error}", file=sys.stderr)
        return EXIT_USAGE
    except FileProblem as error:
        print(f"p2pgames: {error}", file=sys.stderr)
        return EXIT_FAILED
    except NetworkProblem as error:
        print(f"p2pgames: {error}", file=sys.stderr)
        return EXIT_NETWORK
    except BrokenPipeError:
        # Whoever read our output stopped (``| head``): nothing to say, and nobody to say it to.
        # Python would report the failed flush of stdout at exit: point stdout at nothing.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return EXIT_BROKEN_PIPE
    except OSError as error:
        # Networking reports its own problems (net.SetupError); what is left is a file.
        where = f"{error.filename}: " if error.filename else ""
        print(f"p2pgames: {where}{error.strerror or error}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        print("p2pgames: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
