/**
 * Facts about the reference's native functions that a module pays memory for
 * when it refers to them (Pact 4.13 keeps each native as a term holding its
 * documentation, examples and function types; a module's installation sizes
 * the natives its definitions name, `eval/moduleTermSize.ts`). For each core
 * native (not the repl's): the length in characters of its documentation,
 * the length of each example, and its function types as the reference prints
 * them (`[[argument, type]…], return`). Taken from Pact 4.13's function
 * reference (the documentation and types it prints for every native); the
 * examples of `zip`, `fold-db`, `continue` and `create-principal`, which that
 * reference prints differently, from the natives themselves.
 * @module
 */

/** A function type: its arguments (name, type as printed) and its return type. */
export type NativeFunTypeFact = readonly [readonly (readonly [string, string])[], string];

/** Documentation length, example lengths, function types. */
export type NativeDocFact = readonly [number, readonly number[], readonly NativeFunTypeFact[]];

/** The schemas the natives' types name: documentation length and fields (name, type). */
export const NATIVE_SCHEMA_FACTS: Readonly<
  Record<string, readonly [number, readonly (readonly [string, string])[]]>
> = {
  "public-chain-data": [
    48,
    [
      ["chain-id", "string"],
      ["block-height", "integer"],
      ["block-time", "time"],
      ["prev-block-hash", "string"],
      ["sender", "string"],
      ["gas-limit", "integer"],
      ["gas-price", "decimal"],
    ],
  ],
  "described-namespace": [
    56,
    [
      ["user-guard", "guard"],
      ["admin-guard", "guard"],
      ["namespace-name", "string"],
    ],
  ],
};

/** The native constants: documentation length and integer value (typed integer). */
export const NATIVE_CONSTANT_FACTS: Readonly<Record<string, readonly [number, bigint]>> = {
  CHARSET_ASCII: [35, 0n],
  CHARSET_LATIN1: [48, 1n],
};

