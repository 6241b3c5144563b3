/**
 * The execution entry point (execute.ts): exec and cont payloads in their own
 * storage transaction, results, events, defpact state and its JSON, gas,
 * logs, txIds, local mode, the namespace policy, cross-chain continuations
 * through an injected SPV verifier, and system code with granted capabilities.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { pactEventToJsonText, txWritesToJsonText } from "../../src-node/contract/commandJson.ts";
import { defaultChainData, type Signer } from "../../src-node/contract/eval/runtimeContext.ts";
import {
  type ContractCommand,
  type ContractOutcome,
  runContractCommand,
} from "../../src-node/contract/execute.ts";
import type { ContractStorage } from "../../src-node/contract/storage/contractStorage.ts";
import { createMemoryStorage } from "../../src-node/contract/storage/memoryStorage.ts";
import {
  type PactExec,
  pactExecFromJson,
  pactExecToJsonText,
} from "../../src-node/contract/storage/pactExec.ts";
import { valueEquals } from "../../src-node/contract/values/equality.ts";
import { pactValueFromJson, parseJsonExact } from "../../src-node/contract/values/json.ts";
import type { PactValue } from "../../src-node/contract/values/value.ts";

const fixtures = resolve(import.meta.dirname, "fixtures");
const fixture = (f: string) => readFileSync(join(fixtures, f), "utf8");

function data(json: string): PactValue {
  const j = parseJsonExact(json);
  if (j === null) throw new Error("bad test JSON");
  const r = pactValueFromJson(j);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

const keys = data(
  '{"admin":["admin-key"],"token-admin":["admin-key"],"alice":["alice-key"],"bob":["bob-key"]}',
);
const signer = (pubKey: string, caps: Signer["caps"] = []): Signer => ({
  pubKey,
  scheme: "ED25519",
  caps,
});

function run(
  storage: ContractStorage,
  part: Partial<ContractCommand> & { code?: string },
): ContractOutcome {
  const { code, ...rest } = part;
  return runContractCommand({
    payload: { kind: "exec", code: code ?? "1" },
    data: keys,
    signers: [signer("admin-key")],
    chainData: defaultChainData,
    txHash: "Mk3PAn3UowqTLEQfNlol6GsXPe-kuOWJSCU0cbgbcs8",
    gasLimit: 1_000_000,
    namespacePolicy: { kind: "simple" },
    storage,
    ...rest,
  });
}

function ok(o: ContractOutcome): PactValue {
  if (!o.result.ok) throw new Error(`expected success: ${o.result.error.message}`);
  return o.result.value;
}

/** The result equals the contract value written as Pact JSON (decimals compare by value). */
function expectResult(o: ContractOutcome, json: string): void {
  const v = ok(o);
  const want = data(json);
  expect(
    valueEquals(v, want),
    `${JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? `${x}` : x))} ≠ ${json}`,
  ).toBe(true);
}

function failure(o: ContractOutcome): string {
  if (o.result.ok) throw new Error("expected a failure");
  return o.result.error.message;
}

/** A storage with the test token installed in namespace `free`, alice holding 100. */
function tokenStorage(): ContractStorage {
  const storage = createMemoryStorage();
  ok(
    run(storage, {
      code: `(define-namespace "free" (read-keyset "admin") (read-keyset "admin"))
             (namespace "free")
             (define-keyset "free.token-admin" (read-keyset "token-admin"))
             ${fixture("fungible.pact")}
             ${fixture("token.pact")}`,
      file: "install",
    }),
  );
  ok(
    run(storage, {
      code: `(free.token.create-account "alice" (read-keyset "alice"))
             (free.token.create-account "bob" (read-keyset "bob"))
             (free.token.mint "alice" (read-keyset "alice") 100.0)`,
    }),
  );
  return storage;
}

