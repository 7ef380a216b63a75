/** How parsing would change a JSON number: out of range, below the smallest, or another integer. */
export type NumberChange = 'tooLarge' | 'tooSmall' | 'inexact'

/**
 * What `JSON.parse` would change of the number `literal` (JSON's syntax, already checked), or
 * `undefined` when the number is kept. Out of range (`1e400`) it would be `Infinity`, stored
 * as `null`; a value too close to 0 for a double (`1e-400`) would be 0; an integer of digits
 * alone beyond 2^53 (`9007199254740993`) would be another integer.
 * @example numberChange('9007199254740993') // 'inexact'
 */
export function numberChange(literal: string): NumberChange | undefined {
  const value = Number(literal)
  if (!Number.isFinite(value)) return 'tooLarge'
  if (value === 0) return /[1-9]/.test(literal.split(/[eE]/)[0] ?? '') ? 'tooSmall' : undefined
  if (Number.isSafeInteger(value) || !/^-?\d+$/.test(literal)) return undefined
  return BigInt(literal) === BigInt(value) ? undefined : 'inexact'
}
