/**
 * The node's command model: the command area's model (command/commandModel.ts)
 * over node:crypto, which gives the same answers as its @noble default
 * (test/unit/commandModelCrypto.test.ts holds both to the shared vectors)
 * several times faster: every command's request key is computed at least
 * once, and every signature verified once.
 * - request keys: OpenSSL's Blake2s-256 through node:crypto's one-shot
 *   `hash`, which takes the text as UTF-8 and gives base64url directly;
 * - signatures: crypto/ed25519.ts (OpenSSL where it agrees with @noble's
 *   strict rule, @noble otherwise).
 * Everything in the node and the CLI that builds, parses, signs or verifies
 * commands uses {@link nodeCommands}.
 * @module
 */
import { hash } from "node:crypto";
import type { CommandCrypto } from "../command/commandCrypto.ts";
import { createCommandModel } from "../command/commandModel.ts";
import { publicKeyOf, signBytes, verifyBytes } from "../crypto/ed25519.ts";

export const nodeCommandCrypto: CommandCrypto = {
  requestKeyOf: (cmd) => hash("blake2s256", cmd, "base64url"),
  publicKeyOf,
  sign: signBytes,
  verify: verifyBytes,
};

export const nodeCommands = createCommandModel(nodeCommandCrypto);
