/**
 * The chain named by the address, checked against the chains the node has (known once the
 * live cut has loaded).
 * @module
 */
import type { Decoded } from "../../../api/decode.ts";
import { useLiveChain } from "../../../services/services.tsx";
import { parseChainParam } from "../model.ts";

export function useChainParam(text: string): Decoded<number> {
  const { heights } = useLiveChain();
  return parseChainParam(text, heights.loaded ? heights.heads.length : null);
}
