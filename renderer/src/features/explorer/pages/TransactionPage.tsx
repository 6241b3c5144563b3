/**
 * One transaction (`#/explorer/tx/<requestKey>`). Its command and result arrive later.
 * @module
 */
import { getRouteApi } from "@tanstack/react-router";
import { ComingSoon } from "../../../ui/ComingSoon.tsx";
import { LongValue } from "../../../ui/LongValue.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { PageTitle } from "../../../ui/PageTitle.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { requestKeyProblem } from "../model.ts";

const route = getRouteApi("/explorer/tx/$requestKey");

export function TransactionPage() {
  const { requestKey } = route.useParams();
  const problem = requestKeyProblem(requestKey);
  return (
    <>
      <PageTitle>Transaction</PageTitle>
      <p className="lead">A command sent to a chain, identified by its request key.</p>
      {problem === null ? null : (
        <Notice tone="error">
          <p>{problem}</p>
        </Notice>
      )}
      <Panel id="tx" title="This transaction">
        <dl className="facts">
          <dt>Request key</dt>
          <dd>
            <LongValue value={requestKey} what="request key" testId="request-key" />
          </dd>
        </dl>
      </Panel>
      <ComingSoon>
        The command, its signers, the block that holds it and its result will be shown here.
      </ComingSoon>
    </>
  );
}
