/**
 * The renderer's wire parsers: app config, node info, cut, header events and mining status.
 * Good replies parse to the documented shapes; every bad one names the offending field.
 */
import { describe, expect, it } from "vitest";
import { parseAppConfig } from "../../renderer/src/api/appConfig.ts";
import { parseCut } from "../../renderer/src/api/cut.ts";
import { parseHeaderUpdate } from "../../renderer/src/api/headerUpdate.ts";
import { parseMiningHistory, parseMiningStatus } from "../../renderer/src/api/miningStatus.ts";
import { parseNodeInfo } from "../../renderer/src/api/nodeInfo.ts";
import { parseNodeLog, parseNodeStatus } from "../../renderer/src/api/nodeStatus.ts";

const H0 = "CNHrpXbArOLo_cgVHt2uxR9MfNtp_1XFmeQEwM9T-_k";
const H1 = "PY1Vz7vpwsAzEnIr5Z_pOQGIRm-ZWuYv_u9_o1OLZ94";

describe("[renderer] app config", () => {
  it("derives the API path on the page's own origin", () => {
    expect(
      parseAppConfig({
        networkId: "development",
        apiVersion: "0.0",
        baseUrl: "http://127.0.0.1:1848/ledger/0.0/development",
      }),
    ).toEqual({
      ok: true,
      value: {
        networkId: "development",
        apiVersion: "0.0",
        baseUrl: "http://127.0.0.1:1848/ledger/0.0/development",
        basePath: "/ledger/0.0/development",
      },
    });
  });

  it("rejects configs whose base URL does not match the network", () => {
    const good = {
      networkId: "development",
      apiVersion: "0.0",
      baseUrl: "http://127.0.0.1:1848/ledger/0.0/development",
    };
    const cases: [unknown, string][] = [
      [{ ...good, baseUrl: "http://127.0.0.1:1848/ledger/0.0/mainnet01" }, "baseUrl"],
      [{ ...good, baseUrl: "ftp://x/ledger/0.0/development" }, "baseUrl"],
      [{ ...good, baseUrl: "not a url" }, "baseUrl"],
      [{ ...good, networkId: "Dev Net" }, "networkId"],
      [{ ...good, apiVersion: 0 }, "apiVersion"],
      ["config", "config"],
    ];
    for (const [raw, field] of cases) {
      const r = parseAppConfig(raw);
      expect(r.ok, JSON.stringify(raw)).toBe(false);
      if (!r.ok) expect(r.error.startsWith(field), r.error).toBe(true);
    }
  });
});

describe("[renderer] node info", () => {
  const info = {
    nodeVersion: "development",
    nodePackageVersion: "0.1.0",
    nodeApiVersion: "0.0",
    nodeChains: ["0", "1"],
    nodeNumberOfChains: 2,
    nodeGraphHistory: [],
    nodeBlockDelay: 30000000,
  };
  it("keeps the fields the UI shows and ignores the rest", () => {
    expect(parseNodeInfo(info)).toEqual({
      ok: true,
      value: {
        nodeVersion: "development",
        nodePackageVersion: "0.1.0",
        nodeApiVersion: "0.0",
        nodeChains: ["0", "1"],
        nodeNumberOfChains: 2,
      },
    });
  });
  it("names the bad field", () => {
    expect(parseNodeInfo({ ...info, nodeChains: [0] })).toEqual({
      ok: false,
      error: "nodeChains[0]: expected a string",
    });
    expect(parseNodeInfo({ ...info, nodeNumberOfChains: -1 }).ok).toBe(false);
  });
});

describe("[renderer] cut", () => {
  const cut = {
    hashes: { "1": { height: 7, hash: H1 }, "0": { height: 6, hash: H0 } },
    origin: null,
    weight: "JhaBsLA6L5pAdy4AAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    height: 13,
    instance: "development",
    id: H1,
  };
  it("sorts the heads by chain", () => {
    const r = parseCut(cut);
    expect(r.ok && r.value.heads).toEqual([
      { chainId: 0, height: 6, hash: H0 },
      { chainId: 1, height: 7, hash: H1 },
    ]);
    expect(r.ok && r.value.height).toBe(13);
  });
  it("rejects bad chain keys, heights and hashes", () => {
    const bad = [
      { ...cut, hashes: { x: { height: 1, hash: H0 } } },
      { ...cut, hashes: { "0": { height: 1.5, hash: H0 } } },
      { ...cut, hashes: { "0": { height: 1, hash: "short" } } },
      { ...cut, hashes: [] },
      { ...cut, height: "13" },
    ];
    for (const b of bad) expect(parseCut(b).ok, JSON.stringify(b.hashes)).toBe(false);
  });
});

