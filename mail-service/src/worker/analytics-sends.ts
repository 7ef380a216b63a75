import type { AnalyticsEngineDataset } from '@movies-and-mail/http-kit/workers-monitoring'
import type { EventName } from '../ports/mail-events.js'
import type { SendObserved } from '../sendmail/send-mail.js'

/**
 * The Worker's data points for what Prometheus counts on Node (`mail_sends_total`,
 * `mail_delivery_events_total`): one per send, blob1 `send`, blob2 its outcome, blob3 the limit
 * that refused it (rate_limited) or empty; one per filed Mailgun event, blob1 `delivery_event`,
 * blob2 its kind. double1 is 1, so that `SUM(_sample_interval * double1)` counts them.
 * @example createApp({ ...analyticsEngineSends(env.ANALYTICS), ... })
 */
export function analyticsEngineSends(dataset: AnalyticsEngineDataset) {
  return {
    onSend: (send: SendObserved) => {
      const limit = send.outcome === 'rate_limited' ? send.limit : ''
      dataset.writeDataPoint({
        indexes: ['send'],
        blobs: ['send', send.outcome, limit],
        doubles: [1],
      })
    },
    onDeliveryEvent: (kind: EventName) => {
      dataset.writeDataPoint({
        indexes: ['delivery_event'],
        blobs: ['delivery_event', kind],
        doubles: [1],
      })
    },
  }
}
