/**
 * Owns the vault worker and the keystore file for the whole app (mounted once in main.tsx,
 * so moving between pages keeps the wallet unlocked until Lock or the idle time-out): loads
 * the file from the node, keeps its non-secret part in React state, sends each action to the
 * worker and saves the file the worker seals. User activity (keys, pointer) is passed to the
 * worker at most every 15 s to reset its idle timer. A restore from a backup replaces the
 * keystore on disk: once the node is back, the file is read again and the wallet locked.
 * @module
 */
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { type Decoded, decode, record, reject, string } from "../../../api/decode.ts";
import {
  clientErrorWords,
  type ShownError,
  WordedError,
  withLead,
} from "../../../api/errorWords.ts";
import { useRestartPhase, useServices } from "../../../services/services.tsx";
import { DISCOVERY_KEYS, discoverAccounts } from "../discovery/accountDiscovery.ts";
import {
  DEFAULT_SETTINGS,
  type KeystoreFile,
  parseKeystoreFile,
  type WalletSettings,
} from "../keystore/keystoreFormat.ts";
import { startVaultWorker } from "./startVaultWorker.ts";
import {
  type DiscoveryState,
  type VaultActions,
  VaultContext,
  type VaultKey,
  type VaultState,
} from "./useVault.ts";
import { createVaultClient, type VaultClient, type VaultTransport } from "./vaultClient.ts";

const ACTIVITY_EVERY_MS = 15_000;

/** The node's answer to a replacement: where it kept the old keystore (null: there was none). */
function parseReplaced(raw: unknown): Decoded<{ readonly keptAs: string | null }> {
  return decode(raw, (x) => {
    const r = record(x, "answer");
    if (r.replaced !== true) reject("answer.replaced", "true");
    return { keptAs: r.keptAs === null ? null : string(r.keptAs, "answer.keptAs") };
  });
}

