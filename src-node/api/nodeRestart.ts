/**
 * The contract between the node and its host for restarting the node: the
 * node cannot restart itself (its host owns the process, the address and
 * the handle), so the host (electron/nodeSupervisor.ts, for the desktop and
 * `npm start -- --headless`) hands `createNode` a {@link NodeRestarter}; the
 * app routes (`POST /app/api/node/restart`, the backup page's restore) call
 * it after answering (docs/desktop.md §3.4). A node started without one
 * (`weft node`, tests) answers those routes 409 APP_RESTART_UNAVAILABLE.
 * @module
 */

export type NodeRestartRequest = {
  /** Why, for the host's log: `restart` (the Node page) or `restore` (the backup page). */
  readonly reason: "restart" | "restore";
  /**
   * Runs once the node has closed (its databases and the data folder's lock
   * released) and before the new one starts; the host logs a rejection and
   * starts the node anyway. The step records its own outcome for the new
   * node to show.
   */
  readonly whileStopped?: (() => Promise<void>) | undefined;
};

/**
 * Asks the host to close this node and start it again with the same options
 * on the same address and with the same app token. Returns at once; the
 * host does the work after the current request has been answered.
 */
export type NodeRestarter = (request: NodeRestartRequest) => void;
