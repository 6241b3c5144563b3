/**
 * The hostile corpus: contract programs written to make a node work long or
 * allocate much for little gas (issue 15). Each one is plain exec code that a
 * command may carry; `npm run bench -- hostile` times them against the gas
 * they are charged, the tests run them at a small gas limit, and the API
 * tests send them through /send while mining. Grow it with every new way
 * found to make gas and time part company.
 */

/** A string of 2^n "a"s built by doubling (each step one `+`). */
function doubled(n: number, seed = '"a"'): string {
  return `(fold (lambda (s x) (+ s s)) ${seed} (enumerate 1 ${n}))`;
}

/** A module with one table, for the programs that write rows (installing it costs ~60,000 gas). */
const TABLE_MODULE =
  "(module hostile-m G (defcap G () true) (defschema row v:string) (deftable tbl:{row}) (defun w (k v) (write tbl k {'v: v})) (defun r (k) (at 'v (read tbl k))))(create-table tbl)";

export type HostileProgram = { readonly name: string; readonly code: string };

export const HOSTILE_PROGRAMS: readonly HostileProgram[] = [
  // Issue 15, item 1: a 16 MiB string hashed 40 times.
  {
    name: "double-then-hash",
    code: `(let ((s ${doubled(24)})) (fold (lambda (a x) (hash s)) "" (enumerate 1 40)))`,
  },
  // Issue 15, item 2: a string past V8's longest ("Invalid string length").
  { name: "double-past-max-length", code: `(length ${doubled(29)})` },
  { name: "double-list", code: `(length (fold (lambda (l x) (+ l l)) [1] (enumerate 1 28)))` },
  { name: "hash-big-list", code: '(hash (make-list 1000000 "abcdefghij"))' },
  {
    name: "shared-nesting-hash",
    code: '(let* ((a (make-list 100 "abcdefghij")) (b (make-list 100 a)) (c (make-list 100 b)) (d (make-list 100 c))) (hash d))',
  },
  {
    name: "shared-nesting-result",
    code: '(let* ((a (make-list 100 "abcdefghij")) (b (make-list 100 a)) (c (make-list 100 b))) (make-list 100 c))',
  },
  {
    name: "shared-nesting-format",
    code: '(let* ((a (make-list 100 "abcdefghij")) (b (make-list 100 a)) (c (make-list 100 b))) (format "{}" [c]))',
  },
  {
    name: "sort-integers",
    code: "(length (sort (map (lambda (x) (- 0 x)) (enumerate 1 200000))))",
  },
  {
    name: "sort-long-strings",
    code: `(let ((s ${doubled(20)})) (length (sort (map (lambda (x) (+ s (int-to-str 10 x))) (enumerate 1 3000)))))`,
  },
  { name: "distinct", code: "(length (distinct (enumerate 1 20000)))" },
  { name: "deep-fold", code: "(fold (lambda (a x) (+ a x)) 0 (enumerate 1 2000000))" },
  {
    name: "format-big-list",
    code: '(let ((l (make-list 100000 "abcdefghij"))) (fold (lambda (a x) (length (format "{}" [l]))) 0 (enumerate 1 100)))',
  },
  { name: "str-to-list", code: `(length (str-to-list ${doubled(22)}))` },
  {
    name: "object-merge",
    code: `(let ((o {${Array.from({ length: 2000 }, (_, i) => `"k${i}": ${i}`).join(", ")}})) (fold (lambda (a x) (length (+ o o))) 0 (enumerate 1 10000)))`,
  },
  {
    name: "nested-lets",
    code: `(fold (lambda (a x) ${"(let ((y x)) ".repeat(200)}y${")".repeat(200)}) 0 (enumerate 1 100000))`,
  },
  {
    name: "equal-big-lists",
    code: '(let ((l (make-list 200000 "abc")) (m (make-list 200000 "abc"))) (fold (lambda (a x) (= l m)) true (enumerate 1 1000)))',
  },
  {
    name: "equal-long-strings",
    code: `(let ((s ${doubled(22)}) (t ${doubled(22)})) (fold (lambda (a x) (= s t)) true (enumerate 1 1000)))`,
  },
  {
    name: "contains-big-list",
    code: "(let ((l (enumerate 1 200000))) (fold (lambda (a x) (contains -1 l)) true (enumerate 1 1000)))",
  },
  {
    name: "contains-long-string",
    code: `(let ((s ${doubled(22)})) (fold (lambda (a x) (contains "b" s)) true (enumerate 1 1000)))`,
  },
  {
    name: "take-big-list",
    code: "(let ((l (enumerate 1 200000))) (length (fold (lambda (a x) (take 199999 l)) [] (enumerate 1 1000))))",
  },
  {
    name: "reverse-big-list",
    code: "(let ((l (enumerate 1 200000))) (length (fold (lambda (a x) (reverse l)) [] (enumerate 1 1000))))",
  },
  {
    name: "length-astral-string",
    code: `(let ((s ${doubled(20, '"\u{1F600}"')})) (fold (lambda (a x) (length s)) 0 (enumerate 1 1000)))`,
  },
  {
    name: "is-charset-long-string",
    code: `(let ((s ${doubled(22)})) (fold (lambda (a x) (is-charset CHARSET_ASCII s)) true (enumerate 1 1000)))`,
  },
  {
    name: "base64-long-string",
    code: `(let ((s ${doubled(22)})) (fold (lambda (a x) (length (base64-encode s))) 0 (enumerate 1 1000)))`,
  },
  {
    name: "concat-big-list",
    code: '(let ((l (make-list 500000 "abcdefghij"))) (fold (lambda (a x) (length (concat l))) 0 (enumerate 1 100)))',
  },
  {
    name: "compare-long-strings",
    code: `(let ((s ${doubled(22)}) (t ${doubled(22)})) (fold (lambda (a x) (< s t)) true (enumerate 1 1000)))`,
  },
  { name: "enumerate-huge", code: "(length (enumerate 1 9000000))" },
  { name: "make-list-huge", code: "(length (make-list 9000000 1))" },
  { name: "integer-squaring", code: "(fold (lambda (a x) (* a a)) 3 (enumerate 1 40))" },
  { name: "integer-shift", code: "(shift 1 100000000)" },
  { name: "decimal-squaring", code: "(fold (lambda (a x) (* a a)) 10.5 (enumerate 1 40))" },
  {
    name: "int-to-str-big",
    code: "(let ((n (^ 7 100000))) (fold (lambda (a x) (length (int-to-str 10 n))) 0 (enumerate 1 1000)))",
  },
  { name: "map-identity", code: "(length (map (lambda (x) x) (enumerate 1 2000000)))" },
  {
    name: "filter-zip",
    code: "(length (zip (+) (filter (lambda (x) true) (enumerate 1 1000000)) (enumerate 1 1000000)))",
  },
  {
    name: "table-writes",
    code: `${TABLE_MODULE}(let ((s ${doubled(18)})) (fold (lambda (a x) (hostile-m.w (int-to-str 10 x) s)) "" (enumerate 1 1000)))`,
  },
  {
    name: "table-reads",
    code: `${TABLE_MODULE}(hostile-m.w "k" ${doubled(16)})(fold (lambda (a x) (length (hostile-m.r "k"))) 0 (enumerate 1 100000))`,
  },
  // Sized to fit a 150,000 gas limit, so that the time measured is the work itself.
  {
    name: "fit-hash-string",
    code: `(let ((s ${doubled(17)})) (fold (lambda (a x) (hash s)) "" (enumerate 1 15)))`,
  },
  {
    name: "fit-hash-list",
    code: '(let ((l (make-list 2000 "abcdefghij"))) (fold (lambda (a x) (hash l)) "" (enumerate 1 50)))',
  },
  { name: "fit-sort", code: "(length (sort (map (lambda (x) (- 0 x)) (enumerate 1 15000))))" },
  {
    name: "fit-sort-objects",
    code: "(length (sort ['k] (map (lambda (x) {'k: (- 0 x)}) (enumerate 1 8000))))",
  },
  { name: "fit-distinct", code: "(length (distinct (enumerate 1 1000)))" },
  { name: "fit-fold", code: "(fold (lambda (a x) (+ a x)) 0 (enumerate 1 30000))" },
  { name: "fit-map-identity", code: "(length (map (lambda (x) x) (enumerate 1 50000)))" },
  {
    name: "fit-nested-lets",
    code: `(fold (lambda (a x) ${"(let ((y x)) ".repeat(100)}y${")".repeat(100)}) 0 (enumerate 1 1200))`,
  },
  {
    name: "fit-format",
    code: '(let ((l (make-list 1000 "abcdefghij"))) (fold (lambda (a x) (length (format "{}" [l]))) 0 (enumerate 1 100)))',
  },
  {
    name: "fit-equal-lists",
    code: '(let ((l (make-list 1000 "abc")) (m (make-list 1000 "abc"))) (fold (lambda (a x) (= l m)) true (enumerate 1 150)))',
  },
  {
    name: "fit-equal-strings",
    code: `(let ((s ${doubled(17)}) (t ${doubled(17)})) (fold (lambda (a x) (= s t)) true (enumerate 1 12)))`,
  },
  {
    name: "fit-contains-list",
    code: "(let ((l (enumerate 1 1000))) (fold (lambda (a x) (contains -1 l)) true (enumerate 1 100)))",
  },
  {
    name: "fit-contains-string",
    code: `(let ((s ${doubled(17)})) (fold (lambda (a x) (contains "b" s)) true (enumerate 1 12)))`,
  },
  { name: "fit-str-to-list", code: `(length (str-to-list ${doubled(16)}))` },
  {
    name: "fit-concat",
    code: '(let ((l (make-list 5000 "abcdefghij"))) (fold (lambda (a x) (length (concat l))) 0 (enumerate 1 20)))',
  },
  {
    name: "fit-take",
    code: "(let ((l (enumerate 1 5000))) (length (fold (lambda (a x) (take 4999 l)) [] (enumerate 1 150))))",
  },
  {
    name: "fit-length-astral",
    code: `(let ((s ${doubled(15, '"\u{1F600}"')})) (fold (lambda (a x) (length s)) 0 (enumerate 1 60)))`,
  },
  {
    name: "fit-base64",
    code: `(let ((s ${doubled(16)})) (fold (lambda (a x) (length (base64-decode (base64-encode s)))) 0 (enumerate 1 10)))`,
  },
  {
    name: "fit-integers",
    code: "(let ((n (^ 7 20000))) (fold (lambda (a x) (* n n)) 0 (enumerate 1 100)))",
  },
  {
    name: "fit-int-to-str",
    code: "(let ((n (^ 7 5000))) (fold (lambda (a x) (length (int-to-str 10 n))) 0 (enumerate 1 100)))",
  },
  {
    name: "fit-table-writes",
    code: `${TABLE_MODULE}(let ((s ${doubled(12)})) (fold (lambda (a x) (hostile-m.w (int-to-str 10 x) s)) "" (enumerate 1 150)))`,
  },
  {
    name: "fit-table-reads",
    code: `${TABLE_MODULE}(hostile-m.w "k" ${doubled(12)})(fold (lambda (a x) (length (hostile-m.r "k"))) 0 (enumerate 1 3000))`,
  },
];
