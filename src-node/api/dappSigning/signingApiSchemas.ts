/**
 * The bodies of Chainweaver's local signing API as JSON schemas (docs/dapp-signing.md):
 * `POST /v1/sign` (the signing-api v1 `SigningRequest`, with the fields `@kadena/client`'s
 * `ISignBody` adds: `gasPrice`, `signingPubKey`, `networkId`) and `POST /v1/quicksign`
 * (KIP-0015 with Chainweaver's member name `cmdSigDatas`, as `createSignWithChainweaver`
 * sends it; `cmds`, the KIP's draft name, is taken too). Unknown members are refused so that
 * a dapp learns at once what Weft does not read.
 * @module
 */

const HEX_KEY = { type: "string", pattern: "^[0-9a-fA-F]{64}$" } as const;
const SIG = { type: "string", pattern: "^[0-9a-fA-F]{128}$" } as const;
const CHAIN = { type: "string", pattern: "^[0-9]{1,3}$" } as const;

/** One capability a dapp asks the signer to grant, with words for the user. */
const dappCap = {
  type: "object",
  additionalProperties: false,
  required: ["cap"],
  properties: {
    role: { type: "string", maxLength: 200 },
    description: { type: "string", maxLength: 2000 },
    cap: {
      type: "object",
      additionalProperties: false,
      required: ["name", "args"],
      properties: {
        name: { type: "string", minLength: 1, maxLength: 300 },
        args: { type: "array", maxItems: 50 },
      },
    },
  },
} as const;

/** `POST /v1/sign`: the wallet builds the command from these and signs it. */
export const signBodySchema = {
  type: "object",
  additionalProperties: false,
  required: ["code", "caps"],
  properties: {
    code: { type: "string", minLength: 1, maxLength: 100_000 },
    caps: { type: "array", maxItems: 50, items: dappCap },
    data: { type: ["object", "null"] },
    nonce: { type: ["string", "null"], maxLength: 200 },
    chainId: { anyOf: [CHAIN, { type: "null" }] },
    gasLimit: { type: ["integer", "null"], minimum: 1, maximum: 1_000_000_000 },
    gasPrice: { type: ["number", "null"], exclusiveMinimum: 0, maximum: 1 },
    ttl: { type: ["integer", "null"], minimum: 1, maximum: 86_400 * 2 },
    sender: { type: ["string", "null"], minLength: 3, maxLength: 256 },
    signingPubKey: { anyOf: [HEX_KEY, { type: "null" }] },
    networkId: { type: ["string", "null"], minLength: 1, maxLength: 100 },
    extraSigners: { type: ["array", "null"], maxItems: 20, items: HEX_KEY },
  },
} as const;

/** One `CommandSigData`: the command's text and its signers' keys with their signatures so far. */
const cmdSigData = {
  type: "object",
  additionalProperties: false,
  required: ["cmd", "sigs"],
  properties: {
    cmd: { type: "string", minLength: 2, maxLength: 500_000 },
    sigs: {
      type: "array",
      maxItems: 100,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["pubKey"],
        properties: { pubKey: HEX_KEY, sig: { anyOf: [SIG, { type: "null" }] } },
      },
    },
  },
} as const;

const CMD_SIG_DATAS = { type: "array", maxItems: 50, items: cmdSigData } as const;

/** `POST /v1/quicksign` */
export const quicksignBodySchema = {
  type: "object",
  additionalProperties: false,
  properties: { cmdSigDatas: CMD_SIG_DATAS, cmds: CMD_SIG_DATAS },
  oneOf: [{ required: ["cmdSigDatas"] }, { required: ["cmds"] }],
} as const;

export type DappCap = {
  readonly role?: string;
  readonly description?: string;
  readonly cap: { readonly name: string; readonly args: readonly unknown[] };
};

/** A `/v1/sign` body as the schema lets it through. */
export type SignBody = {
  readonly code: string;
  readonly caps: readonly DappCap[];
  readonly data?: Record<string, unknown> | null;
  readonly nonce?: string | null;
  readonly chainId?: string | null;
  readonly gasLimit?: number | null;
  readonly gasPrice?: number | null;
  readonly ttl?: number | null;
  readonly sender?: string | null;
  readonly signingPubKey?: string | null;
  readonly networkId?: string | null;
  readonly extraSigners?: readonly string[] | null;
};

export type CmdSigData = {
  readonly cmd: string;
  readonly sigs: readonly { readonly pubKey: string; readonly sig?: string | null }[];
};

/** A `/v1/quicksign` body as the schema lets it through. */
export type QuicksignBody = {
  readonly cmdSigDatas?: readonly CmdSigData[];
  readonly cmds?: readonly CmdSigData[];
};