describe("[contract] runContractCommand: exec", () => {
  it("commits a successful command: result, txId, logs", () => {
    const storage = createMemoryStorage();
    const o = run(storage, {
      code: '(define-namespace "ns" (read-keyset "admin") (read-keyset "admin")) (+ 1 2)',
    });
    expect(o.result).toEqual({ ok: true, value: { kind: "integer", value: 3n } });
    expect(o.txId).toBe(0);
    expect(o.logs.map((w) => [w.table, w.key])).toEqual([["SYS:namespaces", "ns"]]);
    expect(txWritesToJsonText(o.logs)).toContain('"table":"SYS:namespaces","key":"ns","value":{');
    expect(storage.readSys("namespaces", "ns")).not.toBeNull();
    expect(run(storage, { code: "(+ 1 1)" }).txId).toBe(1);
  });

  it("rolls back a failed command: no writes, events, logs or txId", () => {
    const storage = tokenStorage();
    const o = run(storage, {
      code: '(free.token.transfer "alice" "bob" 1.0)',
      signers: [
        signer("alice-key", [
          { name: "free.token.TRANSFER", args: [data('"alice"'), data('"bob"'), data("0.5")] },
        ]),
      ],
    });
    expect(failure(o)).toContain("TRANSFER exceeded for balance 0.5");
    expect([o.events, o.logs, o.txId, o.continuation]).toEqual([[], [], null, null]);
    expectResult(run(storage, { code: '(free.token.get-balance "alice")' }), "100.0");
  });

  it("reports events in order, in the command result's JSON shape", () => {
    const storage = tokenStorage();
    const o = run(storage, {
      code: '(free.token.transfer "alice" "bob" 4.0) (free.token.transfer "alice" "bob" 6.0)',
      signers: [
        signer("alice-key", [
          { name: "free.token.TRANSFER", args: [data('"alice"'), data('"bob"'), data("10.0")] },
        ]),
      ],
    });
    ok(o);
    const hash = storage.readSys("modules", "free.token")?.hash;
    expect(o.events.map(pactEventToJsonText)).toEqual([
      `{"params":["alice","bob",4],"name":"TRANSFER","module":{"namespace":"free","name":"token"},"moduleHash":"${hash}"}`,
      `{"params":["alice","bob",6],"name":"TRANSFER","module":{"namespace":"free","name":"token"},"moduleHash":"${hash}"}`,
    ]);
    expect(o.logs.map((w) => w.key)).toEqual(["alice", "bob", "alice", "bob"]);
  });

  it("charges table gas deterministically and fails past the limit", () => {
    const cmd = { code: '(free.token.get-balance "alice")' };
    const a = run(tokenStorage(), cmd);
    const b = run(tokenStorage(), cmd);
    expect(a.gasUsed).toBeGreaterThan(10);
    expect(a.gasUsed).toBe(b.gasUsed);
    expect(run(tokenStorage(), { ...cmd, initialGas: 50 }).gasUsed).toBe(a.gasUsed + 50);
    const out = run(tokenStorage(), { ...cmd, gasLimit: 5 });
    expect(out.result.ok).toBe(false);
    if (!out.result.ok) {
      expect(out.result.error.kind).toBe("GasError");
      expect(out.result.error.message).toMatch(/^Gas limit \(5\) exceeded: \d+$/);
    }
    expect(out.gasUsed).toBe(5);
  });

  it("local mode evaluates and discards; history natives only run there", () => {
    const storage = tokenStorage();
    const local = run(storage, {
      code: '(free.token.mint "bob" (read-keyset "bob") 1.0) (txids free.token.accounts 0)',
      mode: "local",
    });
    expect(ok(local).kind).toBe("list");
    expect([local.txId, local.logs]).toEqual([null, []]);
    expectResult(run(storage, { code: '(free.token.get-balance "bob")' }), "0.0");
    expect(failure(run(storage, { code: "(txids free.token.accounts 0)" }))).toContain(
      "Operation only permitted in local execution mode",
    );
    expect(failure(run(storage, { code: '(describe-module "free.token")' }))).toContain(
      "local execution mode",
    );
  });

  it("applies the namespace policy", () => {
    const policy = { kind: "smart", allowRoot: false, validator: "free.policy.ok" } as const;
    const storage = createMemoryStorage();
    ok(
      run(storage, {
        code: `(define-namespace "free" (read-keyset "admin") (read-keyset "admin"))
               (namespace "free")
               (define-keyset "free.gov" (read-keyset "admin"))
               (module policy "free.gov" (defun ok:bool (ns:string g:guard) (= ns "allowed")))`,
      }),
    );
    expect(
      failure(run(storage, { code: "(module m 'x (defun f () 1))", namespacePolicy: policy })),
    ).toBe("Definitions in default namespace are not authorized");
    expect(
      failure(
        run(storage, {
          code: '(define-namespace "other" (read-keyset "admin") (read-keyset "admin"))',
          namespacePolicy: policy,
        }),
      ),
    ).toBe("Namespace definition not permitted: other");
    ok(
      run(storage, {
        code: '(define-namespace "allowed" (read-keyset "admin") (read-keyset "admin"))',
        namespacePolicy: policy,
      }),
    );
  });

  it("runs system code with granted capabilities", () => {
    const storage = createMemoryStorage();
    ok(
      run(storage, {
        code: `(define-keyset 'x (read-keyset "admin"))
               (module sys 'x
                 (defcap GAS () (enforce false "granted by the node only"))
                 (defun buy-gas () (require-capability (GAS)) "bought"))`,
        execFlags: new Set(["DisablePact44"]),
      }),
    );
    expect(failure(run(storage, { code: "(sys.buy-gas)" }))).toBe(
      "require-capability: not granted: (sys.GAS)",
    );
    expectResult(
      run(storage, { code: "(sys.buy-gas)", grantedCaps: [{ name: "sys.GAS", args: [] }] }),
      '"bought"',
    );
  });

  it("acquires a gas payer's GAS_PAYER around the code (gas-payer-v1 modules only)", () => {
    const storage = createMemoryStorage();
    ok(
      run(storage, {
        code: `(define-keyset 'x (read-keyset "admin"))
               (interface gas-payer-v1
                 (defcap GAS_PAYER:bool (user:string limit:integer price:decimal))
                 (defun create-gas-payer-guard:guard ()))
               (module payer 'x
                 (implements gas-payer-v1)
                 (defcap GAS_PAYER:bool (user:string limit:integer price:decimal)
                   (enforce (= "exec" (at "tx-type" (read-msg))) "payer: exec only")
                   (enforce (= user "alice") "payer: alice only"))
                 (defun create-gas-payer-guard:guard () (create-capability-guard (GAS_PAYER "alice" 1 1.0)))
                 (defun paid () (require-capability (GAS_PAYER "alice" 1 1.0)) (read-msg "n")))
               (module other 'x
                 (defcap GAS_PAYER:bool (user:string limit:integer price:decimal) (enforce false "never"))
                 (defun paid () (require-capability (GAS_PAYER "alice" 1 1.0)) "never"))
               (module odd 'x
                 (implements gas-payer-v1)
                 (defcap GAS_PAYER:bool (user:string limit:integer price:decimal) true)
                 (defun create-gas-payer-guard:guard () (create-user-guard (odd.f)))
                 (defun f () true))`,
        execFlags: new Set(["DisablePact44"]),
      }),
    );
    const payerData = data('{"tx-type": "exec"}');
    const alice = [data('"alice"'), data('{"int": 1}'), data("1.0")];
    const paid = (name: string, args = alice, d = payerData) =>
      run(storage, {
        code: `(${name.split(".")[0]}.paid)`,
        data: data('{"n": "own data"}'),
        gasPayer: { cap: { name, args }, data: d },
      });
    // The defcap sees the payer's data; the code its own.
    expectResult(paid("payer.GAS_PAYER"), '"own data"');
    expect(
      failure(paid("payer.GAS_PAYER", [data('"bob"'), alice[1], alice[2]] as PactValue[])),
    ).toBe("payer: alice only");
    expect(failure(paid("payer.GAS_PAYER", alice, data('{"tx-type": "cont"}')))).toBe(
      "payer: exec only",
    );
    expect(failure(paid("payer.GAS_PAYER", [data('"alice"')]))).toContain("GAS_PAYER");
    // A module that does not implement gas-payer-v1 is ignored; so is a missing one.
    expect(failure(paid("other.GAS_PAYER"))).toBe(
      'require-capability: not granted: (other.GAS_PAYER "alice" 1 1.0)',
    );
    expect(failure(paid("nowhere.GAS_PAYER"))).toContain("nowhere");
    expect(failure(paid("odd.f"))).toBe("gas payer: odd.f is not a capability of odd");
  });
});

