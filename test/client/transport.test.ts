import test from 'ava';
import { KeygateClient } from '../../src/client/keygate-client.js';
import { requestUrl } from '../../src/client/transport.js';

test('a request URL is the base URL, its path prefix kept, then the /api path', (t) => {
  t.is(requestUrl('http://127.0.0.1:8080', '/api/session').href, 'http://127.0.0.1:8080/api/session');
  t.is(requestUrl('http://127.0.0.1:8080/', '/api/session').href, 'http://127.0.0.1:8080/api/session');
  t.is(requestUrl('https://app.example/keygate/', '/api/keys/AbC-_/export').href, 'https://app.example/keygate/api/keys/AbC-_/export');
  t.is(
    requestUrl('https://app.example/keygate?x=1#y', '/api/health').href,
    'https://app.example/keygate/api/health',
    'query and fragment of the base dropped',
  );
});

test('a base URL that is not a URL is refused', (t) => {
  t.throws(() => requestUrl('localhost:8080', '/api/session'), { message: /http or https/ });
  t.throws(() => requestUrl('file:///etc/passwd', '/api/session'), { message: /http or https/ });
  t.throws(() => requestUrl('', '/api/session'), { instanceOf: TypeError });
  t.throws(() => new KeygateClient({ baseUrl: 'ftp://gw.example' }), { message: /http or https/ });
});
