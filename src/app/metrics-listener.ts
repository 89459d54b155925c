import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PromMetrics } from '../adapters/metrics/prom-metrics.js';

/**
 * What the metrics listener answers: a server of its own (bound with the API's, `bindGatewayPorts`), so
 * that scraping never shares a port (nor its exposure) with the API. `GET /metrics` answers the
 * Prometheus text format; anything else is 404.
 */
export function metricsHandler(metrics: PromMetrics): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    metrics.scrape().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
    );
  };
}
