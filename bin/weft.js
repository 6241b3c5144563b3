#!/usr/bin/env node
// The `weft` command. Sources are TypeScript run through tsx, so the checkout
// needs no build step: `npm install` then `npx weft …`.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src-node/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
