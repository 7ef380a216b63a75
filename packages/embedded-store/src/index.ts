export {
  DataDirInUseError,
  type DataDirLock,
  type LockOwner,
  lockDataDir,
} from './data-dir-lock.js'
export { EmbeddedEnv } from './embedded-env.js'
export { type NedbDatafile, type NedbDocument, readNedbDatafile } from './nedb-datafile.js'
export { ownerOnly, ownerOnlyDir, warnOnce, writeOwnerOnlyFile } from './owner-only.js'
export { StoreDamagedError } from './storage-errors.js'
