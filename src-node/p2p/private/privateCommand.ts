/**
 * A `/private` command read in full and checked as far as it can be without
 * running it (docs/private.md): the wire form `{cmd, hash, sigs}`, the
 * private metadata `{"address": {"from", "to": […]}}` (exec/parsePrivateCommand.ts),
 * the payload and signers inside `cmd` (read once, exactly: message data
 * keeps every number's text), the network, and every signature. The sending
 * node and each addressed node read it the same way, so a command one of
 * them refuses is refused by all.
 *
 * The result carries a `ParsedCommand` whose `meta` is a placeholder (a
 * private command has no public metadata: no gas is bought, no chain or
 * time window applies), so the contract inputs are built as for any command.
 * @module
 */
import type { ParsedCommand, PayloadMessage, Signer } from "../../command/commandTypes.ts";
import { readJsonExact } from "../../command/exactJson.ts";
import {
  badField,
  optional,
  readArray,
  readObject,
  readString,
  required,
} from "../../command/fieldReaders.ts";
import { parsePayloadMessage } from "../../command/parsePayloadMessage.ts";
import { parseSigners } from "../../command/parseSigners.ts";
import { requestKeyBytes } from "../../command/requestKeyBytes.ts";
import { CommandError, CommandErrorCode } from "../../exec/errors.ts";
import { nodeCommands } from "../../exec/nodeCommands.ts";
import { type PrivateAddress, parsePrivateCommand } from "../../exec/parsePrivateCommand.ts";

/** The gas limit a private command runs under (no gas is bought; the limit only bounds its work). */
export const PRIVATE_GAS_LIMIT = 150_000;

export type PrivateCommand = {
  readonly hash: string;
  readonly address: PrivateAddress;
  /** The command as submitted, `{cmd, hash, sigs}` (what is encrypted for each addressed node). */
  readonly wire: { readonly cmd: string; readonly hash: string; readonly sigs: readonly unknown[] };
  /** For the contract inputs (exec/contractInput.ts); `payload.meta` is a placeholder. */
  readonly parsed: ParsedCommand;
};

const SIG_HEX = /^[0-9a-fA-F]{128}$/;

function readSig(value: unknown, field: string): string {
  if (value === null) return "";
  const o = readObject(value, field);
  const sig = required(o, "sig", field);
  if (sig.value === null) return "";
  const text = readString(sig.value, sig.field);
  if (text !== "" && !SIG_HEX.test(text)) {
    throw badField(sig.field, "64 bytes of hex (128 characters), or an empty string");
  }
  return text;
}

/**
 * @param network the node's network: `cmd.networkId` must name it.
 * @throws {CommandError} CMD_* naming the field (malformed command, not
 *   private metadata, hash mismatch, wrong network, a missing or invalid signature).
 */
export function readPrivateCommand(value: unknown, network: string): PrivateCommand {
  const p = parsePrivateCommand(value);
  const o = readObject(value, "command");
  const sigs = readArray(required(o, "sigs", "").value, "sigs");
  const sigTexts = sigs.map((s, i) => readSig(s, `sigs[${i}]`));
  const decoded = readJsonExact(p.cmd);
  if (!decoded.ok) {
    throw new CommandError(
      { code: CommandErrorCode.BadJson, field: "cmd", reason: decoded.error },
      `cmd: not valid JSON: ${decoded.error}`,
    );
  }
  const c = readObject(decoded.value, "cmd");
  const payload: PayloadMessage = parsePayloadMessage(
    required(c, "payload", "cmd").value,
    "cmd.payload",
  );
  const signers: readonly Signer[] = parseSigners(
    required(c, "signers", "cmd").value,
    "cmd.signers",
  );
  const nonce = readString(required(c, "nonce", "cmd").value, "cmd.nonce");
  const net = optional(c, "networkId", "cmd").value;
  const networkId = net === undefined || net === null ? null : readString(net, "cmd.networkId");
  if (networkId !== network) {
    throw new CommandError(
      {
        code: CommandErrorCode.WrongNetwork,
        field: "cmd.networkId",
        expected: network,
        actual: networkId,
      },
      `cmd.networkId: the command is for network ${networkId === null ? "null (network-less)" : JSON.stringify(networkId)}, this node runs ${network}`,
    );
  }
  const hashBytes = requestKeyBytes(p.hash, "hash");
  nodeCommands.verifySignatures(hashBytes, signers, sigTexts, "", p.hash);
  const parsed: ParsedCommand = {
    cmd: p.cmd,
    hash: p.hash,
    hashBytes,
    sigs: sigTexts,
    payload: {
      payload,
      meta: {
        chainId: "",
        sender: "",
        gasLimit: PRIVATE_GAS_LIMIT,
        gasPrice: "0",
        ttl: 0,
        creationTime: 0,
      },
      signers,
      networkId,
      nonce,
    },
  };
  return { hash: p.hash, address: p.address, wire: { cmd: p.cmd, hash: p.hash, sigs }, parsed };
}
