import { Worker } from 'node:worker_threads';
for (const name of process.argv.slice(2)) {
  const times = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    await new Promise((res, rej) => { const w = new Worker(`import(${JSON.stringify(name)}).then(()=>process.exit(0),(e)=>{console.error(String(e));process.exit(1)})`, { eval: true }); w.on('exit', res); w.on('error', rej); });
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(String(Math.round(times[1])).padStart(6), name);
}
