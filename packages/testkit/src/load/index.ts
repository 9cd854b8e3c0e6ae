export { runHttpLoad, percentile, type LoadOptions, type LoadResult } from './http-load.js';
export { cpuDuring, cpuSince, cpuSnapshot, ownCpu, parentPid, processesCpu, treeCpu, type CpuSnapshot, type CpuSource } from './process-cpu.js';
