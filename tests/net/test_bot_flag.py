"""A hello's ``bot`` flag is a claim (issue 11, hole 5): a peer shows a seat as a bot for sure only
when it launched that bot itself, and any other seat whose hello says ``bot`` as saying so.

Over loopback: a host with ``--bots 1`` (``host_table``) and a remote person who joins as
"bot-1" with ``bot: true`` in its hello.
"""

from __future__ import annotations

import trio

from p2pgames.bots import bot_for
from p2pgames.crypto import Identity
from p2pgames.games import get_game
from p2pgames.net import BOT_CLAIMED, BOT_LAUNCHED_HERE, LOOPBACK, JoinCode, drive_bot, host_table, join_table


async def test_only_bots_launched_here_are_shown_as_bots_and_a_claim_is_shown_as_a_claim(autojump_clock):
    game = get_game("probe")
    async with trio.open_nursery() as nursery:
        said: list[str] = []
        host = await host_table(
            nursery, identity=Identity.generate(), name="hostess", ruleset=game.ruleset(3), bind=LOOPBACK,
            bots=1, say=said.append, announce_on_lan=False,
        )
        await host.wait_until(lambda: host.session.lobby_size == 2)  # its own bot, seated
        port = int(said[0].removeprefix("Join code: ").split("/")[0].rpartition(":")[2])
        impostor = await join_table(
            nursery, identity=Identity.generate(), name="bot-1", code=JoinCode(LOOPBACK, port, None), bot=True,
        )
        names = [info.name for info in host.session.lobby]
        assert names == ["hostess", "bot-1", "bot-1-2"], "the name a launched bot has is taken: told apart"
        assert [info.bot for info in host.session.lobby] == [False, True, True], "both say they are bots"
        assert [host.bot_note(seat, info.bot) for seat, info in enumerate(host.session.lobby)] == [
            None, BOT_LAUNCHED_HERE, BOT_CLAIMED,
        ]
        # The impostor's own peer knows its own seat for a bot; the host's it can't know.
        await impostor.wait_until(lambda: impostor.session.seats)
        assert [impostor.bot_note(seat, info.bot) for seat, info in enumerate(impostor.session.seats)] == [
            None, BOT_CLAIMED, BOT_LAUNCHED_HERE,
        ]
        # A lobby event older than the lobby: a seat now held by another name is not vouched for.
        assert host.bot_note(1, True, "someone else") == BOT_CLAIMED

        # Saying so gains nothing: the game is played out as any other.
        nursery.start_soon(drive_bot, host, bot_for(game, b"host"))
        nursery.start_soon(drive_bot, impostor, bot_for(game, b"impostor"))
        with trio.fail_after(600):
            await host.finished.wait()
            await impostor.finished.wait()
        assert host.session.fault is None and host.session.result == impostor.session.result is not None
        nursery.cancel_scope.cancel()
