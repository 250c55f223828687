/**
 * A fixed CPU-bound JS workload (Float32 dot products), run at the start: the figures of a
 * run on a shared or slow machine can be read against it. `cpuShare` is CPU time over wall
 * time of this single thread (1.0 = it had a core to itself).
 */
export function calibrate(): { jsMflops: number; cpuShare: number } {
  const dim = 512;
  const rows = 4000;
  const a = new Float32Array(dim * rows).map((_, i) => (i % 7) / 7);
  const q = new Float32Array(dim).map((_, i) => (i % 5) / 5);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let sink = 0;
  for (let rep = 0; rep < 25; rep++) {
    for (let r = 0; r < rows; r++) {
      let s = 0;
      const off = r * dim;
      for (let i = 0; i < dim; i++) s += q[i]! * a[off + i]!;
      sink += s;
    }
  }
  const wallMs = performance.now() - t0;
  const c = process.cpuUsage(c0);
  const cpuMs = (c.user + c.system) / 1000;
  if (sink < 0) throw new Error('unreachable');
  const flops = 2 * dim * rows * 25;
  return { jsMflops: Math.round(flops / (cpuMs * 1000)), cpuShare: Math.round((cpuMs / wallMs) * 100) / 100 };
}
