import { describeMailEventsContract } from '../contracts/mail-events.contract.js'
import { MemoryMailEvents } from '../support/memory-stores/memory-mail-events.js'

describeMailEventsContract('memory', async () => ({
  events: new MemoryMailEvents(),
  cleanup: async () => {},
}))
