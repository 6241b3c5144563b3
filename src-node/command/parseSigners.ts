/**
 * Reads the `signers` of a command payload: hex public key, optional scheme
 * (only ED25519; WebAuthn signers are refused with a clear code), optional
 * address, and a capability list (absent or null means none).
 * @module
 */
import { type Capability, ED25519, type Signer } from "./commandTypes.ts";
import { CommandError, CommandErrorCode } from "./errors.ts";
import type { JsonValue } from "./exactJson.ts";
import {
  badField,
  fieldPath,
  optional,
  readArray,
  readHex,
  readObject,
  readString,
  required,
} from "./fieldReaders.ts";

/** Reads a signature scheme: absent or `ED25519`. */
export function parseScheme(value: unknown, field: string): typeof ED25519 | undefined {
  if (value === undefined || value === null) return undefined;
  const scheme = readString(value, field);
  if (scheme !== ED25519) {
    throw new CommandError(
      { code: CommandErrorCode.UnsupportedScheme, field, scheme },
      `${field}: unsupported signature scheme '${scheme}' (only ${ED25519} is accepted)`,
    );
  }
  return scheme;
}

/**
 * One identifier of a qualified name, as the reference's parser reads it: a letter or one of
 * `%#+-_&$@<>=^?*!|/~`, then letters, ASCII digits and those symbols (`Pact.Types.Parser.style`).
 */
const IDENT = String.raw`[\p{L}%#+\-_&$@<>=^?*!|/~][\p{L}0-9%#+\-_&$@<>=^?*!|/~]*`;
const QUALIFIED_NAME = new RegExp(`^${IDENT}\\.${IDENT}(?:\\.${IDENT})?$`, "u");
const RESERVED = new Set(["true", "false"]);

/**
 * Whether `name` is a capability name the reference's signer JSON accepts (`SigCapability`'s
 * `name` is a `QualifiedName`): `module.NAME` or `namespace.module.NAME`. Anything else fails
 * the reference's parse of the whole command, so Weft refuses it there too. (The reference's
 * parser also skips whitespace around the dots, reading `"coin . GAS"` as `coin.GAS`; Weft
 * refuses such text rather than keep a name the evaluator would compare differently.)
 */
export function isQualifiedName(name: string): boolean {
  return QUALIFIED_NAME.test(name) && !name.split(".").some((part) => RESERVED.has(part));
}

function parseCapability(value: unknown, field: string): Capability {
  const o = readObject(value, field);
  const name = required(o, "name", field);
  const args = required(o, "args", field);
  const nameText = readString(name.value, name.field);
  if (!isQualifiedName(nameText)) {
    throw badField(name.field, "a qualified capability name, module.NAME or namespace.module.NAME");
  }
  return {
    name: nameText,
    args: readArray(args.value, args.field) as readonly JsonValue[],
  };
}

function parseSigner(value: unknown, field: string): Signer {
  const o = readObject(value, field);
  const pubKey = required(o, "pubKey", field);
  const scheme = optional(o, "scheme", field);
  const addr = optional(o, "addr", field);
  const clist = optional(o, "clist", field);
  const parsedScheme = parseScheme(scheme.value, scheme.field);
  const caps =
    clist.value === undefined || clist.value === null
      ? []
      : readArray(clist.value, clist.field).map((c, i) =>
          parseCapability(c, fieldPath(clist.field, i)),
        );
  return {
    pubKey: readHex(pubKey.value, pubKey.field, 32),
    ...(parsedScheme === undefined ? {} : { scheme: parsedScheme }),
    ...(addr.value === undefined || addr.value === null
      ? {}
      : { addr: readHex(addr.value, addr.field) }),
    clist: caps,
  };
}

/** Reads the `signers` array at `field` (e.g. `"cmd.signers"`). */
export function parseSigners(value: unknown, field: string): readonly Signer[] {
  return readArray(value, field).map((s, i) => parseSigner(s, fieldPath(field, i)));
}
