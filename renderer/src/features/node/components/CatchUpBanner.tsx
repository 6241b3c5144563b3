/**
 * The catching-up banner: while the node catches up (the explorer's index rebuilding, state
 * replaying, later syncing from peers; `/app/api/node/status`), each task's progress and time
 * left, as Bitcoin Core's sync overlay. It can be hidden; it comes back when a new task starts.
 * @module
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useServices } from "../../../services/services.tsx";
import { Button } from "../../../ui/Button.tsx";
import { nodeStatusQuery } from "../api.ts";
import { timeLeft } from "../model.ts";

export function CatchUpBanner() {
  const { client } = useServices();
  const status = useQuery(nodeStatusQuery(client));
  const [hidden, setHidden] = useState<string | null>(null);
  const items = status.data?.catchingUp ?? [];
  const key = items.map((i) => i.what).join("\n");
  if (items.length === 0 || hidden === key) return null;
  return (
    <section
      className="notice notice-info catch-up"
      aria-label="Catching up"
      data-testid="catch-up"
    >
      <p>
        <strong>The node is catching up.</strong> Figures on the pages may be behind until it is
        done.
      </p>
      <ul>
        {items.map((item) => {
          const share = item.total === 0 ? 0 : Math.min(1, item.done / item.total);
          return (
            <li key={item.what}>
              <span>{item.what}</span>{" "}
              <progress value={item.done} max={item.total === 0 ? 1 : item.total}>
                {Math.round(share * 100)} %
              </progress>{" "}
              <span>
                {Math.round(share * 100)} %, {timeLeft(item.etaS)}
              </span>
            </li>
          );
        })}
      </ul>
      <Button size="sm" onPress={() => setHidden(key)}>
        Hide
      </Button>
    </section>
  );
}
