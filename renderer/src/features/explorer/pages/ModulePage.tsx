/**
 * One contract module or interface (`#/explorer/module/<name>`) from the explorer index:
 * on which chains it is deployed, its hash and the interfaces it implements on each, the
 * transaction that deployed it, and its code (once when every chain has the same version).
 * @module
 */
import { useQuery } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import { formatInteger } from "../../../format/number.ts";
import { useServices } from "../../../services/services.tsx";
import { DataTable } from "../../../ui/DataTable.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { LongValue } from "../../../ui/LongValue.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { moduleQuery } from "../api.ts";
import { ExplorerFrame } from "../components/ExplorerFrame.tsx";
import { QueryState } from "../components/Loading.tsx";
import { moduleNameProblem } from "../model.ts";
import type { ModuleAnswer, ModuleOnChain } from "../wire/index.ts";

const route = getRouteApi("/explorer/module/$name");

function ModuleView({ m }: { readonly m: ModuleAnswer }) {
  const versions = [...new Set(m.chains.map((c) => c.hash))];
  return (
    <>
      <Panel
        id="module-chains"
        title={`Deployed on ${m.chains.length} chain${m.chains.length === 1 ? "" : "s"}`}
      >
        <DataTable<ModuleOnChain>
          id="module-table"
          caption={`${m.name} on each chain`}
          rows={m.chains}
          rowKey={(c) => String(c.chain)}
          columns={[
            {
              header: "Chain",
              cell: (c) => (
                <Link to="/explorer/chain/$chain" params={{ chain: String(c.chain) }}>
                  Chain {c.chain}
                </Link>
              ),
            },
            { header: "Kind", cell: (c) => c.kind },
            { header: "Hash", cell: (c) => <LongValue value={c.hash} what="module hash" short /> },
            {
              header: "Interfaces",
              cell: (c) => (c.interfaces.length === 0 ? "none" : c.interfaces.join(", ")),
            },
            {
              header: "Deployed in",
              cell: (c) =>
                c.deployedIn === null ? (
                  "not indexed"
                ) : (
                  <Link
                    to="/explorer/tx/$requestKey"
                    params={{ requestKey: c.deployedIn.requestKey }}
                  >
                    height {formatInteger(c.deployedIn.height)}
                  </Link>
                ),
            },
          ]}
          fold
        />
      </Panel>
      {versions.length === 1 && m.chains[0] !== undefined ? (
        <Panel id="module-code" title="Code">
          <pre className="code code-block" data-testid="module-code">
            {m.chains[0].code}
          </pre>
        </Panel>
      ) : (
        m.chains.map((c) => (
          <Panel key={c.chain} id={`module-code-${c.chain}`} title={`Code on chain ${c.chain}`}>
            <pre className="code code-block">{c.code}</pre>
          </Panel>
        ))
      )}
    </>
  );
}

export function ModulePage() {
  const { name } = route.useParams();
  const problem = moduleNameProblem(name);
  const { client } = useServices();
  const q = useQuery({ ...moduleQuery(client, name), enabled: problem === null });
  return (
    <ExplorerFrame title="Module" lead="A contract module or interface deployed on the chains.">
      <Panel id="module" title="This module">
        <dl className="facts">
          <dt>Name</dt>
          <dd>
            <LongValue value={name} what="module name" testId="module-name" />
          </dd>
        </dl>
      </Panel>
      {problem === null ? (
        <QueryState
          query={q}
          what="the module"
          notFound={
            <p>
              No chain has a module named <code>{name}</code> (not found).
            </p>
          }
        >
          {(m) => <ModuleView m={m} />}
        </QueryState>
      ) : (
        <ErrorMessage error={problem} />
      )}
    </ExplorerFrame>
  );
}
