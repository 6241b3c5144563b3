; gas-payer-v1: the interface of gas stations, modules whose coin account pays
; the gas of other people's transactions. When a signer of a transaction scopes
; a signature to a GAS_PAYER capability of a module implementing this interface,
; the node acquires that capability around buying gas, so the station's account
; guard can see it (docs/system-contracts.md, "Gas stations").
(interface gas-payer-v1
  @doc "A gas station: pays gas for transactions it accepts."

  (defcap GAS_PAYER:bool (user:string limit:integer price:decimal)
    @doc "Granted while the node buys gas for a transaction the station accepts; \
         \USER, LIMIT and PRICE are what the signer asked for.")

  (defun create-gas-payer-guard:guard ()
    @doc "The guard of the station's coin account: passes only while gas is \
         \bought under GAS_PAYER.")
)
