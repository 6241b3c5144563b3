/**
 * The explorer's home (`#/explorer`, h1 "Braid"): the braid of all chains, live, and each
 * chain's latest block.
 * @module
 */
import { Braid } from "../components/Braid.tsx";
import { ExplorerFrame } from "../components/ExplorerFrame.tsx";
import { LiveChains } from "../components/LiveChains.tsx";

export function ExplorerPage() {
  return (
    <ExplorerFrame
      title="Braid"
      lead="Every chain of this node's network side by side, with the links between their blocks. Open a block, a chain, or search for a transaction, account or module."
    >
      <Braid />
      <LiveChains />
    </ExplorerFrame>
  );
}
