// What a Worker's app logs and counts with the platform's tools: each request an object on the
// console (Workers Logs), and a data point in a Workers Analytics Engine dataset when one is bound.
// An entry apart from ./workers-runtime, whose modules a Worker's entry loads at every start.
export {
  type AnalyticsEngineDataset,
  analyticsDatasetOf,
  analyticsEngineRequests,
  analyticsEngineRequestsOf,
  workerAppLog,
} from '../analytics-engine.js'
