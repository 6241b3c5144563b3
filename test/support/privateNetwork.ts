/**
 * `PrivateService`s wired to each other in this process, for tests of
 * `/private` without node processes: each service's peers are the others,
 * named `<entity>.test:1`, and its `fetch` calls the addressed service's
 * `announced()` or `receive()` directly (an error becomes the status the API
 * would answer). Every entity pins every other's key unless told otherwise.
 * A delivery can be held (`hold(from, to)`) until released, to make two
 * senders' commands cross; `fakes` answer in place of a service.
 */
import { statusOfCode } from "../../src-node/api/errorStatus.ts";
import { testSingletonVersion } from "../../src-node/chain/versions.ts";
import { isNodeError } from "../../src-node/errors/nodeError.ts";
import type { PeerAddress } from "../../src-node/p2p/peerAddress.ts";
import { type EntityKeys, newEntityKeys } from "../../src-node/p2p/private/entityKeys.ts";
import { PrivateService } from "../../src-node/p2p/private/privateService.ts";
import { tempDir } from "./testNode.ts";

export type Responder = (path: string, body: unknown) => { status: number; body: unknown };

export type PrivateNetwork = {
  readonly services: Map<string, PrivateService>;
  readonly keys: Map<string, EntityKeys>;
  /** Peers reported to the penalty callback: `node → [peer, reason]`. */
  readonly penalties: [string, string, string][];
  /** Holds envelopes from `from`'s node to `to`'s node until the returned function is called. */
  hold(from: string, to: string): () => void;
  /** A peer answering in place of `name`'s node (it joins every service's peers). */
  fake(name: string, respond: Responder): void;
  close(): void;
};

const address = (name: string): PeerAddress => ({ hostname: `${name}.test`, port: 1 });

export function privateNetwork(
  entities: readonly string[],
  options: {
    readonly trust?: (self: string, other: string) => boolean;
    readonly now?: () => number;
  } = {},
): PrivateNetwork {
  const keys = new Map(entities.map((e) => [e, newEntityKeys()]));
  const services = new Map<string, PrivateService>();
  const fakes = new Map<string, Responder>();
  const holds = new Map<string, Promise<void>>();
  const penalties: [string, string, string][] = [];
  const names = () => [...entities, ...fakes.keys()];
  const trust = options.trust ?? (() => true);
  const fetchFrom =
    (self: string) =>
    async (url: string, init: RequestInit): Promise<Response> => {
      const u = new URL(url);
      const target = u.hostname.replace(/\.test$/, "");
      if (u.pathname.endsWith("/envelope")) await holds.get(`${self}>${target}`);
      const body = init.body === undefined ? undefined : (JSON.parse(String(init.body)) as unknown);
      const fake = fakes.get(target);
      if (fake !== undefined) {
        const r = fake(u.pathname, body);
        return new Response(JSON.stringify(r.body), { status: r.status });
      }
      const service = services.get(target);
      if (service === undefined) throw new Error(`no node ${target}`);
      try {
        const answer = u.pathname.endsWith("/entity") ? service.announced() : service.receive(body);
        return new Response(JSON.stringify(answer), { status: 200 });
      } catch (e) {
        if (!isNodeError(e)) throw e;
        return new Response(JSON.stringify({ code: e.code, message: e.message }), {
          status: statusOfCode(e.code),
        });
      }
    };
  for (const e of entities) {
    services.set(
      e,
      new PrivateService({
        version: testSingletonVersion,
        entity: e,
        keys: keys.get(e) as EntityKeys,
        trusted: entities
          .filter((o) => o !== e && trust(e, o))
          .map((o) => ({
            name: o,
            publicKey: Buffer.from((keys.get(o) as EntityKeys).publicKey).toString("base64url"),
          })),
        networkDir: tempDir(),
        peers: () =>
          names()
            .filter((n) => n !== e)
            .map(address),
        penalize: (a, reason) => penalties.push([e, a.hostname.replace(/\.test$/, ""), reason]),
        fetch: fetchFrom(e),
        now: options.now,
      }),
    );
  }
  return {
    services,
    keys,
    penalties,
    hold(from, to) {
      let release = () => {};
      holds.set(
        `${from}>${to}`,
        new Promise<void>((r) => {
          release = r;
        }),
      );
      return () => {
        holds.delete(`${from}>${to}`);
        release();
      };
    },
    fake(name, respond) {
      fakes.set(name, respond);
    },
    close() {
      for (const s of services.values()) s.close();
    },
  };
}
