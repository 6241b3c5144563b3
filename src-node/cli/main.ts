/**
 * The `weft` command line: dispatches to subcommands. Each subcommand lives in
 * its own file under cli/ and returns an exit code; nothing here calls
 * process.exit, so the CLI is testable in-process.
 * @module
 */
import { readFileSync } from "node:fs";

type Subcommand = (args: string[]) => Promise<number>;

/** Subcommands by name; later areas register theirs here. */
const subcommands: Record<string, Subcommand> = {};

function packageVersion(): string {
  const pkg: unknown = JSON.parse(
    readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
  );
  return typeof pkg === "object" &&
    pkg !== null &&
    "version" in pkg &&
    typeof pkg.version === "string"
    ? pkg.version
    : "0.0.0";
}

const USAGE = `Usage: weft <command> [options]

Commands:
  --version            print the version
  help                 this text
`;

/** Runs the CLI with `argv` (without node and script); resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === "help" || first === "--help" || first === "-h") {
    process.stdout.write(USAGE);
    return first === undefined ? 1 : 0;
  }
  if (first === "--version" || first === "-v") {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  const sub = subcommands[first];
  if (sub === undefined) {
    process.stderr.write(`weft: unknown command '${first}'\n\n${USAGE}`);
    return 2;
  }
  return sub(rest);
}
