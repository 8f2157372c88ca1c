import { describe, expect, it } from "vitest";
import { tailRoom } from "./tail-room";

describe("tailRoom", () => {
  it("is nothing before a send", () => {
    expect(tailRoom(600, 5000, null)).toBe(0);
  });
  it("leaves room so the message just sent can sit at the top with its reply below", () => {
    // Sent message at 4000, its placeholder reply ends at 4200: 400 px of room below.
    expect(tailRoom(600, 4200, 4000)).toBe(400);
    // The reply arrives 150 px taller: the room shrinks by as much, the total height stays.
    expect(tailRoom(600, 4350, 4000)).toBe(250);
  });
  it("is 0 once the exchange fills the viewport", () => {
    expect(tailRoom(600, 4900, 4000)).toBe(0);
  });
});
