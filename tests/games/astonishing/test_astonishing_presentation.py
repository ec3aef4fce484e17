"""What people see: the log never names a card that is face down, a player's panels show its own
hand and installed cards and nobody else's, a spectator sees no hidden card."""

from p2pgames.games.astonishing.cards import card_text, is_joker

from tests.games.astonishing.astonishing_scenarios import (
    GAME,
    Phase,
    choose,
    describe_all,
    pick,
    play,
    play_all,
    roll,
    seal,
    table,
)


def _hidden_texts(t, viewer=None):
    """How the cards ``viewer`` can't see would print (a Joker's text only while no Joker is
    public, as the two print alike)."""
    seen = dict(t.state.cards.revealed)
    if viewer is not None:
        seen.update(t.knowledge[viewer])
    hidden = [name for slot, name in t.truth.items() if slot not in seen]
    texts = {card_text(name) for name in hidden if not is_joker(name)}
    if any(is_joker(name) for name in hidden) and not any(is_joker(name) for name in seen.values()):
        texts.add("Joker")
    return texts


def _panel_text(t, viewer):
    knowledge = t.knowledge[viewer] if viewer is not None else {}
    panels = GAME.panels(t.state, viewer, knowledge, t.names)
    return "\n".join(
        panel.title + "\n" + "\n".join("".join(text for _, text in line) for line in panel.lines) for panel in panels
    )


def _step(t, move):
    """Play ``move`` and return the log lines it produced, checking none names a hidden card."""
    before = len(t.lines)
    move()
    new = t.lines[before:]
    hidden = _hidden_texts(t)
    for line in new:
        assert not any(text in line for text in hidden), (line, sorted(hidden))
    return new


def test_the_log_never_reveals_a_face_down_card_through_a_whole_turn_and_the_exhibition():
    t = table(
        3,
        hands={0: ["3D", "7C", "AC"], 1: ["5D", "JOKER2", "9C"], 2: ["2H", "8H"]},
        installed={0: [["4S"], ["6D"], ["2D"]], 1: [["8D"], ["10S"], ["3S"]], 2: [["5H"], ["6H"], ["7H"]]},
        deck=["10H", "9H", "4H"],
        rest="out",
        final=True,
        deadline=True,
    )
    _step(t, lambda: choose(t, ["jack", "king", "queen"]))
    _step(t, lambda: play(t, 0, "offer 3d"))
    lines = _step(t, lambda: play(t, 1, "answer 5d down:9c"))
    assert lines == ["bob answers with 2 cards, one face up, one face down.", "bob shows 5♦ face up."]
    _step(t, lambda: play(t, 2, "answer down:2h"))
    lines = _step(t, lambda: play(t, 0, "accept bob"))
    (line,) = lines
    assert line.startswith("alice trades 3♦ to bob for ") and "5♦" in line and "a face-down card" in line
    pick(t, 2, "7C")
    lines = _step(t, lambda: play(t, 2, "take from alice"))
    assert not any(line.startswith("carol took") for line in lines)  # which card: theirs to know
    _step(t, lambda: play(t, 2, "give back 10h"))
    lines = _step(t, lambda: play_all(t, {1: "build 3d at 1 replacing 8d"}))
    assert lines[0] == "bob installs a card in position 1, discarding a card." and "To the discard pile: 8♦." in lines
    assert t.state.phase == Phase.CHOOSE_EXHIBIT
    _step(t, lambda: seal(t, {1: "queen"}))
    _step(t, lambda: describe_all(t))
    roll(t, 4, 4, 4)
    _step(t, lambda: play_all(t, {0: "vote bob", 1: "vote alice", 2: "vote alice"}))


def test_a_players_panels_show_its_own_hand_and_installed_cards_and_no_one_elses():
    t = table(
        3,
        hands={0: ["3D", "7C", "AC"], 1: ["5D", "9C"], 2: ["2H"]},
        installed={0: [["4S"], [], []], 1: [["8H"], [], []]},
        discard=["6S"],
    )
    text = _panel_text(t, 0)
    assert "Hand: 7♣ A♣(11) 3♦" in text  # her own Ace of Clubs is worth 11 to her
    assert "1 form     4♠" in text  # she may peek at her installed cards
    for hidden in _hidden_texts(t, 0):
        assert hidden not in text
    assert "9♣" not in text and "8♥" not in text and "2♥" not in text
    assert "bob            ♦ hand  2 · installed 1 0 0" in text  # others: how many, not which
    text = _panel_text(t, 1)
    assert "Hand: 9♣ 5♦" in text and "8♥" in text and "7♣" not in text and "4♠" not in text


def test_a_spectator_sees_no_hidden_card_and_no_workshop():
    t = table(
        3,
        hands={0: ["3D", "7C", "AC"], 1: ["5D", "9C", "JOKER1"], 2: ["2H"]},
        installed={0: [["4S"], [], []], 1: [["8H"], [], []]},
        discard=["6S"],
    )
    choose(t, ["jack", "king", "king"])
    play(t, 0, "offer 3d")
    play(t, 1, "answer 5d down:9c")
    text = _panel_text(t, None)
    assert "Your workshop" not in text
    assert "alice offers 3♦" in text and "answers: bob 5♦ ▒ · carol …" in text  # face down: a blank
    assert "6♠" in text  # the discard pile is face up
    for hidden in _hidden_texts(t):
        assert hidden not in text


def test_a_face_down_answer_is_marked_down_to_its_owner_and_a_blank_to_the_others():
    t = table(3, hands={0: ["3D"], 1: ["5D", "9C"], 2: ["2H"]})
    choose(t, ["jack", "king", "king"])
    play(t, 0, "offer 3d")
    play(t, 1, "answer 5d down:9c")
    assert "bob 5♦ 9♣(down)" in _panel_text(t, 1)
    assert "bob 5♦ ▒" in _panel_text(t, 0) and "bob 5♦ ▒" in _panel_text(t, 2)


def test_the_fair_shows_who_has_described_then_the_dice_and_each_position_once_revealed():
    t = table(3, installed={0: [["9C", "3H"], [], []], 1: [["10D"], [], []], 2: [["6H"], [], []]},
              rest="out", phase=Phase.DESCRIBE)
    describe_all(t, {0: "describe 9 - - pitch Behold!"})
    text = _panel_text(t, None)
    assert "described: alice ✓, bob ✓, carol ✓" in text  # the sentences are in the log
    assert "9♣" not in text
    roll(t, 6, 5, 1)
    play_all(t, {0: "vote bob", 1: "vote alice", 2: "vote alice"})
    text = _panel_text(t, None)
    assert "Dice 6 5 1 = 12" in text
    assert "alice: 1: 9♣ 3♥ = 12 ✓; 2: empty ✗; 3: empty ✗" in text


def test_help_says_how_moves_are_typed():
    text = GAME.help_text()
    assert text.startswith("Astonishing! — build a contraption, then astonish the fair.")
    for example in ("offer 3d 7c", "answer 5d down:joker", "accept bob", "describe 3 9 - pitch Behold!"):
        assert example in text
