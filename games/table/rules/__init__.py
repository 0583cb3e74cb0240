"""The free table's rules, one module per section of its rules (``games.table.ruleset.RULES``)."""
