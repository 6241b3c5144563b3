/**
 * The wallet's unlock (issue 17 "Figures"): scrypt with the keystore's default parameters
 * (N = 2^16, r = 8, p = 1), XChaCha20-Poly1305 opening and the re-derivation of 20 phrase
 * keys, through the vault's own code (VaultCore, what the worker runs). The target is
 * 0.3–1 s on this machine (docs/wallet.md "KDF parameters"); the browser's V8 runs the same
 * JavaScript. `unlock_cpu_ms` is the CPU time of the same unlock: on a machine shared with
 * other work the wall time grows, the CPU time much less. Also: creating a wallet, and one
 * signature.
 *
 * Env: WEFT_BENCH_ROUNDS (unlocks to average, default 5).
 */

import { VaultCore } from "../../renderer/src/features/wallet/vault/vaultCore.ts";
import { commandModel } from "../../src-node/command/commandModel.ts";
import { TEST_PHRASE } from "../support/keystoreFixture.ts";

const rounds = Math.max(1, Number(process.env.WEFT_BENCH_ROUNDS ?? 5));

function report(metric: string, value: number, unit: string): void {
  console.log(
    `BENCH wallet ${metric}=${Math.round(value * 10) / 10}${unit === "" ? "" : ` ${unit}`}`,
  );
}

/** CPU time of this process (user + system), ms: less sensitive than wall time to a busy machine. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

const vault = new VaultCore();
let t = performance.now();
let file = vault.handle({
  op: "create",
  password: "bench password",
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
  vault.handle({ op: "unlock", keystore: file, password: "bench password" });
  cpu += cpuMs() - c;
  total += performance.now() - t;
  vault.lock();
}
report("unlock_ms", total / rounds, "ms");
report("unlock_cpu_ms", cpu / rounds, "ms");
report("kdf_log2_n", Math.log2(file.kdf.N), "");

vault.handle({ op: "unlock", keystore: file, password: "bench password" });
const requestKey = commandModel.requestKeyOf('{"bench":1}');
const signs = 200;
t = performance.now();
for (let i = 0; i < signs; i++) vault.handle({ op: "sign", keyId: "p-0", requestKey });
report("sign_us", ((performance.now() - t) / signs) * 1000, "us");
vault.lock();
