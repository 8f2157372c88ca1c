"""The line names' key: what two names are compared by."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from smriti.core.text import line_key


def _slow(name: str) -> str:
    """The rule without its ASCII shortcut."""
    folded = " ".join(unicodedata.normalize("NFC", name).split()).casefold()
    return unicodedata.normalize("NFC", folded)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("caf\u00e9", "cafe\u0301"),
        ("Release Notes", "release\u00a0notes"),
        ("a b", "a \u2003\u3000 b"),
        ("  main ", "MAIN"),
        ("Straße", "STRASSE"),
        ("\u01f0", "\u01f0".upper()),  # folds to a decomposed j + caron, composed again
    ],
)
def test_names_that_look_alike_have_one_key(one: str, other: str) -> None:
    assert line_key(one) == line_key(other)


@pytest.mark.parametrize(("one", "other"), [("ab", "a b"), ("a/b", "a b"), ("cafe", "caf\u00e9")])
def test_names_that_differ_have_different_keys(one: str, other: str) -> None:
    assert line_key(one) != line_key(other)


@given(st.text())
def test_a_key_is_its_own_key(name: str) -> None:
    assert line_key(line_key(name)) == line_key(name)


@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_the_ascii_shortcut_is_the_rule(name: str) -> None:
    assert line_key(name) == _slow(name)
