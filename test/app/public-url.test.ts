import test from 'ava';
import { parseGatewayConfig } from '../../src/app/config/config.js';
import { parsePublicOrigin } from '../../src/app/config/cors-origins.js';
import { configFromEnv } from '../../src/app/config/from-env.js';
import { ConfigError } from '../../src/keyserver/config-error.js';

test('a public URL may carry the base path the gateway is mounted under; a trailing slash is dropped', (t) => {
  t.is(parsePublicOrigin('https://keys.example.com'), 'https://keys.example.com');
  t.is(parsePublicOrigin('HTTPS://Keys.Example.com:443/kg/'), 'https://keys.example.com/kg');
  t.is(parsePublicOrigin(' https://example.com/a/b-c_d '), 'https://example.com/a/b-c_d');
  t.is(parseGatewayConfig({ publicUrl: 'https://example.com/kg' }).publicUrl, 'https://example.com/kg');
});

for (const bad of [
  'https://example.com/kg?x=1',
  'https://example.com/kg#f',
  'https://example.com//kg',
  'https://example.com/a/../b',
  'example.com/kg',
  'https://u:p@example.com/kg',
  '*',
]) {
  test(`TE_GATEWAY_PUBLIC_ORIGIN=${bad} stops the boot with a line naming the variable`, (t) => {
    const error = t.throws(() => configFromEnv({ TE_GATEWAY_PUBLIC_ORIGIN: bad }), { instanceOf: ConfigError });
    t.regex(error!.message, /TE_GATEWAY_PUBLIC_ORIGIN/);
  });
}
