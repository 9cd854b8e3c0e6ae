/**
 * Hostile bodies on every registered route, first third of the routes (the others run in
 * hostile-routes-2 and -3.test.ts, in parallel), plus the 413 check on every body route. What is sent and
 * asserted: hostile-bodies.ts. Path parameters, query strings and headers: hostile-urls.test.ts;
 * a real socket: hostile-socket.test.ts.
 */
import { hostileBodySuite } from './hostile-bodies.js';

hostileBodySuite(0, 3);
