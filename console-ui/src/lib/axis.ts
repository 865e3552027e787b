/** The font of the charts' axis labels (uPlot's default, set explicitly so it is measured alike). */
export const AXIS_FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

/** Room beside the widest label: uPlot's gap between labels and plot (5 px), and a margin. */
const AXIS_PADDING = 14;
const MIN_AXIS_SIZE = 40;

let measurer: CanvasRenderingContext2D | null | undefined;

/** The width of `text` in {@link AXIS_FONT}, in CSS pixels (an estimate where canvas is unavailable). */
export function textWidth(text: string): number {
  if (measurer === undefined) {
    try {
      measurer = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
    } catch {
      measurer = null;
    }
  }
  if (!measurer) return text.length * 7;
  measurer.font = AXIS_FONT;
  return measurer.measureText(text).width;
}

/**
 * The width a value axis needs so that none of its labels is clipped: the widest label plus the
 * gap to the plot, at least {@link MIN_AXIS_SIZE}. uPlot asks again whenever the labels change.
 */
export function axisSize(labels: readonly (string | null | undefined)[] | null | undefined, measure = textWidth): number {
  let widest = 0;
  for (const label of labels ?? []) {
    if (label) widest = Math.max(widest, measure(label));
  }
  return Math.max(MIN_AXIS_SIZE, Math.ceil(widest) + AXIS_PADDING);
}

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;
const D = 24 * H;

/** Tick steps of duration axes (milliseconds) in whole units: 500 ms, 30 s, 15 min, 6 h, 100 d. */
export const DURATION_INCRS: readonly number[] = [
  1, 2, 5, 10, 20, 50, 100, 200, 500,
  S, 2 * S, 5 * S, 10 * S, 15 * S, 30 * S,
  MIN, 2 * MIN, 5 * MIN, 10 * MIN, 15 * MIN, 30 * MIN,
  H, 2 * H, 3 * H, 6 * H, 12 * H,
  D, 2 * D, 7 * D, 14 * D, 30 * D, 50 * D, 100 * D, 200 * D, 500 * D, 1000 * D,
];

/** Tick steps of size axes (bytes) in whole binary units: 512 B, 20 KiB, 5 MiB. */
export const BYTE_INCRS: readonly number[] = [1, 1024, 1024 ** 2, 1024 ** 3, 1024 ** 4].flatMap((unit) =>
  [1, 2, 5, 10, 20, 50, 100, 200, 500].map((m) => m * unit),
);
