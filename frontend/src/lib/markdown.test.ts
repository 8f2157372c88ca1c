import { describe, expect, it, vi } from "vitest";
import { isInertHtml, renderMarkdown } from "./markdown";

function dom(markdown: string): HTMLElement {
  const div = document.createElement("div");
  div.innerHTML = renderMarkdown(markdown);
  return div;
}

describe("raw HTML in Markdown", () => {
  it("is shown as text: an inline <a> does not turn the rest of the message into a link", () => {
    const el = dom("Wrap links in an <a> tag.\n\n| a | b |\n| --- | --- |\n| 1 | 2 |");
    expect(el.querySelector("a")).toBeNull();
    expect(el.textContent).toContain("Wrap links in an <a> tag.");
    // The table after it is still a table, not swallowed by a link.
    expect(el.querySelectorAll("table td")).toHaveLength(2);
  });

  it("keeps a <script> block visible as text (and never runs it)", () => {
    const el = dom("Try this:\n\n<script>alert(1)</script>\n\nand <b>bold</b>?");
    expect(el.querySelector("script")).toBeNull();
    expect(el.querySelector("b")).toBeNull();
    expect(el.textContent).toContain("<script>alert(1)</script>");
    expect(el.textContent).toContain("and <b>bold</b>?");
  });

  it("still renders Markdown around it, and autolinks stay links", () => {
    const el = dom("**bold** <i>x</i> <https://example.com>");
    expect(el.querySelector("strong")?.textContent).toBe("bold");
    expect(el.querySelector("i")).toBeNull();
    expect(el.querySelector("a")?.getAttribute("href")).toBe("https://example.com");
  });
});

describe("the inert fast path", () => {
  const corpus = [
    "Answer 12. Option 5 fits because it keeps the *budget* and the dates.\n- first point\n- second point",
    "Question 3: what about **option 3** for the ~~old~~ plan?\nline two",
    "# Title\n\n## Sub\n\n> quoted *text*\n\n1. one\n2. two\n\n---\n\n`inline` code",
    "```python\ndef step(x):\n    return x + 1  # a < b && c > d\n```",
    '```\nplain <code> & "quotes"\n```',
    "| a | b |\n| --- | --- |\n| 1 | 2 |",
    "| a | b |\n| :-- | --: |\n| 1 | 2 |",
    "3. starts at three\n4. four",
    "- [ ] a task\n- [x] done",
    "[a link](https://example.com) and ![an image](https://example.com/x.png)",
    "[bad](javascript:alert(1)) <https://example.com>",
    "Text with <script>alert(1)</script> and <img src=x onerror=alert(1)> written out",
  ];

  it("leaves out only what DOMPurify would return unchanged", async () => {
    const { default: DOMPurify } = await import("dompurify");
    const normal = (html: string) => {
      const div = document.createElement("div");
      div.innerHTML = html;
      return div.innerHTML;
    };
    const spy = vi.spyOn(DOMPurify, "sanitize");
    const rendered = corpus.map((source) => renderMarkdown(source));
    // Prose, headings, quotes, lists and highlighted code take the fast path; links, images,
    // task boxes, aligned cells and numbered lists that start elsewhere than 1 do not.
    expect(spy.mock.calls.length).toBeLessThanOrEqual(corpus.length - 5);
    spy.mockRestore();
    const inert = rendered.filter((html) => isInertHtml(html));
    expect(inert.length).toBeGreaterThanOrEqual(5);
    for (const html of inert) expect(normal(DOMPurify.sanitize(html)), html).toBe(normal(html));
  });

  it("sends every tag or attribute that can act to DOMPurify", () => {
    for (const html of [
      '<a href="javascript:alert(1)">x</a>',
      '<img src="x" onerror="alert(1)">',
      '<p onclick="alert(1)">x</p>',
      '<p class="a"onclick="alert(1)">x</p>',
      '<span class="x" onmouseover="alert(1)">x</span>',
      '<span class="x>y</span>',
      '<p style="background:url(x)">x</p>',
      "<script>alert(1)</script>",
      "<style>*{}</style>",
      "<svg><use href='#x'/></svg>",
      "<!-- a comment --><p>x</p>",
      "<P>upper case</P>",
      "<p class=unquoted>x</p>",
      '<button type="submit">x</button>',
      '<input type="checkbox" disabled>',
      "text < with a bare angle",
    ])
      expect(isInertHtml(html), html).toBe(false);
    expect(isInertHtml("<p>plain <em>text</em> &amp; more</p>\n<ul>\n<li>x</li>\n</ul>")).toBe(
      true,
    );
    expect(
      isInertHtml(
        '<pre class="code-block"><span class="code-lang">python</span><button type="button" class="copy-code" aria-label="Copy code">Copy</button><code class="hljs"><span class="hljs-title function_">f</span></code></pre>',
      ),
    ).toBe(true);
  });

  it("does not hand plain prose to DOMPurify", async () => {
    const { default: DOMPurify } = await import("dompurify");
    const spy = vi.spyOn(DOMPurify, "sanitize");
    renderMarkdown("A message nobody rendered before: *plain* prose.\n- a\n- b");
    expect(spy).not.toHaveBeenCalled();
    renderMarkdown("A [link](https://example.com) nobody rendered before");
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
  });
});
