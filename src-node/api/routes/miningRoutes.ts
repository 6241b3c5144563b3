/**
 * The mining API (spec "Mining endpoints"; reference chainweb-api.md §6),
 * registered only when it is enabled (`mining.api.enabled`,
 * `--enable-mining-api`); otherwise its paths answer 404 like any unknown
 * route.
 *
 * - `GET {base_url}/mining/work[?chain=N]` with a JSON body (miner
 *   information) → 200 application/octet-stream, the 322 work bytes.
 * - `POST {base_url}/mining/solved` with the 286 solved bytes → 204.
 * - `GET {base_url}/mining/updates` with the 4 chain bytes (or no body: every
 *   chain) → text/event-stream, `event:New Cut` whenever that chain's work
 *   goes out of date, `event:Refreshed Block` when new commands reached its
 *   mempool (new work would include them); the server ends the stream after
 *   the configured time.
 *
 * GET bodies: Fastify does not read bodies of GET requests, so these routes
 * read the raw request stream themselves (bounded). The routes are private
 * (browserGuard.ts): no CORS, and a present Origin must be the node's own;
 * `/mining/solved` needs `Content-Type: application/octet-stream` (what
 * miners send), so no web page can post one without a refused preflight.
 * Errors (MINING_*) are text/plain with the statuses of errorStatus.ts
 * (docs/api.md lists them).
 * @module
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { MiningError, MiningErrorCode } from "../../mining/errors.ts";
import { parseMinerInfoText } from "../../mining/minerInfo.ts";
import { commonHeaders } from "../commonHeaders.ts";
import { corsHeaders } from "../cors.ts";
import type { EventStream } from "../eventStream.ts";
import { parseNaturalParam, propertyOf } from "../params.ts";
import type { RouteContext } from "../routeContext.ts";

/** Largest miner-information body. */
const MAX_WORK_BODY = 64 * 1024;
/** Largest update-stream body (4 bytes are expected; a little slack for a clear error). */
const MAX_UPDATES_BODY = 64;
/** Largest solved-work body (286 bytes are expected). */
const MAX_SOLVED_BODY = 4096;

/** No CORS, no foreign Origin (browserGuard.ts): miners are programs, not web pages. */
const PRIVATE = { access: "private" } as const;

const WORK_HEADER_BYTES = 286;
const CHAIN_BYTES = 4;

/**
 * Reads the body of a request Fastify does not parse (GET), at most `limit` bytes.
 *
 * A body over the limit is refused without being collected, but it is still
 * read (and dropped): a request stream abandoned midway (a `for await` left
 * by a throw destroys the request and detaches it from its socket) can leave
 * the socket stopped, so that the connection never reads the client's next
 * request. The refusal then closes the connection (unreadBody.ts).
 * @throws {MiningError} from `tooLarge` when the body is longer.
 */
function readRawBody(
  request: FastifyRequest,
  limit: number,
  tooLarge: (size: number) => MiningError,
): Promise<Buffer> {
  const raw = request.raw;
  const announced = Number(raw.headers["content-length"]);
  if (announced > limit) return Promise.reject(tooLarge(announced));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      raw.off("data", onData);
      raw.off("end", onEnd);
      raw.off("error", onError);
    };
    const onData = (chunk: Buffer | string) => {
      const b = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      size += b.length;
      if (size > limit) {
        stop();
        raw.resume();
        reject(tooLarge(size));
        return;
      }
      chunks.push(b);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    const onError = (e: Error) => {
      stop();
      reject(e);
    };
    raw.on("data", onData);
    raw.on("end", onEnd);
    raw.on("error", onError);
  });
}

function wrongLength(field: string, expected: number, actual: number): MiningError {
  return new MiningError(
    { code: MiningErrorCode.BadWork, field, expected, actual },
    `${field}: expected ${expected} bytes, got ${actual}`,
  );
}

export function registerMiningRoutes(server: FastifyInstance, ctx: RouteContext): void {
  const mining = ctx.node.miningApi;
  if (mining === undefined) return;
  const { service, streams } = mining;
  const { version } = ctx.node;
  const decoder = new TextDecoder("utf-8", { fatal: true });

  server.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => {
      done(null, body);
    });

    scope.get(
      `${ctx.base}/mining/work`,
      { exposeHeadRoute: false, config: PRIVATE },
      async (request, reply) => {
        const chain = parseNaturalParam(propertyOf(request.query, "chain"), "chain");
        const body = await readRawBody(
          request,
          MAX_WORK_BODY,
          (size) =>
            new MiningError(
              { code: MiningErrorCode.BadMinerInfo, field: "body", reason: "too large" },
              `miner information: body: ${size} bytes or more, at most ${MAX_WORK_BODY}`,
            ),
        );
        let text: string;
        try {
          text = decoder.decode(body);
        } catch {
          throw new MiningError(
            { code: MiningErrorCode.BadMinerInfo, field: "body", reason: "not UTF-8" },
            "miner information: body: not UTF-8 text",
          );
        }
        const work = await service.work(parseMinerInfoText(text), chain);
        // Returned: an async handler that resolves to undefined while the async
        // onSend hooks run makes Fastify send again (ERR_HTTP_HEADERS_SENT, logged).
        return reply
          .code(200)
          .header("content-type", "application/octet-stream")
          .send(Buffer.from(work.bytes));
      },
    );

    scope.post(
      `${ctx.base}/mining/solved`,
      {
        bodyLimit: MAX_SOLVED_BODY,
        config: { access: "private", bodyType: "application/octet-stream" },
      },
      async (request, reply) => {
        const body = request.body;
        const bytes = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
        if (bytes.length !== WORK_HEADER_BYTES) {
          throw wrongLength("solved work", WORK_HEADER_BYTES, bytes.length);
        }
        await service.accept(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
        return reply.code(204).send();
      },
    );

    scope.get(
      `${ctx.base}/mining/updates`,
      { exposeHeadRoute: false, config: PRIVATE },
      async (request, reply) => {
        const body = await readRawBody(request, MAX_UPDATES_BODY, (size) =>
          wrongLength("chain bytes", CHAIN_BYTES, size),
        );
        let chainId: number | undefined;
        if (body.length === CHAIN_BYTES) {
          chainId = body.readUInt32LE(0);
          if (!version.chainIds.includes(chainId)) {
            throw new MiningError(
              { code: MiningErrorCode.BadChain, field: "chain bytes", value: String(chainId) },
              `chain bytes: ${chainId} is not a chain of ${version.name}`,
            );
          }
        } else if (body.length !== 0) {
          throw wrongLength("chain bytes", CHAIN_BYTES, body.length);
        }
        let sse: EventStream | undefined;
        // Opened before the reply is taken over, so that the stream limit can still answer 503.
        const handle = streams.open(chainId, {
          onUpdate: (kind) => sse?.sendEvent(kind === "refreshed" ? "Refreshed Block" : "New Cut"),
          onEnd: () => sse?.end(),
        });
        sse = ctx.streams.open(request, reply, {
          ...commonHeaders(request.raw, ctx.node),
          ...corsHeaders(request),
        });
        sse.onEnd(() => handle.close());
      },
    );
  });
}
