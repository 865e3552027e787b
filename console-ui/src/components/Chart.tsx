import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { AXIS_FONT, axisSize } from '../lib/axis';
import { columns, HISTORY_WINDOW_MS, latest, type Sample, type SeriesKey } from '../lib/history';
import type { ChartMark } from '../lib/marks';

export interface ChartSeries {
  key: SeriesKey;
  label: string;
  color: string;
}

const HEIGHT = 150;

/**
 * A small time-series chart over the history window, with the newest value of each series
 * written above it. `data-points` counts the samples drawn, so tests can see it move.
 */
export function Chart({
  title,
  series,
  history,
  format,
  testId,
  integer = false,
  emptyMax = 1,
  incrs,
  marks = NO_MARKS,
}: {
  title: string;
  series: ChartSeries[];
  history: readonly Sample[];
  format: (value: number) => string;
  testId: string;
  /** Whole numbers only on the value axis (parallelism). */
  integer?: boolean;
  /** The top of the value axis while every value is 0 or absent, in the series' unit. */
  emptyMax?: number;
  /** Tick steps of the value axis, in the series' unit (`DURATION_INCRS`, `BYTE_INCRS`); default decimal. */
  incrs?: readonly number[];
  /** Moments drawn as dashed vertical lines and listed under the title (the autoscaler's decisions). */
  marks?: readonly ChartMark[];
}) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const formatRef = useRef(format);
  formatRef.current = format;
  const seriesRef = useRef(series);
  seriesRef.current = series;
  const keys = series.map((s) => s.key).join(',');
  const marksRef = useRef(marks);
  marksRef.current = marks;

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height: HEIGHT,
      legend: { show: false },
      padding: [10, null, null, null], // room above for the top label; uPlot sizes the other sides
      cursor: { drag: { x: false, y: false } },
      hooks: { draw: [(u) => drawMarks(u, marksRef.current)] },
      scales: {
        x: {
          time: true,
          range: (_u, _min, max) => {
            const newest = Number.isFinite(max) ? max : Date.now() / 1000;
            return [newest - HISTORY_WINDOW_MS / 1000, newest];
          },
        },
        y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.15 : emptyMax] },
      },
      axes: [
        {
          stroke: '#64748b',
          font: AXIS_FONT,
          grid: { stroke: '#e2e8f0', width: 1 },
          ticks: { show: false },
          values: (_u, splits) => splits.map(clockTime),
        },
        {
          stroke: '#64748b',
          font: AXIS_FONT,
          // as wide as its widest label, so "331 d 11 h" fits as well as "1 s"
          size: (_u, values) => axisSize(values),
          grid: { stroke: '#e2e8f0', width: 1 },
          ticks: { show: false },
          values: (_u, splits) => splits.map((v) => formatRef.current(v)),
          ...(integer ? { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] } : incrs ? { incrs: [...incrs] } : {}),
        },
      ],
      series: [
        {},
        ...seriesRef.current.map((s) => ({
          label: s.label,
          stroke: s.color,
          width: 2,
          fill: `${s.color}14`,
          points: { size: 4 },
          ...(integer ? { paths: uPlot.paths.stepped?.({ align: 1 }) } : {}),
        })),
      ],
    };
    plot.current = new uPlot(opts, [[]], el);
    const resize = new ResizeObserver(() => plot.current?.setSize({ width: Math.max(200, el.clientWidth), height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
  }, [keys, integer, emptyMax, incrs]); // a chart's series are fixed; `keys` names them

  useEffect(() => {
    plot.current?.setData(columns(history, seriesRef.current.map((s) => s.key)) as uPlot.AlignedData);
  }, [history, keys]);

  useEffect(() => {
    plot.current?.redraw(false);
  }, [marks]);

  return (
    <section className="card chart" data-testid={testId} data-points={history.length}>
      <header className="chart-head">
        <h3>{title}</h3>
        <div className="chart-values">
          {series.map((s) => {
            const value = latest(history, s.key);
            return (
              <span key={s.key} className="chart-value" data-testid={`${testId}-${s.key}`} data-value={value ?? ''}>
                <span className="swatch" style={{ background: s.color }} aria-hidden="true" />
                {series.length > 1 && <span className="muted">{s.label} </span>}
                <span className="num">{value === null ? '—' : format(value)}</span>
              </span>
            );
          })}
        </div>
      </header>
      {marks.length > 0 && (
        <ul className="chart-marks muted small" data-testid={`${testId}-marks`}>
          {marks.map((m) => (
            <li key={m.at} title={m.detail}>
              {clockTime(m.at / 1000)} autoscaler {m.label}
            </li>
          ))}
        </ul>
      )}
      <div ref={host} className="chart-plot" />
    </section>
  );
}

const NO_MARKS: readonly ChartMark[] = [];

/** Dashed vertical lines at the marks that fall within the plotted time range. */
function drawMarks(u: uPlot, marks: readonly ChartMark[]) {
  if (marks.length === 0) return;
  const ctx = u.ctx;
  ctx.save();
  ctx.strokeStyle = '#b45309';
  ctx.lineWidth = 1;
  ctx.setLineDash([4, 3]);
  for (const m of marks) {
    const x = u.valToPos(m.at / 1000, 'x', true);
    if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) continue;
    ctx.beginPath();
    ctx.moveTo(x, u.bbox.top);
    ctx.lineTo(x, u.bbox.top + u.bbox.height);
    ctx.stroke();
  }
  ctx.restore();
}

function clockTime(seconds: number): string {
  const d = new Date(seconds * 1000);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}
