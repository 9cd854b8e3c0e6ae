export { startServiceBusPeer, type ServiceBusPeer, type ServiceBusPeerOptions } from './peer.js';
export type { PeerMessageInput, ApplicationPropertyValue } from './message-codec.js';
export type { MessageIdentifier, ServiceBusPeerMessage, Settlement, SettlementOutcome } from './peer-message.js';
