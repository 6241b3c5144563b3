/**
 * Small charts of the built-in miner's last hour (`/app/api/mining/history`): its hash rate
 * over time (0 where it did not run: `hashRateSeries.ts`; the times in UTC) and the blocks it
 * found per chain, drawn with recharts (SVG), with room inside the picture for every axis
 * label.
 * @module
 */
import { useQuery } from "@tanstack/react-query";
import { Bar, BarChart, CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import { clientErrorOf } from "../../../api/clientFailure.ts";
import { formatClock } from "../../../format/dateTime.ts";
import { formatHashRate } from "../../../format/number.ts";
import { useServices } from "../../../services/services.tsx";
import { ErrorNotice } from "../../../ui/ErrorNotice.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { infoQuery, miningHistoryQuery } from "../api.ts";
import { hashRateSeries } from "../hashRateSeries.ts";
import { blocksPerChain } from "../model.ts";

// A fixed size: a chart that follows its container's width can make the page's grid relayout
// in a loop (each size change of the chart changes the row), and nothing on it stays still.
const CHART_WIDTH = 320;
const CHART_HEIGHT = 140;

const clock = formatClock;

/** Room for the axes' labels at the picture's edges ("10.5 MH/s", "04:58" at the far right). */
const MARGIN = { top: 8, right: 24, bottom: 0, left: 4 } as const;

export function MiningCharts() {
  const { client } = useServices();
  // Not the live heights: re-drawing the charts on every new block would keep the page busy.
  const info = useQuery(infoQuery(client));
  const history = useQuery(miningHistoryQuery(client));
  const h = history.data;
  const chainCount = Math.max(
    info.data?.nodeNumberOfChains ?? 0,
    ...(h?.blocks.map((b) => b.chainId + 1) ?? []),
  );
  const perChain = h === undefined ? [] : blocksPerChain(h.blocks, chainCount);
  return (
    <Panel id="mining-charts" title="Last hour">
      {history.status === "error" ? (
        <ErrorNotice
          error={clientErrorOf(history.error)}
          what="the miner's history"
          onRetry={() => void history.refetch()}
        />
      ) : null}
      {h === undefined ? null : (
        <div className="charts">
          <figure className="chart" aria-labelledby="hash-rate-chart-title">
            <figcaption id="hash-rate-chart-title">Hash rate (times in UTC)</figcaption>
            {h.hashRate.length === 0 ? (
              <p className="hint">No samples yet: the miner has not run in the last hour.</p>
            ) : (
              <LineChart
                width={CHART_WIDTH}
                height={CHART_HEIGHT}
                data={hashRateSeries(h.hashRate, Date.now())}
                margin={MARGIN}
              >
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis
                  dataKey="at"
                  type="number"
                  domain={["dataMin", "dataMax"]}
                  tickFormatter={clock}
                />
                <YAxis width={80} tickFormatter={(v: number) => formatHashRate(v)} />
                <Tooltip
                  labelFormatter={(v) => clock(Number(v))}
                  formatter={(v) => [formatHashRate(Number(v)), "hash rate"]}
                />
                {/* Straight segments: a curve would swing below 0 where the miner stopped. */}
                <Line type="linear" dataKey="rate" dot={false} isAnimationActive={false} />
              </LineChart>
            )}
          </figure>
          <figure className="chart" aria-labelledby="blocks-chart-title">
            <figcaption id="blocks-chart-title">
              Blocks found per chain ({h.blocks.length} in the last hour)
            </figcaption>
            <BarChart width={CHART_WIDTH} height={CHART_HEIGHT} data={perChain} margin={MARGIN}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="chain" />
              <YAxis width={30} allowDecimals={false} />
              <Tooltip
                formatter={(v) => [String(v), "blocks"]}
                labelFormatter={(c) => `chain ${c}`}
              />
              <Bar dataKey="blocks" isAnimationActive={false} />
            </BarChart>
          </figure>
        </div>
      )}
    </Panel>
  );
}
