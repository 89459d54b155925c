import { render } from 'preact';
import { App } from './app.js';

/**
 * The operator console: a page served by the gateway at `/console/` that speaks only to the same
 * gateway's /api, with the operator's own session (docs/console.md).
 */
render(<App />, document.getElementById('console')!);
