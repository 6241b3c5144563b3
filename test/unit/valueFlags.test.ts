/**
 * The flag reading of `weft mine` and `weft app-url` (src-node/cli/valueFlags.ts): known flags
 * in both spellings, repeats only where allowed, and a usage error naming what is wrong.
 */
import { describe, expect, it } from "vitest";
import { CliError, CliErrorCode } from "../../src-node/cli/errors.ts";
import { readValueFlags } from "../../src-node/cli/valueFlags.ts";

const KNOWN = new Set(["--node", "--public-key"]);
const read = (args: string[]) => readValueFlags(args, KNOWN, "mine", new Set(["--public-key"]));

describe("[cli] value flags", () => {
  it("reads --name value and --name=value, repeats of a repeatable flag in order, and --help", () => {
    const r = read(["--node", "http://a", "--public-key=k1", "-h", "--public-key", "k2"]);
    expect(r.help).toBe(true);
    expect(r.values.get("--node")).toEqual(["http://a"]);
    expect(r.values.get("--public-key")).toEqual(["k1", "k2"]);
    expect(read([]).help).toBe(false);
  });

  it("refuses, naming it: an unknown flag or argument, a missing or empty value, a repeat", () => {
    const cases: [string[], RegExp][] = [
      [["--bogus", "x"], /^--bogus: unknown flag \(see weft mine --help\)$/],
      [["stray"], /^stray: unknown argument/],
      [["--node"], /^--node: expects a value$/],
      [["--node", "--public-key", "k"], /^--node: expects a value$/],
      [["--node="], /^--node: expects a value$/],
      [["--node", "a", "--node=b"], /^--node: given more than once$/],
    ];
    for (const [args, message] of cases) {
      let thrown: unknown;
      try {
        read(args);
      } catch (e) {
        thrown = e;
      }
      expect(thrown, args.join(" ")).toBeInstanceOf(CliError);
      expect((thrown as CliError).type.code).toBe(CliErrorCode.Usage);
      expect((thrown as CliError).message).toMatch(message);
    }
  });
});
