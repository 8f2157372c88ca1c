import DOMPurify from "dompurify";
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import css from "highlight.js/lib/languages/css";
import go from "highlight.js/lib/languages/go";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import markdown from "highlight.js/lib/languages/markdown";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";
import { Marked, type Tokens } from "marked";

const languages = {
  bash,
  css,
  go,
  java,
  javascript,
  json,
  markdown,
  python,
  rust,
  sql,
  typescript,
  xml,
  yaml,
};
for (const [name, language] of Object.entries(languages)) hljs.registerLanguage(name, language);
hljs.registerAliases(["sh", "shell", "zsh"], { languageName: "bash" });
hljs.registerAliases(["js", "jsx", "mjs"], { languageName: "javascript" });
hljs.registerAliases(["ts", "tsx"], { languageName: "typescript" });
hljs.registerAliases(["py"], { languageName: "python" });
hljs.registerAliases(["html", "svg"], { languageName: "xml" });
hljs.registerAliases(["yml"], { languageName: "yaml" });
hljs.registerAliases(["md"], { languageName: "markdown" });
hljs.registerAliases(["rs"], { languageName: "rust" });

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Highlights code when the language is known (or, for short snippets, can be guessed). */
export function highlight(code: string, lang: string | undefined): string {
  const name = lang?.trim().split(/\s+/)[0]?.toLowerCase();
  if (name && hljs.getLanguage(name)) {
    return hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
  }
  if (!name && code.length < 5000) return hljs.highlightAuto(code).value;
  return escapeHtml(code);
}

/** A Markdown renderer; `highlighted` code blocks through highlight.js, else escaped as they are. */
function makeMarked(highlighted: boolean): Marked {
  return new Marked({
    gfm: true,
    breaks: true,
    async: false,
    renderer: {
      code({ text, lang }: Tokens.Code): string {
        const language = lang?.trim().split(/\s+/)[0] ?? "";
        const label = language ? `<span class="code-lang">${escapeHtml(language)}</span>` : "";
        const copy = '<button type="button" class="copy-code" aria-label="Copy code">Copy</button>';
        const code = highlighted ? highlight(text, language) : escapeHtml(text);
        return `<pre class="code-block">${label}${copy}<code class="hljs">${code}</code></pre>\n`;
      },
      // Raw HTML is shown as the text it is, never interpreted: "an <a> tag" in a message must not
      // turn the rest of it into a link, and "<script>" must stay visible in the author's own words.
      // (DOMPurify below is the second line of defence, not the way HTML is handled.)
      html({ text, block }: Tokens.HTML | Tokens.Tag): string {
        if (!block) return escapeHtml(text);
        return `<p>${escapeHtml(text.replace(/\n+$/, "")).replace(/\n/g, "<br>")}</p>\n`;
      },
    },
  });
}

const marked = makeMarked(true);
// A reply still arriving re-renders on every frame: its code stays plain (highlighting a block
// that is half written is wasted work, and its colours would flicker as the lexer changes its mind).
const streamingMarked = makeMarked(false);

DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A") {
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer");
  }
});

// Tags and attributes that can only format text: no URL, no handler, no style. Every tag the
// Markdown of plain prose and highlighted code renders to is one of these.
const INERT_TAG =
  /^\/?(?:p|br|em|strong|del|code|pre|span|button|ul|ol|li|blockquote|hr|h[1-6]|table|thead|tbody|tr|th|td)(?: (?:class|aria-label)="[\w -]*"| type="button")*\s?\/?>/;

/**
 * True when `html` is text and inert tags only, so DOMPurify would return it unchanged. Checked
 * piece by piece (linear, no backtracking over the whole text): most messages pass, and skip
 * DOMPurify's parse and walk, which is half the cost of a row coming into view.
 */
export function isInertHtml(html: string): boolean {
  const pieces = html.split("<");
  for (let i = 1; i < pieces.length; i += 1) {
    if (!INERT_TAG.test(pieces[i] ?? "")) return false;
  }
  return true;
}

function sanitize(html: string): string {
  return isInertHtml(html) ? html : DOMPurify.sanitize(html);
}

const cache = new Map<string, string>();
const CACHE_LIMIT = 500;

/** Markdown still arriving to sanitised HTML: code not highlighted, and not cached (each text is
 * seen once). */
export function renderStreamingMarkdown(source: string): string {
  return sanitize(streamingMarked.parse(source) as string);
}

/** Markdown to sanitised HTML (GFM, code highlighted). Cached: a virtual list re-renders rows often. */
export function renderMarkdown(source: string): string {
  const hit = cache.get(source);
  if (hit !== undefined) return hit;
  const html = sanitize(marked.parse(source) as string);
  if (cache.size >= CACHE_LIMIT) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(source, html);
  return html;
}
