"""Steam Torpedo: tactical submarine combat for two players.

The rules as implemented, the readings chosen where the rulebook is silent, and the tests that
prove each rule are in ``RULES.md`` beside this file.
"""
