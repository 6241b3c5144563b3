/**
 * The signing API's JSON bodies read with the exact JSON parser (command/exactJson.ts): a
 * `/v1/sign` request's capability arguments and data become part of a command, and the
 * contract language tells `1.0` (decimal) from `1` (integer) and needs every digit of a large
 * integer, which `JSON.parse` loses. The route's JSON schema checks a plain copy (numbers as
 * JS numbers); the exact text, written again without white space, stays with the request
 * ({@link exactBodyText}) and goes to the page, which builds the command from it.
 * @module
 */
import type { FastifyError, FastifyInstance, FastifyRequest } from "fastify";
import {
  JsonNumber,
  type JsonValue,
  readJsonExact,
  stringifyJson,
} from "../../command/exactJson.ts";

const texts = new WeakMap<FastifyRequest, string>();

/** The value with every number as a JS number (what the route's JSON schema checks). */
function plainCopy(v: JsonValue): unknown {
  if (v instanceof JsonNumber) return Number(v.text);
  if (Array.isArray(v)) return v.map(plainCopy);
  if (v !== null && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, m] of Object.entries(v as Record<string, JsonValue>)) {
      // defineProperty: a member named `__proto__` stays a member, never the prototype.
      Object.defineProperty(out, k, {
        value: plainCopy(m),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return v;
}

function notJson(reason: string): FastifyError {
  const e = new Error(`not JSON (${reason})`) as FastifyError;
  e.statusCode = 400;
  return e;
}

/** Replaces `server`'s JSON body parser with the exact one (400 "body: not JSON (…)" otherwise). */
export function parseBodiesExactly(server: FastifyInstance): void {
  server.removeContentTypeParser("application/json");
  server.addContentTypeParser("application/json", { parseAs: "string" }, (request, text, done) => {
    const read = readJsonExact(String(text));
    if (!read.ok) {
      done(notJson(read.error), undefined);
      return;
    }
    texts.set(request, stringifyJson(read.value));
    done(null, plainCopy(read.value));
  });
}

/** The body's JSON text with its numbers as sent; undefined for a request without a JSON body. */
export function exactBodyText(request: FastifyRequest): string | undefined {
  return texts.get(request);
}
