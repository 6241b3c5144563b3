; fungible-xchain-v1: the capabilities of a fungible token's cross-chain
; transfers, so that wallets can scope a signature to one and explorers can
; follow the receiving side. Written for Weft from the interface description
; (docs/system-contracts.md).
(interface fungible-xchain-v1
  @doc "Cross-chain transfer capabilities of a fungible-v2 token."

  (defcap TRANSFER_XCHAIN:bool
    (sender:string receiver:string amount:decimal target-chain:string)
    @doc "Lets SENDER send AMOUNT to RECEIVER on TARGET-CHAIN; signers scope \
         \their key to it."
    @managed amount TRANSFER_XCHAIN-mgr)

  (defun TRANSFER_XCHAIN-mgr:decimal (managed:decimal requested:decimal)
    @doc "Manager of TRANSFER_XCHAIN: one cross-chain send of at most MANAGED.")

  (defcap TRANSFER_XCHAIN_RECD:bool
    (sender:string receiver:string amount:decimal source-chain:string)
    @doc "Event of the receiving step: RECEIVER got AMOUNT sent from SOURCE-CHAIN."
    @event)
)