export function VaultProvider({
  children,
  transport,
}: {
  readonly children: ReactNode;
  /** The worker (tests pass another transport). */
  readonly transport?: (() => VaultTransport) | undefined;
}) {
  const { client, config } = useServices();
  const [discovery, setDiscovery] = useState<DiscoveryState>({ status: "idle" });
  const [keystore, setKeystore] = useState<KeystoreFile | null>(null);
  const [phase, setPhase] = useState<"loading" | "none" | "locked" | "unlocked">("loading");
  const [loadError, setLoadError] = useState<ShownError | null>(null);
  const [replacedKeptAs, setReplacedKeptAs] = useState<string | null>(null);
  const vaultRef = useRef<VaultClient | null>(null);
  const keystoreRef = useRef<KeystoreFile | null>(null);
  // Counts restores the page has seen come back: each one reads the keystore file again.
  const [restores, setRestores] = useState(0);
  const restart = useRestartPhase();
  const restored = restart.kind === "back" && restart.reason === "restore";
  useEffect(() => {
    if (restored) setRestores((n) => n + 1);
  }, [restored]);
  // Set with the state, never from it in render: a render with an older state must not
  // undo a save that has not reached React yet.

  useEffect(() => {
    const vault = createVaultClient((transport ?? startVaultWorker)(), () => setPhase("locked"));
    vaultRef.current = vault;
    return () => {
      vault.close();
      vaultRef.current = null;
    };
  }, [transport]);

  useEffect(() => {
    let live = true;
    if (restores > 0) {
      // What was unlocked belongs to the keystore the restore replaced.
      void vaultRef.current?.request({ op: "lock" }).catch(() => {
        // Lock cannot fail in the vault; only a closed vault (its worker gone, and its keys
        // with it) rejects, and then there is nothing left to lock.
      });
    }
    void client.walletKeystore().then((r) => {
      if (!live) return;
      if (!r.ok) {
        setLoadError(withLead("The wallet could not be loaded.", clientErrorWords(r.error)));
        return;
      }
      if (r.value.keystore === null) {
        // (After a restore: a backup made before the wallet existed holds none.)
        keystoreRef.current = null;
        setKeystore(null);
        setPhase("none");
        return;
      }
      const parsed = parseKeystoreFile(r.value.keystore);
      if (!parsed.ok) {
        setLoadError(`The stored keystore cannot be read (${parsed.error}).`);
        return;
      }
      keystoreRef.current = parsed.value;
      setKeystore(parsed.value);
      setPhase("locked");
    });
    return () => {
      live = false;
    };
  }, [client, restores]);

  // Activity resets the worker's idle timer.
  useEffect(() => {
    if (phase !== "unlocked") return;
    let last = 0;
    const onActivity = () => {
      const now = Date.now();
      if (now - last < ACTIVITY_EVERY_MS) return;
      last = now;
      void vaultRef.current?.request({ op: "activity" }).catch(() => {
        // Only delays the idle lock: a vault that missed it locks a little early, which is safe.
      });
    };
    window.addEventListener("keydown", onActivity);
    window.addEventListener("pointerdown", onActivity);
    return () => {
      window.removeEventListener("keydown", onActivity);
      window.removeEventListener("pointerdown", onActivity);
    };
  }, [phase]);

  const vault = useCallback((): VaultClient => {
    const v = vaultRef.current;
    if (v === null) throw new Error("the vault is not running");
    return v;
  }, []);

  const current = useCallback((): KeystoreFile => {
    const k = keystoreRef.current;
    if (k === null) throw new Error("no wallet yet");
    return k;
  }, []);

  /**
   * Changes of the file run one after another, each reading the file the previous one saved:
   * two quick changes (a double click) must not both start from the same file and lose one.
   */
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const serial = useCallback(<T,>(f: () => Promise<T>): Promise<T> => {
    const next = queue.current.then(f, f);
    queue.current = next.catch(() => undefined);
    return next;
  }, []);

  /** Stores a keystore file on the node, then in React state. */
  const save = useCallback(
    async (file: KeystoreFile) => {
      const r = await client.saveWalletKeystore(file);
      if (!r.ok) {
        throw new WordedError(
          withLead("The wallet could not be saved.", clientErrorWords(r.error)),
        );
      }
      keystoreRef.current = file;
      setKeystore(file);
    },
    [client],
  );

  /** After a restore: adds the phrase keys 1–19 that have an account on some chain. */
  const discover = useCallback(async () => {
    setDiscovery({ status: "running" });
    try {
      const cut = await client.cut();
      if (!cut.ok)
        throw new WordedError(
          withLead("The node's chains are unknown.", clientErrorWords(cut.error)),
        );
      const keys = (await vault().request({ op: "phraseKeys", from: 0, count: DISCOVERY_KEYS }))
        .keys;
      const found = await discoverAccounts(
        client.local,
        keys.map((k) => `k:${k.publicKey}`),
        cut.value.heads.map((h) => h.chainId),
        config.networkId,
        Date.now() / 1000,
      );
      const indices = keys.filter((_, i) => found.has(i)).map((k) => k.index);
      const extra = indices.filter((i) => i !== 0);
      if (extra.length > 0) {
        await serial(async () =>
          save(
            (await vault().request({ op: "addPhraseKeys", keystore: current(), indices: extra }))
              .keystore,
          ),
        );
      }
      setDiscovery({ status: "done", found: indices });
    } catch (e) {
      setDiscovery({ status: "failed", message: e instanceof Error ? e.message : String(e) });
    }
  }, [client, config.networkId, vault, current, save, serial]);

  const value = useMemo((): VaultActions => {
    const keys: readonly VaultKey[] = (keystore?.public.keys ?? []).map((k) => ({
      id: k.id,
      publicKey: k.publicKey,
      account: `k:${k.publicKey}`,
      label: k.label,
      source: k.source,
    }));
    const state: VaultState =
      phase === "unlocked" ? { status: "unlocked", keys } : { status: phase };
    return {
      state,
      keystore,
      loadError,
      discovery,
      walletSettings: keystore?.public.settings ?? DEFAULT_SETTINGS,
      sign: async (keyId, requestKey) =>
        (await vault().request({ op: "sign", keyId, requestKey })).signature,
      saveWalletSettings: async (patch) => {
        const settings = await serial(async () => {
          const file = current();
          const next: WalletSettings = { ...file.public.settings, ...patch };
          await save({ ...file, public: { ...file.public, settings: next } });
          return next;
        });
        if (patch.idleLockMinutes !== undefined && phase === "unlocked") {
          await vault().request({ op: "setIdle", minutes: settings.idleLockMinutes });
        }
      },
      generatePhrase: async (words) => (await vault().request({ op: "generate", words })).words,
      confirmWords: async (answers) =>
        (await vault().request({ op: "confirmWords", answers })).correct,
      create: async (password, phrase) => {
        const r = await vault().request({
          op: "create",
          password,
          phrase,
          idleLockMinutes: DEFAULT_SETTINGS.idleLockMinutes,
        });
        await save(r.keystore);
        setPhase("unlocked");
        if (phrase !== null) void discover();
      },
      replace: (password, phrase) =>
        serial(async () => {
          const settings = keystoreRef.current?.public.settings ?? DEFAULT_SETTINGS;
          const made = await vault().request({
            op: "create",
            password,
            phrase,
            idleLockMinutes: settings.idleLockMinutes,
          });
          // Settings are in the clear (watch-only accounts, idle time): the new wallet keeps them.
          const file: KeystoreFile = {
            ...made.keystore,
            public: { ...made.keystore.public, settings },
          };
          const answer = await client.appPost("wallet/keystore/replace", file, parseReplaced);
          if (!answer.ok) {
            // The worker holds the new keys now; the node still has the old file.
            await vault().request({ op: "lock" });
            setPhase(keystoreRef.current === null ? "none" : "locked");
            throw new WordedError(
              withLead(
                "The wallet was not replaced: the stored one is unchanged.",
                clientErrorWords(answer.error),
              ),
            );
          }
          keystoreRef.current = file;
          setKeystore(file);
          setReplacedKeptAs(answer.value.keptAs);
          setPhase("unlocked");
          if (phrase !== null) void discover();
          return answer.value.keptAs;
        }),
      replacedKeptAs,
      unlock: async (password) => {
        await vault().request({ op: "unlock", keystore: current(), password });
        setPhase("unlocked");
      },
      lock: async () => {
        await vault().request({ op: "lock" });
        setPhase(keystoreRef.current === null ? "none" : "locked");
      },
      phraseKeys: async (from, count) =>
        (await vault().request({ op: "phraseKeys", from, count })).keys,
      addPhraseKeys: (indices) =>
        serial(async () =>
          save(
            (await vault().request({ op: "addPhraseKeys", keystore: current(), indices })).keystore,
          ),
        ),
      importKey: (input) =>
        serial(async () =>
          save(
            (await vault().request({ op: "importKey", keystore: current(), ...input })).keystore,
          ),
        ),
      removeKey: (keyId) =>
        serial(async () =>
          save((await vault().request({ op: "removeKey", keystore: current(), keyId })).keystore),
        ),
      changePassword: (oldPassword, newPassword) =>
        serial(async () =>
          save(
            (
              await vault().request({
                op: "changePassword",
                keystore: current(),
                oldPassword,
                newPassword,
              })
            ).keystore,
          ),
        ),
      revealPhrase: async (password) =>
        (await vault().request({ op: "revealPhrase", keystore: current(), password })).words,
    };
  }, [
    keystore,
    phase,
    loadError,
    discovery,
    vault,
    current,
    save,
    discover,
    serial,
    client,
    replacedKeptAs,
  ]);

  return <VaultContext value={value}>{children}</VaultContext>;
}
