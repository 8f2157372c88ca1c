"""A conversation import keeps what was said, in the order it was said (issue 43, section 2), for
each format it reads: Claude's and ChatGPT's data exports, Open WebUI's chat export and a Claude
Code session. The fixtures are small files made for these tests from each public format, with
what real exports hold: thinking blocks, tool calls, out-of-order messages, null messages,
branches, hidden messages, files."""

from __future__ import annotations

import json

import asyncpg
import httpx

from tests.support.api import create_space
from tests.support.imports import fixture, import_file, left_out, said, sessions_by_title

VACUUM_ANSWER = (
    "With the default autovacuum_vacuum_scale_factor of 0.2, a table of 50 million rows is vacuumed only after 10 "
    "million dead rows. Lower it for that table, and raise autovacuum_vacuum_cost_limit so the worker is not "
    "throttled."
)
CHECKED_ANSWER = (
    "Let me check the documentation.\n\nPer the documentation, the scale factor is a fraction of the table's size, "
    "so for this table set it to 0.01 with ALTER TABLE events SET (autovacuum_vacuum_scale_factor = 0.01)."
)


async def test_claude_keeps_the_reply_not_its_reasoning_and_the_messages_in_time_order(
    client: httpx.AsyncClient, db: asyncpg.Connection
) -> None:
    """Real Claude exports flatten every block into `text` (thinking and tool placeholders
    included) and list messages out of time order: a reply was its reasoning glued to its answer,
    and a Turn joined a later question before the first."""
    space = await create_space(client, "From Claude")
    [vacuum_conversation, *_] = json.loads(fixture("claude_export.json"))
    response = await import_file(client, space["id"], json.dumps([vacuum_conversation]).encode())

    assert response.status_code == 201, response.text
    result = response.json()
    assert result["format"] == "claude"
    [vacuum] = result["sessions"]
    assert await said(client, vacuum["session_id"]) == [
        ("user", "Why is autovacuum not keeping up on our events table? It has 50 million rows."),
        ("assistant", VACUUM_ANSWER),
        ("user", "What should autovacuum_vacuum_scale_factor be for it?"),
        ("assistant", CHECKED_ANSWER),
    ]
    assert vacuum["left_out"] == left_out(thinking=1, tool_calls=1)
    stored = await db.fetchval("SELECT string_agg(content, ' ') FROM turns")
    assert "not supported on your current device" not in stored
    assert "Likely causes" not in stored  # the reasoning


async def test_a_null_claude_message_is_left_out_not_its_conversation(client: httpx.AsyncClient) -> None:
    """One `null` among a conversation's messages skipped the whole conversation. Its messages are
    linked (`parent_message_uuid`), and a regenerated reply is on another branch."""
    space = await create_space(client, "Null message")
    response = await import_file(client, space["id"], fixture("claude_export.json"))

    assert response.status_code == 201, response.text
    notes = sessions_by_title(response.json())["Release notes"]
    assert await said(client, notes["session_id"]) == [
        ("user", "Draft release notes from the attached changelog."),
        ("assistant", "Version 2.4.0 makes imports faster and accepts files that begin with a byte-order mark."),
    ]
    # The first reply, regenerated away, is on a branch of its own (before, the two were one Turn).
    assert notes["left_out"] == left_out(images=1, attachments=1, branches=1)


async def test_a_claude_conversation_is_the_branch_it_names_as_current(client: httpx.AsyncClient) -> None:
    """Claude keeps every edited and regenerated reply, each naming the message it follows; sorted
    by time, two replies to one message became one Turn."""
    [_, notes, _] = json.loads(fixture("claude_export.json"))
    notes["current_leaf_message_uuid"] = "0190c1a0-0013-7000-8000-000000000013"  # the first reply
    space = await create_space(client, "Current leaf")
    response = await import_file(client, space["id"], json.dumps([notes]).encode())

    assert response.status_code == 201, response.text
    [session] = response.json()["sessions"]
    assert await said(client, session["session_id"]) == [
        ("user", "Draft release notes from the attached changelog."),
        ("assistant", "Version 2.4.0 is out."),
    ]
    assert session["left_out"]["branches"] == 1


