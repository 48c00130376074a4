/**
 * How a memory figure moves over the last half of a soak, which `npm run soak` judges (plain JS, so the soak and its smoke
 * test share it).
 */

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * The line through the samples taken from `halfwaySeconds` on, fitted by Theil–Sen (its slope the median of the slopes
 * between every two samples, its level the median of what remains): its values at the first and the last of them, and the
 * rise between the two as a share of the first. Neither two samples compared (the largest against the half-way one) nor
 * least squares: under this traffic a sample taken while bodies of 2 MB are in flight reads 10 to 25 MB high, and one such
 * sample at either end of the half moves a comparison, or tilts a least-squares line, by 10 % on a flat process. The medians
 * ignore such samples (up to about three in ten), while a leak, which raises every later sample, tilts the line.
 *
 * @param {ReadonlyArray<{ seconds: number } & Record<string, number>>} samples in time order
 * @param {string} field the figure, e.g. `rss`
 * @param {number} halfwaySeconds
 * @returns {{ from: number, to: number, rise: number, largestVsFirst: number, seconds: [number, number] } | undefined}
 *   undefined with fewer than three samples in the half
 * @example lastHalfTrend([{ seconds: 0, rss: 90 }, { seconds: 30, rss: 100 }, { seconds: 60, rss: 140 }, { seconds: 90, rss: 102 }], "rss", 30)
 *   // { from: 100, to: 102, rise: 0.02, largestVsFirst: 0.4, seconds: [30, 90] }
 */
export function lastHalfTrend(samples, field, halfwaySeconds) {
  const half = samples.filter((sample) => sample.seconds >= halfwaySeconds);
  if (half.length < 3) return undefined;
  const ts = half.map((sample) => sample.seconds);
  const ys = half.map((sample) => sample[field]);
  const slopes = ts.flatMap((t, i) => ts.slice(i + 1).map((later, j) => (ys[i + 1 + j] - ys[i]) / (later - t)));
  const slope = median(slopes);
  const level = median(ys.map((y, i) => y - slope * ts[i]));
  const from = level + slope * ts[0];
  const to = level + slope * ts.at(-1);
  return { from, to, rise: to / from - 1, largestVsFirst: Math.max(...ys) / ys[0] - 1, seconds: [ts[0], ts.at(-1)] };
}
