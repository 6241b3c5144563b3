/**
 * The typed router (TanStack Router) over hash history: every page lives on the one
 * document the node serves at /app/, so reloading any address works without server
 * fallbacks, and back/forward move between pages. Paths come from routes.ts (a contract);
 * an unknown address gets the not-found page inside the frame.
 * @module
 */
import {
  createHashHistory,
  createRootRoute,
  createRoute,
  createRouter,
  type RouterHistory,
  redirect,
} from "@tanstack/react-router";
import type { ReactNode } from "react";
import { BackupPage } from "../features/backup/pages/BackupPage.tsx";
import { AccountPage } from "../features/explorer/pages/AccountPage.tsx";
import { BlockPage } from "../features/explorer/pages/BlockPage.tsx";
import { ChainPage } from "../features/explorer/pages/ChainPage.tsx";
import { ExplorerPage } from "../features/explorer/pages/ExplorerPage.tsx";
import { ModulePage } from "../features/explorer/pages/ModulePage.tsx";
import { SearchPage } from "../features/explorer/pages/SearchPage.tsx";
import { TransactionPage } from "../features/explorer/pages/TransactionPage.tsx";
import { NodePage } from "../features/node/pages/NodePage.tsx";
import { WalletAccountPage } from "../features/wallet/accounts/WalletAccountPage.tsx";
import { FinishPage } from "../features/wallet/crosschain/FinishPage.tsx";
import { DappSignPage } from "../features/wallet/dapp/DappSignPage.tsx";
import { HistoryPage } from "../features/wallet/history/HistoryPage.tsx";
import { MultisigPage } from "../features/wallet/multisig/MultisigPage.tsx";
import { WalletPage } from "../features/wallet/pages/WalletPage.tsx";
import { SignPage } from "../features/wallet/sign/SignPage.tsx";
import { SendPage } from "../features/wallet/transfer/SendPage.tsx";
import { useWalletAccountList } from "../features/wallet/vault/useVault.ts";
import { AppShell } from "./AppShell.tsx";
import { NotFoundPage } from "./NotFoundPage.tsx";
import { homePath, routePaths } from "./routes.ts";

const rootRoute = createRootRoute({ component: AppShell, notFoundComponent: NotFoundPage });

const page = <P extends string>(path: P, component: () => ReactNode) =>
  createRoute({ getParentRoute: () => rootRoute, path, component });

/** The Node page with the wallet's accounts, which its miner can pay (features stay apart). */
function NodeRoute() {
  return <NodePage walletAccounts={useWalletAccountList()} />;
}

const routeTree = rootRoute.addChildren([
  createRoute({
    getParentRoute: () => rootRoute,
    path: "/",
    beforeLoad: () => {
      throw redirect({ to: homePath, replace: true });
    },
  }),
  page(routePaths.node, NodeRoute),
  page(routePaths.wallet, WalletPage),
  page(routePaths.walletAccount, WalletAccountPage),
  createRoute({
    getParentRoute: () => rootRoute,
    path: routePaths.walletSend,
    component: SendPage,
    // `?from=<account>`: the account to send from (an account page's "Send" names its own).
    validateSearch: (search: Record<string, unknown>): { from?: string } =>
      typeof search.from === "string" && search.from !== "" ? { from: search.from } : {},
  }),
  page(routePaths.walletSign, SignPage),
  page(routePaths.walletDapp, DappSignPage),
  page(routePaths.walletFinish, FinishPage),
  page(routePaths.walletMultisig, MultisigPage),
  page(routePaths.walletHistory, HistoryPage),
  page(routePaths.backup, BackupPage),
  page(routePaths.explorer, ExplorerPage),
  page(routePaths.explorerChain, ChainPage),
  page(routePaths.explorerBlock, BlockPage),
  page(routePaths.explorerTx, TransactionPage),
  page(routePaths.explorerAccount, AccountPage),
  page(routePaths.explorerModule, ModulePage),
  page(routePaths.explorerSearch, SearchPage),
]);

export function createAppRouter(history: RouterHistory = createHashHistory()) {
  return createRouter({ routeTree, history });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module "@tanstack/react-router" {
  interface Register {
    router: AppRouter;
  }
}
