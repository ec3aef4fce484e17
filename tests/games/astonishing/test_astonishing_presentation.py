"""What people see: the log never names a card that is face down, a player's panels show its own
hand and installed cards and nobody else's, a spectator sees no hidden card."""

import textwrap

from p2pgames.engine import PANEL_TITLE_WIDTH, PANEL_WIDTH
from p2pgames.games.astonishing.cards import card_text, is_joker
from p2pgames.games.astonishing.presentation import PRESENTATION

from tests.games.astonishing.astonishing_scenarios import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    Phase,
    ScenarioTable,
    choose,
    describe_all,
    finish,
    panel_lines,
    pick,
    play,
    play_all,
    roll,
    seal,
    table,
)


def _hidden_texts(t, viewer=None):
    """How the cards ``viewer`` never saw would print (a Joker's text only while no Joker is
    public, as the two print alike). A card seen in any of its slots counts as seen: a re-masked
    hand's cards take new slots, but the card everyone saw face up stays one they saw."""
    seen = dict(t.state.cards.revealed)
    if viewer is not None:
        seen.update(t.knowledge[viewer])
    hidden = {name for name in t.truth.values()} - set(seen.values())
    texts = {card_text(name) for name in hidden if not is_joker(name)}
    if any(is_joker(name) for name in hidden) and not any(is_joker(name) for name in seen.values()):
        texts.add("Joker")
    return texts


def _panel_text(t, viewer):
    knowledge = t.knowledge[viewer] if viewer is not None else {}
    panels = PRESENTATION.panels(t.state, viewer, knowledge, t.names)
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
        installed={0: [["4S"], ["6D"], ["2D"]], 1: [["8D", "4D"], ["10S"], ["3S"]], 2: [["5H"], ["6H"], ["7H"]]},
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
    assert "bob          ♦ hand  2 · installed 1 0 0" in text  # others: how many, not which
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
    assert "alice    9♣ 3♥ = 12 ✓ · empty ✗ · empty ✗" in text


def test_help_says_how_moves_are_typed():
    text = PRESENTATION.help_text()
    assert text.startswith("Astonishing! — build a contraption, then astonish the fair.")
    for example in ("offer 3d 7c", "answer 5d down:joker", "accept bob", "describe 3 9 - pitch Behold!"):
        assert example in text


def test_the_workshop_says_what_your_queen_does_now_and_at_the_fair_what_your_king_does_too():
    t = table(3, hands={0: ["3D"], 1: ["5D"], 2: ["2H"]})
    assert "Queen: draw 2, or draw 1 and take 1 at random from a rival" in panel_lines(t, 0, "Your workshop")
    assert "Queen: take 1 at random from a rival, draw 2, give 1 back" in panel_lines(t, 2, "Your workshop")
    fair = table(3, installed={0: [["9C"], [], []]}, rest="out", phase=Phase.CHOOSE_EXHIBIT)
    lines = panel_lines(fair, 0, "Your workshop")
    assert "Queen: a position of yours counts 2 more (to 15)" in lines
    assert "King: 1 Acclaim per ♣ in a competitor's working positions" in lines
    assert "Queen: turn one die 1 or 2 up or down" in panel_lines(fair, 2, "Your workshop")


def test_while_the_inventors_are_chosen_every_sheet_shows_its_inventor_its_queens_and_who_took_it():
    t = ScenarioTable(3, first=1)
    play(t, 1, "marisol")
    lines = panel_lines(t, 0, "Inventor sheets")
    assert lines[0] == "♣ Lady Calibrette Merchant"
    assert lines[1:3] == [
        "  Queen: draw 2, or draw 1 and take 1 at random from a rival",
        "  Fair Queen: a position of yours counts 2 more (to 15)",
    ]
    assert lines[6] == "♥ Marisol Chang · bob's"
    assert "  Queen: draw 1 + 1 at random from a rival or top 5 discards" in lines
    assert panel_lines(t, 0, "Your workshop") is None and panel_lines(t, 0, "Inventors") is None


