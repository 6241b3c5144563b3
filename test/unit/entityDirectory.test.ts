import { describe, expect, it } from "vitest";
import { P2pError, P2pErrorCode } from "../../src-node/p2p/errors.ts";
import type { PeerAddress } from "../../src-node/p2p/peerAddress.ts";
import { EntityDirectory } from "../../src-node/p2p/private/entityDirectory.ts";
import { newEntityKeys } from "../../src-node/p2p/private/entityKeys.ts";
import type {
  AnnouncedEntity,
  PrivatePeerClient,
} from "../../src-node/p2p/private/privatePeerClient.ts";

const carol = newEntityKeys();
const carolRotated = newEntityKeys();
const peer: PeerAddress = { hostname: "127.0.0.1", port: 40001 };

function directory(answer: () => AnnouncedEntity, asked: { n: number }): EntityDirectory {
  return new EntityDirectory({
    peers: () => [peer],
    client: () =>
      ({
        key: "127.0.0.1:40001",
        entity: async () => {
          asked.n += 1;
          return answer();
        },
      }) as unknown as PrivatePeerClient,
    pinned: (e) => (e === "carol" ? carol.publicKey : undefined),
    now: () => 1_000,
  });
}

describe("EntityDirectory", () => {
  it("asks a holder again before every send, even when its answer is fresh", async () => {
    const asked = { n: 0 };
    let current: AnnouncedEntity = { entity: "carol", publicKey: carol.publicKey };
    const d = directory(() => current, asked);
    expect((await d.holders(["carol"])).holders.get("carol")).toHaveLength(1);
    // Carol's node restarts with a new key within the ten seconds an answer is kept.
    current = { entity: "carol", publicKey: carolRotated.publicKey };
    const after = await d.holders(["carol"]);
    expect(after.holders.get("carol")).toHaveLength(0);
    expect(after.falseKeys).toEqual([{ peer: "127.0.0.1:40001", entity: "carol" }]);
    expect(asked.n).toBeGreaterThanOrEqual(2);
  });

  it("drops a holder that no longer answers", async () => {
    const asked = { n: 0 };
    let gone = false;
    const d = directory(() => {
      if (gone) {
        throw new P2pError(
          { code: P2pErrorCode.PeerUnreachable, peer: "127.0.0.1:40001", reason: "refused" },
          "refused",
        );
      }
      return { entity: "carol", publicKey: carol.publicKey };
    }, asked);
    expect((await d.holders(["carol"])).holders.get("carol")).toHaveLength(1);
    gone = true;
    expect((await d.holders(["carol"])).holders.get("carol")).toHaveLength(0);
  });

  it("keeps a fresh answer of a peer that holds no addressed entity", async () => {
    const asked = { n: 0 };
    const d = directory(() => ({ entity: "dave", publicKey: carol.publicKey }), asked);
    await d.refresh();
    await d.refresh();
    expect(asked.n).toBe(1);
  });
});
