import { randomBytes } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { ManualClock } from '../../src/adapters/clock/manual-clock.js';
import { CryptoRandom } from '../../src/adapters/random/crypto-random.js';
import type { GatewayConfigInput } from '../../src/app/config/config.js';
import { startEmbeddedKeyServer } from '../../src/app/embedded-engine.js';
import type { Secret } from '../../src/domain/secret/secret.js';
import { FaultyKeyServer } from '../_support/faulty-key-server.js';
import { PASSWORDS, SEED, startGateway, type TestGateway } from '../_support/gateway.js';
import type { Reply } from '../_support/http.js';
import { testRedis } from '../_support/redis.js';
import { testUnless } from '../_support/skip.js';

// docs/spec.md §10 item 2: at most the limit of password checks for one name from one address, however
// many guesses arrive at once. Each password check is held at the key server until every request has
// either reached it or been answered, so all of them are in flight together.

const redis = await testRedis();
const GUESSES = 20;
const LIMIT = 5;

/** The real embedded key server, whose password checks wait until `open()`; it counts them. */
class HeldLogins extends FaultyKeyServer {
  checks = 0;
  onHeld: () => void = () => undefined;
  #open = false;
  readonly #waiting: (() => void)[] = [];

  override async login(user: string, password: Secret) {
    this.checks += 1;
    if (!this.#open) {
      await new Promise<void>((resume) => {
        this.#waiting.push(resume);
        this.onHeld();
      });
    }
    return super.login(user, password);
  }

  open(): void {
    this.#open = true;
    for (const resume of this.#waiting.splice(0)) resume();
  }
}

async function heldGateway(t: ExecutionContext, config: GatewayConfigInput): Promise<{ gw: TestGateway; keyServer: HeldLogins }> {
  const clock = new ManualClock(Date.now());
  const engine = await startEmbeddedKeyServer({ kind: 'embedded', seed: SEED, adminPassword: PASSWORDS.admin }, clock, new CryptoRandom());
  const keyServer = new HeldLogins(engine.keyServer);
  const gw = await startGateway(t, { throttleNameFailures: LIMIT, ...config }, { keyServer, clock });
  return { gw, keyServer };
}

/** `count` logins at once; the held checks are let go once every other request has its answer. */
async function atOnce(gw: TestGateway, keyServer: HeldLogins, count: number, password: string): Promise<Reply[]> {
  let answered = 0;
  const release = () => {
    if (answered + keyServer.checks >= count) keyServer.open();
  };
  keyServer.onHeld = release;
  return Promise.all(
    Array.from({ length: count }, () =>
      gw.call('POST', '/api/session', { body: { user: 'alice', password } }).then((reply) => {
        answered += 1;
        release();
        return reply;
      }),
    ),
  );
}

const statuses = (replies: readonly Reply[]) => replies.map((reply) => reply.status).sort();

const stores: [string, () => GatewayConfigInput | string][] = [
  ['memory', () => ({})],
  [
    'Redis',
    () =>
      'skipped' in redis
        ? redis.skipped
        : {
            sessionStore: {
              kind: 'redis',
              url: redis.url,
              sessionKeys: [randomBytes(32).toString('base64')],
              timeoutMs: 2_000,
              keyPrefix: `test:${randomBytes(6).toString('hex')}:`,
            },
          },
  ],
];

if (!('skipped' in redis)) test.after.always(() => redis.close());

for (const [store, configOf] of stores) {
  // A fresh configuration per test: each Redis test has its own key prefix.
  const config = configOf;
  const skipped = typeof config() === 'string' ? (config() as string) : undefined;
  const declare = testUnless(skipped);
  const title = (text: string) => `${store}: ${text}`;

  declare(title(`${GUESSES} wrong passwords at once from one address reach the password check at most ${LIMIT} times`), async (t) => {
    const { gw, keyServer } = await heldGateway(t, config() as GatewayConfigInput);
    const replies = await atOnce(gw, keyServer, GUESSES, 'not-the-password');
    t.true(keyServer.checks <= LIMIT, `${keyServer.checks} password checks ran: ${statuses(replies).join(' ')}`);
    const wrong = replies.filter((reply) => reply.status === 401);
    t.is(wrong.length, keyServer.checks);
    t.true(wrong.length > 0);
    t.deepEqual(
      replies.filter((reply) => reply.status !== 401).map((reply) => reply.body.code),
      Array(GUESSES - wrong.length).fill('RATE_LIMITED'),
    );
    const after = await gw.call('POST', '/api/session', { body: { user: 'alice', password: PASSWORDS.alice } });
    t.is(after.status, 429, 'the right password waits as after five failures one by one');
  });

  declare(title('logins at once with the right password all get in, and leave nothing counted'), async (t) => {
    const { gw, keyServer } = await heldGateway(t, config() as GatewayConfigInput);
    keyServer.open();
    t.deepEqual(statuses(await atOnce(gw, keyServer, LIMIT, PASSWORDS.alice)), Array(LIMIT).fill(201));
    for (let i = 0; i < LIMIT - 1; i++) {
      t.is((await gw.call('POST', '/api/session', { body: { user: 'alice', password: 'not-the-password' } })).status, 401);
    }
    t.is((await gw.call('POST', '/api/session', { body: { user: 'alice', password: PASSWORDS.alice } })).status, 201, 'a success clears');
    for (let i = 0; i < LIMIT; i++) {
      t.is(
        (await gw.call('POST', '/api/session', { body: { user: 'alice', password: 'not-the-password' } })).status,
        401,
        `guess ${i + 1}`,
      );
    }
    t.is((await gw.call('POST', '/api/session', { body: { user: 'alice', password: 'not-the-password' } })).status, 429);
  });
}
