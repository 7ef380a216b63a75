import { MemorySendCounter } from './memory-send-counter.js'
import { describeSendCounterContract } from './send-counter.contract.js'

describeSendCounterContract('memory', async () => ({
  counter: new MemorySendCounter(),
  cleanup: async () => {},
}))
