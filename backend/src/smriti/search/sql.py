"""The statements behind search: the ranked hits, then the snippets of one page of them.

Both read the `search_vector` columns a trigger keeps (migration 0012) through their GIN indexes.
The query is parsed by `websearch_to_tsquery('english', …)`: words are stemmed, `"quotes"` make
a phrase, `or` an alternative and `-word` an exclusion, as in a web search box. It is rewritten
first as the vectors' texts were (`smriti_search_words`, migration 0018): a run of Chinese,
Japanese, Korean, Thai, … characters becomes a phrase of its characters and their pairs, so that
a word is found inside a sentence written without spaces.
"""

from __future__ import annotations

from smriti.search.schemas import HitKind

CONFIG = "english"

# Past this many matches of one kind, the rest are neither counted nor ranked (`SearchPage`).
MAX_RANKED = 10_000


def _query(text: str) -> str:
    """The tsquery of the search box's `text`."""
    return f"websearch_to_tsquery('{CONFIG}', smriti_search_words({text}))"


QUERY_WORDS = f"SELECT numnode({_query('$1')}) AS words"

_CHECKPOINTS = """
    (SELECT 'checkpoint' AS kind, c.repo_id, c.id AS commit_id, NULL::uuid AS session_id,
            NULL::integer AS sequence_number, c.search_vector AS vector, c.created_at
     FROM commits c
     WHERE c.search_vector @@ (SELECT query FROM q) {space}
     LIMIT {cap})"""

_TURNS = """
    (SELECT 'turn' AS kind, s.repo_id, NULL::uuid AS commit_id, t.session_id,
            t.sequence_number, t.search_vector AS vector, t.created_at
     FROM turns t JOIN sessions s ON s.id = t.session_id
     WHERE t.search_vector @@ (SELECT query FROM q) {space}
     LIMIT {cap})"""


def hits_sql(kind: HitKind | None, in_space: bool, *, in_spaces: bool = False) -> str:
    """$1 the query, $2 limit, $3 offset, and $4 the Space when `in_space`, or the Spaces (an
    array) when `in_spaces` (an agent's key reaches only those: access/scope.py).

    Each hit carries the count of every match of its kind (up to MAX_RANKED + 1, which says the
    count stopped there): ranking needs every candidate anyway, so counting them costs nothing
    more. Ties go to the newer hit, then to a stable order.
    """
    parts = []
    space = "= $4" if in_space else "= ANY($4::uuid[])" if in_spaces else None
    if kind in (None, "checkpoint"):
        parts.append(_CHECKPOINTS.format(space=f"AND c.repo_id {space}" if space else "", cap=MAX_RANKED + 1))
    if kind in (None, "turn"):
        parts.append(_TURNS.format(space=f"AND s.repo_id {space}" if space else "", cap=MAX_RANKED + 1))
    union = "\n    UNION ALL".join(parts)
    return f"""
WITH q AS (SELECT {_query("$1")} AS query),
hits AS ({union})
SELECT kind, repo_id, commit_id, session_id, sequence_number, created_at,
       ts_rank(vector, (SELECT query FROM q), 1) AS rank,
       count(*) FILTER (WHERE kind = 'checkpoint') OVER () AS checkpoints,
       count(*) FILTER (WHERE kind = 'turn') OVER () AS turns
FROM hits
ORDER BY rank DESC, created_at DESC, kind, commit_id, session_id, sequence_number
LIMIT $2 OFFSET $3
"""


# STX and ETX mark the matched words in ts_headline's answer, ENQ parts its excerpts; `snippets.py`
# turns them into plain text and offsets, and puts the runs that `smriti_search_words` took apart
# (EOT, SOH and ACK) back together. Any of those already in the text are made spaces first, so every
# one is ts_headline's or the rewriting's. A short text is shown whole; a long one as two excerpts
# around its matches.
HEADLINE_OPTIONS = 'StartSel=\x02, StopSel=\x03, MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter="\x05"'
_WHOLE_OPTIONS = "StartSel=\x02, StopSel=\x03, MaxWords=2000, MinWords=1999"
_SHORT_TEXT_CHARS = 300
# When the query has runs (Chinese, Japanese, Thai, …), a long text's excerpt is this many
# characters either side of the first place one of them stands as written, found by `strpos`: the
# text taken apart is two words a character, and ts_headline's work grows with the words of the text
# times those of the query (a 200,000-character text read whole against a 500-character query: 24 s).
# The highlights in runs are `snippets.py`'s. A query none of whose runs stands in the text as written
# matched by its other words; the text is cut as before migration 0018 then, its runs one word each.
_WINDOW_CHARS = 80


