"""ts_headline's marks turned into plain text and offsets, and runs of unspaced scripts put back
together (migration 0018)."""

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


def test_a_run_is_put_back_from_its_characters_and_the_query_s_runs_are_highlighted_whole() -> None:
    # 東京の東北: ts_headline marks 東, 東京 and 京 of the query 東京, and the 東 of 東北 too.
    headline = "\x04\x02東\x03\x01\x02東京\x03\x01\x02京\x03\x01京の\x01の\x01の東\x01\x02東\x03\x01東北\x01北\x06 ok"
    snippet, highlights = plain_snippet(headline, ["東京"])
    assert snippet == "東京の東北 ok"
    assert highlights == [(0, 2)]
    assert plain_snippet(headline, ["東"])[1] == [(0, 1), (3, 4)]


def test_an_excerpt_that_begins_or_ends_on_a_pair_shows_its_outer_character() -> None:
    headline = "東京\x01京\x01京の\x01の\x01の天\x05天気\x01気\x01気は"
    assert plain_snippet(headline, ["京の"]) == ("東京の天 … 天気は", [(1, 3)])


def test_a_mark_inside_a_piece_of_a_run_does_not_split_it() -> None:
    # Thai's tone mark ่ is not a letter to the parser: of the pair ่ก it marks ก alone.
    headline = "\x04ท\x01ที\x01ี\x01ี่\x01่\x01่\x02ก\x03\x01\x02ก\x03\x01\x02กร\x03\x01\x02ร\x03\x06"
    assert plain_snippet(headline, ["กร"]) == ("ที่กร", [(3, 5)])


def test_highlights_that_touch_are_one() -> None:
    snippet, highlights = plain_snippet("\x02Python\x03\x04使\x01使い\x01い\x01い方\x01方\x06 here", ["使い"])
    assert snippet == "Python使い方 here"
    assert [snippet[a:b] for a, b in highlights] == ["Python使い"]
