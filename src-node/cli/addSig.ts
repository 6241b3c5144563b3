/**
 * `weft add-sig KEYFILE… [-l] [-c]`: reads a detached transaction (YAML or
 * JSON) on standard input and adds the signatures of the key files' keys to
 * the matching signers. Prints YAML while signatures are missing, and the
 * final JSON for /send once all are present. An input without `cmd` (the
 * condensed cold-wallet form) stays condensed; `-c` condenses any output.
 * @module
 */

import { nodeCommands } from "../exec/nodeCommands.ts";
import { type DetachedTx, readDetachedTx } from "./detachedTx.ts";
import { emitTx } from "./emitTx.ts";
import { cliError } from "./errors.ts";
import type { CliIo } from "./io.ts";
import { readKeyFile } from "./keyFile.ts";
import { runCommand } from "./runCommand.ts";
import { parseSignFlags } from "./signFlags.ts";
import { parseYamlText } from "./yamlValue.ts";

export const ADD_SIG_USAGE = `Usage: weft add-sig KEYFILE... [-l] [-c] < TX.yaml

Adds the signatures of the key files (YAML: public, secret) to the unsigned
transaction read on standard input. Prints YAML while signatures are missing and
final JSON for /send once all are present (-l: the command for /local; -c: the
condensed form, without cmd). After -- every argument is a key file.
`;

const STDIN = "<stdin>";

export function addSig(args: readonly string[], io: CliIo): Promise<number> {
  return runCommand(io, ADD_SIG_USAGE, async () => {
    const flags = parseSignFlags(
      args,
      "key file",
      "standard input holds the transaction (write ./- for a file named -)",
    );
    const keys = flags.files.map((path) => ({ path, key: readKeyFile(path) }));
    const tx: DetachedTx = readDetachedTx(parseYamlText(await io.readStdin(), STDIN), STDIN);
    const sigs = tx.sigs.map((e) => ({ ...e }));
    for (const { path, key } of keys) {
      const slot = sigs.find((e) => e.pubKey === key.publicKey);
      if (slot === undefined) {
        throw cliError(
          "CLI_NO_MATCHING_SIGNER",
          path,
          "public",
          `key ${key.publicKey} is not a signer of transaction ${tx.hash}`,
        );
      }
      slot.sig = nodeCommands.signRequestKey(tx.hash, key.secretKey).sig;
    }
    if (tx.cmd === undefined) {
      io.stderr.write(
        `weft: signing hash ${tx.hash} without cmd (condensed form): its content was not shown or checked here\n`,
      );
    }
    emitTx(
      io,
      { ...tx, sigs },
      { local: flags.local, condensed: flags.condensed || tx.cmd === undefined },
    );
  });
}
