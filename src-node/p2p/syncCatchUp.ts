/**
 * Peer sync as a task of the node's catching-up status (the app's banner,
 * runtime/catchUpStatus.ts): a task runs
 * while the sync status says `catching-up`, its total the blocks there were
 * to fetch when it began (raised if a peer announces more), its progress the
 * blocks fetched since.
 * @module
 */
import type { CatchUpReporter, CatchUpTask } from "../runtime/catchUpStatus.ts";
import type { SyncStatus } from "./syncProgress.ts";

/** What the sync is called in the catching-up banner. */
export const PEER_SYNC_TASK = "Syncing blocks from peers";

export class SyncCatchUp {
  readonly #reporter: CatchUpReporter;
  #task: { readonly handle: CatchUpTask; readonly from: number; total: number } | undefined;

  constructor(reporter: CatchUpReporter) {
    this.#reporter = reporter;
  }

  /** Begins, advances or ends the task after a change of the sync status. */
  update(status: SyncStatus): void {
    if (status.state !== "catching-up") {
      this.end();
      return;
    }
    const target = status.cutHeight + status.blocksLeft;
    if (this.#task === undefined) {
      this.#task = {
        handle: this.#reporter.begin(PEER_SYNC_TASK, status.blocksLeft),
        from: status.cutHeight,
        total: status.blocksLeft,
      };
      return;
    }
    const t = this.#task;
    t.total = Math.max(t.total, target - t.from);
    t.handle.progress(Math.max(0, status.cutHeight - t.from), t.total);
  }

  end(): void {
    this.#task?.handle.end();
    this.#task = undefined;
  }
}
