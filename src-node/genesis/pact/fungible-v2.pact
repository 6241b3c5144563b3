; fungible-v2: the interface of fungible tokens (balances held by guarded
; accounts, transfers under a managed TRANSFER capability, two-step cross-chain
; transfers). Member names and signatures are the ones tokens and wallets use;
; written for Weft from the interface description (docs/system-contracts.md).
(interface fungible-v2
  @doc "A fungible token: guarded accounts with decimal balances."

  (defschema account-details
    @doc "What `details` returns for an account."
    account:string
    balance:decimal
    guard:guard)

  (defcap TRANSFER:bool (sender:string receiver:string amount:decimal)
    @doc "Lets SENDER move up to AMOUNT in total to RECEIVER in one transaction; \
         \signers scope their key to it."
    @managed amount TRANSFER-mgr)

  (defun TRANSFER-mgr:decimal (managed:decimal requested:decimal)
    @doc "What remains of a signed TRANSFER after REQUESTED is spent; fails once \
         \REQUESTED exceeds MANAGED.")

  (defun transfer:string (sender:string receiver:string amount:decimal)
    @doc "Moves AMOUNT from SENDER to the existing account RECEIVER.")

  (defun transfer-create:string
    (sender:string receiver:string receiver-guard:guard amount:decimal)
    @doc "Moves AMOUNT from SENDER to RECEIVER, creating RECEIVER with \
         \RECEIVER-GUARD when it does not exist (an existing RECEIVER must \
         \have that guard).")

  (defpact transfer-crosschain:string
    (sender:string receiver:string receiver-guard:guard target-chain:string amount:decimal)
    @doc "Step 0 debits SENDER on this chain and yields to TARGET-CHAIN; step 1, \
         \run there with a proof of step 0, credits RECEIVER.")

  (defun get-balance:decimal (account:string)
    @doc "The balance of ACCOUNT; fails when it does not exist.")

  (defun details:object{account-details} (account:string)
    @doc "Account name, balance and guard of ACCOUNT.")

  (defun precision:integer ()
    @doc "The number of decimal places amounts may have.")

  (defun enforce-unit:bool (amount:decimal)
    @doc "Fails unless AMOUNT has at most `precision` decimal places.")

  (defun create-account:string (account:string guard:guard)
    @doc "Creates ACCOUNT with balance 0.0 and GUARD.")

  (defun rotate:string (account:string new-guard:guard)
    @doc "Replaces the guard of ACCOUNT, enforcing the current guard.")
)
