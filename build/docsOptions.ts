/**
 * `npm run docs:options`: writes the options section of docs/node.md from the option table
 * (src-node/config/nodeOptionTable.ts through nodeOptionsDoc.ts). Run it after changing
 * the table; test/unit/nodeOptionTable.test.ts fails while the file is out of date.
 * @module
 */
import { readFileSync, writeFileSync } from "node:fs";
import { withOptionsSection } from "../src-node/config/nodeOptionsDoc.ts";

const file = new URL("../docs/node.md", import.meta.url);
const before = readFileSync(file, "utf8");
const after = withOptionsSection(before);
if (after !== before) writeFileSync(file, after);
process.stdout.write(
  `docs/node.md: options section ${after === before ? "already current" : "written"}\n`,
);
