/**
 * The 2-byte tags of the ledger's Merkle leaves (reference chainweb-api.md
 * §1.4, `MerkleUniverse.hs`). A tagged leaf hashes H(0x00 ‖ tag_be16 ‖ bytes).
 * @module
 */
export const MerkleTag = {
  chainId: 0x0002,
  blockHeight: 0x0003,
  blockWeight: 0x0004,
  featureFlags: 0x0006,
  creationTime: 0x0007,
  versionCode: 0x0008,
  hashTarget: 0x0011,
  transaction: 0x0013,
  transactionOutput: 0x0014,
  minerData: 0x0017,
  coinbaseOutput: 0x0018,
  epochStart: 0x0019,
  nonce: 0x0020,
} as const;