def _to_the_queens(t, *dice):
    """The exhibition from the sealed Queens and Kings until the Queens act: everyone describes, the
    crowd rolls ``dice``, alice has bob's vote and the others hers, and every Jack is kept."""
    describe_all(t)
    roll(t, *dice)
    play_all(t, {0: "vote bob", 1: "vote alice", 2: "vote alice"})
    while t.state.phase == Phase.JACKS:
        play(t, t.state.queue[0], "keep my jacks")


def test_after_intimidate_the_fair_alone_shows_the_positions_and_their_reliability_with_it():
    t = table(3, installed={0: [["9C", "3H"], ["2D"], []], 1: [["10D"], [], []], 2: [["2S"], [], []]},
              rest="out", phase=Phase.CHOOSE_EXHIBIT)
    seal(t, {0: "queen"})
    assert "1 form     9♣ 3♥   = 12 · 3 " in "\n".join(panel_lines(t, 0, "Your workshop"))
    _to_the_queens(t, 6, 6, 3)
    play(t, 0, "intimidate position 1")
    assert "alice    9♣ 3♥ = 14 ✗ · 2♦ = 2 ✗ · empty ✗" in panel_lines(t, 0, "The Fair")
    workshop = panel_lines(t, 0, "Your workshop")
    assert not any(" = " in line for line in workshop), workshop  # no stale total beside the fair's


def test_from_the_dice_to_the_end_the_positions_are_shown_in_one_place_at_every_step():
    # The workshop (and the players' "installed" counts) until the positions are public, then the
    # fair (and the Acclaim) — also while the Queens and Kings are opened and the cards turned up,
    # and while a Diamonds Queen's replacement part is turned up (shown ▒ until it is).
    t = table(3, (CLUBS, DIAMONDS, HEARTS), hands={1: ["9S", "3C"]}, rest="out", phase=Phase.CHOOSE_EXHIBIT,
              installed={0: [["9C"], ["7D"], []], 1: [["10D", "2D"], [], []], 2: [["6H"], [], []]})
    shown: dict[str, list[tuple[bool, bool, bool, bool]]] = {}
    feed = t.feed

    def recording(event):
        feed(event)
        if t.state.dice:
            alice = panel_lines(t, 0, "Inventors")[0]
            workshop = any(line.startswith("1 form") for line in panel_lines(t, 0, "Your workshop"))
            fair = [line for line in panel_lines(t, 0, "The Fair") if line.startswith("alice ")]
            shown.setdefault(t.state.phase, []).append((workshop, "installed" in alice, bool(fair), "Acclaim" in alice))
            if t.state.phase == Phase.REPLACING:
                assert fair == ["alice    9♣ = 9 ✓ · ▒ = ? ✗ · empty ✗"]

    t.feed = recording
    seal(t, {1: "queen"})
    _to_the_queens(t, 3, 3, 3)
    play(t, 1, "replace 7d with 9s")
    finish(t)
    assert {Phase.UNSEAL, Phase.REVEALING, Phase.JACKS, Phase.REPLACING, Phase.OVER} <= set(shown)
    for phase, seen in shown.items():
        public = phase not in (Phase.UNSEAL, Phase.REVEALING)
        assert set(seen) == {(not public, not public, public, public)}, phase


def test_the_workshop_cuts_a_descriptor_after_a_whole_word_or_shows_its_number_alone():
    from p2pgames.games.astonishing.cards import descriptors

    t = table(3, installed={0: [["4S", "3H"], ["10C", "AC"], ["7D"]]}, rest="out")
    lists = descriptors()[0]
    for position, line in enumerate(panel_lines(t, 0, "Your workshop")[-3:]):
        assert len(line) <= PANEL_WIDTH, line
        for part in line.split(" · ", 1)[1].split(" / "):
            number, _, words = part.partition(" ")
            entry = lists.entry(position, int(number))
            assert not words or words == entry or (
                words.endswith("…") and (entry + " ").startswith(words[:-1] + " ")
            ), (part, entry)


