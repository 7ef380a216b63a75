import { describeSendCounterContract } from '../contracts/send-counter.contract.js'
import { MemorySendCounter } from '../support/memory-stores/memory-send-counter.js'

describeSendCounterContract('memory', async () => ({
  counter: new MemorySendCounter(),
  cleanup: async () => {},
}))
