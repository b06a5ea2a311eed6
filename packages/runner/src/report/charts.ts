// The report's charts (loaded through chart-loader.ts, ECharts being optional), drawn by Apache ECharts on the server: its SVG renderer in SSR mode needs
// no DOM, and the SVG it returns is inlined into the page, so the report shows them without a
// script or a network access. ECharts escapes every text it writes (activity names are user text).
import type { BarSeriesOption } from 'echarts/charts';
import { BarChart } from 'echarts/charts';
import type { GridComponentOption, LegendComponentOption } from 'echarts/components';
import { GridComponent, LegendComponent } from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import { init, use } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { MAX_TIMELINE_ROWS, STATUS_COLOR } from './chart-style.js';
import { type ActivityEntry, type Comparison, formatSeconds, type RunReport } from './model.js';

use([BarChart, GridComponent, LegendComponent, SVGRenderer]);

type Option = ComposeOption<BarSeriesOption | GridComponentOption | LegendComponentOption>;

const OTHER_COLOR = '#6d4c41';

/**
 * The timeline's series, in this order: the invisible offset every bar is stacked on, then one
 * series per status (so the legend says what a colour means). Tests count the bars by series.
 */
export const TIMELINE_SERIES = ['offset', 'succeeded', 'failed', 'skipped', 'other'] as const;

const WIDTH = 960;
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

function render(option: Option, height: number): string {
  const chart = init(null, null, { renderer: 'svg', ssr: true, width: WIDTH, height });
  try {
    chart.setOption({ animation: false, textStyle: { fontFamily: FONT }, ...option });
    return chart.renderToSVGString();
  } finally {
    // Dispose, or zrender's frame loop keeps the process alive.
    chart.dispose();
  }
}

/** How an activity is named on a chart's axis. */
function axisName(a: Pick<ActivityEntry, 'phase' | 'round' | 'name'>): string {
  const phase =
    a.phase === 'during'
      ? `during #${a.round ?? '?'}`
      : a.phase === 'rollbacks'
        ? 'rollback'
        : a.phase === 'method'
          ? 'method'
          : a.phase;
  return `${phase} · ${a.name}`;
}

const statusSeries = (status: string): (typeof TIMELINE_SERIES)[number] =>
  status === 'succeeded' || status === 'failed' || status === 'skipped' ? status : 'other';

/** Labels on a category axis by index, so two activities of the same name stay two rows. */
function categoryAxis(labels: string[]) {
  return {
    type: 'category' as const,
    inverse: true,
    data: labels.map((_, i) => String(i)),
    axisTick: { show: false },
    axisLabel: {
      formatter: (_: string, i: number) => labels[i] ?? '',
      width: 260,
      overflow: 'truncate' as const,
      fontSize: 12,
    },
  };
}

/**
 * The run as a Gantt chart: one bar per activity, from its start (seconds after the run's) for
 * its duration, coloured by its status.
 */
export function timelineChart(run: RunReport): string | undefined {
  const shown = run.activities.slice(0, MAX_TIMELINE_ROWS);
  if (shown.length === 0) return undefined;
  const labels = shown.map(axisName);
  const series: BarSeriesOption[] = TIMELINE_SERIES.map((name) =>
    name === 'offset'
      ? {
          type: 'bar',
          name,
          stack: 'timeline',
          silent: true,
          itemStyle: { color: 'transparent' },
          data: shown.map((a) => a.offset ?? 0),
        }
      : {
          type: 'bar',
          name,
          stack: 'timeline',
          // Activities of a few milliseconds stay visible.
          barMinHeight: 3,
          barMaxWidth: 18,
          itemStyle: { color: STATUS_COLOR[name] ?? OTHER_COLOR },
          label: {
            show: true,
            position: 'right',
            fontSize: 11,
            color: '#333',
            formatter: (p: { dataIndex: number }) => formatSeconds(shown[p.dataIndex]?.duration),
          },
          data: shown.map((a) => (statusSeries(a.status) === name ? a.duration : '-')),
        },
  );
  const present = TIMELINE_SERIES.filter(
    (s) => s !== 'offset' && shown.some((a) => statusSeries(a.status) === s),
  );
  return render(
    {
      legend: { top: 0, left: 280, data: present },
      grid: { left: 280, right: 90, top: 36, bottom: 48 },
      xAxis: {
        type: 'value',
        min: 0,
        name: 'seconds since the run started',
        nameLocation: 'middle',
        nameGap: 28,
      },
      yAxis: categoryAxis(labels),
      series,
    },
    90 + shown.length * 26,
  );
}

/**
 * The runs' durations side by side: the whole run, then every activity, one bar per run; a bar
 * whose activity did not succeed says its status.
 */
export function comparisonChart(comparison: Comparison): string {
  const { runs, rows } = comparison;
  const labels = ['whole run', ...rows.map((r) => axisName(r))];
  const series: BarSeriesOption[] = runs.map((run, column) => {
    const cells = [
      run.duration === undefined ? undefined : { duration: run.duration, status: run.outcome },
      ...rows.map((r) => r.cells[column]),
    ];
    return {
      type: 'bar',
      name: run.label,
      barMinHeight: 3,
      barMaxWidth: 16,
      label: {
        show: true,
        position: 'right',
        fontSize: 11,
        color: '#333',
        formatter: (p: { dataIndex: number }) => {
          const cell = cells[p.dataIndex];
          if (!cell) return '';
          const unusual = cell.status !== 'succeeded' && cell.status !== 'completed';
          return `${formatSeconds(cell.duration)}${unusual ? ` ${cell.status}` : ''}`;
        },
      },
      data: cells.map((c) => (c ? c.duration : '-')),
    };
  });
  return render(
    {
      // One name a line: names of files are long, and ECharts cannot measure text without a browser.
      legend: { top: 0, left: 280, orient: 'vertical', data: runs.map((r) => r.label) },
      grid: { left: 280, right: 130, top: 20 + runs.length * 22, bottom: 48 },
      xAxis: { type: 'value', min: 0, name: 'seconds', nameLocation: 'middle', nameGap: 28 },
      yAxis: categoryAxis(labels),
      series,
    },
    70 + runs.length * 22 + labels.length * (runs.length * 16 + 14),
  );
}
