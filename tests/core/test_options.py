"""games.core.options: the one options check every system and the service use."""

from __future__ import annotations

import pytest

from games.core.errors import InvalidSyntax, UnknownName
from games.core.options import check_options, with_defaults
from games.core.ruleset import OptionSpec

SPECS = (
    OptionSpec("ships-block-sight", "Ships block sight.", "yes", ("yes", "no")),
    OptionSpec("turns", "Turn limit; empty keeps the scenario's.", "", between=(1, 99)),
    OptionSpec("squadron", "Free text the system reads.", ""),
)


def test_good_options_come_back_spelled_as_declared() -> None:
    assert check_options(SPECS, {"Ships-Block-Sight": "NO", "turns": "7", "squadron": "a+b"}, system="Hex") == {
        "ships-block-sight": "no", "turns": "7", "squadron": "a+b"}
    assert check_options(SPECS, {"turns": ""}, system="Hex") == {"turns": ""}
    assert with_defaults(SPECS, {"turns": "5"}) == {"ships-block-sight": "yes", "turns": "5", "squadron": ""}


@pytest.mark.parametrize(("given", "error", "message", "hint"), [
    ({"fog": "yes"}, UnknownName, "Hex has no option `fog`.", "Options: ships-block-sight, squadron, turns."),
    ({"ships-block-sight": "maybe"}, InvalidSyntax, "Option ships-block-sight=`maybe` is not allowed.", "Choose one of yes, no."),
    ({"turns": "0"}, InvalidSyntax, "Option turns=`0` is not allowed.", "Give a whole number from 1 to 99."),
    ({"turns": "1e3"}, InvalidSyntax, "Option turns=`1e3` is not allowed.", "Give a whole number from 1 to 99."),
    ({"turns": "9" * 5000}, InvalidSyntax, "is not allowed", "Give a whole number from 1 to 99."),
    ({"ships-block-sight": ""}, InvalidSyntax, "Option ships-block-sight=`` is not allowed.", "Choose one of yes, no."),
])
def test_bad_options_are_refused_in_one_wording(given: dict[str, str], error: type[Exception], message: str,
                                                  hint: str) -> None:
    with pytest.raises(error) as caught:
        check_options(SPECS, given, system="Hex")
    assert message in str(caught.value) and hint in str(caught.value)
