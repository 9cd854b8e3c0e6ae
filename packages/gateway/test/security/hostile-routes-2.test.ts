/** Hostile bodies on every registered route, second half of the routes (see hostile-routes.test.ts). */
import { hostileBodySuite } from './hostile-bodies.js';

hostileBodySuite(1, 2);
