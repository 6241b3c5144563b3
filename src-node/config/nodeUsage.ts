/**
 * `weft node --help`, made from the option table (nodeOptionTable.ts): a line per flag,
 * its help text and the option's default, then the command's own flags.
 * @module
 */
import { NODE_OPTION_ENTRIES } from "./nodeOptions.ts";
import type { CheckContext, FlagSpec, OptionSpec } from "./optionSpec.ts";
import { COMMAND_FLAGS } from "./parseNodeFlags.ts";

const WIDTH = 88;
const HELP_COLUMN = 26;

/** A default's value with no context (the table's defaults read none). */
const NO_CONTEXT: CheckContext = {
  key: "",
  baseDir: ".",
  given: () => undefined,
  resolved: () => undefined,
};

/** What `--help` says the default is: the value itself when plain, else the docs' words. */
function shownDefault(spec: OptionSpec<unknown>): string | undefined {
  const d = spec.default(NO_CONTEXT);
  if (typeof d === "number" || (typeof d === "string" && d !== "")) return String(d);
  return spec.shownDefault?.replaceAll("`", "");
}

function wrap(words: string, indent: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of words.split(" ")) {
    if (line !== "" && indent + line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return lines;
}

function usageLine(left: string, help: string): string {
  const [first = "", ...rest] = wrap(help, HELP_COLUMN);
  const pad = " ".repeat(HELP_COLUMN);
  const head =
    left.length + 4 <= HELP_COLUMN
      ? `  ${left.padEnd(HELP_COLUMN - 2)}${first}`
      : `  ${left}\n${pad}${first}`;
  return [head, ...rest.map((l) => `${pad}${l}`)].join("\n");
}

function flagLine(flag: FlagSpec, spec: OptionSpec<unknown>): string {
  const left = flag.arg === undefined ? flag.name : `${flag.name} ${flag.arg}`;
  const d = flag.arg === undefined ? undefined : shownDefault(spec);
  const help =
    d === undefined || d === "none" || flag.help.includes("default")
      ? flag.help
      : `${flag.help} (default${/\s/.test(d) ? ":" : ""} ${d})`;
  return usageLine(left, help);
}

/** The text of `weft node --help`. */
export function nodeUsage(): string {
  const lines = [
    usageLine(
      `${COMMAND_FLAGS.config.name} ${COMMAND_FLAGS.config.arg}`,
      COMMAND_FLAGS.config.help,
    ),
    ...NODE_OPTION_ENTRIES.flatMap(({ spec }) => (spec.flags ?? []).map((f) => flagLine(f, spec))),
    usageLine(COMMAND_FLAGS.help.name, COMMAND_FLAGS.help.help),
  ];
  return `Usage: weft node [options]

Runs a node and its HTTP API until interrupted (Ctrl-C, SIGTERM).

Options:
${lines.join("\n")}

A port already in use: stop the program that has it, or give another (port 0 takes any free
port; the address is printed).
`;
}
