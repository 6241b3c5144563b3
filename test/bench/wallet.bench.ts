/**
 * The wallet's figures (issue 17 "Figures"), all as `BENCH wallet …`:
 * - `unlock_ms`, `unlock_cpu_ms`: unlocking with the keystore's default scrypt parameters
 *   (N = 2^16, r = 8, p = 1), XChaCha20-Poly1305 opening and the re-derivation of 20 phrase
 *   keys, through the vault's own code (VaultCore, what the worker runs), mean of
 *   WEFT_BENCH_ROUNDS (default 5). The target is 0.3–1 s on this machine (docs/wallet.md "KDF
 *   parameters"); `unlock_cpu_ms` is the CPU time of the same unlock, which a machine shared
 *   with other work changes much less than the wall time. Also `create_ms`, `kdf_log2_n`,
 *   `sign_us`.
 * - `balances_ms`: the wallet home's balance refresh against a local node (development: 20
 *   chains), 10 accounts on every chain as the wallet reads them (one batched `/local` per
 *   chain, all chains at once, the renderer's own client and parser over HTTP on loopback),
 *   median of WEFT_BENCH_ROUNDS rounds (default 20) after one warm-up;
 *   `balances_per_chain_ms`: the same one chain at a time, per chain (a baseline).
 * - `first_paint_after_unlock_ms`: the wallet page in headless Chromium (the built UI; built
 *   first when its inputs changed) from pressing Unlock to the painted frame showing the
 *   wallet home, the in-browser unlock included; `balances_painted_ms`: to the frame with
 *   every balance of its 10 accounts on the 20 chains. Median of WEFT_BENCH_ROUNDS cold page
 *   loads (default 5). test/bench/support/walletPaint.ts says how frames are timed.
 * Indicative only on a shared machine.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runStep } from "../../build/buildSteps.ts";
import { createNodeClient } from "../../renderer/src/api/nodeClient.ts";
import { createPactClient } from "../../renderer/src/api/pactClient.ts";
import { readAccounts } from "../../renderer/src/features/wallet/accounts/readAccounts.ts";
import { VaultCore } from "../../renderer/src/features/wallet/vault/vaultCore.ts";
import { commandModel } from "../../src-node/command/commandModel.ts";
import { DEV_PHRASE, PHRASE_PUBLIC_KEYS } from "../../src-node/genesis/devAccounts.ts";
import { createNode } from "../../src-node/node.ts";
import { TEST_PHRASE } from "../support/keystoreFixture.ts";
import { measureWalletPaint } from "./support/walletPaint.ts";

const roundsOr = (fallback: number) =>
  Math.max(1, Number(process.env.WEFT_BENCH_ROUNDS ?? fallback));
const repo = join(import.meta.dirname, "..", "..");
const PASSWORD = "bench password";

function report(metric: string, value: number, unit: string): void {
  console.log(
    `BENCH wallet ${metric}=${Math.round(value * 10) / 10}${unit === "" ? "" : ` ${unit}`}`,
  );
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

/** CPU time of this process (user + system), ms: less sensitive than wall time to a busy machine. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

// --- Unlock, create, sign: the vault's code in this process.
{
  const rounds = roundsOr(5);
  const vault = new VaultCore();
  let t = performance.now();
  let file = vault.handle({
    op: "create",
    password: PASSWORD,
    phrase: TEST_PHRASE,
    idleLockMinutes: 10,
  }).keystore;
  report("create_ms", performance.now() - t, "ms");
  file = vault.handle({
    op: "addPhraseKeys",
    keystore: file,
    indices: Array.from({ length: 19 }, (_, i) => i + 1),
  }).keystore;
  vault.lock();

  let total = 0;
  let cpu = 0;
  for (let i = 0; i < rounds; i++) {
    t = performance.now();
    const c = cpuMs();
    vault.handle({ op: "unlock", keystore: file, password: PASSWORD });
    cpu += cpuMs() - c;
    total += performance.now() - t;
    vault.lock();
  }
  report("unlock_ms", total / rounds, "ms");
  report("unlock_cpu_ms", cpu / rounds, "ms");
  report("kdf_log2_n", Math.log2(file.kdf.N), "");

  vault.handle({ op: "unlock", keystore: file, password: PASSWORD });
  const requestKey = commandModel.requestKeyOf('{"bench":1}');
  const signs = 200;
  t = performance.now();
  for (let i = 0; i < signs; i++) vault.handle({ op: "sign", keyId: "p-0", requestKey });
  report("sign_us", ((performance.now() - t) / signs) * 1000, "us");
  vault.lock();
}

// --- Balances and the page's paint: one development node, its wallet holding the ten funded
// accounts of the published test phrase (docs/dev-accounts.md).
const root = mkdtempSync(join(tmpdir(), "weft-bench-wallet-"));
const dataDir = join(root, "data");
{
  const vault = new VaultCore();
  const created = vault.handle({
    op: "create",
    password: PASSWORD,
    phrase: DEV_PHRASE,
    idleLockMinutes: 10,
  }).keystore;
  const keystore = vault.handle({
    op: "addPhraseKeys",
    keystore: created,
    indices: Array.from({ length: PHRASE_PUBLIC_KEYS.length - 1 }, (_, i) => i + 1),
  }).keystore;
  vault.lock();
  // Where the node keeps it (wallet/keystore.json, 0600), before the node starts.
  const walletDir = join(dataDir, "development", "wallet");
  mkdirSync(walletDir, { recursive: true, mode: 0o700 });
  writeFileSync(join(walletDir, "keystore.json"), JSON.stringify(keystore), { mode: 0o600 });
}
const built = await runStep(repo, "renderer", false);
if (!built.skipped) console.error(`renderer: ${built.note}`);
const node = await createNode({
  network: "development",
  dataDir,
  host: "127.0.0.1",
  port: 0,
  rendererDir: join(repo, "dist", "renderer"),
});
try {
  await node.start();
  const base = new URL(node.baseUrl);
  const pact = createPactClient(
    createNodeClient({
      origin: base.origin,
      basePath: base.pathname,
      fetch: (url, init) => fetch(url, init),
      timeoutMs: 30_000,
    }),
  );
  const accounts = PHRASE_PUBLIC_KEYS.map((k) => `k:${k}`);
  const chains = [...node.blocks.cut().keys()].sort((a, b) => a - b);
  if (chains.length !== 20) throw new Error(`expected 20 chains, got ${chains.length}`);
  if (accounts.length !== 10) throw new Error(`expected 10 accounts, got ${accounts.length}`);

  const rounds = roundsOr(20);
  const all = async () => {
    const reads = await Promise.all(
      chains.map((c) => readAccounts(pact, node.version.name, c, accounts)),
    );
    for (const r of reads) {
      if (r.length !== accounts.length || !r.every((a) => a.exists)) throw new Error("bad read");
    }
  };
  await all();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    await all();
    times.push(performance.now() - t0);
  }
  report("balances_ms", median(times), "ms");
  const serial: number[] = [];
  for (let i = 0; i < Math.min(rounds, 5); i++) {
    for (const c of chains) {
      const t0 = performance.now();
      await readAccounts(pact, node.version.name, c, accounts);
      serial.push(performance.now() - t0);
    }
  }
  report("balances_per_chain_ms", median(serial), "ms");

  const paints = await measureWalletPaint(node, PASSWORD, accounts, chains, roundsOr(5));
  report("first_paint_after_unlock_ms", median(paints.map((p) => p.home)), "ms");
  report("balances_painted_ms", median(paints.map((p) => p.balances)), "ms");
} finally {
  await node.close();
  rmSync(root, { recursive: true, force: true });
}