def _terms(param: str, runs: bool) -> str:
    """The query `param` as `q`: its tsquery, its `runs` as written (each run's characters, its
    pairs taken out), which `snippets.py` highlights, and the characters of its longest run.
    `OFFSET 0` keeps it a step of its own, made once: pulled up into the statement, each mention
    of `q.query` parsed the query again for every hit. Without `runs` (an ASCII query), the
    tsquery alone, as before migration 0018."""
    if not runs:
        return f"websearch_to_tsquery('{CONFIG}', {param}) AS q(query)"
    return f"""(
  SELECT query, runs, (SELECT coalesce(max(length(run)), 0) FROM unnest(runs) AS run) AS run_chars
  FROM (
    SELECT websearch_to_tsquery('{CONFIG}', words) AS query,
           ARRAY(SELECT regexp_replace(m[1], E'\\x01[^\\x01]*\\x01', '', 'g')
                 FROM regexp_matches(words, E'\\x04([^\\x06]*)\\x06', 'g') AS m) AS runs
    FROM smriti_search_words({param}) AS words
  ) AS terms
  OFFSET 0
) AS q"""


def _shown(text: str, runs: bool, q: str = "q") -> str:
    """A lateral join giving `shown.body`, `text` read once (each mention of a long text would read
    it again: a query of 250 runs read a 200,000-character Turn 250 times), and `shown.at`, where
    the first of `q`'s runs stands in it as written, NULL if none does. Without `runs`, `text`."""
    if not runs:
        return f"CROSS JOIN LATERAL (SELECT {text} AS body) AS shown"
    return f"""CROSS JOIN LATERAL (
  SELECT body, (SELECT min(nullif(strpos(body, run), 0)) FROM unnest({q}.runs) AS run) AS at
  FROM (SELECT {text} AS body OFFSET 0) AS once
) AS shown"""


def _headline(options: str, runs: bool, q: str = "q") -> str:
    """ts_headline's excerpt of `shown.body` for `q` (`_shown` joined)."""
    plain = "translate(shown.body, E'\\x01\\x02\\x03\\x04\\x05\\x06', '      ')"
    window = f"substr({plain}, greatest(1, shown.at - {_WINDOW_CHARS}), {2 * _WINDOW_CHARS} + {q}.run_chars)"

    def headline(body: str, chosen: str) -> str:
        return f"ts_headline('{CONFIG}', {body}, {q}.query, {chosen})"

    short = f"length(shown.body) <= {_SHORT_TEXT_CHARS}"
    if not runs:
        return headline(
            f"smriti_search_words({plain})", f"CASE WHEN {short} THEN '{_WHOLE_OPTIONS}' ELSE {options} END"
        )
    return f"""CASE
  WHEN {short} THEN {headline(f"smriti_search_words({plain})", f"'{_WHOLE_OPTIONS}'")}
  WHEN {q}.runs = '{{}}' THEN {headline(f"smriti_search_words({plain})", options)}
  WHEN shown.at IS NOT NULL THEN {headline(f"smriti_search_words({window})", f"'{_WHOLE_OPTIONS}'")}
  ELSE {headline(plain, options)}
END"""


