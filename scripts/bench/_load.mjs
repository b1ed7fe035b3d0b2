/** Small load-generation helpers shared by `npm run load` and the bench. */

export function percentile(sorted, p) {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Runs `count` tasks with at most `concurrency` in flight; returns each one's latency in ms, sorted. */
export async function pool(count, concurrency, task) {
  const latencies = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const started = performance.now();
      await task(index);
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return latencies.sort((a, b) => a - b);
}
