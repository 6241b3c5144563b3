/**
 * `weft -a FILE [-l]`: formats a request file as API request JSON, signed
 * with its `keyPairs`: `{"cmds":[command]}` for `/send`, or with `-l` the
 * single command for `/local`.
 * @module
 */

import { nodeCommands } from "../exec/nodeCommands.ts";
import { requestJson } from "./emitTx.ts";
import type { CliIo } from "./io.ts";
import { type RequestSource, readRequestFile } from "./requestFile.ts";

export function apiRequest(file: string, local: boolean, io: CliIo, source?: RequestSource): void {
  const { payload, keys } = readRequestFile(file, "sign", io.now(), source);
  const signed = nodeCommands.signCommand(
    nodeCommands.buildCommand(payload),
    payload.signers,
    keys,
  );
  io.stdout.write(requestJson(signed, local));
}
