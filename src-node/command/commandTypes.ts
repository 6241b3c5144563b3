/**
 * The command wire model: a submitted {@link Command} (`cmd`, `hash`, `sigs`)
 * and the {@link CommandPayload} that `cmd` holds as JSON text. The same types
 * serve building a command (the request-file tool) and reading one
 * (`parseCommand`). Field meanings are in the spec's Command tables; choices
 * where the spec is silent are in docs/commands.md.
 * @module
 */
import type { JsonObject, JsonValue } from "./exactJson.ts";

/** The one signature scheme the node accepts. */
export const ED25519 = "ED25519";

/** A capability a signer scopes its signature to: `{name, args}`. */
export type Capability = { readonly name: string; readonly args: readonly JsonValue[] };

/** A signer of a command: hex public key, optional scheme and address, capability list. */
export type Signer = {
  readonly pubKey: string;
  readonly scheme?: typeof ED25519;
  readonly addr?: string;
  readonly clist: readonly Capability[];
};

/**
 * Public metadata. `gasPrice` is canonical decimal text (see decimalText.ts)
 * and is written into `cmd` as a JSON number with that text.
 */
export type PublicMeta = {
  readonly chainId: string;
  readonly sender: string;
  readonly gasLimit: number;
  readonly gasPrice: string;
  readonly ttl: number;
  readonly creationTime: number;
};

/** An exec message: program text and its data (a JSON object, or null for none). */
export type ExecMessage = { readonly code: string; readonly data: JsonObject | null };

/**
 * A continuation message. `pactId` is the spec's `contractTxHash` (the request
 * key of the transaction that started the multi-step contract); in `cmd` it is
 * written `pactId`, and both names are read.
 */
export type ContMessage = {
  readonly pactId: string;
  readonly step: number;
  readonly rollback: boolean;
  readonly data: JsonObject | null;
  readonly proof: string | null;
};

/** The `payload` field: exactly one of an exec or a continuation message. */
export type PayloadMessage = { readonly exec: ExecMessage } | { readonly cont: ContMessage };

/** The JSON object inside `cmd`. `networkId` is null for a network-less command. */
export type CommandPayload = {
  readonly payload: PayloadMessage;
  readonly meta: PublicMeta;
  readonly signers: readonly Signer[];
  readonly networkId: string | null;
  readonly nonce: string;
};

/**
 * A signature object as the command-line tool prints it (spec, Command):
 * `sig` hex, `scheme`, `pubKey` hex and `addr` hex.
 */
export type SignatureObject = {
  readonly sig: string;
  readonly scheme: typeof ED25519;
  readonly pubKey: string;
  readonly addr: string;
};

/**
 * A signature as submitted: only `sig` is read; clients also send `pubKey`
 * (and the tool prints `scheme` and `addr`), which are ignored. An empty `sig`
 * is an unsigned slot (accepted where signatures are not verified).
 */
export type WireSignature = { readonly sig: string } & Partial<Omit<SignatureObject, "sig">>;

/** A command as `/send` and `/local` take it. */
export type Command = {
  readonly cmd: string;
  readonly hash: string;
  readonly sigs: readonly WireSignature[];
};

/** A command before signing: its `cmd` text and request key. */
export type UnsignedCommand = { readonly cmd: string; readonly hash: string };

/** What `parseCommand` returns: the command as received and its typed payload. */
export type ParsedCommand = {
  /** The `cmd` text exactly as received (hashes and signatures cover these bytes). */
  readonly cmd: string;
  /** The request key (43 characters), checked to be Blake2s-256 of `cmd`. */
  readonly hash: string;
  /** The 32 raw bytes of `hash`, which signatures sign. */
  readonly hashBytes: Uint8Array;
  /** One `sig` hex string per entry of `sigs` (`""` for an unsigned slot), in order. */
  readonly sigs: readonly string[];
  /** `cmd` read once, exactly: data and capability arguments keep every number's text. */
  readonly payload: CommandPayload;
};
