// The container HEALTHCHECK of the Herald image: GET /healthz of whichever process the container
// runs. `herald serve` listens on PORT (default 8080, HTTPS when HERALD_TLS_CERT is set);
// `herald-delivery` serves /healthz on PORT (default 9464). With PORT unset both defaults are
// tried. Exit 0 when a process answers 200. Plain JavaScript so that it runs without a build step.
/* eslint-disable no-restricted-syntax -- a container entry point: it reads the container's environment */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

const port = process.env.PORT;
const ports = port ? [Number(port)] : [8080, 9464];
const tls = Boolean(process.env.HERALD_TLS_CERT);

function healthy(target) {
  return new Promise((resolve) => {
    const request = (tls ? httpsRequest : httpRequest)(
      // The certificate names the public host, not 127.0.0.1: this probe only asks "are you up?".
      { host: '127.0.0.1', port: target, path: '/healthz', method: 'GET', timeout: 2000, rejectUnauthorized: false },
      (response) => {
        response.resume();
        resolve(response.statusCode === 200);
      },
    );
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(false));
    request.end();
  });
}

const results = await Promise.all(ports.map(healthy));
process.exit(results.some(Boolean) ? 0 : 1);
