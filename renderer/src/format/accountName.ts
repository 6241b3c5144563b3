/**
 * Account names as the coin contract accepts them (3 to 256 Latin-1 characters, no control
 * characters), checked before the UI links to or asks the node about one, and shortened
 * for tight spaces.
 * @module
 */

/** Why `name` cannot be an account name, or null when it can. */
export function accountNameProblem(name: string): string | null {
  if (name.trim() === "") return "Enter an account name.";
  const length = [...name].length;
  if (length < 3) return "An account name has at least 3 characters.";
  if (length > 256) return "An account name has at most 256 characters.";
  for (const ch of name) {
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0) || code > 0xff) {
      return `An account name cannot contain “${ch}” (only Latin-1 characters).`;
    }
  }
  return null;
}

/** "k:4f1c…9a2e" for long names; short names unchanged. */
export function shortAccountName(name: string, keep = 6): string {
  const chars = [...name];
  if (chars.length <= keep * 2 + 3) return name;
  return `${chars.slice(0, keep + 2).join("")}…${chars.slice(-keep).join("")}`;
}
