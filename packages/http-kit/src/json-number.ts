/** How parsing would change a JSON number: out of range, below the smallest, or another integer. */
export type NumberChange = 'tooLarge' | 'tooSmall' | 'inexact'

/** A number's value written as its significant digits times a power of ten. */
type Decimal = { digits: string; exponent: number }

/**
 * What `JSON.parse` would change of the number `literal` (JSON's syntax, already checked), or
 * `undefined` when the number is kept. Out of range (`1e400`) it would be `Infinity`, stored
 * as `null`; a value too close to 0 for a double (`1e-400`) would be 0.
 *
 * An integer is kept when the double it parses to gives it back: the shortest text of that
 * double (what `JSON.stringify` writes, so what the service answers) has the same value,
 * however the integer was written. `9007199254740993`, `9007199254740993.0`,
 * `9.007199254740993e15` and `90071992547409930e-1` all come back as `9007199254740992`: each
 * is refused. `9007199254740992`, `1e20` and `1e300` come back as sent, and are kept, as every
 * reader of JSON numbers reads them (though the double of `1e300` is not exactly 10^300).
 * A fraction is rounded to the nearest double as by every JSON reader (`0.1` has no exact
 * double either), and kept: `9007199254740993.5` too, as `9007199254740994`.
 * @example numberChange('9.007199254740993e15') // 'inexact'
 */
export function numberChange(literal: string): NumberChange | undefined {
  const value = Number(literal)
  if (!Number.isFinite(value)) return 'tooLarge'
  const sent = decimal(literal)
  if (sent.digits === '') return undefined
  if (value === 0) return 'tooSmall'
  // A fraction, or an integer a double holds exactly (every one up to 2^53).
  if (sent.exponent < 0 || Math.abs(value) < 2 ** 53) return undefined
  const kept = decimal(String(value))
  return kept.digits === sent.digits && kept.exponent === sent.exponent ? undefined : 'inexact'
}

/** The value of a number's text: its digits, no leading or trailing zeros ('' for zero). */
function decimal(literal: string): Decimal {
  const [, whole = '', fraction = '', exponent = '0'] =
    /^-?(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?$/.exec(literal) ?? []
  const significant = `${whole}${fraction}`.replace(/^0+/, '')
  const digits = significant.replace(/0+$/, '')
  const droppedZeros = significant.length - digits.length
  return { digits, exponent: Number(exponent) - fraction.length + droppedZeros }
}