describe("[renderer] header update events", () => {
  const event = {
    header: {
      nonce: "0",
      creationTime: 1700000000000000,
      parent: H0,
      adjacents: {},
      target: "x",
      payloadHash: H0,
      chainId: 3,
      weight: "x",
      height: 42,
      ledgerVersion: "development",
      epochStart: 0,
      featureFlags: 0,
      hash: H1,
    },
    txCount: 2,
    powHash: "00ff",
    target: "ffff",
  };
  it("reads chain, height, hash, time and transaction count", () => {
    expect(parseHeaderUpdate(JSON.stringify(event))).toEqual({
      ok: true,
      value: { chainId: 3, height: 42, hash: H1, creationTime: 1700000000000000, txCount: 2 },
    });
  });
  it("rejects non-JSON and missing fields", () => {
    expect(parseHeaderUpdate("{").ok).toBe(false);
    expect(
      parseHeaderUpdate(JSON.stringify({ ...event, header: { ...event.header, height: -1 } })).ok,
    ).toBe(false);
    expect(parseHeaderUpdate(JSON.stringify({ header: event.header })).ok).toBe(false);
  });
});

describe("[renderer] mining status", () => {
  it("parses the app route's reply", () => {
    const s = {
      enabled: false,
      threads: 2,
      account: "k:abc",
      hashRate: 1534.5,
      blocksFound: 3,
      onDemand: true,
      onDemandAvailable: true,
      active: true,
      lastBlockAt: 1_700_000_000_000,
      held: false,
      payee: "k:abc",
      demand: [{ chainId: 3, height: 6 }],
    };
    expect(parseMiningStatus(s)).toEqual({ ok: true, value: s });
    expect(parseMiningStatus({ ...s, account: null, lastBlockAt: null }).ok).toBe(true);
    expect(parseMiningStatus({ ...s, onDemand: "yes" }).ok).toBe(false);
    expect(parseMiningStatus({ ...s, payee: 3 }).ok).toBe(false);
    expect(parseMiningStatus({ ...s, demand: [{ chainId: -1, height: 6 }] }).ok).toBe(false);
  });
  it("reads a reply without the mine-on-demand fields (an older node) as mine on demand off", () => {
    const s = { enabled: true, threads: 2, account: "k:abc", hashRate: 1, blocksFound: 3 };
    expect(parseMiningStatus(s)).toEqual({
      ok: true,
      value: {
        ...s,
        onDemand: false,
        onDemandAvailable: false,
        active: true,
        lastBlockAt: null,
        held: false,
        payee: "k:abc",
        demand: [],
      },
    });
  });
  it("parses the miner's history, the node's status and its log lines", () => {
    const h = { hashRate: [{ at: 1, rate: 2.5 }], blocks: [{ at: 2, chainId: 3, height: 4 }] };
    expect(parseMiningHistory(h)).toEqual({ ok: true, value: h });
    expect(parseMiningHistory({ ...h, blocks: [{ at: 2, chainId: -1, height: 4 }] }).ok).toBe(
      false,
    );
    const st = {
      network: "development",
      dataDir: "/d",
      logFile: null,
      cpus: 4,
      publicApis: { mining: true, backup: false },
      catchingUp: [{ what: "index", done: 1, total: 2, etaS: null }],
    };
    expect(parseNodeStatus(st)).toEqual({ ok: true, value: st });
    expect(parseNodeStatus({ ...st, cpus: 0 }).ok).toBe(false);
    expect(parseNodeStatus({ ...st, publicApis: { mining: 1, backup: false } }).ok).toBe(false);
    const line = { seq: 1, at: 5, level: "warn", message: "m" };
    expect(parseNodeLog({ lines: [line] })).toEqual({
      ok: true,
      value: [{ ...line, fields: null }],
    });
    expect(parseNodeLog({ lines: [{ ...line, level: "debug" }] }).ok).toBe(false);
  });
  it("rejects bad values", () => {
    const s = { enabled: true, threads: 2, account: "k:abc", hashRate: 1, blocksFound: 3 };
    for (const bad of [
      { ...s, enabled: "yes" },
      { ...s, hashRate: -1 },
      { ...s, hashRate: Number.NaN },
      { ...s, threads: 5000 },
      { ...s, account: 5 },
    ]) {
      expect(parseMiningStatus(bad).ok, JSON.stringify(bad)).toBe(false);
    }
  });
});