export const NATIVE_DOC_FACTS: Readonly<Record<string, NativeDocFact>> = {
  "!=": [
    27,
    [22],
    [
      [
        [
          ["x", "<a[integer,string,time,decimal,bool,[<l>],object:<{o}>,keyset,guard,module{}]>"],
          ["y", "<a[integer,string,time,decimal,bool,[<l>],object:<{o}>,keyset,guard,module{}]>"],
        ],
        "bool",
      ],
    ],
  ],
  "&": [
    24,
    [7, 8],
    [
      [
        [
          ["x", "integer"],
          ["y", "integer"],
        ],
        "integer",
      ],
    ],
  ],
  "*": [
    16,
    [12, 7],
    [
      [
        [
          ["x", "<a[integer,decimal]>"],
          ["y", "<a[integer,decimal]>"],
        ],
        "<a[integer,decimal]>",
      ],
      [
        [
          ["x", "<a[integer,decimal]>"],
          ["y", "<b[integer,decimal]>"],
        ],
        "decimal",
      ],
    ],
  ],
  "+": [
    57,
    [7, 11, 18, 15, 41],
    [
      [
        [
          ["x", "<a[integer,decimal]>"],
          ["y", "<a[integer,decimal]>"],
        ],
        "<a[integer,decimal]>",
      ],
      [
        [
          ["x", "<a[integer,decimal]>"],
          ["y", "<b[integer,decimal]>"],
        ],
        "decimal",
      ],
      [
        [
          ["x", "<a[string,[<l>],object:<{o}>]>"],
          ["y", "<a[string,[<l>],object:<{o}>]>"],
        ],
        "<a[string,[<l>],object:<{o}>]>",
      ],
    ],
  ],
  "-": [
    31,
    [7, 7],
    [
      [
        [
          ["x", "<a[integer,decimal]>"],
          ["y", "<a[integer,decimal]>"],
        ],
        "<a[integer,decimal]>",
      ],
      [
        [
          ["x", "<a[integer,decimal]>"],
          ["y", "<b[integer,decimal]>"],
        ],
        "decimal",
      ],
      [[["x", "<a[integer,decimal]>"]], "<a[integer,decimal]>"],
    ],
  ],
  "/": [
    14,
    [12, 7],
    [
      [
        [
          ["x", "<a[integer,decimal]>"],
          ["y", "<a[integer,decimal]>"],
        ],
        "<a[integer,decimal]>",
      ],
      [
        [
          ["x", "<a[integer,decimal]>"],
          ["y", "<b[integer,decimal]>"],
        ],
        "decimal",
      ],
    ],
  ],
  "<": [
    14,
    [7, 13, 15],
    [
      [
        [
          ["x", "<a[integer,decimal,string,time]>"],
          ["y", "<a[integer,decimal,string,time]>"],
        ],
        "bool",
      ],
    ],
  ],
  "<=": [
    15,
    [8, 14, 16],
    [
      [
        [
          ["x", "<a[integer,decimal,string,time]>"],
          ["y", "<a[integer,decimal,string,time]>"],
        ],
        "bool",
      ],
    ],
  ],
  "=": [
    162,
    [19, 14, 22],
    [
      [
        [
          ["x", "<a[integer,string,time,decimal,bool,[<l>],object:<{o}>,keyset,guard,module{}]>"],
          ["y", "<a[integer,string,time,decimal,bool,[<l>],object:<{o}>,keyset,guard,module{}]>"],
        ],
        "bool",
      ],
    ],
  ],
  ">": [
    14,
    [7, 13, 15],
    [
      [
        [
          ["x", "<a[integer,decimal,string,time]>"],
          ["y", "<a[integer,decimal,string,time]>"],
        ],
        "bool",
      ],
    ],
  ],
  ">=": [
    15,
    [8, 14, 16],
    [
      [
        [
          ["x", "<a[integer,decimal,string,time]>"],
          ["y", "<a[integer,decimal,string,time]>"],
        ],
        "bool",
      ],
    ],
  ],
  "^": [
    19,
    [7],
    [
      [
        [
          ["x", "<a[integer,decimal]>"],
          ["y", "<a[integer,decimal]>"],
        ],
        "<a[integer,decimal]>",
      ],
      [
        [
          ["x", "<a[integer,decimal]>"],
          ["y", "<b[integer,decimal]>"],
        ],
        "decimal",
      ],
    ],
  ],
  abs: [
    20,
    [15],
    [
      [[["x", "decimal"]], "decimal"],
      [[["x", "integer"]], "integer"],
    ],
  ],
  "add-time": [
    55,
    [43],
    [
      [
        [
          ["time", "time"],
          ["seconds", "decimal"],
        ],
        "time",
      ],
      [
        [
          ["time", "time"],
          ["seconds", "integer"],
        ],
        "time",
      ],
    ],
  ],
  and: [
    33,
    [16],
    [
      [
        [
          ["x", "bool"],
          ["y", "bool"],
        ],
        "bool",
      ],
    ],
  ],
  "and?": [
    84,
    [23],
    [
      [
        [
          ["a", "x:<r> -> bool"],
          ["b", "x:<r> -> bool"],
          ["value", "<r>"],
        ],
        "bool",
      ],
    ],
  ],
  at: [
    57,
    [14, 33],
    [
      [
        [
          ["idx", "integer"],
          ["list", "[<l>]"],
        ],
        "<a>",
      ],
      [
        [
          ["idx", "string"],
          ["object", "object:<{o}>"],
        ],
        "<a>",
      ],
    ],
  ],
  "base64-decode": [34, [34], [[[["string", "string"]], "string"]]],
  "base64-encode": [32, [30], [[[["string", "string"]], "string"]]],
  bind: [
    104,
    [52],
    [
      [
        [
          ["src", "object:<{row}>"],
          ["binding", "binding:<{row}>"],
        ],
        "<a>",
      ],
    ],
  ],
  ceiling: [
    73,
    [13, 21],
    [
      [
        [
          ["x", "decimal"],
          ["prec", "integer"],
        ],
        "decimal",
      ],
      [[["x", "decimal"]], "integer"],
    ],
  ],
  "chain-data": [174, [12], [[[], "object:{public-chain-data}"]]],
  compose: [
    74,
    [60],
    [
      [
        [
          ["x", "x:<a> -> <b>"],
          ["y", "x:<b> -> <c>"],
          ["value", "<a>"],
        ],
        "<c>",
      ],
    ],
  ],
  "compose-capability": [483, [40], [[[["capability", " -> bool"]], "bool"]]],
  concat: [90, [22, 44], [[[["str-list", "[string]"]], "string"]]],
  constantly: [
    49,
    [34],
    [
      [
        [
          ["value", "<a>"],
          ["ignore1", "<b>"],
        ],
        "<a>",
      ],
      [
        [
          ["value", "<a>"],
          ["ignore1", "<b>"],
          ["ignore2", "<c>"],
        ],
        "<a>",
      ],
      [
        [
          ["value", "<a>"],
          ["ignore1", "<b>"],
          ["ignore2", "<c>"],
          ["ignore3", "<d>"],
        ],
        "<a>",
      ],
    ],
  ],
  contains: [
    70,
    [20, 43, 25],
    [
      [
        [
          ["value", "<a>"],
          ["list", "[<a>]"],
        ],
        "bool",
      ],
      [
        [
          ["key", "<a>"],
          ["object", "object:<{o}>"],
        ],
        "bool",
      ],
      [
        [
          ["value", "string"],
          ["string", "string"],
        ],
        "bool",
      ],
    ],
  ],
  continue: [45, [12], [[[["value", "*"]], "*"]]],
  "create-capability-guard": [62, [43], [[[["capability", " -> bool"]], "guard"]]],
  "create-capability-pact-guard": [118, [45], [[[["capability", " -> bool"]], "guard"]]],
  "create-module-guard": [73, [], [[[["name", "string"]], "guard"]]],
  "create-pact-guard": [287, [], [[[["name", "string"]], "guard"]]],
  "create-principal": [56, [40], [[[["guard", "guard"]], "string"]]],
  "create-table": [19, [23], [[[["table", "table:<{row}>"]], "string"]]],
  "create-user-guard": [147, [], [[[["closure", " -> bool"]], "guard"]]],
  days: [
    32,
    [49],
    [
      [[["n", "decimal"]], "decimal"],
      [[["n", "integer"]], "decimal"],
    ],
  ],
  dec: [59, [7], [[[["x", "integer"]], "decimal"]]],
  "decrypt-cc20p1305": [
    486,
    [59],
    [
      [
        [
          ["ciphertext", "string"],
          ["nonce", "string"],
          ["aad", "string"],
          ["mac", "string"],
          ["public-key", "string"],
          ["secret-key", "string"],
        ],
        "string",
      ],
    ],
  ],
  "define-keyset": [
    208,
    [52],
    [
      [
        [
          ["name", "string"],
          ["keyset", "string"],
        ],
        "string",
      ],
      [[["name", "string"]], "string"],
    ],
  ],
  "define-namespace": [
    238,
    [79],
    [
      [
        [
          ["namespace", "string"],
          ["user-guard", "guard"],
          ["admin-guard", "guard"],
        ],
        "string",
      ],
    ],
  ],
  "describe-keyset": [24, [], [[[["keyset", "string"]], "object:*"]]],
  "describe-module": [103, [28], [[[["module", "string"]], "object:*"]]],
  "describe-namespace": [125, [34], [[[["ns", "string"]], "object:{described-namespace}"]]],
  "describe-table": [102, [25], [[[["table", "table:<{row}>"]], "object:*"]]],
  "diff-time": [
    54,
    [69],
    [
      [
        [
          ["time1", "time"],
          ["time2", "time"],
        ],
        "decimal",
      ],
    ],
  ],
  distinct: [120, [24], [[[["values", "[<a>]"]], "[<a>]"]]],
  drop: [
    196,
    [16, 24, 47],
    [
      [
        [
          ["count", "integer"],
          ["list", "<a[[<l>],string]>"],
        ],
        "<a[[<l>],string]>",
      ],
      [
        [
          ["keys", "[string]"],
          ["object", "object:<{o}>"],
        ],
        "object:<{o}>",
      ],
    ],
  ],
  "emit-event": [110, [42], [[[["capability", " -> bool"]], "bool"]]],
  enforce: [
    84,
    [39],
    [
      [
        [
          ["test", "bool"],
          ["msg", "string"],
        ],
        "bool",
      ],
    ],
  ],
  "enforce-guard": [
    80,
    [29, 25],
    [
      [[["guard", "guard"]], "bool"],
      [[["keysetname", "string"]], "bool"],
    ],
  ],
  "enforce-keyset": [
    80,
    [30, 26],
    [
      [[["guard", "guard"]], "bool"],
      [[["keysetname", "string"]], "bool"],
    ],
  ],
  "enforce-one": [
    123,
    [112],
    [
      [
        [
          ["msg", "string"],
          ["tests", "[bool]"],
        ],
        "bool",
      ],
    ],
  ],
  "enforce-pact-version": [
    215,
    [28],
    [
      [[["min-version", "string"]], "bool"],
      [
        [
          ["min-version", "string"],
          ["max-version", "string"],
        ],
        "bool",
      ],
    ],
  ],
  "enforce-verifier": [36, [26], [[[["verifiername", "string"]], "bool"]]],
  enumerate: [
    697,
    [18, 16, 16],
    [
      [
        [
          ["from", "integer"],
          ["to", "integer"],
          ["inc", "integer"],
        ],
        "[integer]",
      ],
      [
        [
          ["from", "integer"],
          ["to", "integer"],
        ],
        "[integer]",
      ],
    ],
  ],
  exp: [9, [17], [[[["x", "<a[integer,decimal]>"]], "<a[integer,decimal]>"]]],
  filter: [
    94,
    [60],
    [
      [
        [
          ["app", "x:<a> -> bool"],
          ["list", "[<a>]"],
        ],
        "[<a>]",
      ],
    ],
  ],
  floor: [
    75,
    [11, 19],
    [
      [
        [
          ["x", "decimal"],
          ["prec", "integer"],
        ],
        "decimal",
      ],
      [[["x", "decimal"]], "integer"],
    ],
  ],
  fold: [
    87,
    [23],
    [
      [
        [
          ["app", "x:<a> y:<b> -> <a>"],
          ["init", "<a>"],
          ["list", "[<b>]"],
        ],
        "<a>",
      ],
    ],
  ],
  "fold-db": [
    168,
    [138],
    [
      [
        [
          ["table", "table:<{row}>"],
          ["qry", "a:string b:object:<{row}> -> bool"],
          ["consumer", "a:string b:object:<{row}> -> <b>"],
        ],
        "[<b>]",
      ],
    ],
  ],
  format: [
    40,
    [39],
    [
      [
        [
          ["template", "string"],
          ["vars", "[*]"],
        ],
        "string",
      ],
    ],
  ],
  "format-time": [
    108,
    [48],
    [
      [
        [
          ["format", "string"],
          ["time", "time"],
        ],
        "string",
      ],
    ],
  ],
  hash: [213, [14, 18], [[[["value", "<a>"]], "string"]]],
  "hash-keccak256": [131, [19, 21, 699, 764], [[[["bytes", "[string]"]], "string"]]],
  "hash-poseidon": [
    73,
    [17, 19, 27, 31],
    [
      [[["i", "integer"]], "integer"],
      [
        [
          ["i", "integer"],
          ["j", "integer"],
        ],
        "integer",
      ],
      [
        [
          ["i", "integer"],
          ["j", "integer"],
          ["k", "integer"],
        ],
        "integer",
      ],
      [
        [
          ["i", "integer"],
          ["j", "integer"],
          ["k", "integer"],
          ["l", "integer"],
        ],
        "integer",
      ],
      [
        [
          ["i", "integer"],
          ["j", "integer"],
          ["k", "integer"],
          ["l", "integer"],
          ["m", "integer"],
        ],
        "integer",
      ],
      [
        [
          ["i", "integer"],
          ["j", "integer"],
          ["k", "integer"],
          ["l", "integer"],
          ["m", "integer"],
          ["n", "integer"],
        ],
        "integer",
      ],
      [
        [
          ["i", "integer"],
          ["j", "integer"],
          ["k", "integer"],
          ["l", "integer"],
          ["m", "integer"],
          ["n", "integer"],
          ["o", "integer"],
        ],
        "integer",
      ],
      [
        [
          ["i", "integer"],
          ["j", "integer"],
          ["k", "integer"],
          ["l", "integer"],
          ["m", "integer"],
          ["n", "integer"],
          ["o", "integer"],
          ["p", "integer"],
        ],
        "integer",
      ],
    ],
  ],
  hours: [
    33,
    [50],
    [
      [[["n", "decimal"]], "decimal"],
      [[["n", "integer"]], "decimal"],
    ],
  ],
  "hyperlane-decode-token-message": [125, [210], [[[["x", "string"]], "object:*"]]],
  "hyperlane-encode-token-message": [256, [226], [[[["x", "string"]], "object:*"]]],
  "hyperlane-message-id": [49, [401], [[[["x", "object:*"]], "string"]]],
  identity: [22, [24], [[[["value", "<a>"]], "<a>"]]],
  if: [
    60,
    [51],
    [
      [
        [
          ["cond", "bool"],
          ["then", "<a>"],
          ["else", "<a>"],
        ],
        "<a>",
      ],
    ],
  ],
  insert: [
    91,
    [67],
    [
      [
        [
          ["table", "table:<{row}>"],
          ["key", "string"],
          ["object", "object:<{row}>"],
        ],
        "string",
      ],
    ],
  ],
  "install-capability": [1135, [45], [[[["capability", " -> bool"]], "string"]]],
  "int-to-str": [
    149,
    [21, 21],
    [
      [
        [
          ["base", "integer"],
          ["val", "integer"],
        ],
        "string",
      ],
    ],
  ],
  "is-charset": [
    269,
    [40, 43, 62],
    [
      [
        [
          ["charset", "integer"],
          ["input", "string"],
        ],
        "bool",
      ],
    ],
  ],
  "is-principal": [88, [147], [[[["principal", "string"]], "bool"]]],
  keylog: [
    105,
    [35],
    [
      [
        [
          ["table", "table:<{row}>"],
          ["key", "string"],
          ["txid", "integer"],
        ],
        "[object:*]",
      ],
    ],
  ],
  keys: [25, [15], [[[["table", "table:<{row}>"]], "[string]"]]],
  "keys-2": [
    61,
    [12],
    [
      [
        [
          ["count", "integer"],
          ["matched", "integer"],
        ],
        "bool",
      ],
    ],
  ],
  "keys-all": [
    54,
    [14],
    [
      [
        [
          ["count", "integer"],
          ["matched", "integer"],
        ],
        "bool",
      ],
    ],
  ],
  "keys-any": [
    66,
    [15],
    [
      [
        [
          ["count", "integer"],
          ["matched", "integer"],
        ],
        "bool",
      ],
    ],
  ],
  "keyset-ref-guard": [217, [], [[[["keyset-ref", "string"]], "guard"]]],
  length: [65, [16, 19, 27], [[[["x", "<a[[<l>],string,object:<{o}>]>"]], "integer"]]],
  list: [75, [12], [[[["elems", "*"]], "[*]"]]],
  "list-modules": [35, [], [[[], "[string]"]]],
  ln: [17, [17], [[[["x", "<a[integer,decimal]>"]], "<a[integer,decimal]>"]]],
  log: [
    16,
    [11],
    [
      [
        [
          ["x", "<a[integer,decimal]>"],
          ["y", "<a[integer,decimal]>"],
        ],
        "<a[integer,decimal]>",
      ],
      [
        [
          ["x", "<a[integer,decimal]>"],
          ["y", "<b[integer,decimal]>"],
        ],
        "decimal",
      ],
    ],
  ],
  "make-list": [
    44,
    [18],
    [
      [
        [
          ["length", "integer"],
          ["value", "<a>"],
        ],
        "[<a>]",
      ],
    ],
  ],
  map: [
    67,
    [19],
    [
      [
        [
          ["app", "x:<b> -> <a>"],
          ["list", "[<b>]"],
        ],
        "[<a>]",
      ],
    ],
  ],
  minutes: [
    36,
    [52],
    [
      [[["n", "decimal"]], "decimal"],
      [[["n", "integer"]], "decimal"],
    ],
  ],
  mod: [
    11,
    [10],
    [
      [
        [
          ["x", "integer"],
          ["y", "integer"],
        ],
        "integer",
      ],
    ],
  ],
  namespace: [380, [25], [[[["namespace", "string"]], "string"]]],
  not: [12, [13], [[[["x", "bool"]], "bool"]]],
  "not?": [
    60,
    [16],
    [
      [
        [
          ["app", "x:<r> -> bool"],
          ["value", "<r>"],
        ],
        "bool",
      ],
    ],
  ],
  or: [
    33,
    [15],
    [
      [
        [
          ["x", "bool"],
          ["y", "bool"],
        ],
        "bool",
      ],
    ],
  ],
  "or?": [
    83,
    [22],
    [
      [
        [
          ["a", "x:<r> -> bool"],
          ["b", "x:<r> -> bool"],
          ["value", "<r>"],
        ],
        "bool",
      ],
    ],
  ],
  "pact-id": [66, [], [[[], "string"]]],
  "pact-version": [34, [14], [[[], "string"]]],
  "pairing-check": [
    95,
    [],
    [
      [
        [
          ["points-g1", "[<a>]"],
          ["points-g2", "[<b>]"],
        ],
        "bool",
      ],
    ],
  ],
  "parse-time": [
    123,
    [30],
    [
      [
        [
          ["format", "string"],
          ["utcval", "string"],
        ],
        "time",
      ],
    ],
  ],
  "point-add": [
    90,
    [46],
    [
      [
        [
          ["type", "string"],
          ["point1", "<a>"],
          ["point2", "<a>"],
        ],
        "<a>",
      ],
    ],
  ],
  "poseidon-hash-hack-a-chain": [
    109,
    [30, 32, 40, 44],
    [
      [
        [
          ["i", "integer"],
          ["j", "integer"],
          ["k", "integer"],
          ["l", "integer"],
          ["m", "integer"],
          ["n", "integer"],
          ["o", "integer"],
          ["p", "integer"],
        ],
        "integer",
      ],
    ],
  ],
  read: [
    92,
    [34],
    [
      [
        [
          ["table", "table:<{row}>"],
          ["key", "string"],
        ],
        "object:<{row}>",
      ],
      [
        [
          ["table", "table:<{row}>"],
          ["key", "string"],
          ["columns", "[string]"],
        ],
        "object:<{row}>",
      ],
    ],
  ],
  "read-decimal": [80, [87], [[[["key", "string"]], "decimal"]]],
  "read-integer": [80, [20], [[[["key", "string"]], "integer"]]],
  "read-keyset": [125, [28], [[[["key", "string"]], "keyset"]]],
  "read-msg": [
    216,
    [87],
    [
      [[], "<a>"],
      [[["key", "string"]], "<a>"],
    ],
  ],
  "read-string": [79, [22], [[[["key", "string"]], "string"]]],
  remove: [
    33,
    [37],
    [
      [
        [
          ["key", "string"],
          ["object", "object:<{o}>"],
        ],
        "object:<{o}>",
      ],
    ],
  ],
  "require-capability": [90, [40], [[[["capability", " -> bool"]], "bool"]]],
  resume: [161, [], [[[["binding", "binding:<{r}>"]], "<a>"]]],
  reverse: [13, [17], [[[["list", "[<a>]"]], "[<a>]"]]],
  round: [
    90,
    [11, 19],
    [
      [
        [
          ["x", "decimal"],
          ["prec", "integer"],
        ],
        "decimal",
      ],
      [[["x", "decimal"]], "integer"],
    ],
  ],
  "scalar-mult": [
    65,
    [34],
    [
      [
        [
          ["type", "string"],
          ["point1", "<a>"],
          ["scalar", "integer"],
        ],
        "<a>",
      ],
    ],
  ],
  select: [
    108,
    [65, 36],
    [
      [
        [
          ["table", "table:<{row}>"],
          ["where", "row:object:<{row}> -> bool"],
        ],
        "[object:<{row}>]",
      ],
      [
        [
          ["table", "table:<{row}>"],
          ["columns", "[string]"],
          ["where", "row:object:<{row}> -> bool"],
        ],
        "[object:<{row}>]",
      ],
    ],
  ],
  shift: [
    206,
    [13, 14, 14, 15],
    [
      [
        [
          ["x", "integer"],
          ["y", "integer"],
        ],
        "integer",
      ],
    ],
  ],
  sort: [
    83,
    [14, 63],
    [
      [[["values", "[<a>]"]], "[<a>]"],
      [
        [
          ["fields", "[string]"],
          ["values", "[object:<{o}>]"],
        ],
        "[object:<{o}>]",
      ],
    ],
  ],
  sqrt: [17, [9], [[[["x", "<a[integer,decimal]>"]], "<a[integer,decimal]>"]]],
  "str-to-int": [
    248,
    [30, 21, 21],
    [
      [[["str-val", "string"]], "integer"],
      [
        [
          ["base", "integer"],
          ["str-val", "string"],
        ],
        "integer",
      ],
    ],
  ],
  "str-to-list": [56, [21, 44], [[[["str", "string"]], "[string]"]]],
  take: [
    196,
    [15, 24, 47],
    [
      [
        [
          ["count", "integer"],
          ["list", "<a[[<l>],string]>"],
        ],
        "<a[[<l>],string]>",
      ],
      [
        [
          ["keys", "[string]"],
          ["object", "object:<{o}>"],
        ],
        "object:<{o}>",
      ],
    ],
  ],
  time: [70, [29], [[[["utcval", "string"]], "time"]]],
  try: [
    228,
    [53, 122],
    [
      [
        [
          ["default", "<a>"],
          ["action", "<a>"],
        ],
        "<a>",
      ],
    ],
  ],
  "tx-hash": [47, [9], [[[], "string"]]],
  txids: [
    62,
    [26],
    [
      [
        [
          ["table", "table:<{row}>"],
          ["txid", "integer"],
        ],
        "[integer]",
      ],
    ],
  ],
  txlog: [
    58,
    [26],
    [
      [
        [
          ["table", "table:<{row}>"],
          ["txid", "integer"],
        ],
        "[object:*]",
      ],
    ],
  ],
  typeof: [28, [16], [[[["x", "<a>"]], "string"]]],
  "typeof-principal": [127, [86], [[[["principal", "string"]], "string"]]],
  update: [
    91,
    [86],
    [
      [
        [
          ["table", "table:<{row}>"],
          ["key", "string"],
          ["object", "object:~<{row}>"],
        ],
        "string",
      ],
    ],
  ],
  "validate-keypair": [
    106,
    [33],
    [
      [
        [
          ["public", "string"],
          ["secret", "string"],
        ],
        "bool",
      ],
    ],
  ],
  "validate-principal": [
    55,
    [81],
    [
      [
        [
          ["guard", "guard"],
          ["principal", "string"],
        ],
        "bool",
      ],
    ],
  ],
  "verify-spv": [
    241,
    [39],
    [
      [
        [
          ["type", "string"],
          ["payload", "object:<in>"],
        ],
        "object:<out>",
      ],
    ],
  ],
  where: [
    72,
    [80],
    [
      [
        [
          ["field", "string"],
          ["app", "x:<a> -> bool"],
          ["value", "object:<{row}>"],
        ],
        "bool",
      ],
    ],
  ],
  "with-capability": [
    857,
    [76],
    [
      [
        [
          ["capability", " -> bool"],
          ["body", "[*]"],
        ],
        "<a>",
      ],
    ],
  ],
  "with-default-read": [
    187,
    [145],
    [
      [
        [
          ["table", "table:<{row}>"],
          ["key", "string"],
          ["defaults", "object:~<{row}>"],
          ["bindings", "binding:~<{row}>"],
        ],
        "<a>",
      ],
    ],
  ],
  "with-read": [
    106,
    [106],
    [
      [
        [
          ["table", "table:<{row}>"],
          ["key", "string"],
          ["bindings", "binding:<{row}>"],
        ],
        "<a>",
      ],
    ],
  ],
  write: [
    51,
    [40],
    [
      [
        [
          ["table", "table:<{row}>"],
          ["key", "string"],
          ["object", "object:<{row}>"],
        ],
        "string",
      ],
    ],
  ],
  xor: [
    24,
    [12, 10],
    [
      [
        [
          ["x", "integer"],
          ["y", "integer"],
        ],
        "integer",
      ],
    ],
  ],
  yield: [
    195,
    [27, 43],
    [
      [[["object", "object:<{y}>"]], "object:<{y}>"],
      [
        [
          ["object", "object:<{y}>"],
          ["target-chain", "string"],
        ],
        "object:<{y}>",
      ],
    ],
  ],
  zip: [
    112,
    [29, 27, 27],
    [
      [
        [
          ["f", "x:<a> y:<b> -> <c>"],
          ["list1", "[<a>]"],
          ["list2", "[<b>]"],
        ],
        "[<c>]",
      ],
    ],
  ],
  "|": [
    23,
    [7, 8],
    [
      [
        [
          ["x", "integer"],
          ["y", "integer"],
        ],
        "integer",
      ],
    ],
  ],
  "~": [22, [6], [[[["x", "integer"]], "integer"]]],
};
