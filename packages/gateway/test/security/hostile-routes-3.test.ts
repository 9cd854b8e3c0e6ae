/** Hostile bodies on every registered route, last third of the routes (see hostile-routes.test.ts). */
import { hostileBodySuite } from './hostile-bodies.js';

hostileBodySuite(2, 3);
