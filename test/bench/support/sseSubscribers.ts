/**
 * Many clients of a server-sent event stream, for the header update
 * fan-out of test/bench/headers.bench.ts: `count` GET requests held open
 * over their own sockets (node:http), each counting the `BlockHeader`
 * events in its body's bytes (no decoding to text). `onAll(n)` runs when
 * every client has read n events.
 *
 * Run as a program it serves a benchmark in another process (forked with an
 * IPC channel): `node --import tsx sseSubscribers.ts HOST PORT PATH COUNT`
 * opens the clients, sends `{ready, cpuUs}` once all are connected and
 * `{all: n, cpuUs}` each time every client has read n events (`cpuUs`: its
 * own CPU time so far), and exits on `{close: true}`.
 * @module
 */
import { Agent, type ClientRequest, get } from "node:http";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

const EVENT = "event:BlockHeader";
const NEWLINE = 0x0a;

export type SubscriberOptions = {
  readonly host: string;
  readonly port: number;
  readonly path: string;
  readonly count: number;
  /** Every client has now read `events` events. */
  readonly onAll: (events: number) => void;
};

/** Opens the clients; resolves once every one has its response head. */
export async function openSubscribers(o: SubscriberOptions): Promise<{ close(): void }> {
  const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  const counts: number[] = new Array(o.count).fill(0);
  // How many clients have read n events, by n.
  const reached: number[] = [];
  const requests = await Promise.all(
    counts.map(
      (_, i) =>
        new Promise<ClientRequest>((done, reject) => {
          const req = get({ host: o.host, port: o.port, path: o.path, agent }, (res) => {
            if (res.statusCode !== 200) reject(new Error(`HTTP ${res.statusCode}`));
            // A read that ends inside an event's name leaves its start in
            // `carry`. One that ends with a newline cannot (the name holds
            // none), and events end with one: most reads carry nothing.
            let carry: Buffer | null = null;
            res.on("data", (data: Buffer) => {
              const bytes = carry === null ? data : Buffer.concat([carry, data]);
              for (let at = bytes.indexOf(EVENT); at >= 0; at = bytes.indexOf(EVENT, at + 1)) {
                const n = (counts[i] as number) + 1;
                counts[i] = n;
                const all = (reached[n] ?? 0) + 1;
                reached[n] = all;
                if (all === o.count) o.onAll(n);
              }
              carry =
                bytes[bytes.length - 1] === NEWLINE
                  ? null
                  : bytes.subarray(Math.max(0, bytes.length - EVENT.length + 1));
            });
            done(req);
          });
          req.on("error", reject);
        }),
    ),
  );
  return {
    close() {
      for (const r of requests) r.destroy();
      agent.destroy();
    },
  };
}

function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/** As a forked program: the clients in this process, reports over IPC. */
async function main(argv: readonly string[]): Promise<void> {
  const [host, port, path, count] = argv;
  const send = process.send?.bind(process);
  if (host === undefined || path === undefined || send === undefined) {
    console.error("usage (forked with IPC): sseSubscribers.ts HOST PORT PATH COUNT");
    process.exit(2);
  }
  const clients = await openSubscribers({
    host,
    port: Number(port),
    path,
    count: Number(count),
    onAll: (events) => send({ all: events, cpuUs: cpuMicros() }),
  });
  process.on("message", (m: unknown) => {
    if (typeof m === "object" && m !== null && "close" in m) {
      clients.close();
      process.disconnect();
    }
  });
  send({ ready: true, cpuUs: cpuMicros() });
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main(process.argv.slice(2));
}
