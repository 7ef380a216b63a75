import { describeMailLogContract } from './mail-log.contract.js'
import { MemoryMailLog } from './memory-mail-log.js'

describeMailLogContract('memory', async () => ({
  log: new MemoryMailLog(),
  cleanup: async () => {},
}))
