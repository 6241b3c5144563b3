/**
 * The core native table: every family assembled into one map by name. The
 * golden file test/contract/natives.golden pins names and arities.
 * @module
 */
import { contractInvariant } from "../errors.ts";
import { capabilityNatives } from "./capabilities.ts";
import { controlNatives } from "./control.ts";
import { databaseNatives } from "./database.ts";
import { defpactNatives } from "./defpacts.ts";
import { environmentNatives } from "./environment.ts";
import { functionalNatives } from "./functional.ts";
import { guardNatives } from "./guards.ts";
import { keysetNatives } from "./keysets.ts";
import { listNatives } from "./lists.ts";
import { moduleInfoNatives } from "./moduleInfo.ts";
import { namespaceNatives } from "./namespaces.ts";
import type { NativeDef } from "./native.ts";
import { operatorNatives } from "./operators.ts";
import { principalNatives } from "./principals.ts";
import { spvNatives } from "./spv.ts";
import { stringNatives } from "./strings.ts";
import { timeNatives } from "./time.ts";

/** Builds a name → native map; a duplicate name is a bug. */
export function buildNativeTable(
  ...families: (readonly NativeDef[])[]
): ReadonlyMap<string, NativeDef> {
  const m = new Map<string, NativeDef>();
  for (const f of families) {
    for (const d of f) {
      if (m.has(d.name)) throw contractInvariant(`duplicate native ${d.name}`);
      m.set(d.name, d);
    }
  }
  return m;
}

/** Natives available to every contract evaluation. */
export const coreNatives: ReadonlyMap<string, NativeDef> = buildNativeTable(
  controlNatives,
  operatorNatives,
  functionalNatives,
  listNatives,
  stringNatives,
  timeNatives,
  environmentNatives,
  principalNatives,
  keysetNatives,
  guardNatives,
  capabilityNatives,
  databaseNatives,
  defpactNatives,
  namespaceNatives,
  moduleInfoNatives,
  spvNatives,
);