async def test_an_older_claude_export_without_content_is_read_from_its_text(client: httpx.AsyncClient) -> None:
    space = await create_space(client, "Older Claude")
    response = await import_file(client, space["id"], fixture("claude_export.json"))

    older = sessions_by_title(response.json())["Lisbon viewpoints"]
    assert await said(client, older["session_id"]) == [
        ("user", "Name three Lisbon viewpoints."),
        ("assistant", "Miradouro da Senhora do Monte, Santa Luzia and São Pedro de Alcântara."),
    ]
    assert older["left_out"] == left_out()


async def test_chatgpt_tool_calls_reasoning_and_hidden_messages_are_left_out_and_counted(
    client: httpx.AsyncClient,
) -> None:
    """A browsing reply became `search("…")\\n\\nmclick([0, 3])\\n\\n<answer>`, and the code the
    model ran was stored as its words."""
    space = await create_space(client, "From ChatGPT")
    [tram_conversation, _] = json.loads(fixture("chatgpt_tools.json"))
    response = await import_file(client, space["id"], json.dumps([tram_conversation]).encode())

    assert response.status_code == 201, response.text
    [tram] = response.json()["sessions"]
    assert await said(client, tram["session_id"]) == [
        ("user", "When does tram 28 start running on Sundays?"),
        ("assistant", "On Sundays the first tram 28 leaves Martim Moniz at 07:40."),
        ("user", "Chart the departures per hour."),
        ("assistant", "Departures peak between 09:00 and 11:00."),
        # A voice conversation's words are its transcription; the audio is an attachment.
        ("user", "Thanks, that helps."),
        ("assistant", "You're welcome. Enjoy the ride."),
    ]
    assert tram["left_out"] == left_out(branches=1, attachments=2, tool_calls=3, thinking=2, hidden=1)


async def test_a_chatgpt_conversation_without_its_mapping_is_skipped_not_the_file(client: httpx.AsyncClient) -> None:
    """Real exports hold such entries; one refused the whole file (400: "neither a ChatGPT
    conversation nor a Claude one")."""
    space = await create_space(client, "Corrupted")
    response = await import_file(client, space["id"], fixture("chatgpt_tools.json"))

    assert response.status_code == 201, response.text
    result = response.json()
    assert [s["title"] for s in result["sessions"]] == ["Tram 28 on Sundays"]
    assert result["skipped"] == [
        {
            "title": "Corrupted entry",
            "reason": "conversation 2: a ChatGPT conversation without its messages (`mapping`).",
            "session_id": None,
        }
    ]


async def test_a_conversation_of_another_format_is_skipped_naming_both(client: httpx.AsyncClient) -> None:
    claude = json.loads(fixture("claude_export.json"))[2]
    chatgpt = json.loads(fixture("chatgpt_tools.json"))[0]
    space = await create_space(client, "Mixed")
    response = await import_file(client, space["id"], json.dumps([claude, chatgpt]).encode())

    assert response.status_code == 201, response.text
    assert response.json()["skipped"] == [
        {
            "title": "Tram 28 on Sundays",
            "reason": "conversation 2 is a ChatGPT conversation, and this export is Claude's.",
            "session_id": None,
        }
    ]


async def test_open_webui_keeps_the_branch_last_seen_without_reasoning_or_tool_calls(
    client: httpx.AsyncClient,
) -> None:
    space = await create_space(client, "From Open WebUI")
    response = await import_file(client, space["id"], fixture("open_webui_export.json"))

    assert response.status_code == 201, response.text
    result = response.json()
    assert result["format"] == "open_webui"
    assert result["skipped"] == []
    trees, hello = result["sessions"]
    assert (trees["title"], hello["title"]) == ("B-trees or LSM trees", "Hello")
    assert await said(client, trees["session_id"]) == [
        ("user", "Compare B-trees and LSM trees for a write-heavy log."),
        ("assistant", "For a write-heavy log, an LSM tree: it turns random writes into sequential ones."),
        ("user", "Which engines use one?"),
        ("assistant", "RocksDB does, and so do Cassandra and ScyllaDB."),
    ]
    assert trees["left_out"] == left_out(branches=1, images=1, attachments=1, tool_calls=1, thinking=1)
    # A reasoning model's reply from before Open WebUI wrapped its thinking: its raw <think> block.
    assert await said(client, hello["session_id"]) == [("user", "Say hello in Portuguese."), ("assistant", "Olá!")]
    assert hello["left_out"] == left_out(thinking=1)
    session = (await client.get(f"/v4/sessions/{trees['session_id']}")).json()
    assert session["created_at"] == "2025-03-06T08:33:20Z"


