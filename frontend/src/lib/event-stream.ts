/** One Server-Sent Event: its name (`message` when unnamed) and its data lines joined. */
export interface StreamEvent {
  event: string;
  data: string;
}

/**
 * Splits a text/event-stream into events as its text arrives, in pieces that can end anywhere
 * (mid-line, mid-event). Comment lines (`: keep-alive`) are dropped; an `id` field, with or
 * without data, becomes `lastEventId` (what a reconnect sends as Last-Event-ID, as the format
 * says); other fields are ignored.
 */
export class EventStreamParser {
  private buffer = "";
  /** The last `id` of a completed block, null before any. */
  lastEventId: string | null = null;

  /** The events completed by this piece of text. */
  feed(text: string): StreamEvent[] {
    this.buffer += text.replace(/\r\n?/g, "\n");
    const events: StreamEvent[] = [];
    let end = this.buffer.indexOf("\n\n");
    while (end !== -1) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const event = this.parseBlock(block);
      if (event) events.push(event);
      end = this.buffer.indexOf("\n\n");
    }
    return events;
  }

  private parseBlock(block: string): StreamEvent | null {
    let event = "message";
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line === "" || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? "" : line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
      else if (field === "id" && !value.includes("\0")) this.lastEventId = value;
    }
    return data.length > 0 ? { event, data: data.join("\n") } : null;
  }
}