def test_every_panel_line_fits_beside_the_titles_of_an_80_column_screen_through_a_whole_game():
    long_names = ("a" * 40, "b" * 40, "c" * 40, "d" * 40)
    t = table(4, hands={0: ["3D", "7C", "AC", "10H", "10S", "10D", "9H"], 1: ["5D", "9C"], 2: ["2H"], 3: ["5S"]},
              installed={0: [["4S", "3H"], ["10C", "AH"], []]}, discard=["6S", "8C", "7D"])
    seen = 0

    def check(state):
        nonlocal seen
        for viewer in (None, 0, 1, 2, 3):
            knowledge = t.knowledge[viewer] if viewer is not None else {}
            for panel in PRESENTATION.panels(state, viewer, knowledge, long_names):
                # A title wrapped in the screen's gutter takes no more rows than its lines.
                assert len(textwrap.wrap(panel.title, PANEL_TITLE_WIDTH)) <= max(len(panel.lines), 1), panel.title
                for line in panel.lines:
                    text = "".join(text for _, text in line)
                    assert len(text) <= PANEL_WIDTH, (panel.title, text)
        seen += 1
        return False

    finish(t, until=check)
    assert t.state.phase == Phase.OVER and seen > 50


def test_as_the_descriptions_begin_each_player_is_told_in_its_own_log_its_descriptors_in_full():
    t = table(3, installed={0: [["2H", "10H"], [], ["AH"]], 1: [["10D"], [], []]}, inventors=(HEARTS, DIAMONDS, CLUBS),
              rest="out", phase=Phase.CHOOSE_EXHIBIT)
    seal(t)
    assert t.private[0] == [
        "Your descriptors for position 1 (form): 2 a music box shaped like a Lima balcony · "
        "10 an impossible cathedral of light and music",
        "Your descriptors for position 3 (wonder): 11 that plays an old waltz as though no one had ever heard it before",
    ]
    assert t.private[1] == ["Your descriptors for position 1 (form): 10 " + _entry(DIAMONDS, 0, 10)]
    assert t.private[2] == []  # nothing installed
    assert not any("music box" in line for line in t.lines)


def _entry(suit, position, number):
    from p2pgames.games.astonishing.cards import descriptors

    return descriptors()[suit].entry(position, number)


def test_sheet_shows_an_inventor_sheet_in_full_yours_or_one_named():
    t = table(3)
    mine = PRESENTATION.explain(t.state, 0, "sheet", t.names)
    assert mine[0] == "Lady Calibrette Merchant's sheet (Clubs ♣):"
    assert mine[1].startswith("Queen — Capture Resources: draw 2, or draw 1 and take 1 at random from a rival.")
    assert mine[1].endswith("; King — 1 Acclaim per ♣ in a competitor's working positions.")  # as the workshop says
    assert mine[2].startswith("Form: 1 " + _entry(0, 0, 1) + "; 2 ")
    assert mine[2].endswith("; 11 (your Ace) " + _entry(0, 0, 11) + ".")
    assert [line[:9] for line in mine[2:]] == ["Form: 1 a", "Workings:", "Wonder: 1"]
    assert PRESENTATION.explain(t.state, 0, "sheet smithering", t.names)[0] == "Albert Smithering's sheet (Spades ♠):"
    assert PRESENTATION.explain(t.state, 0, "sheet a", t.names) == [
        "'a' could be Abimbola Kayin or Albert Smithering: type more of the name."
    ]
    assert PRESENTATION.explain(t.state, None, "sheet", t.names) == [
        "Name the Inventor whose sheet to show: sheet hearts, sheet Albert Smithering."
    ]
    assert PRESENTATION.explain(t.state, 0, "sheets", t.names) is None
    assert ("sheet [INVENTOR]", PRESENTATION.info_commands[0][1]) == PRESENTATION.info_commands[0]
