/**
 * Owns the vault worker and the keystore file for the whole app (mounted once in main.tsx,
 * so moving between pages keeps the wallet unlocked until Lock or the idle time-out): loads
 * the file from the node, keeps its non-secret part in React state, sends each action to the
 * worker and saves the file the worker seals. User activity (keys, pointer) is passed to the
 * worker at most every 15 s to reset its idle timer. A restore from a backup replaces the
 * keystore on disk: once the node is back, the file is read again and the wallet locked.
 * @module
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import {
  DEFAULT_SETTINGS,
  type KeystoreFile,
  type WalletSettings,
} from "../../../../../src-node/walletFiles/keystoreFile.ts";
import { clientErrorOf } from "../../../api/clientFailure.ts";
import {
  clientErrorWords,
  type ShownError,
  WordedError,
  withLead,
} from "../../../api/errorWords.ts";
import { useRestartPhase, useServices } from "../../../services/services.tsx";
import { keystoreQuery, walletCalls, walletKeys } from "../api.ts";
import { DISCOVERY_KEYS, discoverAccounts } from "../discovery/accountDiscovery.ts";
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

export function VaultProvider({
  children,
  transport,
}: {
  readonly children: ReactNode;
  /** The worker (tests pass another transport). */
  readonly transport?: (() => VaultTransport) | undefined;
}) {
  const { client, config } = useServices();
  const queries = useQueryClient();
  const [discovery, setDiscovery] = useState<DiscoveryState>({ status: "idle" });
  const [unlocked, setUnlocked] = useState(false);
  const [replacedKeptAs, setReplacedKeptAs] = useState<string | null>(null);
  const vaultRef = useRef<VaultClient | null>(null);
  // The file is server state: read through the query, and every save writes the query's
  // cache at once, so a render with an older state cannot undo a save.
  const stored = useQuery(keystoreQuery(client));
  const keystore = stored.data ?? null;
  const phase =
    stored.data === undefined
      ? "loading"
      : unlocked
        ? "unlocked"
        : stored.data === null
          ? "none"
          : "locked";
  const loadError: ShownError | null =
    stored.error === null
      ? null
      : stored.error instanceof WordedError
        ? stored.error.words
        : withLead(
            "The wallet could not be loaded.",
            clientErrorWords(clientErrorOf(stored.error)),
          );

  // After a restore the node reads its files again (the restart watch invalidates every
  // query, this one too): what was unlocked belongs to the keystore the restore replaced.
  const restart = useRestartPhase();
  const restored = restart.kind === "back" && restart.reason === "restore";
  useEffect(() => {
    if (!restored) return;
    void vaultRef.current?.request({ op: "lock" }).catch(() => {
      // Lock cannot fail in the vault; only a closed vault (its worker gone, and its keys
      // with it) rejects, and then there is nothing left to lock.
    });
    setUnlocked(false);
  }, [restored]);

  useEffect(() => {
    const vault = createVaultClient((transport ?? startVaultWorker)(), () => setUnlocked(false));
    vaultRef.current = vault;
    return () => {
      vault.close();
      vaultRef.current = null;
    };
  }, [transport]);

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

  /** The file as saved last (the cache, not a render's state). */
  const current = useCallback((): KeystoreFile => {
    const k = queries.getQueryData<KeystoreFile | null>(walletKeys.keystore);
    if (k == null) throw new Error("no wallet yet");
    return k;
  }, [queries]);

  /** The file the node holds now, in the cache at once; the backup notice asks again. */
  const holdFile = useCallback(
    async (file: KeystoreFile) => {
      // A read still on its way would bring back the file before this one.
      await queries.cancelQueries({ queryKey: walletKeys.keystore });
      queries.setQueryData(walletKeys.keystore, file);
      // A backup may no longer hold the file as it is now.
      void queries.invalidateQueries({ queryKey: walletKeys.backupDue });
    },
    [queries],
  );

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
      const r = await walletCalls.saveKeystore(client, file);
      if (!r.ok) {
        throw new WordedError(
          withLead("The wallet could not be saved.", clientErrorWords(r.error)),
        );
      }
      await holdFile(file);
    },
    [client, holdFile],
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
        walletCalls.localRaw(client),
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
        setUnlocked(true);
        if (phrase !== null) void discover();
      },
      replace: (password, phrase) =>
        serial(async () => {
          const settings =
            queries.getQueryData<KeystoreFile | null>(walletKeys.keystore)?.public.settings ??
            DEFAULT_SETTINGS;
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
          const answer = await walletCalls.replaceKeystore(client, file);
          if (!answer.ok) {
            // The worker holds the new keys now; the node still has the old file.
            await vault().request({ op: "lock" });
            setUnlocked(false);
            throw new WordedError(
              withLead(
                "The wallet was not replaced: the stored one is unchanged.",
                clientErrorWords(answer.error),
              ),
            );
          }
          await holdFile(file);
          setReplacedKeptAs(answer.value.keptAs);
          setUnlocked(true);
          if (phrase !== null) void discover();
          return answer.value.keptAs;
        }),
      replacedKeptAs,
      unlock: async (password) => {
        await vault().request({ op: "unlock", keystore: current(), password });
        setUnlocked(true);
      },
      lock: async () => {
        await vault().request({ op: "lock" });
        setUnlocked(false);
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
    queries,
    replacedKeptAs,
    holdFile,
  ]);

  return <VaultContext value={value}>{children}</VaultContext>;
}