describe("[contract] runContractCommand: defpacts", () => {
  const sendCode = '(free.token.transfer-crosschain "alice" "bob" (read-keyset "bob") "1" 5.0)';
  const xchainSigner = signer("alice-key", [
    {
      name: "free.token.TRANSFER_XCHAIN",
      args: [data('"alice"'), data('"bob"'), data("5.0"), data('"1"')],
    },
  ]);
  const chain = (id: string) => ({ ...defaultChainData, chainId: id });
  const pactId = "DldRwCblQ7Loqy6wYJnaodHl30d3j3eH-qtFzfEv46g";

  function send(storage: ContractStorage): ContractOutcome {
    return run(storage, {
      code: sendCode,
      signers: [xchainSigner],
      chainData: chain("0"),
      txHash: pactId,
    });
  }

  it("starting a defpact returns its state; the PactExec JSON", () => {
    const o = send(tokenStorage());
    ok(o);
    const e = o.continuation as PactExec;
    const hash = e.yield?.provenance?.moduleHash;
    expect(pactExecToJsonText(e)).toBe(
      `{"executed":null,"pactId":"${pactId}","stepHasRollback":false,"step":0,"yield":{"data":{"amount":5,"receiver":"bob","source-chain":"0","receiver-guard":{"pred":"keys-all","keys":["bob-key"]}},"source":"0","provenance":{"targetChainId":"1","moduleHash":"${hash}"}},"continuation":{"args":["alice","bob",{"pred":"keys-all","keys":["bob-key"]},"1",5],"def":"free.token.transfer-crosschain"},"stepCount":2}`,
    );
    const back = parseJsonExact(pactExecToJsonText(e));
    const decoded = back === null ? null : pactExecFromJson(back);
    expect(decoded === null ? null : pactExecToJsonText(decoded)).toBe(pactExecToJsonText(e));
    expect(o.events.map((ev) => ev.name)).toEqual(["TRANSFER_XCHAIN", "TRANSFER", "X_YIELD"]);
  });

  it("continues a cross-chain defpact from a proof, once, on its target chain only", () => {
    const source = tokenStorage();
    const sent = send(source).continuation as PactExec;
    const spv = {
      verify: () => ({ ok: false, error: "unused" }) as const,
      verifyContinuation: (proof: string) =>
        proof === "good-proof"
          ? ({ ok: true, value: sent } as const)
          : ({ ok: false, error: "bad proof" } as const),
    };
    const target = tokenStorage();
    const cont = (chainId: string, proof: string | null) =>
      run(target, {
        payload: { kind: "cont", pactId, step: 1, rollback: false, proof },
        chainData: chain(chainId),
        spv,
      });
    expect(failure(cont("1", "junk"))).toBe("SPV verification failed: bad proof");
    expect(failure(cont("1", null))).toBe(`resumePact: no previous execution found for: ${pactId}`);
    expect(failure(cont("2", "good-proof"))).toContain("enforceYield: yield provenance");
    const o = cont("1", "good-proof");
    expectResult(o, '"Write succeeded"');
    expect(o.events.map((ev) => ev.name)).toEqual(["TRANSFER", "TRANSFER_XCHAIN_RECD", "X_RESUME"]);
    expect(o.continuation?.step).toBe(1);
    expectResult(run(target, { code: '(free.token.get-balance "bob")' }), "5.0");
    expect(failure(cont("1", "good-proof"))).toBe(`resumePact: pact completed: ${pactId}`);
  });

  it("continues a same-chain defpact by id and step", () => {
    const storage = createMemoryStorage();
    ok(
      run(storage, {
        code: `(define-keyset 'x (read-keyset "admin"))
               (module two 'x
                 (defpact p (n:integer)
                   (step (yield {"n": (+ n 1)}))
                   (step (resume {"n" := m} (* m 10)))))`,
        execFlags: new Set(["DisablePact44"]),
      }),
    );
    const start = run(storage, { code: "(two.p 1)", txHash: pactId });
    expectResult(start, '{"n":{"int":2}}');
    const cont = (step: number) =>
      run(storage, { payload: { kind: "cont", pactId, step, rollback: false, proof: null } });
    expect(failure(cont(2))).toBe("resumePact: step 2 requested, expected step 1");
    const o = cont(1);
    expect(ok(o)).toEqual({ kind: "integer", value: 20n });
    expect(o.logs.map((w) => [w.table, w.key])).toEqual([["SYS:pacts", pactId]]);
    expect(failure(cont(1))).toBe(`resumePact: pact completed: ${pactId}`);
  });
});
