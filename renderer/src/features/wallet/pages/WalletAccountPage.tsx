/**
 * One of the wallet's accounts (`#/wallet/account/<name>`): its name and kind for now.
 * @module
 */
import { getRouteApi, Link } from "@tanstack/react-router";
import { accountNameProblem } from "../../../format/accountName.ts";
import { ComingSoon } from "../../../ui/ComingSoon.tsx";
import { LongValue } from "../../../ui/LongValue.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { PageTitle } from "../../../ui/PageTitle.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { accountKind, describeAccountKind } from "../model.ts";

const route = getRouteApi("/wallet/account/$name");

export function WalletAccountPage() {
  const { name } = route.useParams();
  const problem = accountNameProblem(name);
  return (
    <>
      <PageTitle>Wallet account</PageTitle>
      <p className="lead">One of your accounts: its balance on each chain and its transfers.</p>
      {problem === null ? null : (
        <Notice tone="error">
          <p>{problem}</p>
        </Notice>
      )}
      <Panel id="wallet-account" title="This account">
        <dl className="facts">
          <dt>Name</dt>
          <dd>
            <LongValue value={name} what="account name" testId="account-name" />
          </dd>
          <dt>Kind</dt>
          <dd data-testid="account-kind">{describeAccountKind(accountKind(name))}</dd>
        </dl>
        <p>
          <Link to="/explorer/account/$name" params={{ name }}>
            See this account in the explorer
          </Link>
        </p>
      </Panel>
      <ComingSoon>
        Balances, sending and receiving will be here once the wallet holds your keys.
      </ComingSoon>
    </>
  );
}
