/**
 * Errors of the peer-to-peer layer: a peer address that cannot be read, a
 * cut published by a peer that is malformed or of another network, a peer
 * that sent something invalid (its misbehaviour), a peer that cannot be
 * reached or answered nonsense. Statuses in api/errorStatus.ts.
 * @module
 */
import { NodeError } from "../errors/nodeError.ts";

export const P2pErrorCode = {
  BadPeerAddress: "P2P_BAD_PEER_ADDRESS",
  BadCut: "P2P_BAD_CUT",
  WrongNetwork: "P2P_WRONG_NETWORK",
  PeerBanned: "P2P_PEER_BANNED",
  UnknownPeer: "P2P_UNKNOWN_PEER",
  PeerMisbehaved: "P2P_PEER_MISBEHAVED",
  PeerUnreachable: "P2P_PEER_UNREACHABLE",
  Disabled: "P2P_DISABLED",
  BadChallenge: "P2P_BAD_CHALLENGE",
} as const;

/**
 * What a peer did wrong: an invalid header or payload, a malformed answer,
 * an answer larger than what it answers can be, or a cut it announced that
 * its blocks do not bear out.
 */
export type MisbehaviourKind = "invalid-block" | "malformed" | "oversized" | "false-cut";

export type P2pErrorType =
  /** `field`: where the address was given (`p2p.peers[0]`, `address`, `origin.address`). */
  | { code: typeof P2pErrorCode.BadPeerAddress; field: string; reason: string }
  | { code: typeof P2pErrorCode.BadCut; field: string; reason: string }
  | { code: typeof P2pErrorCode.WrongNetwork; peer: string; expected: string; actual: string }
  | { code: typeof P2pErrorCode.PeerBanned; peer: string; until: number }
  | { code: typeof P2pErrorCode.UnknownPeer; peer: string }
  /**
   * `kind` decides the misbehaviour score (peerNetwork.ts): `invalid-block`, a
   * header or payload that breaks a rule (bans at once); `malformed`, an answer
   * that cannot be read as what was asked (a cut, a page); `oversized`, an
   * answer past the size limit of what was asked (p2p/boundedBody.ts); `false-cut`, a cut
   * whose heads the peer cannot serve (404, a branch short of the announced
   * height, another head) or whose weight or heights its headers do not
   * support (a fake heavy cut).
   */
  | {
      code: typeof P2pErrorCode.PeerMisbehaved;
      peer: string;
      kind: MisbehaviourKind;
      reason: string;
    }
  /** `status`: the HTTP status the peer answered with, when it answered. */
  | { code: typeof P2pErrorCode.PeerUnreachable; peer: string; reason: string; status?: number }
  | { code: typeof P2pErrorCode.Disabled }
  /** `/info?challenge=`: not 32 bytes of base64url (p2p/nodeIdentity.ts). */
  | { code: typeof P2pErrorCode.BadChallenge; field: string };

export class P2pError extends NodeError<P2pErrorType> {}

export function badCut(field: string, reason: string): P2pError {
  return new P2pError({ code: P2pErrorCode.BadCut, field, reason }, `${field}: ${reason}`);
}
