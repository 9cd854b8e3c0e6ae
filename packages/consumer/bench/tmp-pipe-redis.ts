process.env.BENCH_ONLY_REDIS = '1';
await import('./pipeline.bench.js');
