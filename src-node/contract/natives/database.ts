/**
 * Native family: the database (reference §6) — `create-table`,
 * `describe-table`, `insert`, `update`, `write`, `read`, `with-read`,
 * `with-default-read`, `keys`, `select`, `fold-db`, `txids`, `txlog`,
 * `keylog`.
 *
 * Every access goes through the table guard: code of the table's module
 * (a current or blessed version) may use it; anything else needs the
 * module's admin. Purity is enforced: no user-table access in sys-only code
 * (`enforce`, guards, constants), no writes in read-only code (`try`,
 * `enforce-one`). Writes are checked against the table's schema (all fields
 * for `insert` and `write`, present fields for `update`); `update` and
 * `write` merge into an existing row.
 * @module
 */
import type { TableDef } from "../eval/definitions.ts";
import { GAS_READ_UNIT } from "../eval/gasTable.ts";
import { acquireModuleAdmin, checkBlessed } from "../eval/modules.ts";
import { memoryGas, textSize } from "../eval/sizeOf.ts";
import type { Callable, Term, Value } from "../eval/term.ts";
import { schemaMismatch } from "../eval/typeSpec.ts";
import { makeObject, type PactValue, pInteger, pList, pString } from "../values/value.ts";
import { runBinding } from "./bindings.ts";
import { type Call, lazy, type NativeDef, strict } from "./native.ts";
import { fnOf, shownOf, typeName } from "./valueGuards.ts";

function tableOf(c: Call, v: Value | undefined): TableDef {
  if (v !== undefined && v.kind !== "table" && c.def.name === "fold-db")
    throw c.evalError(
      c.offChain()
        ? `Expected table as first argument to foldDB, got: ${shownOf(v)}`
        : `Expected table as first argument to foldDB, got argument of type: ${typeName(v)}`,
    );
  if (v === undefined || v.kind !== "table")
    throw c.evalError(
      `${c.def.name}: expected a table, found ${v === undefined ? "nothing" : v.kind}`,
    );
  return v.def;
}

/** The table guard and purity rules; `write` for natives that write. */
function guardTable(c: Call, t: TableDef, write: boolean): void {
  const ip = c.ip;
  if (ip.purity === "sysonly")
    throw c.evalError(
      `${c.def.name}: database access is not allowed here (pure code: enforce, guards, constants)`,
    );
  if (write && ip.purity === "readonly")
    throw c.evalError(
      `${c.def.name}: database writes are not allowed here (read-only code: try, enforce-one)`,
    );
  const running = ip.moduleFrame();
  if (running !== null && running.fq === t.module.fq) checkBlessed(ip, t.module, c.span);
  // The reference's `AllowReadInLocal` lets reads past the table guard (a node never sets it).
  else if (!(!write && ip.ctx.execFlags.has("AllowReadInLocal")))
    acquireModuleAdmin(ip, t.module, c.span);
  if (ip.ctx.storage.userTableModule(t.physical) === null)
    throw c.fail(
      "DbError",
      `${c.def.name}: table not found: ${t.physical} (was create-table run?)`,
    );
}

function keyOf(c: Call, v: Value | undefined): string {
  if (v === undefined || v.kind !== "string")
    throw c.evalError(`${c.def.name}: expected a string key`);
  return v.value;
}

function objectOf(c: Call, v: Value | undefined): ReadonlyMap<string, PactValue> {
  if (v === undefined || v.kind !== "object")
    throw c.evalError(`${c.def.name}: expected an object`);
  return v.fields;
}

function checkSchema(
  c: Call,
  t: TableDef,
  row: ReadonlyMap<string, PactValue>,
  partial: boolean,
): void {
  const s = t.schema?.def;
  if (s === undefined || s === null || s.kind !== "defschema") return;
  const why = schemaMismatch(row, s, partial);
  if (why !== null) throw c.evalError(`${c.def.name}: type error in table ${t.name}: ${why}`);
}

/** Reads a row, charging one unit per column read. */
function readRow(c: Call, t: TableDef, key: string): PactValue | null {
  const row = c.ctx.storage.readRow(t.physical, key);
  c.charge(1);
  if (row !== null && row.kind === "object")
    c.ip.chargeGas(row.fields.size * GAS_READ_UNIT, c.span);
  return row;
}

function fieldsOf(row: PactValue): ReadonlyMap<string, PactValue> {
  return row.kind === "object" ? row.fields : new Map();
}

type WriteMode = "insert" | "update" | "write";

