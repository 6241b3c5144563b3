; coin: Weft's native token. Every chain of every network installs it at
; genesis; miners are paid in it and transaction gas is bought with it.
; Written for Weft from the interface descriptions of fungible-v2 and
; fungible-xchain-v1 and the reference's account rules; docs/system-contracts.md
; documents every function, capability, event and rule below.
(module coin GOVERNANCE
  @doc "The native coin: accounts with balances and guards, transfers on one \
       \chain and across chains, gas purchase and miner rewards."

  (implements fungible-v2)
  (implements fungible-xchain-v1)

  ; ------------------------------------------------------------------------
  ; Constants

  (defconst COIN_CHARSET CHARSET_LATIN1
    "Account names are Latin-1 text.")

  (defconst MINIMUM_PRECISION 12
    "Amounts have at most this many decimal places.")

  (defconst MINIMUM_ACCOUNT_LENGTH 3
    "Shortest account name.")

  (defconst MAXIMUM_ACCOUNT_LENGTH 256
    "Longest account name.")

  (defconst VALID_CHAIN_IDS (map (int-to-str 10) (enumerate 0 19))
    "Chains a cross-chain transfer may target.")

  ; ------------------------------------------------------------------------
  ; Storage

  (defschema coin-schema
    @doc "One account: its balance and the guard that controls it."
    balance:decimal
    guard:guard)

  (deftable coin-table:{coin-schema})

  (defschema crosschain-schema
    @doc "What step 0 of transfer-crosschain yields to the target chain."
    receiver:string
    receiver-guard:guard
    amount:decimal
    source-chain:string)

  ; ------------------------------------------------------------------------
  ; Capabilities

  (defcap GOVERNANCE ()
    @doc "The coin contract cannot be upgraded."
    (enforce false "coin: the coin contract is not upgradable"))

  (defcap GAS ()
    @doc "Magic capability: buying and redeeming gas (granted by the node only)."
    true)

  (defcap COINBASE ()
    @doc "Magic capability: the miner reward of a block (granted by the node only)."
    true)

  (defcap GENESIS ()
    @doc "Magic capability: genesis transactions (granted by the node only)."
    true)

  (defcap DEBIT:bool (sender:string)
    @doc "Taking coins out of SENDER: its guard must pass."
    (enforce (!= sender "") "coin: the sender is empty")
    (enforce-guard (at 'guard (read coin-table sender))))

  (defcap CREDIT:bool (receiver:string)
    @doc "Putting coins into RECEIVER."
    (enforce (!= receiver "") "coin: the receiver is empty"))

  (defcap ROTATE:bool (account:string)
    @doc "Replacing the guard of ACCOUNT, once; signers scope their key to it."
    @managed
    true)

  (defcap TRANSFER:bool (sender:string receiver:string amount:decimal)
    @doc "Lets SENDER move up to AMOUNT in total to RECEIVER in this \
         \transaction. Emitted as an event for every transfer."
    @managed amount TRANSFER-mgr
    (enforce (!= sender receiver) "coin: sender and receiver are the same account")
    (enforce-positive amount)
    (compose-capability (DEBIT sender))
    (compose-capability (CREDIT receiver)))

  (defun TRANSFER-mgr:decimal (managed:decimal requested:decimal)
    @doc "Spends REQUESTED out of what the signed TRANSFER still allows."
    (let ((left (- managed requested)))
      (enforce (>= left 0.0)
        (format "coin: TRANSFER exceeded for balance {}: requested {}" [managed requested]))
      left))

  (defcap TRANSFER_XCHAIN:bool
    (sender:string receiver:string amount:decimal target-chain:string)
    @doc "Lets SENDER send AMOUNT to RECEIVER on TARGET-CHAIN, once."
    @managed amount TRANSFER_XCHAIN-mgr
    (enforce-positive amount)
    (compose-capability (DEBIT sender)))

  (defun TRANSFER_XCHAIN-mgr:decimal (managed:decimal requested:decimal)
    @doc "One cross-chain send of at most the signed amount; nothing remains after it."
    (enforce (<= requested managed)
      (format "coin: TRANSFER_XCHAIN exceeded for balance {}: requested {}" [managed requested]))
    0.0)

  (defcap TRANSFER_XCHAIN_RECD:bool
    (sender:string receiver:string amount:decimal source-chain:string)
    @doc "Event: RECEIVER received AMOUNT sent from SOURCE-CHAIN."
    @event
    true)

  ; ------------------------------------------------------------------------
  ; Rules

  (defun precision:integer ()
    MINIMUM_PRECISION)

  (defun enforce-unit:bool (amount:decimal)
    @doc "Fails unless AMOUNT has at most 12 decimal places."
    (enforce (= (floor amount MINIMUM_PRECISION) amount)
      (format "coin: {} has more than {} decimal places" [amount MINIMUM_PRECISION])))

  (defun enforce-positive:bool (amount:decimal)
    @doc "A transfer amount: more than zero, at most 12 decimal places."
    (enforce (> amount 0.0) (format "coin: the amount {} is not positive" [amount]))
    (enforce-unit amount))

  (defun validate-account:bool (account:string)
    @doc "Account names: Latin-1 text of 3 to 256 characters."
    (enforce (is-charset COIN_CHARSET account)
      "coin: the account name is not Latin-1 text")
    (let ((n (length account)))
      (enforce (>= n MINIMUM_ACCOUNT_LENGTH)
        (format "coin: the account name is shorter than {} characters" [MINIMUM_ACCOUNT_LENGTH]))
      (enforce (<= n MAXIMUM_ACCOUNT_LENGTH)
        (format "coin: the account name is longer than {} characters" [MAXIMUM_ACCOUNT_LENGTH]))))

  (defun reserved-prefix:string (account:string)
    @doc "The protocol letter of a reserved name (`k` for `k:…`), or \"\": every \
         \name whose second character is a colon is reserved for principals."
    (if (= ":" (take 1 (drop 1 account))) (take 1 account) ""))

  (defun enforce-reserved:bool (account:string guard:guard)
    @doc "A reserved name must be the principal of GUARD: `k:KEY` a keyset of \
         \exactly KEY (keys-all), `w:…` a multi-key keyset, `u:`, `r:`, `m:`, \
         \`p:`, `c:` the matching guard kinds."
    (let ((prefix (reserved-prefix account)))
      (if (= prefix "")
        true
        (enforce (validate-principal guard account)
          (if (= prefix "k")
            "coin: a k: account must be guarded by exactly its key (keys-all)"
            (format "coin: the reserved account name {} does not match its guard" [account]))))))

  ; ------------------------------------------------------------------------
  ; Accounts

  (defun create-account:string (account:string guard:guard)
    (validate-account account)
    (enforce-reserved account guard)
    (insert coin-table account { "balance": 0.0, "guard": guard }))

  (defun get-balance:decimal (account:string)
    (at 'balance (read coin-table account)))

  (defun details:object{fungible-v2.account-details} (account:string)
    (with-read coin-table account { "balance" := balance, "guard" := guard }
      { "account": account, "balance": balance, "guard": guard }))

  (defun rotate:string (account:string new-guard:guard)
    (with-capability (ROTATE account)
      (with-read coin-table account { "guard" := current }
        (enforce-guard current)
        (enforce-reserved account new-guard)
        (update coin-table account { "guard": new-guard }))))

  ; ------------------------------------------------------------------------
  ; Moving coins

  (defun debit:string (account:string amount:decimal)
    @doc "Takes AMOUNT out of ACCOUNT (needs DEBIT of ACCOUNT)."
    (require-capability (DEBIT account))
    (validate-account account)
    (enforce-unit amount)
    (enforce (> amount 0.0) "coin: a debit must be positive")
    (with-read coin-table account { "balance" := balance }
      (enforce (<= amount balance)
        (format "coin: insufficient funds in {}: balance {}, needed {}" [account balance amount]))
      (update coin-table account { "balance": (- balance amount) })))

  (defun credit:string (account:string guard:guard amount:decimal)
    @doc "Adds AMOUNT to ACCOUNT, creating it with GUARD when it does not exist; \
         \an existing account must have GUARD (needs CREDIT of ACCOUNT)."
    (require-capability (CREDIT account))
    (validate-account account)
    (enforce-unit amount)
    (enforce (> amount 0.0) "coin: a credit must be positive")
    (with-default-read coin-table account
      { "balance": -1.0, "guard": guard }
      { "balance" := balance, "guard" := current }
      (enforce (= current guard) (format "coin: the guard given for {} is not its guard" [account]))
      (let ((new (= balance -1.0)))
        (if new (enforce-reserved account guard) true)
        (write coin-table account
          { "balance": (if new amount (+ balance amount)), "guard": guard }))))

  (defun account-exists:bool (account:string)
    @doc "True when ACCOUNT exists."
    (with-default-read coin-table account { "balance": -1.0 } { "balance" := balance }
      (!= balance -1.0)))

  (defun transfer:string (sender:string receiver:string amount:decimal)
    (validate-account sender)
    (validate-account receiver)
    (enforce (!= sender receiver) "coin: sender and receiver are the same account")
    (enforce-positive amount)
    (let ((exists (account-exists receiver)))
      (enforce exists
        (format "coin: the receiver {} does not exist (transfer-create creates it)" [receiver])))
    (with-capability (TRANSFER sender receiver amount)
      (with-read coin-table receiver { "guard" := guard }
        (debit sender amount)
        (credit receiver guard amount))))

  (defun transfer-create:string
    (sender:string receiver:string receiver-guard:guard amount:decimal)
    (validate-account sender)
    (validate-account receiver)
    (enforce (!= sender receiver) "coin: sender and receiver are the same account")
    (enforce-positive amount)
    (with-capability (TRANSFER sender receiver amount)
      (debit sender amount)
      (credit receiver receiver-guard amount)))

  (defpact transfer-crosschain:string
    (sender:string receiver:string receiver-guard:guard target-chain:string amount:decimal)
    (step
      (with-capability (TRANSFER_XCHAIN sender receiver amount target-chain)
        (validate-account sender)
        (validate-account receiver)
        (enforce-positive amount)
        (enforce (!= "" target-chain) "coin: the target chain is empty")
        (enforce (!= (at 'chain-id (chain-data)) target-chain)
          "coin: cross-chain transfers must target another chain")
        (enforce (contains target-chain VALID_CHAIN_IDS)
          (format "coin: {} is not a chain id" [target-chain]))
        (enforce-reserved receiver receiver-guard)
        (debit sender amount)
        (emit-event (TRANSFER sender "" amount))
        (let ((out:object{crosschain-schema}
                { "receiver": receiver
                , "receiver-guard": receiver-guard
                , "amount": amount
                , "source-chain": (at 'chain-id (chain-data)) }))
          (yield out target-chain))))
    (step
      (resume
        { "receiver" := receiver
        , "receiver-guard" := receiver-guard
        , "amount" := amount
        , "source-chain" := source-chain }
        (emit-event (TRANSFER "" receiver amount))
        (emit-event (TRANSFER_XCHAIN_RECD "" receiver amount source-chain))
        (with-capability (CREDIT receiver)
          (credit receiver receiver-guard amount)))))

  ; ------------------------------------------------------------------------
  ; Gas, miner rewards, genesis (called by the node with magic capabilities)

  (defun buy-gas:string (sender:string total:decimal)
    @doc "Reserves TOTAL (gas limit × gas price) from SENDER before a transaction \
         \runs (needs GAS; SENDER's guard must pass)."
    (require-capability (GAS))
    (validate-account sender)
    (enforce-unit total)
    (enforce (> total 0.0) "coin: the gas supply must be positive")
    (with-capability (DEBIT sender)
      (debit sender total)))

  (defun redeem-gas:string (miner:string miner-guard:guard sender:string total:decimal)
    @doc "After a transaction: pays the fee (message key `fee`, gas used × gas \
         \price) to MINER and gives the rest of TOTAL back to SENDER (needs GAS)."
    (require-capability (GAS))
    (validate-account sender)
    (validate-account miner)
    (enforce-unit total)
    (let* ((fee (read-decimal "fee"))
           (refund (- total fee)))
      (enforce-unit fee)
      (enforce (>= fee 0.0) "coin: the fee must not be negative")
      (enforce (>= refund 0.0) "coin: the fee exceeds the gas supply")
      (emit-event (TRANSFER sender miner fee))
      (if (> refund 0.0)
        (with-read coin-table sender { "guard" := guard }
          (with-capability (CREDIT sender)
            (credit sender guard refund)))
        "coin: nothing to refund")
      (if (> fee 0.0)
        (with-capability (CREDIT miner)
          (credit miner miner-guard fee))
        "coin: no fee")))

  (defun coinbase:string (account:string account-guard:guard amount:decimal)
    @doc "The miner reward of a block: credits AMOUNT to ACCOUNT, creating it \
         \with ACCOUNT-GUARD when needed (needs COINBASE). A zero reward (the \
         \schedule's end) credits nothing."
    (require-capability (COINBASE))
    (validate-account account)
    (enforce-unit amount)
    (enforce (>= amount 0.0) "coin: the reward must not be negative")
    (if (> amount 0.0)
      (with-capability (CREDIT account)
        (emit-event (TRANSFER "" account amount))
        (credit account account-guard amount))
      "coin: no reward"))

  (defun fund-genesis-account:string (account:string guard:guard amount:decimal)
    @doc "Genesis funding: creates ACCOUNT with GUARD and AMOUNT (needs GENESIS)."
    (require-capability (GENESIS))
    (validate-account account)
    (enforce-unit amount)
    (emit-event (TRANSFER "" account amount))
    (with-capability (CREDIT account)
      (credit account guard amount)))
)
