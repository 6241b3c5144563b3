/**
 * One chain (`#/explorer/chain/<c>`, h1 "Chain N"): its latest block, live, and its best
 * branch's blocks, newest first, a page at a time. The first page follows the live head;
 * older pages stay on the branch they were opened from.
 * @module
 */
import { useQuery } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import { clientErrorOf } from "../../../api/clientFailure.ts";
import { formatInteger } from "../../../format/number.ts";
import { useLiveChain, useServices } from "../../../services/services.tsx";
import { Button } from "../../../ui/Button.tsx";
import { DataTable } from "../../../ui/DataTable.tsx";
import { DateTime } from "../../../ui/DateTime.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { ErrorNotice } from "../../../ui/ErrorNotice.tsx";
import { LongValue } from "../../../ui/LongValue.tsx";
import { PageTitle } from "../../../ui/PageTitle.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { CHAIN_PAGE_SIZE, chainBlocksQuery } from "../api.ts";
import { ExplorerFrame } from "../components/ExplorerFrame.tsx";
import { AccountLink } from "../components/TxParts.tsx";
import { useChainParam } from "../hooks/useChainParam.ts";
import { usePageCursors } from "../hooks/usePageCursors.ts";
import type { FullBlock } from "../wire/blocks.ts";

const route = getRouteApi("/explorer/chain/$chain");

type Cursor = { readonly upper: string; readonly next: string };

function parseCursor(x: unknown): Cursor | null {
  if (typeof x !== "object" || x === null) return null;
  const { upper, next } = x as Record<string, unknown>;
  return typeof upper === "string" && typeof next === "string" ? { upper, next } : null;
}

function ChainBlocks({ chainId }: { readonly chainId: number }) {
  const { client } = useServices();
  const { heights } = useLiveChain();
  const head = heights.heads.find((h) => h.chainId === chainId)?.hash;
  // Cursors of the pages after the first, from the address; empty: the first (live) page.
  const { cursors, older, newer } = usePageCursors(parseCursor);
  const from = cursors.at(-1) ?? null;
  const page = useQuery(chainBlocksQuery(client, chainId, from, head));
  const pageNo = cursors.length + 1;
  const data = page.data;
  return (
    <Panel
      id="chain-blocks"
      title={pageNo === 1 ? "Newest blocks" : `Blocks, page ${pageNo}`}
      actions={
        <>
          <Button size="sm" isDisabled={cursors.length === 0} onPress={newer}>
            Newer
          </Button>
          <Button
            size="sm"
            isDisabled={data?.next == null}
            onPress={() => {
              if (data?.next != null) older({ upper: data.upper, next: data.next });
            }}
          >
            Older
          </Button>
        </>
      }
    >
      {page.isError && data === undefined ? (
        <ErrorNotice
          error={clientErrorOf(page.error)}
          what="the chain's blocks"
          onRetry={() => void page.refetch()}
        />
      ) : data === undefined ? (
        <p className="state">Loading the chain's blocks…</p>
      ) : data === null || data.blocks.length === 0 ? (
        <p>No blocks yet.</p>
      ) : (
        <DataTable<FullBlock>
          id="chain-blocks-table"
          caption={`Chain ${chainId}: ${data.blocks.length} blocks, newest first (${CHAIN_PAGE_SIZE} a page)`}
          rows={data.blocks}
          rowKey={(b) => b.header.hash}
          columns={[
            { header: "Height", numeric: true, cell: (b) => formatInteger(b.header.height) },
            {
              header: "Block",
              cell: (b) => (
                <Link
                  to="/explorer/chain/$chain/block/$hash"
                  params={{ chain: String(chainId), hash: b.header.hash }}
                >
                  <LongValue value={b.header.hash} what="block hash" short copy={false} />
                </Link>
              ),
            },
            {
              header: "Created",
              cell: (b) => <DateTime ms={Math.floor(b.header.creationTime / 1000)} />,
            },
            {
              header: "Transactions",
              numeric: true,
              cell: (b) => formatInteger(b.transactions.length),
            },
            {
              header: "Miner",
              cell: (b) =>
                b.miner === null ? "none" : <AccountLink name={b.miner.account} short />,
            },
          ]}
          fold
        />
      )}
    </Panel>
  );
}

export function ChainPage() {
  const { chain } = route.useParams();
  const parsed = useChainParam(chain);
  const { heights } = useLiveChain();
  if (!parsed.ok) {
    return (
      <>
        <PageTitle>No such chain</PageTitle>
        <ErrorMessage error={parsed.error} />
        <p>
          <Link to="/explorer">Back to the braid</Link>
        </p>
      </>
    );
  }
  const head = heights.heads.find((h) => h.chainId === parsed.value);
  return (
    <ExplorerFrame
      title={`Chain ${parsed.value}`}
      lead="One of the network's parallel chains. Its blocks also reference blocks of its adjacent chains."
    >
      <Panel id="chain-head" title="Latest block">
        {head === undefined ? (
          <p className="state">Loading…</p>
        ) : (
          <dl className="facts">
            <dt>Chain</dt>
            <dd data-testid="chain-id">{parsed.value}</dd>
            <dt>Height</dt>
            <dd data-testid="chain-height">{formatInteger(head.height)}</dd>
            <dt>Hash</dt>
            <dd>
              <Link
                to="/explorer/chain/$chain/block/$hash"
                params={{ chain: String(parsed.value), hash: head.hash }}
              >
                <LongValue value={head.hash} what="block hash" copy={false} short />
              </Link>
            </dd>
          </dl>
        )}
      </Panel>
      <ChainBlocks key={parsed.value} chainId={parsed.value} />
    </ExplorerFrame>
  );
}
