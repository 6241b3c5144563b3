/**
 * The explorer's start (`#/explorer`), which will draw the braid of all chains. For now:
 * the latest block of each chain and a lookup by account, request key or module.
 * @module
 */
import { ComingSoon } from "../../../ui/ComingSoon.tsx";
import { PageTitle } from "../../../ui/PageTitle.tsx";
import { LiveChains } from "../components/LiveChains.tsx";
import { Lookup } from "../components/Lookup.tsx";

export function ExplorerPage() {
  return (
    <>
      <PageTitle>Explorer</PageTitle>
      <p className="lead">Browse the blocks, transactions and results of this node's chains.</p>
      <ComingSoon>
        The braid (every chain's blocks side by side, with the links between them) will be drawn
        here. Until then, open a chain or a block below.
      </ComingSoon>
      <div className="grid">
        <LiveChains />
        <Lookup />
      </div>
    </>
  );
}
