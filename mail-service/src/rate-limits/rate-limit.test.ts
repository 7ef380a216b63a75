import { describe, expect, it } from 'vitest'
import { describeRateLimit, rateLimitSetting } from './rate-limit.js'

describe('rateLimitSetting', () => {
  it.each([
    ['3/1h', { count: 3, windowMs: 3_600_000 }],
    ['60/1m', { count: 60, windowMs: 60_000 }],
    ['100/d', { count: 100, windowMs: 86_400_000 }],
    [' 5/30s ', { count: 5, windowMs: 30_000 }],
    ['0', null],
  ])('reads %j', (value, limit) => {
    expect(rateLimitSetting().parse(value)).toEqual(limit)
  })

  it.each(['3', '3/', '/1h', '3/1x', '0/1h', '-1/1h', '3/0h', '3/31d', 'many', '3 per hour'])(
    'refuses %j with a message that shows the form',
    (value) => {
      const result = rateLimitSetting().safeParse(value)
      expect(result.success).toBe(false)
      expect(result.error?.issues[0]?.message).toMatch(/<count>\/<window> like 3\/1h/)
    },
  )

  it('describes a limit in its own units', () => {
    expect(describeRateLimit({ count: 3, windowMs: 3_600_000 })).toBe('3 per 1h')
    expect(describeRateLimit({ count: 60, windowMs: 90_000 })).toBe('60 per 90s')
  })
})
