import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./markdown";

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
