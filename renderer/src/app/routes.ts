/**
 * The app's addresses, a contract: other pages, the docs and the tests link to them. The
 * router (router.tsx) is built from these patterns; `href` builds the hash address of a
 * route with its parameters (for links outside the router and for tests).
 * @module
 */

export const routePaths = {
  node: "/node",
  wallet: "/wallet",
  walletAccount: "/wallet/account/$name",
  /** Finishing a cross-chain transfer whose second step is missing (`-`: no key yet). */
  walletFinish: "/wallet/finish/$requestKey",
  walletSend: "/wallet/send",
  /** Signing a transaction prepared elsewhere (docs/wallet.md "Sign what others prepared"). */
  walletSign: "/wallet/sign",
  /** Dapps' signing requests waiting for the user (docs/dapp-signing.md). */
  walletDapp: "/wallet/dapp",
  /** Multi-signature accounts: create, balances, transfers signed here and passed on. */
  walletMultisig: "/wallet/multisig",
  /** The wallet's own transactions, newest first; Export CSV. */
  walletHistory: "/wallet/history",
  backup: "/backup",
  explorer: "/explorer",
  explorerChain: "/explorer/chain/$chain",
  explorerBlock: "/explorer/chain/$chain/block/$hash",
  explorerTx: "/explorer/tx/$requestKey",
  explorerAccount: "/explorer/account/$name",
  explorerModule: "/explorer/module/$name",
  explorerSearch: "/explorer/search/$query",
} as const;

export type RouteName = keyof typeof routePaths;

/** The main navigation, in order. */
export const navPages = [
  { label: "Wallet", to: routePaths.wallet },
  { label: "Explorer", to: routePaths.explorer },
  { label: "Backup", to: routePaths.backup },
  { label: "Node", to: routePaths.node },
] as const;

/** Where `#/` and an empty hash lead (the Node page until the wallet exists). */
export const homePath = routePaths.node;

type ParamsOf<P extends string> = P extends `${string}$${infer Name}/${infer Rest}`
  ? { readonly [K in Name]: string } & ParamsOf<`/${Rest}`>
  : P extends `${string}$${infer Name}`
    ? { readonly [K in Name]: string }
    : Record<never, never>;

export type RouteParams<R extends RouteName> = ParamsOf<(typeof routePaths)[R]>;

/** `href("explorerBlock", {chain: "3", hash})` → `#/explorer/chain/3/block/<hash>`. */
export function href<R extends RouteName>(route: R, params: RouteParams<R>): string {
  const values = params as Record<string, string>;
  const path = routePaths[route].replace(/\$([A-Za-z]+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value === "") throw new Error(`href(${route}): no ${name}`);
    return encodeURIComponent(value);
  });
  return `#${path}`;
}
