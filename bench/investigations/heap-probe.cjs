// Preloaded (`node --require`) into a server under test for the change-feed measure only. On
// SIGUSR2 it runs a full garbage collection and writes `process.memoryUsage()` to the file named
// by BENCH_HEAP_FILE, so that the heap held by idle streams can be read from outside without
// starting the server with --expose-gc: the flag is set here, and `gc` taken from a new context.
const { writeFileSync, renameSync } = require('node:fs')
const { setFlagsFromString } = require('node:v8')
const { runInNewContext } = require('node:vm')

const file = process.env.BENCH_HEAP_FILE
if (file) {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc')
  process.on('SIGUSR2', () => {
    gc()
    // Written whole, then renamed, so that the reader never sees half a file.
    writeFileSync(`${file}.part`, JSON.stringify(process.memoryUsage()))
    renameSync(`${file}.part`, file)
  })
}
