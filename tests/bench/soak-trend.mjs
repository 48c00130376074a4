/**
 * How a memory figure moves over the last half of a soak, which `npm run soak` judges (plain JS, so the soak and its smoke
 * test share it).
 */

/**
 * The least-squares line through the samples taken from `halfwaySeconds` on: its values at the first and the last of them,
 * and the rise between the two as a share of the first. A line, not the largest sample against the half-way one: a sample
 * taken in a burst of allocation (64 bodies of 2 MB in flight), or a half-way sample taken just after the heap shrank, moves
 * a two-point comparison by several percent either way, while a steady leak tilts the line whatever the noise.
 *
 * @param {ReadonlyArray<{ seconds: number } & Record<string, number>>} samples in time order
 * @param {string} field the figure, e.g. `rss`
 * @param {number} halfwaySeconds
 * @returns {{ from: number, to: number, rise: number, largestVsFirst: number, seconds: [number, number] } | undefined}
 *   undefined with fewer than three samples in the half
 * @example lastHalfTrend([{ seconds: 0, rss: 90 }, { seconds: 30, rss: 100 }, { seconds: 60, rss: 101 }, { seconds: 90, rss: 102 }], "rss", 30)
 *   // { from: 100, to: 102, rise: 0.02, largestVsFirst: 0.02, seconds: [30, 90] }
 */
export function lastHalfTrend(samples, field, halfwaySeconds) {
  const half = samples.filter((sample) => sample.seconds >= halfwaySeconds);
  if (half.length < 3) return undefined;
  const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const ts = half.map((sample) => sample.seconds);
  const ys = half.map((sample) => sample[field]);
  const [tMean, yMean] = [mean(ts), mean(ys)];
  const slope =
    ts.reduce((sum, t, i) => sum + (t - tMean) * (ys[i] - yMean), 0) / ts.reduce((sum, t) => sum + (t - tMean) ** 2, 0);
  const from = yMean + slope * (ts[0] - tMean);
  const to = yMean + slope * (ts.at(-1) - tMean);
  return { from, to, rise: to / from - 1, largestVsFirst: Math.max(...ys) / ys[0] - 1, seconds: [ts[0], ts.at(-1)] };
}
