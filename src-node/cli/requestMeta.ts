/**
 * `publicMeta` of a request file, with the defaults for what it leaves out:
 * chain "0", sender "", gas limit 2500, gas price 0.00000001 (the minimum the
 * reference network accepts), ttl 28800 s (8 hours, time enough to collect
 * signatures offline) and creation time "now". See docs/cli.md.
 * @module
 */

import type { PublicMeta } from "../command/commandTypes.ts";
import { decimalText } from "../command/decimalText.ts";
import { JsonNumber } from "../command/exactJson.ts";
import { isNodeError } from "../errors/nodeError.ts";
import { cliError } from "./errors.ts";
import { checkKeys, member, readInt, readMap, readText } from "./fileFields.ts";
import type { YamlValue } from "./yamlValue.ts";

/** Defaults for fields `publicMeta` leaves out (creation time defaults to now). */
export const META_DEFAULTS = {
  chainId: "0",
  sender: "",
  gasLimit: 2500,
  gasPrice: "0.00000001",
  ttl: 28800,
} as const;

const KEYS = ["chainId", "sender", "gasLimit", "gasPrice", "ttl", "creationTime"] as const;

function readGasPrice(v: YamlValue | undefined, file: string): string {
  if (v === undefined) return META_DEFAULTS.gasPrice;
  const field = "publicMeta.gasPrice";
  const raw = v instanceof JsonNumber ? v.text : typeof v === "string" ? v : undefined;
  let text: string;
  try {
    text = decimalText(raw, field);
  } catch (e) {
    if (isNodeError(e))
      throw cliError("CLI_BAD_FIELD", file, field, "expected a decimal number", e);
    throw e;
  }
  if (text.startsWith("-")) throw cliError("CLI_BAD_FIELD", file, field, "expected a decimal >= 0");
  return text;
}

/** Reads `publicMeta` (absent: all defaults). */
export function readPublicMeta(v: YamlValue | undefined, file: string, now: Date): PublicMeta {
  const map = v === undefined ? {} : readMap(v, file, "publicMeta");
  checkKeys(map, KEYS, file, "publicMeta");
  const text = (k: "chainId" | "sender", fallback: string) => {
    const value = member(map, k);
    return value === undefined ? fallback : readText(value, file, `publicMeta.${k}`);
  };
  // Values no node accepts are refused here, where the file and field can be named.
  const int = (k: "gasLimit" | "ttl" | "creationTime", fallback: number, min: number) => {
    const value = member(map, k);
    if (value === undefined) return fallback;
    const n = readInt(value, file, `publicMeta.${k}`);
    if (n < min) {
      throw cliError("CLI_BAD_FIELD", file, `publicMeta.${k}`, `expected an integer >= ${min}`);
    }
    return n;
  };
  return {
    chainId: text("chainId", META_DEFAULTS.chainId),
    sender: text("sender", META_DEFAULTS.sender),
    gasLimit: int("gasLimit", META_DEFAULTS.gasLimit, 1),
    gasPrice: readGasPrice(member(map, "gasPrice"), file),
    ttl: int("ttl", META_DEFAULTS.ttl, 1),
    creationTime: int("creationTime", Math.floor(now.getTime() / 1000), 0),
  };
}
