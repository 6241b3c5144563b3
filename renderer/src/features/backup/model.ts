/**
 * The backup page's plain logic. For now: the default backup folder, a `backups` folder
 * beside the node's data folder (POSIX or Windows paths, as the desktop bridge reports them).
 * @module
 */

export function defaultBackupFolder(dataDir: string): string {
  const windows =
    /^[A-Za-z]:\\|^\\\\/.test(dataDir) || (dataDir.includes("\\") && !dataDir.includes("/"));
  const sep = windows ? "\\" : "/";
  const trimmed = dataDir.replace(windows ? /\\+$/ : /\/+$/, "");
  if (trimmed === "" || /^[A-Za-z]:$/.test(trimmed)) return `${trimmed}${sep}backups`;
  const cut = trimmed.lastIndexOf(sep);
  const parent = cut <= 0 ? (cut === 0 ? sep : ".") : trimmed.slice(0, cut);
  return parent.endsWith(sep) ? `${parent}backups` : `${parent}${sep}backups`;
}
