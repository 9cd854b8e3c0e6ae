import { defineDestination } from '../descriptor.js';
import { createEventGridAdapter } from './adapter.js';
import { EVENT_GRID_LIMITS } from './encode.js';

/** §2.4 EventGrid: a topic URI and its access key; CloudEvents only. */
export const EVENT_GRID_DESTINATION = defineDestination({
  type: 'EventGrid',
  aliases: [],
  normalize: (fields) => {
    const uri = fields.url('uri');
    return { type: 'EventGrid', uri: uri?.toString() ?? '', accessKey: fields.secret('accessKey') };
  },
  secretFields: [{ field: 'accessKey' }],
  // Its encoder refuses the Platform format as well, for subscriptions written by other means.
  formats: ['CloudEvents'],
  limits: EVENT_GRID_LIMITS,
  createAdapter: createEventGridAdapter,
});
