/**
 * Search results (`#/explorer/search/<text>`): what the index found for the text, each a
 * link; one exact transaction, block, account or module opens at once (replacing this
 * address, so Back returns to where the search started). Nothing found says what was
 * searched for.
 * @module
 */
import { useQuery } from "@tanstack/react-query";
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import { useEffect } from "react";
import { clientErrorOf } from "../../../api/clientFailure.ts";
import { formatInteger, shortHash } from "../../../format/number.ts";
import { useServices } from "../../../services/services.tsx";
import { ErrorNotice } from "../../../ui/ErrorNotice.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { searchQuery } from "../api.ts";
import { ExplorerFrame } from "../components/ExplorerFrame.tsx";
import { singleTarget } from "../model.ts";
import type { SearchResult } from "../wire/index.ts";

const route = getRouteApi("/explorer/search/$query");

function ResultItem({ r }: { readonly r: SearchResult }) {
  switch (r.kind) {
    case "transaction":
      return (
        <li>
          Transaction{" "}
          <Link to="/explorer/tx/$requestKey" params={{ requestKey: r.requestKey }}>
            <code>{r.requestKey}</code>
          </Link>{" "}
          on chain {r.chain}, {r.status}
          {r.height === null ? "" : ` at height ${formatInteger(r.height)}`}
        </li>
      );
    case "block":
      return (
        <li>
          Block{" "}
          <Link
            to="/explorer/chain/$chain/block/$hash"
            params={{ chain: String(r.block.chain), hash: r.block.hash }}
          >
            <code>{r.block.hash}</code>
          </Link>{" "}
          on chain {r.block.chain}, height {formatInteger(r.block.height)}
          {r.block.orphaned ? " (orphaned)" : ""}
        </li>
      );
    case "height":
      return (
        <li>
          Height {formatInteger(r.height)} on {r.blocks.length} chain
          {r.blocks.length === 1 ? "" : "s"}:
          <ul className="inline-list">
            {r.blocks.map((b) => (
              <li key={b.hash}>
                <Link
                  to="/explorer/chain/$chain/block/$hash"
                  params={{ chain: String(b.chain), hash: b.hash }}
                >
                  Chain {b.chain}: <code>{shortHash(b.hash, 6)}</code>
                </Link>
              </li>
            ))}
          </ul>
        </li>
      );
    case "account":
      return (
        <li>
          Account{" "}
          <Link to="/explorer/account/$name" params={{ name: r.account }}>
            <code>{r.account}</code>
          </Link>{" "}
          on chain{r.chains.length === 1 ? "" : "s"} {r.chains.join(", ")}
        </li>
      );
    case "module":
      return (
        <li>
          Module{" "}
          <Link to="/explorer/module/$name" params={{ name: r.name }}>
            <code>{r.name}</code>
          </Link>{" "}
          on chain{r.chains.length === 1 ? "" : "s"} {r.chains.join(", ")}
        </li>
      );
    default: {
      const never: never = r;
      return never;
    }
  }
}

export function SearchPage() {
  const { query } = route.useParams();
  const { client } = useServices();
  const navigate = useNavigate();
  const q = useQuery(searchQuery(client, query.trim()));
  const target = q.data === undefined ? null : singleTarget(q.data);

  useEffect(() => {
    const only = q.data === undefined ? null : singleTarget(q.data);
    if (only !== null) void navigate({ ...only, replace: true });
  }, [q.data, navigate]);

  return (
    <ExplorerFrame
      title="Search"
      lead={
        <>
          What this node knows by the name <q>{query}</q>.
        </>
      }
      query={query}
    >
      {q.isError ? (
        <ErrorNotice
          error={clientErrorOf(q.error)}
          what="the search results"
          onRetry={() => void q.refetch()}
        />
      ) : q.data === undefined || target !== null ? (
        <p className="state">Searching for “{query}”…</p>
      ) : q.data.results.length === 0 ? (
        <Notice tone="info" testId="nothing-found">
          <p>
            Nothing found for “{q.data.query}”. Search takes a request key or block hash (43
            characters), a block height, an account name or a module name.
          </p>
        </Notice>
      ) : (
        <Panel
          id="results"
          title={`${q.data.results.length} result${q.data.results.length === 1 ? "" : "s"} for “${q.data.query}”`}
        >
          <ul className="results" data-testid="search-results">
            {q.data.results.map((r, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: results are a fixed list in the index's order
              <ResultItem key={i} r={r} />
            ))}
          </ul>
        </Panel>
      )}
    </ExplorerFrame>
  );
}
