/**
 * The dapp signing API (docs/dapp-signing.md; api/dappSigning/): Chainweaver's local signing
 * API on its own port, off by default, switched on and saved in `wallet/dapp-signing.json`,
 * listening on 127.0.0.1 only. `@kadena/client`'s own Chainweaver signer gets the signatures
 * the page answers (`/v1/quicksign`), a refusal (`{error: {type: "reject"}}`), or, unanswered,
 * the API's timeout error; `/v1/sign` answers a complete command or 409; the CORS preflight a
 * browser sends is answered; bad bodies, foreign Hosts and answers that do not fit are refused
 * with 4xx naming what is wrong; a `/v1/sign` body's numbers (`1.0`, large integers) reach the
 * signed command as written. The host is told of each request. A flood from one origin holds
 * one request and is rate-limited (409 naming the waiting one, 429 with Retry-After) while
 * another origin's request is shown; a sandboxed page's `Origin: null` is named "an unidentified
 * web page (sandboxed)"; an answer to a withdrawn request is refused (410) and reaches no other.
 * The app routes (`/app/api/wallet/dapp-signing`, `/app/api/wallet/sign-requests`) drive it
 * through the node.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { networkInterfaces } from "node:os";
import { join } from "node:path";
import { createSignWithChainweaver, Pact } from "@kadena/client";
import { afterEach, describe, expect, it } from "vitest";
import {
  originText,
  prepareRequest,
} from "../../renderer/src/features/wallet/dapp/dappRequests.ts";
import { DappSigning } from "../../src-node/api/dappSigning/dappSigning.ts";
import { cmdOf } from "../../src-node/command/buildCommand.ts";
import { requestKeyBytes } from "../../src-node/command/requestKeyBytes.ts";
import { referenceRequestKeyOf } from "../../src-node/command/requestKeyCheck.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { DEV_ACCOUNT_KEYS } from "../../src-node/genesis/devAccountKeys.ts";
import { openTestNode, type TestNode, tempDir } from "../support/testNode.ts";

const S0 = DEV_ACCOUNT_KEYS[0];
const S1 = DEV_ACCOUNT_KEYS[1];
if (S0 === undefined || S1 === undefined) throw new Error("no test accounts");
const FROM = `k:${S0.publicKey}`;
const TO = `k:${S1.publicKey}`;

const services: DappSigning[] = [];
const nodes: TestNode[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.close();
  for (const t of nodes.splice(0)) await t.cleanup();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function service(options: { timeoutMs?: number; walletDir?: string } = {}): DappSigning {
  const walletDir =
    options.walletDir ??
    (() => {
      const d = tempDir("weft-dapp-");
      dirs.push(d);
      return join(d, "wallet");
    })();
  const s = new DappSigning({ walletDir, timeoutMs: options.timeoutMs });
  services.push(s);
  return s;
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

async function on(s: DappSigning): Promise<number> {
  const port = await freePort();
  await s.configure({ enabled: true, port });
  return port;
}

/** The first waiting request, once it is there. */
async function nextRequest(s: DappSigning) {
  for (let i = 0; i < 500; i++) {
    const first = s.queue.list()[0];
    if (first !== undefined) return first;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("no request arrived");
}

const transferTx = (amount: string) =>
  Pact.builder
    .execution(`(coin.transfer "${FROM}" "${TO}" ${amount})`)
    .addSigner(S0.publicKey, (withCap) => [
      withCap("coin.GAS"),
      withCap("coin.TRANSFER", FROM, TO, { decimal: amount }),
    ])
    .setMeta({ chainId: "0", senderAccount: FROM, gasLimit: 2500, gasPrice: 0.00000001 })
    .setNetworkId("test-singleton")
    .setNonce("n1")
    .createTransaction();

const signHash = (hash: string, secretKey: string) =>
  nodeCommands.crypto.sign(requestKeyBytes(hash), secretKey);

type Answer = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
};

