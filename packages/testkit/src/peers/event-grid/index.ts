/**
 * A local Azure Event Grid topic endpoint for tests: `POST /api/events` with `aeg-sas-key` or
 * `aeg-sas-token`, CloudEvents 1.0 in structured mode (a batch, or a single event), validated and
 * size-checked like the service, with fault injection.
 *
 * Not supported: the Event Grid and custom input schemas (answered 400), CloudEvents binary mode,
 * domains and namespace topics, Entra ID (bearer) authentication.
 */
export { startEventGridPeer, type EventGridPeer, type EventGridPeerOptions } from './peer.js';
export type { ReceivedCloudEvent } from './cloud-events.js';
