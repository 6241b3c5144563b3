/**
 * `weft combine-sigs FILE… [-l] [-c]`: merges the signatures of several
 * partly signed copies of one transaction (full or condensed form; at least
 * one should carry `cmd` to produce the final JSON). Every file must have the
 * same hash and, where present, the same cmd; every signature must verify.
 * Prints YAML while signatures are missing, final JSON once all are present.
 * @module
 */

import { type DetachedTx, readDetachedTx, type SigEntry } from "./detachedTx.ts";
import { emitTx } from "./emitTx.ts";
import { cliError } from "./errors.ts";
import type { CliIo } from "./io.ts";
import { readYamlFile } from "./readFiles.ts";
import { runCommand } from "./runCommand.ts";
import { parseSignFlags } from "./signFlags.ts";
import { parseYamlText } from "./yamlValue.ts";

export const COMBINE_SIGS_USAGE = `Usage: weft combine-sigs FILE... [-l] [-c]

Merges the signatures of partly signed copies of one transaction (YAML or JSON;
condensed copies without cmd are accepted with one that has it). Prints YAML
while signatures are missing and final JSON for /send once all are present
(-l: the command for /local; -c: the condensed form, without cmd). FILE may be
- (standard input); after -- every argument is a file.
`;

const STDIN = "<stdin>";

type Read = { path: string; tx: DetachedTx };

function merge(files: readonly Read[]): DetachedTx {
  const [first] = files;
  if (first === undefined) throw cliError("CLI_MISSING_FIELD", "", "", "no files");
  const full = files.find((f) => f.tx.cmd !== undefined);
  for (const f of files) {
    if (f.tx.hash !== first.tx.hash) {
      throw cliError(
        "CLI_CONFLICT",
        f.path,
        "hash",
        `is ${f.tx.hash}, but ${first.path} has ${first.tx.hash}: these are different transactions`,
      );
    }
    if (full !== undefined && f.tx.cmd !== undefined && f.tx.cmd !== full.tx.cmd) {
      throw cliError("CLI_CONFLICT", f.path, "cmd", `differs from the cmd in ${full.path}`);
    }
  }
  // Slots: the signers of cmd when some file has it, else the keys in file order.
  const slots: SigEntry[] = (full?.tx.sigs ?? []).map((e) => ({ pubKey: e.pubKey, sig: null }));
  for (const f of files) {
    for (const e of f.tx.sigs) {
      const slot = slots.find((s) => s.pubKey === e.pubKey);
      if (slot === undefined && full !== undefined) {
        throw cliError(
          "CLI_NO_MATCHING_SIGNER",
          f.path,
          `sigs.${e.pubKey}`,
          `this public key is not a signer of the cmd in ${full.path}`,
        );
      }
      if (slot === undefined) slots.push({ ...e });
      else if (slot.sig === null && e.sig !== null) slots[slots.indexOf(slot)] = { ...e };
    }
  }
  return full === undefined ? { hash: first.tx.hash, sigs: slots } : { ...full.tx, sigs: slots };
}

export function combineSigs(args: readonly string[], io: CliIo): Promise<number> {
  return runCommand(io, COMBINE_SIGS_USAGE, async () => {
    const flags = parseSignFlags(args, "file");
    const files: Read[] = [];
    for (const arg of flags.files) {
      // "-": a copy piped in, e.g. straight from add-sig.
      const path = arg === "-" ? STDIN : arg;
      const value = arg === "-" ? parseYamlText(await io.readStdin(), STDIN) : readYamlFile(arg);
      files.push({ path, tx: readDetachedTx(value, path) });
    }
    emitTx(io, merge(files), { local: flags.local, condensed: flags.condensed });
  });
}
