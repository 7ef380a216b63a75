import { describe, expect, it } from 'vitest'
import { describeMailLogContract } from '../contracts/mail-log.contract.js'
import { MemoryMailLog } from '../support/memory-stores/memory-mail-log.js'

describeMailLogContract('memory', async ({ ids }) => ({
  log: new MemoryMailLog({ ids }),
  cleanup: async () => {},
}))

describe('MemoryMailLog', () => {
  it('keeps no more than `maxRecords`, dropping the oldest', async () => {
    const log = new MemoryMailLog<{ n: number }>({ maxRecords: 3 })
    for (let n = 1; n <= 5; n++) await log.insert({ n })
    expect((await log.list({ limit: 10 })).map((record) => record.n)).toEqual([5, 4, 3])
  })

  it("drops the oldest from its owner's records too", async () => {
    const log = new MemoryMailLog<{ n: number }>({ maxRecords: 2 })
    await log.insert({ n: 1 }, 'k1')
    await log.insert({ n: 2 }, 'k2')
    await log.insert({ n: 3 }, 'k1')
    expect((await log.list({ limit: 10, owner: 'k1' })).map((record) => record.n)).toEqual([3])
  })

  it('keeps 10,000 records unless told otherwise, so the isolate never grows without bound', async () => {
    const log = new MemoryMailLog<{ n: number }>()
    for (let n = 1; n <= 10_001; n++) await log.insert({ n })
    const listed: number[] = []
    let before: string | undefined
    for (;;) {
      const page = await log.list({ limit: 1000, before })
      listed.push(...page.map((record) => record.n))
      if (page.length < 1000) break
      before = page.at(-1)?._id
    }
    expect(listed).toHaveLength(10_000)
    expect([listed[0], listed.at(-1)]).toEqual([10_001, 2])
  })

  it('hands out copies: a change to what it returned changes nothing kept', async () => {
    const log = new MemoryMailLog<{ tags: string[] }>()
    const stored = await log.insert({ tags: ['a'] })
    stored.tags.push('b')
    const [listed] = await log.list({ limit: 1 })
    listed?.tags.push('c')
    expect(await log.list({ limit: 1 })).toEqual([{ tags: ['a'], _id: stored._id }])
  })
})
