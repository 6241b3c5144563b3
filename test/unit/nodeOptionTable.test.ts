/**
 * The option table (src-node/config/nodeOptionTable.ts) is the one place an option is
 * written down: docs/node.md's options section is what the table makes (`npm run
 * docs:options`), every option has a flag or a YAML key and reads back through both, the
 * desktop settings' list names real settings, and no option's key, YAML key or flag is
 * written in more than three source files — the table, the code that uses it and at most
 * one host (issue 37: `p2p.max-peers` took 17 edits in 9 files before the table).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type AppSettings, defaultSettings } from "../../electron/ipc/contract.ts";
import { nodeOptionsOfSettings } from "../../electron/settings/nodeOptionsOfSettings.ts";
import { parseConfigText } from "../../src-node/config/loadConfigFile.ts";
import {
  DESKTOP_SETTING_OPTIONS,
  mergeNodeOptions,
  NODE_OPTION_ENTRIES,
  resolveNodeOptions,
} from "../../src-node/config/nodeOptions.ts";
import { optionsSection, withOptionsSection } from "../../src-node/config/nodeOptionsDoc.ts";
import { valueAt } from "../../src-node/config/optionSpec.ts";
import { parseNodeFlags, SWITCHES, VALUE_FLAGS } from "../../src-node/config/parseNodeFlags.ts";
import { repoRoot, sourceFiles } from "../support/importGraph.ts";

/** Most source files an option may be named in: the table, its use, one host. */
const MAX_FILES = 3;

/**
 * Where a source file names an option without being its table, use or host, and why that
 * is right. Each entry must still match (so the list cannot outlive its reason).
 */
const ELSEWHERE: readonly { file: string; needle: string; why: string }[] = [
  { file: "src-node/cli/restore.ts", needle: "--data-dir", why: "`weft restore`'s own flag" },
  { file: "src-node/cli/appUrl.ts", needle: "--data-dir", why: "`weft app-url`'s own flag" },
  { file: "src-node/cli/appUrl.ts", needle: "--network", why: "`weft app-url`'s own flag" },
  {
    file: "src-node/cli/main.ts",
    needle: "--network",
    why: "`weft help` shows `weft app-url`'s own flag",
  },
  {
    file: "src-node/api/appUrlCommandLine.ts",
    needle: "--data-dir",
    why: "the `weft app-url` command line the node prints",
  },
  {
    file: "src-node/api/appUrlCommandLine.ts",
    needle: "--network",
    why: "the `weft app-url` command line the node prints",
  },
  {
    file: "src-node/cli/backup.ts",
    needle: "--backup-directory",
    why: "`weft backup list`'s own flag",
  },
  {
    file: "src-node/cli/main.ts",
    needle: "--backup-directory",
    why: "`weft help` shows `weft backup list`'s own flag",
  },
  {
    file: "src-node/p2p/private/privateService.ts",
    needle: "--entity",
    why: "the refusal of /private without an entity says how to set one",
  },
  {
    file: "src-node/p2p/private/privateService.ts",
    needle: "p2p.entity",
    why: "the refusal of /private without an entity says how to set one",
  },
  {
    file: "src-node/p2p/private/privateService.ts",
    needle: "--trust-entity",
    why: "the refusal of an untrusted entity says how to pin it",
  },
  {
    file: "src-node/p2p/private/trustedEntities.ts",
    needle: "p2p.trusted-entities",
    why: "a configured pin whose key is no Ed25519 point is named by its key",
  },
  {
    file: "renderer/src/features/node/components/PrivatePanel.tsx",
    needle: "--entity",
    why: "the Node page says how to give the node an entity",
  },
];

const files = sourceFiles();

