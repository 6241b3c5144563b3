/**
 * The explorer's page cursors read from the address (renderer/src/features/explorer/hooks/
 * usePageCursors.ts): a well-formed list is kept, anything else falls back to the first page.
 */
import { describe, expect, it } from "vitest";
import { parsePageCursors } from "../../renderer/src/features/explorer/hooks/usePageCursors.ts";

const text = (x: unknown) => (typeof x === "string" && x !== "" ? x : null);

describe("[renderer] page cursors in the address", () => {
  it("keeps a list of cursors the list's parser accepts", () => {
    expect(parsePageCursors(["a", "b"], text)).toEqual(["a", "b"]);
    expect(parsePageCursors([], text)).toEqual([]);
  });

  it("falls back to the first page for a missing, foreign or malformed value", () => {
    for (const bad of [undefined, null, "a", 3, { 0: "a" }, ["a", 2], ["a", ""]]) {
      expect(parsePageCursors(bad, text), JSON.stringify(bad)).toEqual([]);
    }
    expect(
      parsePageCursors(
        Array.from({ length: 201 }, () => "a"),
        text,
      ),
    ).toEqual([]);
  });
});
