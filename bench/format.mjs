// How figures are written in RESULTS.md.

/** A number with thousands separators and `digits` decimals; `n/a` when it is not finite. */
export const fixed = (value, digits = 0) =>
  Number.isFinite(value)
    ? value.toLocaleString('en-US', {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      })
    : 'n/a'
export const ratio = (value) => (Number.isFinite(value) ? `${value.toFixed(2)}x` : 'n/a')
export const verdict = (met) => (met ? 'met' : '**missed**')
export const count = (n) => n.toLocaleString('en-US')

/** Server CPU seconds spent per answer in a run. */
export const cpuPerAnswer = (run) => run.cpu / run.rps