async def test_a_claude_code_session_keeps_what_was_said_and_counts_the_tool_use(client: httpx.AsyncClient) -> None:
    space = await create_space(client, "From Claude Code")
    response = await import_file(
        client, space["id"], fixture("claude_code_session.jsonl"), content_type="application/x-ndjson"
    )

    assert response.status_code == 201, response.text
    result = response.json()
    assert result["format"] == "claude_code"
    [session] = result["sessions"]
    assert session["title"] == "Fix the flaky retry test"  # its summary line
    assert await said(client, session["session_id"]) == [
        ("user", "The test test_retry_backoff fails about one run in ten. Can you find out why?"),
        (
            "assistant",
            "I'll look at the test first.\n\nThe test sleeps 0.1 s and then asserts that the retry happened; under "
            "load the retry lands after the assertion. I'll make it wait on an event instead.",
        ),
        ("user", "Here is the CI log from the last failure."),
        (
            "assistant",
            "The CI log shows the same race; tests/test_retry.py now waits on an event and passed 200 runs in a row.",
        ),
    ]
    # Its notes (the caveat), a local command (/clear) and a sub-agent's two messages are hidden.
    assert session["left_out"] == left_out(images=1, tool_calls=2, thinking=1, hidden=4)
    stored = (await client.get(f"/v4/sessions/{session['session_id']}")).json()
    assert (stored["created_at"], stored["updated_at"]) == (
        "2025-09-01T09:00:01.037000Z",
        "2025-09-01T09:00:34.258000Z",
    )


async def test_the_v1_paste_of_a_claude_conversation_leaves_its_reasoning_out(client: httpx.AsyncClient) -> None:
    """The same reader serves a pasted conversation: it had the same hole."""
    vacuum = json.loads(fixture("claude_export.json"))[0]
    response = await client.post("/v1/transcripts", json={"transcript": json.dumps(vacuum)})

    assert response.status_code == 201, response.text
    assert [turn["content"] for turn in response.json()["turns"]][1::2] == [VACUUM_ANSWER, CHECKED_ANSWER]


async def test_a_null_conversation_line_or_node_is_passed_over_not_the_file(client: httpx.AsyncClient) -> None:
    """The same hole as a null message, one level up: a `null` conversation in the list, a `null`
    line of a session and a `null` node of ChatGPT's mapping each refused the file or the
    conversation."""
    tram = json.loads(fixture("chatgpt_tools.json"))[0]
    tram["mapping"]["orphan"] = None
    space = await create_space(client, "Nulls")
    listed = await import_file(client, space["id"], json.dumps([None, tram, None]).encode())
    lines = await import_file(
        client,
        space["id"],
        fixture("claude_code_session.jsonl") + b"null\n" + fixture("claude_code_session.jsonl").splitlines()[-1],
        content_type="application/x-ndjson",
    )

    assert listed.status_code == 201, listed.text
    assert [(s["title"], s["turns"]) for s in listed.json()["sessions"]] == [("Tram 28 on Sundays", 6)]
    assert listed.json()["skipped"] == []
    assert lines.status_code == 201, lines.text
    assert [s["turns"] for s in lines.json()["sessions"]] == [4]  # its last reply joined to itself


async def test_a_null_message_of_a_pasted_list_is_passed_over(client: httpx.AsyncClient) -> None:
    """The v1 paste of a `{role, content}` list had the same hole: one null refused it all."""
    pasted = [{"role": "user", "content": "Hi."}, None, {"role": "assistant", "content": "Hello."}]
    response = await client.post("/v1/transcripts", json={"transcript": json.dumps({"messages": pasted})})

    assert response.status_code == 201, response.text
    assert [turn["content"] for turn in response.json()["turns"]] == ["Hi.", "Hello."]
