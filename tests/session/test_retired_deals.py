"""A deal the game retires (SPEC §D1: it leaves the card state) is forgotten by every peer too: its
public cryptography, the seat's own keys and what the seat knew of its slots — so a long game
holds only its deals in play."""

from switchboard import Switchboard


def test_every_peer_forgets_the_deals_of_finished_rounds():
    board = Switchboard("beltpunk", 2, seed=b"retired", options={"target": 35})

    def second_round_dealt() -> bool:
        replicas = [session.replica for session in board.sessions]
        return all(r is not None and r.state.round >= 2 and not r.state.cards.pending for r in replicas)

    board.run(until=second_round_dealt)
    for session in board.sessions:
        replica, secrets = session.replica, session.secrets
        state = replica.state
        assert state.round == 2
        live = state.cards.deals
        assert replica.deals and set(replica.deals) <= set(live)  # no crypto of a retired deal
        assert min(live) == state.deal and state.cards.next_deal > state.deal > 0
        assert set(secrets.deals) <= set(live)
        first = live[state.deal].first_slot  # the round's first slot: every earlier one is retired
        assert all(slot >= first for slot in secrets.knowledge) and secrets.knowledge
        assert all(slot >= first for slot in secrets.received)
