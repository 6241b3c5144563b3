/**
 * `weft -u FILE [-c]`: prepares an unsigned (detached) transaction from a
 * request file whose `signers` list public keys and capabilities. Prints YAML
 * with `hash`, `sigs` (each signer's key mapped to null) and `cmd`; `-c`
 * prints the condensed cold-wallet form without `cmd`.
 * @module
 */

import { nodeCommands } from "../exec/nodeCommands.ts";
import { detachedYaml, unsignedTx } from "./detachedTx.ts";
import type { CliIo } from "./io.ts";
import { type RequestSource, readRequestFile } from "./requestFile.ts";

export function unsignedRequest(
  file: string,
  condensed: boolean,
  io: CliIo,
  source?: RequestSource,
): void {
  const { payload } = readRequestFile(file, "unsigned", io.now(), source);
  io.stdout.write(
    detachedYaml(unsignedTx(nodeCommands.buildCommand(payload), payload.signers), condensed),
  );
}
