export { startPubSubPeer, type PubSubPeer, type PubSubPeerOptions, type PeerSubscriptionOptions } from './peer.js';
export type { PublishedMessage } from './messages.js';
export type { PubSubRpc } from './rpc.js';
export type { SubscriptionSnapshot } from './subscription-queue.js';