function escaped(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A name as written in code: not part of a longer name, not a method (`p2p.peers()`). */
function nameRe(name: string): RegExp {
  return new RegExp(`(?<![\\w-])${escaped(name)}(?![\\w(-])`);
}

/** The names an option goes by that a search can tell apart from ordinary words. */
function namesOf(entry: (typeof NODE_OPTION_ENTRIES)[number]): string[] {
  return [
    ...(entry.spec.flags ?? []).map((f) => f.name),
    ...(/[.-]/.test(entry.yaml) ? [entry.yaml] : []),
    ...(entry.key.includes(".") ? [entry.key] : []),
  ];
}

describe("[config] the option table", () => {
  it("makes docs/node.md's options section (run `npm run docs:options` after a change)", () => {
    const doc = readFileSync(join(repoRoot, "docs", "node.md"), "utf8");
    expect(doc).toContain(optionsSection());
    expect(withOptionsSection(doc)).toBe(doc);
    for (const { yaml } of NODE_OPTION_ENTRIES) expect(optionsSection()).toContain(`\`${yaml}\``);
  });

  it("gives every option a doc line, and every flag a help line and one option", () => {
    const flags = NODE_OPTION_ENTRIES.flatMap((e) => (e.spec.flags ?? []).map((f) => f.name));
    expect(new Set(flags).size).toBe(flags.length);
    expect([...VALUE_FLAGS, ...SWITCHES]).toEqual(expect.arrayContaining(flags));
    for (const { key, spec } of NODE_OPTION_ENTRIES) {
      expect(spec.doc.length, key).toBeGreaterThan(10);
      for (const f of spec.flags ?? []) expect(f.help.length, f.name).toBeGreaterThan(5);
    }
    const yamlKeys = NODE_OPTION_ENTRIES.map((e) => e.yaml);
    expect(new Set(yamlKeys).size).toBe(yamlKeys.length);
  });

  it("reads each option from its YAML key and each value flag, to the same place", () => {
    const samples: Record<string, [yaml: string, flag: string, resolved: unknown]> = {
      "mining.threads": ["3", "3", 3],
      "p2p.maxPeers": ["4", "4", 4],
      "commands.listenTimeout": ["30", "30", 30],
      "spv.proofDepth": ["99", "99", 99],
      "state.horizon": ["77", "77", 77],
      "mining.onDemandConfirmations": ["2", "2", 2],
    };
    for (const entry of NODE_OPTION_ENTRIES) {
      const sample = samples[entry.key];
      if (sample === undefined) continue;
      const [yamlValue, flagValue, resolved] = sample;
      const parts = entry.yaml.split(".");
      const text = parts
        .map((p, i) => `${"  ".repeat(i)}${p}:${i === parts.length - 1 ? ` ${yamlValue}` : ""}`)
        .join("\n");
      const fromFile = resolveNodeOptions(parseConfigText(`${text}\n`, "/n.yaml"));
      expect(valueAt(fromFile, entry.path), entry.yaml).toEqual(resolved);
      const flag = (entry.spec.flags ?? []).find((f) => f.arg !== undefined);
      if (flag === undefined) continue;
      const fromFlag = resolveNodeOptions(parseNodeFlags([flag.name, flagValue]).options);
      expect(valueAt(fromFlag, entry.path), flag.name).toEqual(resolved);
      const merged = resolveNodeOptions(
        mergeNodeOptions(parseConfigText(`${text}\n`, "/n.yaml"), {}),
      );
      expect(valueAt(merged, entry.path), entry.key).toEqual(resolved);
    }
  });

  it("names real desktop settings in the desktop settings' list, each once", () => {
    const settings = DESKTOP_SETTING_OPTIONS.map((d) => d.setting);
    expect(new Set(settings).size).toBe(settings.length);
    for (const s of settings) expect(Object.keys(defaultSettings), s).toContain(s);
    expect(settings).toEqual(
      expect.arrayContaining(["network", "port", "miningThreads", "miningApi", "backupApi"]),
    );
  });

  it("is what the desktop host sets from each listed setting", () => {
    const changed: Record<string, [Partial<AppSettings>, unknown]> = {
      network: [{ network: "testnet04" }, "testnet04"],
      dataDir: [{ dataDir: "/x/data" }, "/x/data"],
      port: [{ port: 1900 }, 1900],
      miningOnStart: [{ miningOnStart: true }, true],
      miningThreads: [{ miningThreads: 3 }, 3],
      miningApi: [{ miningApi: true }, true],
      backupApi: [{ backupApi: true, backupDir: "/b" }, true],
      backupDir: [{ backupApi: true, backupDir: "/b" }, "/b"],
    };
    for (const { setting, path } of DESKTOP_SETTING_OPTIONS) {
      const [patch, value] = changed[setting] ?? [{}, "no sample for this setting"];
      const options = nodeOptionsOfSettings(
        { ...defaultSettings, ...patch },
        { defaultDataDir: "/default" },
      );
      expect(valueAt(options, path), setting).toEqual(value);
    }
  });

  it(`names each option (key, YAML key, flag) in at most ${MAX_FILES} source files`, () => {
    const over: string[] = [];
    for (const entry of NODE_OPTION_ENTRIES) {
      const names = namesOf(entry);
      const hits = files
        .filter((f) =>
          names.some(
            (n) =>
              nameRe(n).test(f.code) && !ELSEWHERE.some((e) => e.file === f.path && e.needle === n),
          ),
        )
        .map((f) => f.path);
      if (hits.length > MAX_FILES) over.push(`${entry.key}: ${hits.join(", ")}`);
    }
    expect(over).toEqual([]);
    // p2p.max-peers under any spelling: the table and its use (the peer network and its
    // book); node.ts passes the p2p options whole.
    const maxPeers = files.filter((f) => /max-peers|maxPeers/.test(f.code));
    expect(maxPeers.map((f) => f.path).sort()).toEqual([
      "src-node/config/nodeOptionTable.ts",
      "src-node/p2p/peerBook.ts",
      "src-node/p2p/peerNetwork.ts",
    ]);
  });

  it("keeps its list of other places true", () => {
    for (const e of ELSEWHERE) {
      const file = files.find((f) => f.path === e.file);
      expect(file?.code, `${e.file}: ${e.why}`).toMatch(nameRe(e.needle));
    }
  });
});
