; ns: Weft's namespace policy. After genesis the node runs every transaction
; with the policy "no definitions at the root, a new namespace needs
; (ns.validate name admin-guard)". Genesis defines the open namespaces `free`,
; `user` and `util`: anyone may deploy into them and nobody can redefine them.
; Anyone may define the principal namespace of a k: or w: guard, n_<hash>.
; Written for Weft from the reference's description of principal namespaces
; (docs/system-contracts.md, "Namespaces").
(module ns GOVERNANCE
  @doc "The namespace policy: open namespaces and principal namespaces."

  (defcap GOVERNANCE ()
    @doc "The namespace policy cannot be upgraded."
    (enforce false "ns: the namespace policy is not upgradable"))

  (defun open-guard:bool ()
    @doc "The user guard of the open namespaces: anyone may deploy."
    true)

  (defun closed-guard:bool ()
    @doc "The admin guard of the open namespaces: nobody may redefine them."
    (enforce false "ns: this namespace cannot be redefined"))

  (defconst GUARD_SUCCESS:guard (create-user-guard (open-guard))
    "A guard that always passes.")

  (defconst GUARD_FAILURE:guard (create-user-guard (closed-guard))
    "A guard that always fails.")

  (defconst OPEN_NAMESPACES:[string] ["free" "user" "util"]
    "Namespaces anyone may deploy into, defined at genesis.")

  (defun principal-kind:string (guard:guard)
    @doc "`k:` or `w:` for a keyset guard, another prefix for other guards."
    (typeof-principal (create-principal guard)))

  (defun principal-guard:bool (guard:guard)
    @doc "True for the guards that have a principal namespace: keysets (k:, w:)."
    (contains (principal-kind guard) ["k:" "w:"]))

  (defun create-principal-namespace:string (guard:guard)
    @doc "The principal namespace of a k: or w: guard: n_ followed by the first \
         \40 hex digits of the guard's hash (leading zeros dropped, as \
         \int-to-str drops them)."
    (enforce (principal-guard guard)
      "ns: only keyset guards (k: and w: principals) have a principal namespace")
    (format "n_{}" [(take 40 (int-to-str 16 (str-to-int 64 (hash guard))))]))

  (defun validate:bool (ns-name:string ns-admin:guard)
    @doc "The policy for new namespaces: only the principal namespace of the \
         \admin guard may be defined."
    (if (principal-guard ns-admin)
      (= ns-name (create-principal-namespace ns-admin))
      false))
)

(define-namespace "free" ns.GUARD_SUCCESS ns.GUARD_FAILURE)
(define-namespace "user" ns.GUARD_SUCCESS ns.GUARD_FAILURE)
(define-namespace "util" ns.GUARD_SUCCESS ns.GUARD_FAILURE)
