; gas-station: pays the gas of cross-chain continuations, so that coins sent
; to a chain where the receiver has nothing can be received. Its coin account
; (`xchain-gas`, created at genesis) is guarded by create-gas-payer-guard; a
; continuation uses it by naming `xchain-gas` as the gas sender and adding a
; signer (any key) scoped to (gas-station.GAS_PAYER "" 0 0.0). Written for
; Weft; docs/system-contracts.md ("Gas stations") gives the rules.
(module gas-station GOVERNANCE
  @doc "Pays gas for cross-chain continuations (proof given, no rollback) \
       \with a small gas limit and the minimum gas price."

  (implements gas-payer-v1)

  (defcap GOVERNANCE ()
    @doc "The gas station cannot be upgraded."
    (enforce false "gas-station: the gas station is not upgradable"))

  (defconst STATION_ACCOUNT:string "xchain-gas"
    "The coin account the station pays from.")

  (defconst MAX_GAS_LIMIT:integer 1000
    "The largest gas limit the station pays for.")

  (defconst MAX_GAS_PRICE:decimal 0.00000001
    "The largest gas price the station pays.")

  (defcap ALLOW_GAS ()
    @doc "Held while the node buys gas under GAS_PAYER."
    true)

  (defcap GAS_PAYER:bool (user:string limit:integer price:decimal)
    @doc "Accepts a transaction that continues a cross-chain defpact (with a \
         \proof, not a rollback), with a gas limit of at most MAX_GAS_LIMIT and \
         \a gas price of at most MAX_GAS_PRICE. USER, LIMIT and PRICE are not \
         \used: the node's message data and chain data decide."
    (enforce (= "cont" (at "tx-type" (read-msg)))
      "gas-station: only continuations are paid for")
    (enforce (at "cont-has-proof" (read-msg))
      "gas-station: only cross-chain continuations (with a proof) are paid for")
    (enforce (not (at "cont-is-rollback" (read-msg)))
      "gas-station: rollbacks are not paid for")
    (enforce (<= (at 'gas-limit (chain-data)) MAX_GAS_LIMIT)
      (format "gas-station: the gas limit must be at most {}" [MAX_GAS_LIMIT]))
    (enforce (<= (at 'gas-price (chain-data)) MAX_GAS_PRICE)
      (format "gas-station: the gas price must be at most {}" [MAX_GAS_PRICE]))
    (compose-capability (ALLOW_GAS)))

  (defun gas-payer-guard:bool ()
    @doc "The station account's guard function: gas is being bought (coin.GAS) \
         \under an accepted GAS_PAYER."
    (require-capability (coin.GAS))
    (require-capability (ALLOW_GAS)))

  (defun create-gas-payer-guard:guard ()
    (create-user-guard (gas-payer-guard)))
)
