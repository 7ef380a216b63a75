// Settings read once from the environment, with the ones every service has.
export { type ServiceSettings, serviceSettings, serviceSettingsOf } from '../service-settings.js'
export {
  apiKey,
  commaList,
  count,
  defineSettings,
  httpUrl,
  isTooShortKey,
  milliseconds,
  misconfiguredMessage,
  oneOf,
  optional,
  SettingsError,
  text,
  tooShortKeyMessage,
  withDefault,
} from '../settings.js'
