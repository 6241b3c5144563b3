/**
 * `weft help` from the TypeScript sources (run through tsx): the startup benchmark's
 * baseline, what every `weft` call paid before the compile step.
 */
import { main } from "../../../src-node/cli/main.ts";

process.exitCode = await main(["help"]);
