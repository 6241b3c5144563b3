/**
 * What the signing commands print: YAML of the detached transaction while
 * signatures are missing (or when the condensed form is asked for), and once
 * every signer has signed, the API request JSON: `{"cmds":[command]}` for
 * `/send`, or the bare command for `/local` (`-l`). Signature objects are
 * printed in the spec's form (`sig`, `scheme`, `pubKey`, `addr`).
 * @module
 */
import { ED25519, type SignatureObject } from "../command/commandTypes.ts";
import type { SignedCommand } from "../command/signCommand.ts";
import { commandInvariant } from "../exec/errors.ts";
import { nodeCommands } from "../exec/nodeCommands.ts";
import { type DetachedTx, detachedYaml, isComplete } from "./detachedTx.ts";
import type { CliIo } from "./io.ts";

export type EmitOptions = { readonly local: boolean; readonly condensed: boolean };

/**
 * The API request text of a signed command, checked once more with the
 * node's own parser and signature verification before it is printed.
 */
export function requestJson(command: SignedCommand, local: boolean): string {
  nodeCommands.verifyCommandSignatures(
    nodeCommands.parseCommand(JSON.parse(JSON.stringify(command))),
  );
  const body = { cmd: command.cmd, hash: command.hash, sigs: command.sigs };
  return `${JSON.stringify(local ? body : { cmds: [body] })}\n`;
}

/** The signed command of a complete detached transaction, signatures in signer order. */
export function finalCommand(tx: DetachedTx): SignedCommand {
  if (tx.cmd === undefined || tx.signers === undefined) {
    throw commandInvariant("cmd", "a final command needs cmd");
  }
  const sigs: SignatureObject[] = tx.signers.map((s, i) => {
    const sig = tx.sigs.find((e) => e.pubKey === s.pubKey.toLowerCase())?.sig;
    if (sig === undefined || sig === null) {
      throw commandInvariant(`sigs[${i}]`, "a final command needs every signature");
    }
    return { sig, scheme: ED25519, pubKey: s.pubKey, addr: s.addr ?? s.pubKey };
  });
  return { cmd: tx.cmd, hash: tx.hash, sigs };
}

/** Prints the transaction: final JSON when complete (and not condensed), else YAML. */
export function emitTx(io: CliIo, tx: DetachedTx, options: EmitOptions): void {
  if (isComplete(tx) && !options.condensed) {
    io.stdout.write(requestJson(finalCommand(tx), options.local));
  } else {
    io.stdout.write(detachedYaml(tx, options.condensed));
  }
}
