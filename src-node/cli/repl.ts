/**
 * `weft repl FILE.repl…` runs contract-language scripts and reports every
 * expectation as `file:line: message` (exit code 1 when any expectation fails
 * or a script stops on an uncaught error); `weft repl` alone opens an
 * interactive prompt that evaluates each complete form as it is typed.
 * @module
 */
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { renderPactError } from "../contract/errors.ts";
import { isOpaque } from "../contract/eval/term.ts";
import { ReplSession } from "../contract/repl/replSession.ts";
import { showValue } from "../contract/values/render.ts";
import type { CliIo } from "./io.ts";

function readFileText(path: string): string {
  return readFileSync(path, "utf8");
}

/** Runs script files; resolves to the exit code. */
export async function runReplFiles(files: string[], io: CliIo): Promise<number> {
  let failures = 0;
  let passes = 0;
  for (const f of files) {
    // The name as given, as the reference's repl keeps it (positions, module references' JSON).
    const file = f;
    let text: string;
    try {
      text = readFileText(file);
    } catch (e) {
      io.stderr.write(`${f}: cannot read: ${e instanceof Error ? e.message : String(e)}\n`);
      failures++;
      continue;
    }
    const session = new ReplSession({ readFile: readFileText });
    const report = session.runScript(text, file);
    for (const line of report.output) io.stdout.write(`${line}\n`);
    for (const e of report.expectations) {
      io.stdout.write(`${e.file}:${e.line}: ${e.message}\n`);
      if (e.ok) passes++;
      else failures++;
    }
    if (report.error !== null) {
      io.stdout.write(`${report.error.rendered}\n`);
      for (const frame of report.error.failure.callStack) io.stdout.write(`  at ${frame}\n`);
      failures++;
    }
  }
  io.stdout.write(`${passes} passed, ${failures} failed\n`);
  return failures === 0 ? 0 : 1;
}

/** Paren/bracket balance of accumulated input, ignoring strings and comments. */
function balance(text: string): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === ";") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth--;
  }
  return depth;
}

/** The interactive prompt over any source of lines (testable without a terminal). */
export async function runReplPrompt(
  lines: AsyncIterable<string>,
  io: CliIo,
  prompt = true,
): Promise<number> {
  const session = new ReplSession({ readFile: readFileText });
  let buffer = "";
  let shown = 0;
  if (prompt) io.stdout.write("pact> ");
  for await (const line of lines) {
    buffer += `${line}\n`;
    if (balance(buffer) > 0) {
      if (prompt) io.stdout.write("....> ");
      continue;
    }
    if (buffer.trim() !== "") {
      const r = session.evalSource(buffer, "<interactive>");
      for (; shown < session.output.length; shown++) io.stdout.write(`${session.output[shown]}\n`);
      if (!r.ok) io.stdout.write(`${renderPactError(r.error)}\n`);
      else if (r.value !== null) {
        io.stdout.write(`${isOpaque(r.value) ? `<${r.value.kind}>` : showValue(r.value)}\n`);
      }
    }
    buffer = "";
    if (prompt) io.stdout.write("pact> ");
  }
  if (prompt) io.stdout.write("\n");
  return 0;
}

/** The `repl` subcommand. */
export async function replCommand(args: string[], io: CliIo): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout.write(
      "Usage: weft repl [FILE.repl…]\n  with files: run them and report; without: interactive prompt\n",
    );
    return 0;
  }
  if (args.length > 0) return runReplFiles(args, io);
  const rl = createInterface({ input: process.stdin, terminal: false });
  return runReplPrompt(rl, io, process.stdin.isTTY === true);
}