function writeNative(mode: WriteMode): NativeDef {
  return strict(
    mode,
    [3, 3],
    "table:table:<{row}> key:string object:object:<{row}> -> string",
    (c, args) => {
      const t = tableOf(c, args[0]);
      const key = keyOf(c, args[1]);
      const obj = objectOf(c, args[2]);
      guardTable(c, t, true);
      checkSchema(c, t, obj, mode === "update");
      const old = c.ctx.storage.readRow(t.physical, key);
      if (mode === "insert" && old !== null)
        throw c.fail("DbError", `Insert: row found for key ${key}`);
      if (mode === "update" && old === null)
        throw c.fail("DbError", `Update: no row found for key ${key}`);
      const merged = old === null ? makeObject(obj) : makeObject([...fieldsOf(old), ...obj]);
      c.ip.writeRow(t.physical, key, merged, c.span, obj);
      return pString("Write succeeded");
    },
  );
}

const createTable = strict(
  "create-table",
  [1, 1],
  "table:table:<{row}> -> string",
  (c, args) => {
    const t = tableOf(c, args[0]);
    const running = c.ip.moduleFrame();
    if (running === null || running.fq !== t.module.fq) acquireModuleAdmin(c.ip, t.module, c.span);
    // The reference charges the new table's name as a write (`WriteTable`).
    c.ip.chargeGas(memoryGas(textSize(t.physical)), c.span);
    if (!c.ctx.storage.createUserTable(t.physical, t.module.fq))
      throw c.fail("DbError", `createTable: table already exists: ${t.physical}`);
    return pString("TableCreated");
  },
  { topLevelOnly: true },
);

const describeTable = strict(
  "describe-table",
  [1, 1],
  "table:table:<{row}> -> object",
  (c, args) => {
    const t = tableOf(c, args[0]);
    return makeObject([
      ["name", pString(t.name)],
      ["module", pString(t.module.fq)],
      ["type", pString(`table{${t.schema?.name.split(".").pop() ?? "*"}}`)],
    ]);
  },
);

function project(c: Call, row: PactValue, cols: Value | undefined): PactValue {
  if (cols === undefined) return row;
  if (cols.kind !== "list") throw c.evalError(`${c.def.name}: expected a list of column names`);
  const fields = fieldsOf(row);
  const out: [string, PactValue][] = [];
  for (const k of cols.items) {
    if (k.kind !== "string") throw c.evalError(`${c.def.name}: column names are strings`);
    const v = fields.get(k.value);
    if (v !== undefined) out.push([k.value, v]);
  }
  return makeObject(out);
}

const read = strict(
  "read",
  [2, 3],
  "table:table:<{row}> key:string -> object:<{row}>, table:table:<{row}> key:string columns:[string] -> object:<{row}>",
  (c, args) => {
    const t = tableOf(c, args[0]);
    const key = keyOf(c, args[1]);
    guardTable(c, t, false);
    const row = readRow(c, t, key);
    if (row === null) throw c.fail("TxFailure", `read: row not found: ${key}`);
    return project(c, row, args[2]);
  },
);

const withRead = lazy(
  "with-read",
  [3, 3],
  "table:table:<{row}> key:string bindings:binding:<{row}> -> <a>",
  (c, args, env) => {
    const t = tableOf(c, c.eval(args[0] as Term, env));
    const key = keyOf(c, c.eval(args[1] as Term, env));
    const b = args[2] as Term;
    if (b.kind !== "binding") throw c.evalError('with-read: expected a binding { "col" := var }');
    guardTable(c, t, false);
    const row = readRow(c, t, key);
    if (row === null) throw c.fail("TxFailure", `with-read: row not found: ${key}`);
    return runBinding(c, fieldsOf(row), b, env, (k) => `Bad column in binding: ${k}`);
  },
);

const withDefaultRead = lazy(
  "with-default-read",
  [4, 4],
  "table:table:<{row}> key:string defaults:object:~<{row}> bindings:binding:~<{row}> -> <a>",
  (c, args, env) => {
    const t = tableOf(c, c.eval(args[0] as Term, env));
    const key = keyOf(c, c.eval(args[1] as Term, env));
    const defaults = objectOf(c, c.eval(args[2] as Term, env));
    const b = args[3] as Term;
    if (b.kind !== "binding")
      throw c.evalError('with-default-read: expected a binding { "col" := var }');
    guardTable(c, t, false);
    const row = readRow(c, t, key);
    return runBinding(
      c,
      row === null ? defaults : fieldsOf(row),
      b,
      env,
      (k) => `Bad column in binding: ${k}`,
    );
  },
);

const keys = strict("keys", [1, 1], "table:table:<{row}> -> [string]", (c, args) => {
  const t = tableOf(c, args[0]);
  guardTable(c, t, false);
  const ks = c.ctx.storage.keys(t.physical);
  c.charge(ks.length);
  return pList(ks.map(pString));
});

