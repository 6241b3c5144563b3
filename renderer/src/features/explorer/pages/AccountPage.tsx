/**
 * One account as the chains see it (`#/explorer/account/<name>`). Balances arrive later.
 * @module
 */
import { getRouteApi } from "@tanstack/react-router";
import { accountNameProblem } from "../../../format/accountName.ts";
import { ComingSoon } from "../../../ui/ComingSoon.tsx";
import { LongValue } from "../../../ui/LongValue.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { PageTitle } from "../../../ui/PageTitle.tsx";
import { Panel } from "../../../ui/Panel.tsx";

const route = getRouteApi("/explorer/account/$name");

export function AccountPage() {
  const { name } = route.useParams();
  const problem = accountNameProblem(name);
  return (
    <>
      <PageTitle>Account</PageTitle>
      <p className="lead">An account of the coin contract, on any of the chains.</p>
      {problem === null ? null : (
        <Notice tone="error">
          <p>{problem}</p>
        </Notice>
      )}
      <Panel id="account" title="This account">
        <dl className="facts">
          <dt>Name</dt>
          <dd>
            <LongValue value={name} what="account name" testId="account-name" />
          </dd>
        </dl>
      </Panel>
      <ComingSoon>
        The account's balance and guard on each chain, and its transfers, will be shown here.
      </ComingSoon>
    </>
  );
}
