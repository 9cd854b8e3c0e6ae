export { startEventBridgePeer, type EventBridgePeer, type EventBridgePeerOptions } from './peer.js';
export { entrySize, MAX_ENTRIES_PER_CALL, MAX_ENTRY_BYTES, type ReceivedPartnerEvent } from './entries.js';
