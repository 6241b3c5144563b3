/**
 * The command line that makes a new one-time address for a node's app
 * (`weft app-url`, cli/appUrl.ts), as the node's starters print it
 * (`WeftNode.appUrlCommandLine`) and the page `/app/` shows to this computer
 * (routes/appUiRoutes.ts): one spelling,
 * the data folder quoted for a POSIX shell when it needs to be.
 * @module
 */

/** `text` as one word of a POSIX shell command line (single-quoted when it needs to be). */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_./:@+-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/** `weft app-url --data-dir DIR --network NAME` for this node's data folder and network. */
export function appUrlCommandLine(dataDir: string, network: string): string {
  return `weft app-url --data-dir ${shellWord(dataDir)} --network ${shellWord(network)}`;
}
