/**
 * A route's body checked by a parser instead of a JSON schema. The wallet's stored files have
 * one definition each, a browser-safe parser the renderer reads them with too
 * (`walletFiles/`), so the node checks what it is asked to store with that same parser and no
 * schema repeats the shape. {@link parsedBody} gives the route options: the parser stands as
 * the body's schema (appApi.ts refuses a body route without one) and a validator compiler
 * runs it. A refusal is a Fastify validation error whose `instancePath` points at the field
 * the parser named and whose message is the parser's reason, so it is answered like a JSON
 * schema's (appApi.ts): 400 APP_BAD_REQUEST `{"message": "kdf.N: expected …"}`. The handler
 * gets what the parser read as `request.body`: only the members the format knows, so nothing
 * unchecked is stored. Body size limits stay the route's (`bodyLimit`, 413).
 * @module
 */
import type { FastifySchema, FastifySchemaCompiler, FastifySchemaValidationError } from "fastify";
import type { Result } from "../errors/result.ts";

/** A parser of a body: its value, or `<path>: <reason>` (walletFiles/decode.ts). */
export type BodyParser<T> = (raw: unknown) => Result<T>;

/** `.name`, `[index]` or `["quoted name"]` after the path's first name (walletFiles/fileFields.ts). */
const SEGMENT = /\.([A-Za-z_$][A-Za-z0-9_$-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;
const ROOT = /^[A-Za-z_$][A-Za-z0-9_$-]*/;

/**
 * The JSON pointer of a parser's path below its first name (`keystore.public.keys[0].id` →
 * `/public/keys/0/id`), or undefined for a path of another form.
 */
export function pointerOfPath(path: string): string | undefined {
  const root = ROOT.exec(path);
  if (root === null) return undefined;
  const segment = new RegExp(SEGMENT);
  segment.lastIndex = root[0].length;
  let pointer = "";
  while (segment.lastIndex < path.length) {
    const m = segment.exec(path);
    if (m === null) return undefined;
    const name = m[1] ?? m[2] ?? (JSON.parse(m[3] ?? '""') as string);
    pointer += `/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`;
  }
  return pointer;
}

/** A parser's refusal as the validation error Fastify hands the error handler. */
export function validationErrorOf(reason: string): FastifySchemaValidationError {
  const at = reason.indexOf(": ");
  const pointer = at < 0 ? undefined : pointerOfPath(reason.slice(0, at));
  return {
    keyword: "parser",
    instancePath: pointer ?? "",
    schemaPath: "#",
    params: {},
    message: pointer === undefined ? reason : reason.slice(at + 2),
  };
}

/** Route options checking the body with `parse` (the handler's `request.body` is its value). */
export function parsedBody<T>(parse: BodyParser<T>): {
  readonly schema: { readonly body: BodyParser<T> };
  // The compiler ignores the schema it is given (the route's only one is the parser), so it
  // fits any route's schema type.
  readonly validatorCompiler: FastifySchemaCompiler<FastifySchema>;
} {
  return {
    schema: { body: parse },
    // Compiled once per route for its one schema, the body's.
    validatorCompiler: () => (data: unknown) => {
      const r = parse(data);
      return r.ok ? { value: r.value } : { error: [validationErrorOf(r.error)] };
    },
  };
}
