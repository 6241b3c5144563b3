/**
 * The node's recent log lines (`/app/api/node/log`) with a level filter, and where the log
 * file is: "Open log folder" in the desktop app (its path from `appInfoQuery`, opened by
 * `openFolderMutation`), the path (or a note) in a browser.
 * @module
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { clientErrorOf } from "../../../api/clientFailure.ts";
import { desktopErrorWords } from "../../../api/errorWords.ts";
import { LOG_LEVELS, type LogLevel } from "../../../api/nodeStatus.ts";
import { bridgeErrorOf } from "../../../desktop/bridgeFailure.ts";
import { useServices } from "../../../services/services.tsx";
import { Button } from "../../../ui/Button.tsx";
import { DateTime } from "../../../ui/DateTime.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { ErrorNotice } from "../../../ui/ErrorNotice.tsx";
import { LongValue } from "../../../ui/LongValue.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { appInfoQuery, nodeLogQuery, nodeStatusQuery, openFolderMutation } from "../api.ts";
import { folderOf } from "../model.ts";

const LINES_LABEL = "Recent log lines, newest first";

/** Lines shown (the node keeps more). */
const SHOWN = 200;

export function NodeLog() {
  const { client, desktop } = useServices();
  const [level, setLevel] = useState<LogLevel>("info");
  const levelId = useId();
  const log = useQuery(nodeLogQuery(client, level));
  const status = useQuery(nodeStatusQuery(client));
  const desktopLog = useQuery(appInfoQuery(desktop)).data?.logFile;
  const opening = useMutation(openFolderMutation(desktop));

  const logFile = desktopLog ?? status.data?.logFile ?? null;
  const lines = (log.data ?? []).slice(-SHOWN).reverse();
  return (
    <Panel
      id="log"
      title="Log"
      actions={
        desktop !== null && logFile !== null ? (
          <Button size="sm" onPress={() => opening.mutate(folderOf(logFile))}>
            Open log folder
          </Button>
        ) : undefined
      }
    >
      <div className="field">
        <label className="field-label" htmlFor={levelId}>
          Level
        </label>
        <select
          id={levelId}
          className="input"
          value={level}
          onChange={(e) => setLevel(e.target.value as LogLevel)}
        >
          {LOG_LEVELS.map((l) => (
            <option key={l} value={l}>
              {l === "info" ? "everything" : l === "warn" ? "warnings and errors" : "errors"}
            </option>
          ))}
        </select>
      </div>
      {desktop === null ? (
        <p className="hint" data-testid="log-file">
          {logFile === null ? (
            "This node writes no log file: its log goes to the terminal that started it. Recent lines:"
          ) : (
            <>
              Log file: <LongValue value={logFile} what="log file path" />
            </>
          )}
        </p>
      ) : null}
      {opening.error === null ? null : (
        <ErrorMessage error={desktopErrorWords(bridgeErrorOf(opening.error))} />
      )}
      {log.status === "error" ? (
        <ErrorNotice
          error={clientErrorOf(log.error)}
          what="the node's log"
          onRetry={() => void log.refetch()}
        />
      ) : null}
      {log.data !== undefined && lines.length === 0 ? <p>No lines at this level.</p> : null}
      {lines.length === 0 ? null : (
        // A region that scrolls must take the keyboard's focus, or its lines are out of reach
        // without a mouse (axe: scrollable-region-focusable).
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable with the keyboard
        <ol className="log-lines" aria-label={LINES_LABEL} data-testid="log-lines" tabIndex={0}>
          {lines.map((l) => (
            <li key={l.seq} className={`log-line log-${l.level}`}>
              <DateTime ms={l.at} /> <span className="log-level">{l.level}</span> {l.message}
              {l.fields === null ? null : (
                <span className="log-fields"> {JSON.stringify(l.fields)}</span>
              )}
            </li>
          ))}
        </ol>
      )}
    </Panel>
  );
}
