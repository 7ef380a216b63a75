// Settings read once from the environment, with the ones every service has.
export { type ServiceSettings, serviceSettings, serviceSettingsOf } from '../service-settings.js'
export {
  commaList,
  count,
  defineSettings,
  httpUrl,
  milliseconds,
  misconfiguredMessage,
  oneOf,
  optional,
  SettingsError,
  text,
  withDefault,
} from '../settings.js'
