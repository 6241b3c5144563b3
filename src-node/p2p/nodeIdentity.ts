/**
 * The node's identity among peers (docs/p2p.md "What a peer can and cannot
 * make this node do"): an Ed25519 key made on the first start and kept in
 * `dataDir/<network>/node-key.pem` (0600). Its public key (32 bytes,
 * unpadded base64url) is the node's `nodeId`; `GET /info?challenge=C`
 * answers it with `nodeProof`, the key's signature over the network and the
 * challenge, so a node verifying a peer learns the identity from the
 * connection it opened itself, with a fresh challenge each time, not from
 * anything a third party wrote. A node that relays another's answers can
 * show that node's identity, so the identity is not what misbehaviour is
 * charged to (the peer book charges the address this node talked to); it
 * tells a node from itself under another name and is shown to the user.
 * @module
 */
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
  verify,
} from "node:crypto";
import { readFileIfExists } from "../store/atomicFile.ts";
import { makePrivateFile, writePrivateFile } from "../store/privateFiles.ts";
import { P2pError, P2pErrorCode } from "./errors.ts";

/** 32 bytes of unpadded base64url. */
const KEY_TEXT = /^[A-Za-z0-9_-]{43}$/;
/** 64 bytes of unpadded base64url. */
const SIGNATURE_TEXT = /^[A-Za-z0-9_-]{86}$/;

function message(network: string, challenge: string): Buffer {
  return Buffer.from(`weft-node-identity\n${network}\n${challenge}`, "utf8");
}

/** A fresh challenge: 32 random bytes, unpadded base64url. */
export function newChallenge(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * A challenge as `/info` takes it (43 characters of base64url).
 * @throws {P2pError} P2P_BAD_CHALLENGE
 */
export function parseChallenge(value: unknown): string {
  if (typeof value !== "string" || !KEY_TEXT.test(value)) {
    throw new P2pError(
      { code: P2pErrorCode.BadChallenge, field: "challenge" },
      "challenge: expected 32 bytes of unpadded base64url (43 characters)",
    );
  }
  return value;
}

/** Whether `proof` is `nodeId`'s signature over the network and the challenge. */
export function verifyNodeProof(
  network: string,
  challenge: string,
  nodeId: unknown,
  proof: unknown,
): boolean {
  if (typeof nodeId !== "string" || !KEY_TEXT.test(nodeId)) return false;
  if (typeof proof !== "string" || !SIGNATURE_TEXT.test(proof)) return false;
  try {
    const key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: nodeId }, format: "jwk" });
    return verify(null, message(network, challenge), key, Buffer.from(proof, "base64url"));
  } catch {
    return false;
  }
}

export class NodeIdentity {
  /** The public key, unpadded base64url. */
  readonly nodeId: string;
  readonly #key: KeyObject;

  constructor(key: KeyObject) {
    this.#key = key;
    const jwk = createPublicKey(key).export({ format: "jwk" }) as { x?: string };
    this.nodeId = jwk.x as string;
  }

  /** A new key, kept in memory only (tests, nodes without a data folder). */
  static ephemeral(): NodeIdentity {
    return new NodeIdentity(generateKeyPairSync("ed25519").privateKey);
  }

  /**
   * The key in `file`, made and written (0600) when absent.
   * @throws {Error} when the file is there but holds no Ed25519 key.
   */
  static loadOrCreate(file: string): NodeIdentity {
    const pem = readFileIfExists(file);
    if (pem !== undefined) {
      // A key an older release (or a copy) left readable by others is tightened.
      makePrivateFile(file);
      const key = createPrivateKey(pem);
      if (key.asymmetricKeyType !== "ed25519") throw new Error(`${file}: not an Ed25519 key`);
      return new NodeIdentity(key);
    }
    const { privateKey } = generateKeyPairSync("ed25519");
    writePrivateFile(file, privateKey.export({ format: "pem", type: "pkcs8" }) as string);
    return new NodeIdentity(privateKey);
  }

  /** What `/info?challenge=…` adds: the identity and its signature over the challenge. */
  prove(network: string, challenge: string): { nodeId: string; nodeProof: string } {
    return {
      nodeId: this.nodeId,
      nodeProof: sign(null, message(network, challenge), this.#key).toString("base64url"),
    };
  }
}
