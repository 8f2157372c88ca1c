"""ts_headline's marks turned into plain text and offsets."""

from __future__ import annotations

from smriti.search.snippets import plain_snippet


def test_marks_become_offsets_into_the_plain_text() -> None:
    snippet, highlights = plain_snippet("We are \x02deploying\x03 the\n\n new \x02engine\x03 ✓")
    assert snippet == "We are deploying the new engine ✓"
    assert [snippet[a:b] for a, b in highlights] == ["deploying", "engine"]


def test_offsets_count_code_points_and_survive_trimmed_edges() -> None:
    snippet, highlights = plain_snippet("  \x02𝔘nicode\x03 … café \x02deploy\x03  ")
    assert snippet == "𝔘nicode … café deploy"
    assert highlights == [(0, 7), (15, 21)]


def test_an_unclosed_or_empty_mark_highlights_nothing() -> None:
    assert plain_snippet("a \x02\x03b \x02c") == ("a b c", [])