function boolOf(c: Call, v: Value): boolean {
  if (v.kind === "bool") return v.value;
  if (c.def.name === "fold-db")
    throw c.evalError(
      c.offChain()
        ? `Unexpected return value from fold-db query condition ${shownOf(v)}`
        : `Unexpected return value from fold-db query condition, received value of type: ${typeName(v)}`,
    );
  throw c.evalError(`${c.def.name}: the filter did not return a bool`);
}

const select = strict(
  "select",
  [2, 3],
  "table:table:<{row}> where:(row:object:<{row}> -> bool) -> [object:<{row}>], table:table:<{row}> columns:[string] where:(row:object:<{row}> -> bool) -> [object:<{row}>]",
  (c, args) => {
    const t = tableOf(c, args[0]);
    const cols = args.length === 3 ? args[1] : undefined;
    const f = fnOf(args[args.length - 1]);
    if (f === null) throw c.argsError(args);
    guardTable(c, t, false);
    const out: PactValue[] = [];
    for (const k of c.ctx.storage.keys(t.physical)) {
      const row = readRow(c, t, k);
      if (row !== null && boolOf(c, c.apply(f, [row]))) out.push(project(c, row, cols));
    }
    return pList(out);
  },
  { fnArgs: [1, 2] },
);

const foldDb = strict(
  "fold-db",
  [3, 3],
  "table:table:<{row}> query:(a:string b:object:<{row}> -> bool) consumer:(a:string b:object:<{row}> -> <b>) -> [<b>]",
  (c, args) => {
    const t = tableOf(c, args[0]);
    const q = fnOf(args[1]);
    const f = fnOf(args[2]);
    if (q === null || f === null) throw c.argsError(args);
    guardTable(c, t, false);
    const out: PactValue[] = [];
    for (const k of c.ctx.storage.keys(t.physical)) {
      const row = readRow(c, t, k);
      if (row === null) continue;
      if (boolOf(c, c.apply(q as Callable, [pString(k), row])))
        out.push(c.ip.data(c.apply(f as Callable, [pString(k), row]), c.span, "a fold-db result"));
    }
    return pList(out);
  },
  { fnArgs: [1, 2] },
);

function historyAllowed(c: Call): void {
  if (c.ctx.mode === "transactional")
    throw c.evalError(`${c.def.name}: Operation only permitted in local execution mode`);
}

function txIdOf(c: Call, v: Value | undefined): number {
  if (
    v === undefined ||
    v.kind !== "integer" ||
    v.value < 0n ||
    v.value > BigInt(Number.MAX_SAFE_INTEGER)
  )
    throw c.evalError(`${c.def.name}: expected a transaction id (a non-negative integer)`);
  return Number(v.value);
}

const txids = strict(
  "txids",
  [2, 2],
  "table:table:<{row}> txid:integer -> [integer]",
  (c, args) => {
    const t = tableOf(c, args[0]);
    const since = txIdOf(c, args[1]);
    historyAllowed(c);
    guardTable(c, t, false);
    return pList(c.ctx.storage.txids(t.physical, since).map((i) => pInteger(BigInt(i))));
  },
);

const txlog = strict(
  "txlog",
  [2, 2],
  "table:table:<{row}> txid:integer -> [object:*]",
  (c, args) => {
    const t = tableOf(c, args[0]);
    const id = txIdOf(c, args[1]);
    historyAllowed(c);
    guardTable(c, t, false);
    return pList(
      c.ctx.storage.txlog(t.physical, id).map((e) =>
        makeObject([
          ["table", pString(`USER_${t.physical}`)],
          ["key", pString(e.key)],
          ["value", e.value],
        ]),
      ),
    );
  },
);

const keylog = strict(
  "keylog",
  [3, 3],
  "table:table:<{row}> key:string txid:integer -> [object:*]",
  (c, args) => {
    const t = tableOf(c, args[0]);
    const key = keyOf(c, args[1]);
    const since = txIdOf(c, args[2]);
    historyAllowed(c);
    guardTable(c, t, false);
    return pList(
      c.ctx.storage.keylog(t.physical, key, since).map((e) =>
        makeObject([
          ["txid", pInteger(BigInt(e.txId))],
          ["value", e.value],
        ]),
      ),
    );
  },
);

export const databaseNatives: readonly NativeDef[] = [
  createTable,
  describeTable,
  writeNative("insert"),
  writeNative("update"),
  writeNative("write"),
  read,
  withRead,
  withDefaultRead,
  keys,
  select,
  foldDb,
  txids,
  txlog,
  keylog,
];
