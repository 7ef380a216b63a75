/** Milliseconds on the machine's monotonic clock: comparable between processes of one machine. */
export const monotonicMs = () => Number(process.hrtime.bigint() / 1000n) / 1000
