import { Writable } from 'node:stream';
import test from 'ava';
import { PinoLogger } from '../../../src/adapters/logger/pino-logger.js';

function capture(): { logger: PinoLogger; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = new PinoLogger({ destination });
  const lines = () =>
    chunks
      .join('')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, lines };
}

test('fields named like secrets are censored at the top of a line and one level down', (t) => {
  const { logger, lines } = capture();
  logger.warn('careless', {
    password: 'hunter2',
    token: 'tok',
    sessionId: 'sid',
    user: 'alice',
    nested: { password: 'p', token: 't', sessionId: 's', kept: 1 },
  });
  const [line] = lines();
  t.like(line, { msg: 'careless', user: 'alice', password: '[redacted]', token: '[redacted]', sessionId: '[redacted]' });
  t.deepEqual(line!.nested, { password: '[redacted]', token: '[redacted]', sessionId: '[redacted]', kept: 1 });
  t.false(JSON.stringify(line).includes('hunter2'));
});

test('censoring never changes the caller’s objects, and a line without secrets is written as is', (t) => {
  const { logger, lines } = capture();
  const nested = { password: 'p' };
  const fields = { token: 'tok', nested, status: 200 };
  logger.info('request', fields);
  logger.info('request', { status: 204, path: '/health' });
  t.deepEqual(fields, { token: 'tok', nested: { password: 'p' }, status: 200 });
  t.is(nested.password, 'p');
  const [, plain] = lines();
  t.like(plain, { msg: 'request', status: 204, path: '/health', service: 'keygate' });
});
