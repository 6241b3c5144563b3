/**
 * The command model over one {@link CommandCrypto}: building a command and
 * its request key, signing, parsing a submitted command (its `cmd` once) and
 * checking its signatures. {@link commandModel} runs on @noble (any
 * JavaScript environment: the wallet in the renderer uses it); the node and
 * the CLI use `nodeCommands` (exec/nodeCommands.ts), the same model over
 * node:crypto. Functions that need no cryptography (`cmdOf`,
 * `parseCommandPayload`, exact JSON) are imported from their files directly.
 *
 * @example
 * ```ts
 * const unsigned = commandModel.buildCommand(payload);
 * const signed = commandModel.signCommand(unsigned, payload.signers, [key]);
 * const parsed = commandModel.parseCommand(JSON.parse(JSON.stringify(signed)));
 * commandModel.verifyCommandSignatures(parsed);
 * ```
 * @module
 */
import { buildCommand } from "./buildCommand.ts";
import { type CommandCrypto, nobleCommandCrypto, secretKeyBytes } from "./commandCrypto.ts";
import type {
  CommandPayload,
  ParsedCommand,
  SignatureObject,
  Signer,
  UnsignedCommand,
} from "./commandTypes.ts";
import { parseCommand } from "./parseCommand.ts";
import { requestKeyBytes } from "./requestKeyBytes.ts";
import { type SignedCommand, type SigningKey, signCommand, signRequestKey } from "./signCommand.ts";
import { SignatureChecker } from "./verifySignatures.ts";

export type CommandModel = {
  readonly crypto: CommandCrypto;
  /** The request key (43 characters) of a `cmd` string. */
  requestKeyOf(cmd: string): string;
  /** The 32 raw bytes of the request key of a `cmd` string (what signatures sign). */
  requestKeyBytesOf(cmd: string): Uint8Array;
  /** The `cmd` text and request key of a payload. */
  buildCommand(payload: CommandPayload): UnsignedCommand;
  /** See parseCommand.ts. */
  parseCommand(value: unknown, prefix?: string): ParsedCommand;
  /** The public key (hex) of a secret seed (hex). */
  publicKeyOf(secretKey: string): string;
  /** See signCommand.ts. */
  signRequestKey(hash: string, secretKey: string, addr?: string): SignatureObject;
  signCommand(
    unsigned: UnsignedCommand,
    signers: readonly Signer[],
    keys: readonly SigningKey[],
  ): SignedCommand;
  /** See verifySignatures.ts; verified signatures are remembered per model. */
  verifySignatures(
    hashBytes: Uint8Array,
    signers: readonly Signer[],
    sigs: readonly string[],
    fieldPrefix?: string,
    hashText?: string,
  ): void;
  verifyCommandSignatures(command: ParsedCommand, fieldPrefix?: string): void;
};

/** The command model over `crypto` (default: @noble). */
export function createCommandModel(crypto: CommandCrypto = nobleCommandCrypto): CommandModel {
  const checker = new SignatureChecker(crypto);
  return {
    crypto,
    requestKeyOf: (cmd) => crypto.requestKeyOf(cmd),
    requestKeyBytesOf: (cmd) => requestKeyBytes(crypto.requestKeyOf(cmd)),
    buildCommand: (payload) => buildCommand(crypto, payload),
    parseCommand: (value, prefix) => parseCommand(crypto, value, prefix),
    publicKeyOf: (secretKey) => {
      // Checked here, so every CommandCrypto refuses a bad secret the same way.
      secretKeyBytes(secretKey);
      return crypto.publicKeyOf(secretKey);
    },
    signRequestKey: (hash, secretKey, addr) => signRequestKey(crypto, hash, secretKey, addr),
    signCommand: (unsigned, signers, keys) => signCommand(crypto, unsigned, signers, keys),
    verifySignatures: (hashBytes, signers, sigs, fieldPrefix, hashText) =>
      checker.verifySignatures(hashBytes, signers, sigs, fieldPrefix, hashText),
    verifyCommandSignatures: (command, fieldPrefix) =>
      checker.verifyCommandSignatures(command, fieldPrefix),
  };
}

/** The command model on @noble: for the browser, and anything without node:crypto. */
export const commandModel: CommandModel = createCommandModel();
