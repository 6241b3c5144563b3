/**
 * The signers of a request file: `keyPairs` (`public`, `secret`, optional
 * `caps`) for `weft -a`, which signs, or `signers` (`public`, optional
 * `caps`) for `weft -u`, which does not. Both may add `scheme` (only ED25519)
 * and `address` (hex, written as the signer's `addr`).
 * @module
 */
import { type Capability, ED25519, type Signer } from "../command/commandTypes.ts";
import type { SigningKey } from "../command/signCommand.ts";
import { cliError } from "./errors.ts";
import {
  checkKeys,
  childField,
  member,
  readHexText,
  readList,
  readMap,
  readText,
  type YamlMap,
} from "./fileFields.ts";
import { readKeyPair } from "./keyFile.ts";
import type { YamlValue } from "./yamlValue.ts";

function readCaps(v: YamlValue | undefined, file: string, field: string): Capability[] {
  if (v === undefined) return [];
  return readList(v, file, field).map((item, i) => {
    const at = childField(field, i);
    const cap = readMap(item, file, at);
    checkKeys(cap, ["name", "args"], file, at);
    const args = member(cap, "args");
    return {
      name: readText(member(cap, "name"), file, childField(at, "name")),
      args: args === undefined ? [] : readList(args, file, childField(at, "args")),
    };
  });
}

function signerOf(map: YamlMap, publicKey: string, file: string, at: string): Signer {
  const scheme = member(map, "scheme");
  if (scheme !== undefined && readText(scheme, file, childField(at, "scheme")) !== ED25519) {
    throw cliError("CLI_BAD_FIELD", file, childField(at, "scheme"), `only ${ED25519} is supported`);
  }
  const address = member(map, "address");
  const addr =
    address === undefined ? undefined : readHexText(address, file, childField(at, "address"));
  // The reference refuses an ED25519 signer whose address is not its key (verifyUserSig).
  if (addr !== undefined && addr !== publicKey) {
    throw cliError(
      "CLI_ADDRESS_MISMATCH",
      file,
      childField(at, "address"),
      `must be the public key itself (${publicKey}): a signature speaks only for its own key`,
    );
  }
  return {
    pubKey: publicKey,
    ...(scheme === undefined ? {} : { scheme: ED25519 }),
    ...(addr === undefined ? {} : { addr }),
    clist: readCaps(member(map, "caps"), file, childField(at, "caps")),
  };
}

/** Reads `keyPairs`: the signers of the command and the keys that sign it. */
export function readKeyPairs(
  v: YamlValue | undefined,
  file: string,
): { signers: Signer[]; keys: SigningKey[] } {
  if (v === undefined) return { signers: [], keys: [] };
  const signers: Signer[] = [];
  const keys: SigningKey[] = [];
  readList(v, file, "keyPairs").forEach((item, i) => {
    const at = childField("keyPairs", i);
    const map = readMap(item, file, at);
    const key = readKeyPair(map, file, at, ["caps", "scheme", "address"]);
    keys.push(key);
    signers.push(signerOf(map, key.publicKey, file, at));
  });
  return { signers, keys };
}

/** Reads `signers` of an unsigned request. */
export function readSigners(v: YamlValue | undefined, file: string): Signer[] {
  if (v === undefined) return [];
  return readList(v, file, "signers").map((item, i) => {
    const at = childField("signers", i);
    const map = readMap(item, file, at);
    checkKeys(map, ["public", "caps", "scheme", "address"], file, at, {
      secret: "an unsigned request lists public keys only; put key pairs under keyPairs and use -a",
    });
    const publicKey = readHexText(member(map, "public"), file, childField(at, "public"), 32);
    return signerOf(map, publicKey, file, at);
  });
}
