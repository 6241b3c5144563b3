/**
 * What installing a module or interface costs, in the reference's parts
 * (Pact 4.13 `eval'` of a module): the declaration (1), each named member
 * (1: `defun`, `defcap`, `defpact`, `defconst`, `defschema`, `deftable`),
 * the module's memory (60,000 plus 0.006 per byte of its size: the size of
 * its compiled terms, `moduleTermSize.ts` for modules, `moduleMemory.ts` for
 * interfaces), and the write of its name and code text (`WriteModule`:
 * ceil(size / 10) of each).
 * @module
 */
import type { ParseNode } from "../syntax/parseTree.ts";
import type { ModuleHeader } from "./compileModule.ts";
import { interfaceMemorySize } from "./moduleMemory.ts";
import { type ModuleSizeEnv, moduleTermsSize } from "./moduleTermSize.ts";
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
 * Gas of installing (or upgrading) the module `header` declared by `code`
 * in `namespace`, but a module's memory, which is charged once its constants
 * are evaluated ({@link moduleMemoryInstallGas}). The memory is not charged
 * for interfaces, nor for modules before Pact 4.3 (`DisablePact43`), under
 * `DisableInlineMemCheck`.
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
  if (header.kind === "module") return 1 + members + write;
  const noMemory = flags.has("DisableInlineMemCheck");
  const ver = sizeOfVersion(flags);
  const size = interfaceMemorySize(ver, header, namespace) ?? Buffer.byteLength(code, "utf8");
  return 1 + members + (noMemory ? 0 : moduleMemoryGas(size)) + write;
}

function sizeOfVersion(flags: ReadonlySet<string>): SizeOfVersion {
  return flags.has("DisablePact45") ? 0 : 1;
}

/**
 * The memory gas of installing the module `header` (not an interface), its
 * constants evaluated: the size of its compiled members as the reference
 * counts it (`moduleTermSize.ts`), or, for a module that model does not
 * cover, the bytes of its code.
 */
export function moduleMemoryInstallGas(
  header: ModuleHeader,
  code: string,
  env: Omit<ModuleSizeEnv, "ver">,
  flags: ReadonlySet<string>,
): number {
  if (flags.has("DisableInlineMemCheck") && flags.has("DisablePact43")) return 0;
  const size =
    moduleTermsSize(header, { ...env, ver: sizeOfVersion(flags) }) ??
    Buffer.byteLength(code, "utf8");
  return moduleMemoryGas(size);
}
