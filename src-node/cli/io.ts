/**
 * The streams and clock a CLI command uses, injected so that commands run
 * in-process in tests: output goes to `stdout`/`stderr` writers, standard
 * input is read through `readStdin`, and "now" comes from `now`.
 * @module
 */

/** Something text can be written to (a stream, or a test buffer). */
export type Writer = { write(text: string): unknown };

export type CliIo = {
  readonly stdout: Writer;
  readonly stderr: Writer;
  /** Reads all of standard input as UTF-8 text. */
  readonly readStdin: () => Promise<string>;
  /** The current time (nonce and creation-time defaults). */
  readonly now: () => Date;
};

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) {
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The real process streams and clock. */
export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    readStdin: () => readAll(process.stdin),
    now: () => new Date(),
  };
}
