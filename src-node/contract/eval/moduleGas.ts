/**
 * What installing a module or interface costs, in the reference's parts
 * (Pact 4.13 `eval'` of a module): the declaration (1), each named member
 * (1: `defun`, `defcap`, `defpact`, `defconst`, `defschema`, `deftable`),
 * the module's memory (60,000 plus 0.006 per byte of its size), and the
 * write of its name and code text (`WriteModule`: ceil(size / 10) of each).
 * @module
 */
import type { ParseNode } from "../syntax/parseTree.ts";
import type { ModuleHeader } from "./compileModule.ts";
import { interfaceMemorySize } from "./moduleMemory.ts";
import { memoryGas, moduleNameSize, type SizeOfVersion, textSize } from "./sizeOf.ts";

const MEMBER_FORMS = new Set(["defun", "defcap", "defpact", "defconst", "defschema", "deftable"]);

/** The fixed part of a module's memory cost. */
export const GAS_MODULE_MEMORY_BASE = 60_000;
/** Gas per 1000 bytes of a module's memory size. */
export const GAS_MODULE_MEMORY_PER_1000_BYTES = 6;

function isMember(n: ParseNode): boolean {
  if (n.kind !== "sexp") return false;
  const head = n.items[0];
  return head !== undefined && head.kind === "atom" && MEMBER_FORMS.has(head.parts[0] as string);
}

/** The reference's `moduleMemoryCost`: 60,000 + ceil(0.006 × size). */
export function moduleMemoryGas(size: number): number {
  return GAS_MODULE_MEMORY_BASE + Math.ceil((size * GAS_MODULE_MEMORY_PER_1000_BYTES) / 1000);
}

/**
 * The module's memory size. The reference sizes its compiled definitions as
 * GHC terms: Weft does so for interfaces (`moduleMemory.ts`); for modules,
 * whose terms hold the natives they call with their documentation, it
 * estimates the size by the bytes of the code, which is what it grows with.
 */
export function moduleMemorySize(
  header: ModuleHeader,
  code: string,
  namespace: string | null,
  ver: SizeOfVersion,
): number {
  if (header.kind === "interface") {
    const s = interfaceMemorySize(ver, header, namespace);
    if (s !== null) return s;
  }
  return Buffer.byteLength(code, "utf8");
}

/**
 * Gas of installing (or upgrading) the module `header` declared by `code`
 * in `namespace`. The memory is not charged for interfaces, nor for modules
 * before Pact 4.3 (`DisablePact43`), under `DisableInlineMemCheck`.
 */
export function moduleInstallGas(
  header: ModuleHeader,
  code: string,
  namespace: string | null,
  flags: ReadonlySet<string>,
): number {
  let members = 0;
  for (const n of header.body) if (isMember(n)) members++;
  const write = memoryGas(moduleNameSize(null, header.name)) + memoryGas(textSize(code));
  const noMemory =
    flags.has("DisableInlineMemCheck") &&
    (header.kind === "interface" || flags.has("DisablePact43"));
  const ver: SizeOfVersion = flags.has("DisablePact45") ? 0 : 1;
  const memory = noMemory ? 0 : moduleMemoryGas(moduleMemorySize(header, code, namespace, ver));
  return 1 + members + memory + write;
}
