import { render } from 'preact';
import { App } from './app.js';

/**
 * The operator console: a page served by the gateway at `/console/` that speaks only to the same
 * gateway's /api, with the operator's own session (docs/console.md).
 */
const root = document.getElementById('console')!;
root.replaceChildren(); // the "Loading" line of the static page
render(<App />, root);
