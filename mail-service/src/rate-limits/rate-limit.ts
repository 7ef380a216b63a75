import * as z from 'zod/mini'

/** At most `count` sends in any window of `windowMs`. */
export type RateLimit = { count: number; windowMs: number }

const units = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const
const shape = /^(\d{1,6})\/(\d{0,4})([smhd])$/

/**
 * A rate limit setting: `<count>/<window>`, the window a number (1 when left out) and a unit of
 * s, m, h or d, like `3/1h`, `60/1m` or `100/d`; `0` turns the limit off (null).
 */
export function rateLimitSetting() {
  return z.pipe(
    z.string().check(z.trim()),
    z.transform((value: string, context): RateLimit | null => {
      if (value === '0') return null
      const [, count, amount, unit] = shape.exec(value) ?? []
      const windowMs = Number(amount || '1') * (units[unit as keyof typeof units] ?? 0)
      if (!count || Number(count) < 1 || windowMs < 1_000 || windowMs > 30 * units.d) {
        context.issues.push({
          code: 'custom',
          input: value,
          message:
            'must be <count>/<window> like 3/1h or 60/1m (s, m, h, d; at most 30d), or 0 for none',
        })
        return z.NEVER
      }
      return { count: Number(count), windowMs }
    }),
  )
}

/** `3 per 1h`, for messages. */
export function describeRateLimit({ count, windowMs }: RateLimit): string {
  for (const [unit, ms] of Object.entries(units).reverse()) {
    if (windowMs % ms === 0) return `${count} per ${windowMs / ms}${unit}`
  }
  return `${count} per ${windowMs} ms`
}