/** A raw HTTP request to the signing port (Host and Origin as given). */
function call(
  port: number,
  method: string,
  path: string,
  o: { body?: string; headers?: Record<string, string>; host?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: o.host ?? "127.0.0.1",
        port,
        // A connection per request: a kept-alive one would outlive the server it came from.
        agent: false,
        method,
        path,
        headers: {
          host: `127.0.0.1:${port}`,
          ...(o.body === undefined ? {} : { "content-type": "application/json;charset=utf-8" }),
          ...o.headers,
        },
      },
      (res) => {
        let body = "";
        res.on("data", (c: Buffer) => {
          body += c.toString();
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.setTimeout(10_000, () => req.destroy(new Error("no answer within 10 s")));
    if (o.body !== undefined) req.write(o.body);
    req.end();
  });
}

const quicksignBody = (cmd: string, pubKey = S0.publicKey) =>
  JSON.stringify({ cmdSigDatas: [{ cmd, sigs: [{ pubKey, sig: null }] }] });

describe("[api] dapp signing API: setting and listener", () => {
  it("is off by default: nothing listens, the setting says so", async () => {
    const s = service();
    await s.start();
    expect(s.status()).toEqual({
      enabled: false,
      port: 9467,
      listening: false,
      problem: null,
      timeoutSeconds: 300,
    });
    const t = await openTestNode();
    nodes.push(t);
    const r = await t.request("GET", "/app/api/wallet/dapp-signing", {
      headers: { host: "127.0.0.1:1848", "x-weft-app-token": t.node.appToken },
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ enabled: false, port: 9467, listening: false });
    expect(t.node.dappSigning.status().listening).toBe(false);
  });

  it("switched on, listens on 127.0.0.1 only, saves the setting, and starts again from it; off stops it", async () => {
    const dir = tempDir("weft-dapp-");
    dirs.push(dir);
    const walletDir = join(dir, "wallet");
    const s = service({ walletDir });
    const port = await on(s);
    expect(s.status()).toMatchObject({ enabled: true, port, listening: true });
    const preflight = await call(port, "OPTIONS", "/v1/quicksign", {
      headers: {
        origin: "https://dapp.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("*");
    expect(preflight.headers["access-control-allow-headers"]).toBe("content-type");
    expect(preflight.headers["access-control-allow-methods"]).toContain("POST");
    expect(s.address()).toEqual({ host: "127.0.0.1", port });
    // No answer on any other address of this computer.
    const external = Object.values(networkInterfaces())
      .flat()
      .find((a) => a !== undefined && a.family === "IPv4" && !a.internal);
    if (external !== undefined) {
      await expect(
        call(port, "OPTIONS", "/v1/quicksign", { host: external.address }),
      ).rejects.toThrow();
    }
    // A second service on the same folder (the next launch) starts from the saved setting.
    await s.close();
    expect(JSON.parse(readFileSync(join(walletDir, "dapp-signing.json"), "utf8"))).toEqual({
      enabled: true,
      port,
    });
    const again = service({ walletDir });
    await again.start();
    expect(again.status()).toMatchObject({ enabled: true, port, listening: true });
    expect((await call(port, "OPTIONS", "/v1/sign")).status).toBe(204);
    await again.configure({ enabled: false, port });
    expect(again.status()).toMatchObject({ enabled: false, listening: false });
    await expect(call(port, "OPTIONS", "/v1/sign")).rejects.toThrow(/ECONNREFUSED/);
  });

  it("a port another program holds is refused with APP_DAPP_PORT_UNAVAILABLE, nothing saved", async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const port = (busy.address() as AddressInfo).port;
    try {
      const t = await openTestNode();
      nodes.push(t);
      const headers = { host: "127.0.0.1:1848", "x-weft-app-token": t.node.appToken };
      const r = await t.request("POST", "/app/api/wallet/dapp-signing", {
        headers,
        body: { enabled: true, port },
      });
      expect(r.statusCode, r.body).toBe(409);
      expect(JSON.parse(r.body).code).toBe("APP_DAPP_PORT_UNAVAILABLE");
      expect(JSON.parse(r.body).message).toContain(String(port));
      expect(existsSync(join(t.dir, "test-singleton", "wallet", "dapp-signing.json"))).toBe(false);
      const bad = await t.request("POST", "/app/api/wallet/dapp-signing", {
        headers,
        body: { enabled: true, port: 80 },
      });
      expect(bad.statusCode).toBe(400);
      expect(JSON.parse(bad.body).message).toMatch(/port/);
    } finally {
      busy.close();
    }
  });
});

describe("[api] dapp signing API: requests", () => {
  it("@kadena/client's Chainweaver signer gets the signature the page answers", async () => {
    const s = service();
    const port = await on(s);
    const tx = transferTx("1.5");
    const signing = createSignWithChainweaver({ host: `http://127.0.0.1:${port}` })(tx);
    const request = await nextRequest(s);
    expect(request).toMatchObject({ kind: "quicksign", origin: null });
    const hash = referenceRequestKeyOf(tx.cmd);
    expect(hash).toBe(tx.hash);
    expect(request.body).toEqual({
      cmdSigDatas: [{ cmd: tx.cmd, hash, sigs: [{ pubKey: S0.publicKey, sig: null }] }],
    });
    expect(request.expiresAt - request.receivedAt).toBe(300_000);
    const sig = signHash(hash, S0.secretKey);
    // An answer that does not verify is refused; the request keeps waiting.
    expect(() =>
      s.queue.answer(request.id, { answer: "signed", sigs: [[signHash(hash, S1.secretKey)]] }),
    ).toThrow(/does not verify/);
    expect(() => s.queue.answer(request.id, { answer: "signed", sigs: [] })).toThrow(/sigs/);
    expect(s.queue.list()).toHaveLength(1);
    s.queue.answer(request.id, { answer: "signed", sigs: [[sig]] });
    const signed = await signing;
    expect(signed.sigs).toEqual([{ sig, pubKey: S0.publicKey }]);
    expect(s.queue.list()).toEqual([]);
    expect(() => s.queue.answer(request.id, { answer: "refused" })).toThrow(/no longer waiting/);
  });

  it("names the requesting origin; a refusal answers {error: {type: reject}}; a signer the wallet lacks is noSig", async () => {
    const s = service();
    const port = await on(s);
    const tx = transferTx("2");
    const answer = call(port, "POST", "/v1/quicksign", {
      body: quicksignBody(tx.cmd),
      headers: { origin: "https://dapp.example" },
    });
    const request = await nextRequest(s);
    expect(request.origin).toBe("https://dapp.example");
    s.queue.answer(request.id, { answer: "refused" });
    const r = await answer;
    expect(r.status).toBe(200);
    expect(r.headers["access-control-allow-origin"]).toBe("*");
    expect(JSON.parse(r.body)).toEqual({ error: { type: "reject" } });

    const second = call(port, "POST", "/v1/quicksign", { body: quicksignBody(tx.cmd) });
    const request2 = await nextRequest(s);
    s.queue.answer(request2.id, { answer: "signed", sigs: [[null]] });
    expect(JSON.parse((await second).body)).toEqual({
      responses: [
        {
          commandSigData: { cmd: tx.cmd, sigs: [{ pubKey: S0.publicKey, sig: null }] },
          outcome: { result: "noSig" },
        },
      ],
    });
  });

  it("an ignored request times out with the API's own error answer", async () => {
    const s = service({ timeoutMs: 300 });
    const port = await on(s);
    const tx = transferTx("3");
    const r = await call(port, "POST", "/v1/quicksign", { body: quicksignBody(tx.cmd) });
    expect(r.status).toBe(200);
    const body = JSON.parse(r.body) as { error: { type: string; msg: string } };
    expect(body.error.type).toBe("other");
    expect(body.error.msg).toMatch(/timed out/);
    expect(s.queue.list()).toEqual([]);
    // /v1/sign's timeout is Chainweaver's 409 with a text body.
    const sign = await call(port, "POST", "/v1/sign", {
      body: JSON.stringify({ code: "(+ 1 2)", caps: [] }),
    });
    expect(sign.status).toBe(409);
    expect(sign.body).toMatch(/^Timed out/);
  });

  it("/v1/sign answers the command the page built and signed, or 409 when refused", async () => {
    const s = service();
    const port = await on(s);
    const body = {
      code: `(coin.transfer "${FROM}" "${TO}" 1.0)`,
      caps: [
        { role: "pay gas", description: "gas", cap: { name: "coin.GAS", args: [] } },
        {
          role: "transfer",
          description: "1.0",
          cap: { name: "coin.TRANSFER", args: [FROM, TO, 1] },
        },
      ],
      sender: FROM,
      chainId: "0",
      gasLimit: 2500,
      gasPrice: 0.00000001,
      ttl: 600,
      signingPubKey: S0.publicKey,
      networkId: "test-singleton",
    };
    const answer = call(port, "POST", "/v1/sign", { body: JSON.stringify(body) });
    const request = await nextRequest(s);
    expect(request.kind).toBe("sign");
    expect(request.body).toEqual(body);
    const cmd = cmdOf({
      payload: { exec: { code: body.code, data: {} } },
      meta: {
        chainId: "0",
        sender: FROM,
        gasLimit: 2500,
        gasPrice: "0.00000001",
        ttl: 600,
        creationTime: 1_700_000_000,
      },
      signers: [{ pubKey: S0.publicKey, clist: [] }],
      networkId: "test-singleton",
      nonce: "x",
    });
    const hash = referenceRequestKeyOf(cmd);
    expect(() => s.queue.answer(request.id, { answer: "signed", cmd, sigs: [null] })).toThrow(
      /every signer must sign/,
    );
    expect(() =>
      s.queue.answer(request.id, {
        answer: "signed",
        cmd: cmd.replace("1.0", "9.0"),
        sigs: [null],
      }),
    ).toThrow(/not the code the dapp sent/);
    const sig = signHash(hash, S0.secretKey);
    s.queue.answer(request.id, { answer: "signed", cmd, sigs: [sig] });
    const r = await answer;
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({ body: { cmd, hash, sigs: [{ sig }] }, chainId: "0" });

    const refused = call(port, "POST", "/v1/sign", { body: JSON.stringify(body) });
    s.queue.answer((await nextRequest(s)).id, { answer: "refused" });
    const rr = await refused;
    expect(rr.status).toBe(409);
    expect(rr.body).toMatch(/^Cancelled/);
  });

  it("/v1/sign keeps the numbers as the dapp wrote them: 1.0 and large integers reach the signed command", async () => {
    const s = service();
    const port = await on(s);
    const big = "123456789012345678901234567890";
    const text =
      `{"code": "(coin.transfer \\"${FROM}\\" \\"${TO}\\" 1.0)", "caps": [` +
      `{"role": "t", "description": "1.0", "cap": {"name": "coin.TRANSFER", "args": ["${FROM}", "${TO}", 1.0]}},` +
      `{"cap": {"name": "m.BIG", "args": [${big}, 2.50, 1e3]}}],` +
      ` "data": {"n": ${big}, "d": 0.10}, "gasLimit": 2500, "gasPrice": 1e-8, "ttl": 600,` +
      ` "chainId": "0", "signingPubKey": "${S0.publicKey}", "networkId": "test-singleton", "nonce": "exact"}`;
    const answer = call(port, "POST", "/v1/sign", { body: text });
    const request = await nextRequest(s);
    // The schema saw plain numbers; the page gets the exact text.
    expect((request.body as { gasLimit: number }).gasLimit).toBe(2500);
    expect(request.text).toContain(`"args":["${FROM}","${TO}",1.0]`);
    expect(request.text).toContain(`"args":[${big},2.50,1e3]`);
    expect(request.text).toContain(`"data":{"n":${big},"d":0.10}`);

    // The page builds the command from it (dappRequests.ts), signs it, the dapp gets it.
    const prepared = prepareRequest(request, {
      networkId: "test-singleton",
      publicKeys: [S0.publicKey],
      now: 1_700_000_000,
      nonce: "unused",
    });
    if (!prepared.ok) throw new Error(prepared.error);
    const [t] = prepared.value;
    if (t === undefined) throw new Error("no transaction");
    expect(t.cmd).toContain(`"args":["${FROM}","${TO}",1.0]`);
    expect(t.cmd).toContain(`{"name":"m.BIG","args":[${big},2.50,1e3]}`);
    expect(t.cmd).toContain(`"data":{"n":${big},"d":0.10}`);
    const sig = signHash(t.hash, S0.secretKey);
    s.queue.answer(request.id, { answer: "signed", cmd: t.cmd, sigs: [sig] });
    const r = await answer;
    expect(r.status, r.body).toBe(200);
    const sent = JSON.parse(r.body) as { body: { cmd: string; hash: string } };
    expect(sent.body.cmd).toBe(t.cmd);
    expect(sent.body.hash).toBe(t.hash);
    expect(sent.body.cmd).toContain(",1.0]");

    const broken = await call(port, "POST", "/v1/sign", { body: '{"code": "(+ 1 2)", "caps": [' });
    expect(broken.status).toBe(400);
    expect(broken.body).toMatch(/^body: not JSON/);
  });

  it("refuses bad requests with 4xx naming what is wrong, and foreign Hosts with 403", async () => {
    const s = service();
    const port = await on(s);
    const tx = transferTx("1");
    const qs = (body: string, headers: Record<string, string> = {}) =>
      call(port, "POST", "/v1/quicksign", { body, headers });
    const errorOf = (r: Answer) => JSON.parse(r.body).error as { type: string; msg?: string };

    const empty = await qs(JSON.stringify({ cmdSigDatas: [] }));
    expect(empty.status).toBe(400);
    expect(errorOf(empty)).toEqual({ type: "emptyList" });

    const unknown = await qs(JSON.stringify({ cmdSigDatas: [], extra: 1 }));
    expect(unknown.status).toBe(400);
    expect(errorOf(unknown).msg).toMatch(/extra: unknown field/);

    const missing = await qs(JSON.stringify({ nothing: [] }));
    expect(missing.status).toBe(400);

    const notCommand = await qs(quicksignBody('{"payload": 1}'));
    expect(notCommand.status).toBe(400);
    expect(errorOf(notCommand).msg).toMatch(/^cmdSigDatas\[0\]\.cmd: not a command/);

    const notSigner = await qs(quicksignBody(tx.cmd, S1.publicKey));
    expect(errorOf(notSigner).msg).toMatch(/cmdSigDatas\[0\]\.sigs\[0\]\.pubKey: not a signer/);

    const badSig = await qs(
      JSON.stringify({
        cmdSigDatas: [{ cmd: tx.cmd, sigs: [{ pubKey: S0.publicKey, sig: "ab".repeat(64) }] }],
      }),
    );
    expect(errorOf(badSig).msg).toMatch(/sig: does not verify/);

    const notJson = await call(port, "POST", "/v1/quicksign", {
      body: "hello",
      headers: { "content-type": "text/plain" },
    });
    expect(notJson.status).toBe(415);

    const broken = await qs("{not json");
    expect(broken.status).toBe(400);

    const signBad = await call(port, "POST", "/v1/sign", {
      body: JSON.stringify({ code: "(+ 1 2)", caps: [], gasLimit: "lots" }),
    });
    expect(signBad.status).toBe(400);
    expect(signBad.body).toMatch(/gasLimit/);

    const rebinding = await call(port, "POST", "/v1/quicksign", {
      body: quicksignBody(tx.cmd),
      headers: { host: `evil.example:${port}` },
    });
    expect(rebinding.status).toBe(403);
    const elsewhere = await call(port, "GET", "/v1/keys");
    expect(elsewhere.status).toBe(404);
    expect(s.queue.list()).toEqual([]);
  });

  it("a dapp that goes away leaves the list; closing answers the waiting ones", async () => {
    const s = service();
    const port = await on(s);
    const tx = transferTx("4");
    const req = httpRequest({
      host: "127.0.0.1",
      port,
      method: "POST",
      path: "/v1/quicksign",
      headers: { host: `127.0.0.1:${port}`, "content-type": "application/json" },
    });
    req.on("error", () => {});
    req.end(quicksignBody(tx.cmd));
    await nextRequest(s);
    req.destroy();
    for (let i = 0; i < 200 && s.queue.list().length > 0; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(s.queue.list()).toEqual([]);

    const waiting = call(port, "POST", "/v1/quicksign", { body: quicksignBody(tx.cmd) });
    await nextRequest(s);
    await s.close();
    expect(JSON.parse((await waiting).body).error.type).toBe("other");
  });
});

/** Sends a request and withdraws it (closes the connection) once it waits; resolves when it left the list. */
async function askAndWithdraw(s: DappSigning, port: number, body: string, origin: string) {
  const req = httpRequest({
    host: "127.0.0.1",
    port,
    method: "POST",
    path: "/v1/quicksign",
    agent: false,
    headers: { host: `127.0.0.1:${port}`, "content-type": "application/json", origin },
  });
  const answered = new Promise<number>((resolve) => {
    req.on("response", (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", () => resolve(0));
  });
  req.end(body);
  for (let i = 0; i < 500; i++) {
    if (s.queue.list().some((r) => r.origin === origin)) {
      req.destroy();
      for (let j = 0; j < 500 && s.queue.list().some((r) => r.origin === origin); j++) {
        await new Promise((r) => setTimeout(r, 5));
      }
      return 0;
    }
    const done = await Promise.race([answered, new Promise((r) => setTimeout(r, 5, -1))]);
    if (done !== -1) return done as number;
  }
  throw new Error("the request neither waited nor was answered");
}

describe("[api] dapp signing API: a flood of requests", () => {
  it("one origin holds one request and is rate-limited; another origin's request is still shown", async () => {
    const told: string[] = [];
    const dir = tempDir("weft-dapp-");
    dirs.push(dir);
    const s = new DappSigning({
      walletDir: join(dir, "wallet"),
      onRequest: (r) => told.push(String(r.origin)),
    });
    services.push(s);
    const port = await on(s);
    const tx = transferTx("6");
    const flood = "https://flood.example";
    const qs = (origin: string) =>
      call(port, "POST", "/v1/quicksign", { body: quicksignBody(tx.cmd), headers: { origin } });

    const held = qs(flood);
    const first = await nextRequest(s);
    // A second request of the same origin is refused at once, naming the waiting one.
    const busy = await qs(flood);
    expect(busy.status).toBe(409);
    expect(busy.headers["access-control-allow-origin"]).toBe("*");
    const busyError = JSON.parse(busy.body).error as { type: string; msg: string };
    expect(busyError.type).toBe("other");
    expect(busyError.msg).toContain(`id ${first.id}`);
    expect(busyError.msg).toMatch(/one request at a time per origin/);
    const busySign = await call(port, "POST", "/v1/sign", {
      body: JSON.stringify({ code: "(+ 1 2)", caps: [] }),
      headers: { origin: flood },
    });
    expect(busySign.status).toBe(409);
    expect(busySign.body).toContain(`id ${first.id}`);
    expect(s.queue.list()).toHaveLength(1);

    // Another origin is not held up by it.
    const other = qs("https://honest.example");
    await expect
      .poll(() => s.queue.list().map((r) => r.origin))
      .toEqual([flood, "https://honest.example"]);

    // Asking and withdrawing in a loop: after its burst, the flooding origin gets 429.
    s.queue.answer(first.id, { answer: "refused" });
    expect((await held).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push(await askAndWithdraw(s, port, quicksignBody(tx.cmd), flood));
    // The first request took a token, two more were withdrawn, then the bucket was empty.
    expect(statuses).toEqual([0, 0, 429, 429]);
    const limited = await qs(flood);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers["retry-after"])).toBeLessThanOrEqual(5);
    expect(limited.headers["access-control-expose-headers"]).toBe("retry-after");
    expect(JSON.parse(limited.body).error.msg).toMatch(
      /too many signing requests from this origin/,
    );
    // The honest origin's request waits, alone, for the user; the host was told of 4 requests.
    expect(s.queue.list().map((r) => r.origin)).toEqual(["https://honest.example"]);
    expect(told).toEqual([flood, "https://honest.example", flood, flood]);
    const honest = s.queue.list()[0];
    s.queue.answer(honest?.id as string, { answer: "refused" });
    expect(JSON.parse((await other).body)).toEqual({ error: { type: "reject" } });
  });

  it("more than 10 waiting requests from all origins are refused with 429", async () => {
    const s = service();
    const port = await on(s);
    const tx = transferTx("7");
    const waiting = Array.from({ length: 10 }, (_, i) =>
      call(port, "POST", "/v1/quicksign", {
        body: quicksignBody(tx.cmd),
        headers: { origin: `https://d${i}.example` },
      }),
    );
    await expect.poll(() => s.queue.list().length).toBe(10);
    const late = await call(port, "POST", "/v1/sign", {
      body: JSON.stringify({ code: "(+ 1 2)", caps: [] }),
      headers: { origin: "https://late.example" },
    });
    expect(late.status).toBe(429);
    expect(late.body).toMatch(/too many signing requests wait for the user already \(10/);
    s.queue.endAll();
    await Promise.all(waiting);
  });

  it("names a sandboxed page's Origin null as an unidentified web page, no Origin as a program; refuses an Origin that is none", async () => {
    const s = service();
    const port = await on(s);
    const tx = transferTx("8");
    const sandboxed = call(port, "POST", "/v1/quicksign", {
      body: quicksignBody(tx.cmd),
      headers: { origin: "null" },
    });
    const request = await nextRequest(s);
    expect(request.origin).toBe("null");
    expect(originText(request.origin)).toBe("an unidentified web page (sandboxed)");
    expect(originText(null)).toBe("a program on this computer (no web origin)");
    expect(originText("https://dapp.example")).toBe("https://dapp.example");
    s.queue.answer(request.id, { answer: "refused" });
    await sandboxed;
    for (const origin of ["https://a.example/path", "evil", "https://a b.example"]) {
      const bad = await call(port, "POST", "/v1/quicksign", {
        body: quicksignBody(tx.cmd),
        headers: { origin },
      });
      expect(bad.status, origin).toBe(400);
      expect(JSON.parse(bad.body).error.msg).toMatch(/^Origin: not a web origin/);
    }
    expect(s.queue.list()).toEqual([]);
  });
});

describe("[api] the wallet page's sign-request routes", () => {
  it("long-polls the list, takes the answer, and refuses answers to requests that are gone", async () => {
    const told: { kind: string; origin: string | null }[] = [];
    const t = await openTestNode({
      signRequestTimeoutMs: 60_000,
      onSignRequest: (r) => told.push({ kind: r.kind, origin: r.origin }),
    });
    nodes.push(t);
    const headers = { host: "127.0.0.1:1848", "x-weft-app-token": t.node.appToken };
    const first = await t.request("GET", "/app/api/wallet/sign-requests", { headers });
    expect(first.statusCode, first.body).toBe(200);
    const v0 = JSON.parse(first.body) as { version: number; requests: unknown[] };
    expect(v0.requests).toEqual([]);

    const port = await freePort();
    const set = await t.request("POST", "/app/api/wallet/dapp-signing", {
      headers,
      body: { enabled: true, port },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(JSON.parse(set.body)).toMatchObject({ enabled: true, port, listening: true });

    const waiting = t.request("GET", `/app/api/wallet/sign-requests?since=${v0.version}`, {
      headers,
    });
    const tx = transferTx("5");
    const answer = call(port, "POST", "/v1/quicksign", { body: quicksignBody(tx.cmd) });
    const polled = await waiting;
    const list = JSON.parse(polled.body) as {
      version: number;
      requests: { id: string; kind: string; origin: null }[];
    };
    expect(list.version).toBeGreaterThan(v0.version);
    expect(list.requests).toHaveLength(1);
    // The host was told (the desktop brings its window to the front).
    expect(told).toEqual([{ kind: "quicksign", origin: null }]);
    const id = list.requests[0]?.id as string;

    const bad = await t.request("POST", `/app/api/wallet/sign-requests/${id}`, {
      headers,
      body: { answer: "signed", sigs: [["zz"]] },
    });
    expect(bad.statusCode).toBe(400);
    const sig = signHash(tx.hash, S0.secretKey);
    const ok = await t.request("POST", `/app/api/wallet/sign-requests/${id}`, {
      headers,
      body: { answer: "signed", sigs: [[sig]] },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(JSON.parse((await answer).body).responses[0].outcome).toEqual({
      result: "success",
      hash: tx.hash,
    });
    const gone = await t.request("POST", `/app/api/wallet/sign-requests/${id}`, {
      headers,
      body: { answer: "refused" },
    });
    expect(gone.statusCode).toBe(404);
    expect(JSON.parse(gone.body).code).toBe("APP_SIGN_REQUEST_GONE");
    expect(JSON.parse(gone.body).message).toMatch(/signed already/);

    // A request its dapp withdraws while on screen: the list says so, and Sign pressed on it
    // is refused (410), never handed to the request that waits after it.
    const withdrawing = httpRequest({
      host: "127.0.0.1",
      port,
      method: "POST",
      path: "/v1/quicksign",
      agent: false,
      headers: {
        host: `127.0.0.1:${port}`,
        "content-type": "application/json",
        origin: "https://a.example",
      },
    });
    withdrawing.on("error", () => {});
    withdrawing.end(quicksignBody(tx.cmd));
    await nextRequest(t.node.dappSigning);
    const next = call(port, "POST", "/v1/quicksign", {
      body: quicksignBody(tx.cmd),
      headers: { origin: "https://b.example" },
    });
    await expect.poll(() => t.node.dappSigning.queue.list().length).toBe(2);
    const shown = t.node.dappSigning.queue.list()[0]?.id as string;
    withdrawing.destroy();
    await expect.poll(() => t.node.dappSigning.queue.list().length).toBe(1);
    const listed = JSON.parse(
      (await t.request("GET", "/app/api/wallet/sign-requests", { headers })).body,
    ) as { requests: { id: string }[]; ended: { id: string; reason: string }[] };
    expect(listed.ended.map((e) => [e.id, e.reason])).toEqual([
      [id, "signed"],
      [shown, "withdrawn"],
    ]);
    const late = await t.request("POST", `/app/api/wallet/sign-requests/${shown}`, {
      headers,
      body: { answer: "signed", sigs: [[sig]] },
    });
    expect(late.statusCode, late.body).toBe(410);
    expect(JSON.parse(late.body).code).toBe("APP_SIGN_REQUEST_WITHDRAWN");
    expect(listed.requests).toHaveLength(1);
    expect(t.node.dappSigning.queue.list().map((r) => r.id)).toEqual(
      listed.requests.map((r) => r.id),
    );
    t.node.dappSigning.queue.answer(listed.requests[0]?.id as string, { answer: "refused" });
    expect(JSON.parse((await next).body)).toEqual({ error: { type: "reject" } });
  });
});
