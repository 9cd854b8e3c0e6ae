/** Hostile bodies on every registered route, second third of the routes (see hostile-routes.test.ts). */
import { hostileBodySuite } from './hostile-bodies.js';

hostileBodySuite(1, 3);