# One row per searchable part of a Checkpoint, in the order a reader meets them: the first part
# that matches by itself gives the snippet. `sort` keeps that order (part, item, key).
_PARTS = """
    SELECT ARRAY[0, 0, 0] AS sort, 'message' AS field, c.message AS body
    UNION ALL SELECT ARRAY[1, 0, 0], 'summary', c.summary
    UNION ALL SELECT ARRAY[2, i::int, 0], format('decisions[%s]', i - 1), item
      FROM jsonb_array_elements_text(c.decisions) WITH ORDINALITY AS x(item, i)
    UNION ALL SELECT ARRAY[3, i::int, 0], format('assumptions[%s]', i - 1), item
      FROM jsonb_array_elements_text(c.assumptions) WITH ORDINALITY AS x(item, i)
    UNION ALL SELECT ARRAY[4, i::int, 0], format('tasks[%s].text', i - 1), item ->> 'text'
      FROM jsonb_array_elements(c.tasks) WITH ORDINALITY AS x(item, i)
    UNION ALL SELECT ARRAY[5, i::int, 0], format('open_questions[%s]', i - 1), item
      FROM jsonb_array_elements_text(c.open_questions) WITH ORDINALITY AS x(item, i)
    UNION ALL SELECT ARRAY[6, i::int, k.n], format('entities[%s].%s', i - 1, k.key), item ->> k.key
      FROM jsonb_array_elements(c.entities) WITH ORDINALITY AS x(item, i)
      CROSS JOIN (VALUES (0, 'name'), (1, 'kind'), (2, 'description')) AS k(n, key)
      WHERE jsonb_typeof(item -> k.key) = 'string'
    UNION ALL SELECT ARRAY[7, i::int, k.n], format('artifacts[%s].%s', i - 1, k.key), item ->> k.key
      FROM jsonb_array_elements(c.artifacts) WITH ORDINALITY AS x(item, i)
      CROSS JOIN (VALUES (0, 'name'), (1, 'content')) AS k(n, key)"""


# Each part is read as far as its vector was cut at most (migration 0012).
PART_CHARS = 100_000


def _checkpoint_snippets(runs: bool) -> str:
    picked = "q.runs, q.run_chars" if runs else "'{}'::text[] AS runs"
    return f"""
SELECT pick.id, pick.commit_hash AS label, pick.fields[pick.n] AS field, pick.runs,
       {_headline("$3", runs, "pick")} AS headline
FROM (
  SELECT c.id, c.commit_hash, q.query, {picked}, parts.fields, parts.bodies,
         smriti_first_match(parts.bodies, q.query) AS n
  FROM commits c
  CROSS JOIN {_terms("$2", runs)}
  CROSS JOIN LATERAL (
    SELECT array_agg(part.field ORDER BY part.sort) AS fields,
           array_agg(left(part.body, {PART_CHARS}) ORDER BY part.sort) AS bodies
    FROM ({_PARTS}
    ) AS part
  ) AS parts
  WHERE c.id = ANY($1::uuid[])
  OFFSET 0
) AS pick
{_shown("pick.bodies[pick.n]", runs, "pick")}
"""


def _turn_snippets(runs: bool) -> str:
    return f"""
SELECT t.session_id, t.sequence_number, s.title AS label, 'content' AS field,
       {"q.runs" if runs else "'{}'::text[] AS runs"},
       {_headline("$4", runs)} AS headline
FROM turns t
JOIN sessions s ON s.id = t.session_id
CROSS JOIN {_terms("$3", runs)}
{_shown("left(t.content, 200000)", runs)}
WHERE (t.session_id, t.sequence_number) IN (SELECT * FROM unnest($1::uuid[], $2::integer[]))
"""


# By whether the query may have runs (it is not all ASCII): an ASCII query has none, and its
# statements leave out what finds them and cuts a long text around them, a cost on every hit.
CHECKPOINT_SNIPPETS = {runs: _checkpoint_snippets(runs) for runs in (False, True)}
"""$1 the page's Checkpoints, $2 the query, $3 HEADLINE_OPTIONS; each row's `label` is its hash.
The snippet comes from the first part that matches by itself (`smriti_first_match`, which tries
them in order and stops there); the message stands in when none does (a phrase that runs from one
part into the next). `OFFSET 0` keeps the pick a step of its own, so ts_headline reads one part
per Checkpoint."""

TURN_SNIPPETS = {runs: _turn_snippets(runs) for runs in (False, True)}
"""$1 and $2 the page's Turns (Session, number), $3 the query, $4 HEADLINE_OPTIONS; each row's
`label` is its Session's title. The text is cut where its vector was (migration 0012)."""
