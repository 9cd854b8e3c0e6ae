export { startEventGridPeer, type EventGridPeer, type EventGridPeerOptions } from './peer.js';
export type { ReceivedCloudEvent } from './cloud-events.js';
