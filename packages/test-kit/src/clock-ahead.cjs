// Preloaded into a process under test (`node --require`): its clock runs CLOCK_AHEAD_MS ahead
// of the machine's, as a host whose clock is off would. Date.now() and new Date() both move.
const aheadMs = Number(process.env.CLOCK_AHEAD_MS ?? 0)
const RealDate = Date
const realNow = RealDate.now

class AheadDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(realNow() + aheadMs)
    else super(...args)
  }

  static now() {
    return realNow() + aheadMs
  }
}

globalThis.Date = AheadDate
