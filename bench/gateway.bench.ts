import type { IncomingHttpHeaders } from 'node:http';
import { SystemClock } from '../src/adapters/clock/system-clock.js';
import { MemorySessionStore } from '../src/adapters/session-store/memory-session-store.js';
import { createGateway } from '../src/app/create-gateway.js';
import { ADMIN_PASSWORD, boundSession, DEPLOYED, deployedLogger, exportRequest, loginJob, signIn } from './deployed.js';
import { checksProof, proofCheckMicros, rawVerifyMicros, rawWrapMicros, startBareKoa, verifiesProof } from './floors.js';
import { liveSessionFigures } from './live-sessions.js';
import { type Job, type LoadClient, type Measured, medianRound, noFailures, ratioTo } from './load-client.js';
import { requiredWorkNote, workBudgetNote } from './required-work.js';
import { type Figure, pairedFigure, ratios, roundsNote, rps, serverMicros } from './table.js';
import { startUseCaseFloor } from './use-case-floor.js';

const LOGIN_IN_FLIGHT = 32;
/** The replay cache of the bench's gateway, and of the proof check measured in place beside it: room for every proof of the run. */
const REPLAY_CACHE_SIZE = 2_000_000;

/** The line under a row that says what its required work alone reaches on Koa, and how near the gateway is. */
function workNote(floor: { value: number; values: number[] }, gatewayRatio: number, measuredAgainst = 'bare Koa'): string {
  return (
    `the route's use case and required work alone on bare Koa (chained audit record, access line, metrics, headers; no routing, ` +
    `error shaping or body limit): ${floor.value.toFixed(2)} of ${measuredAgainst} (rounds ${ratios(floor.values)}); ` +
    `the gateway reaches ${(gatewayRatio / floor.value).toFixed(2)} of it`
  );
}

/**
 * The DPoP row's requests, unbound and bound (the same proofs), sent in alternated rounds to bare Koa
 * that does `check` with each proof and nothing else: what that work costs in place under this load,
 * with the larger request it comes in.
 */
async function proofInPlaceRuns(
  load: LoadClient,
  body: Record<string, unknown>,
  jobs: { readonly unbound: Job; readonly bound: Job },
  check: { readonly name: string; readonly before: (headers: IncomingHttpHeaders) => boolean | Promise<boolean> },
  value: (row: Measured, floor: Measured) => number,
) {
  const checking = await startBareKoa(body, check.before);
  try {
    const paired = await load.paired(
      { name: 'bare Koa, the unbound request', job: { ...jobs.unbound, url: checking.url } },
      { name: `bare Koa ${check.name}`, job: { ...jobs.bound, url: checking.url } },
      value,
      load.settings.noteRounds,
    );
    noFailures(paired.row);
    return paired;
  } finally {
    checking.close();
  }
}

/** A request of a row, as `LoadClient.paired` takes it. */
type NamedJob = { readonly name: string; readonly job: Job };

/** The same routes' use cases and required work on bare Koa (`startUseCaseFloor`): where Koa itself stops. */
async function useCaseFloors(load: LoadClient, koa: NamedJob, exportRatio: (row: Measured, floor: Measured) => number) {
  const useCases = await startUseCaseFloor();
  const workFloor = (row: string, job: Job, value = ratioTo) =>
    load.paired(koa, { name: `bare Koa doing only the work of ${row}`, job }, value, load.settings.noteRounds);
  try {
    const session = await workFloor('GET /api/session', useCases.session);
    const keys = await workFloor('POST /keys', useCases.keys);
    const exported = await workFloor('POST /keys/export', useCases.exported, exportRatio);
    noFailures(session.row, keys.row, exported.row);
    return { session, keys, exported };
  } finally {
    await useCases.close();
  }
}

/**
 * The DPoP-bound row: the bound request beside the same unbound one, the difference in server time per
 * request counted in raw ES256 verifications. Busy time of the server's thread per request, not
 * 1 / req/s: valid even when a run was not saturated. It is taken over the load itself: the generator
 * mints the bound run's proofs before it starts (`LoadClient.measure`). The notes: the proof check
 * timed in this process, one fresh proof after another (`proofCheckMicros`, no HTTP and no other
 * process around it), and bare Koa given the same two requests doing one verify, then the whole check.
 */
async function dpopFigure(
  load: LoadClient,
  given: { readonly koaBody: Record<string, unknown>; readonly htu: string; readonly verifyUs: number },
  unboundJob: NamedJob,
  boundJob: NamedJob,
  sessionId: string,
): Promise<Figure> {
  const { koaBody, htu, verifyUs } = given;
  const publicJwk = boundJob.job.proofs!.publicJwk;
  const inVerifies = (row: Measured, floor: Measured) => (serverMicros(row) - serverMicros(floor)) / verifyUs;
  const proved = await load.paired(unboundJob, boundJob, inVerifies);
  const proofJobs = { unbound: unboundJob.job, bound: boundJob.job };
  const verifyInPlace = await proofInPlaceRuns(
    load,
    koaBody,
    proofJobs,
    { name: "verifying each DPoP proof's signature", before: verifiesProof(publicJwk) },
    inVerifies,
  );
  const checkInPlace = await proofInPlaceRuns(
    load,
    koaBody,
    proofJobs,
    { name: 'checking each DPoP proof as the gateway does', before: checksProof(publicJwk, htu, sessionId, REPLAY_CACHE_SIZE) },
    inVerifies,
  );
  // Each check timing beside a raw verify timed right after it, three times; the median pair is shown.
  const checks: { checkUs: number; verifyUs: number }[] = [];
  for (let round = 0; round < 3; round++) checks.push({ checkUs: await proofCheckMicros(0.5), verifyUs: rawVerifyMicros(0.5) });
  const check = medianRound(checks.map((each) => ({ ...each, value: each.checkUs / each.verifyUs })));
  return {
    ...pairedFigure('DPoP-bound GET /api/session', proved, `one raw ES256 verify: ${verifyUs.toFixed(0)} us`, {
      op: '<=',
      target: 1.3,
      unit: ' verifies',
    }),
    measured: `bound - unbound = ${(proved.value * verifyUs).toFixed(0)} us/request`,
    note:
      `server time per request = event-loop busy time / requests, from the two runs; ${roundsNote(proved.values)}\n` +
      `    in this process, without HTTP: one proof check (parse, key cache, verify, bindings, iat, replay cache) ${check.checkUs.toFixed(0)} us beside a raw verify of ${check.verifyUs.toFixed(0)} us: ${check.value.toFixed(2)} verifies (median of 3)\n` +
      `    one verify in place: bare Koa given the same two requests, checking each proof's signature and nothing else, bound - unbound = ` +
      `${(verifyInPlace.value * verifyUs).toFixed(0)} us, ${verifyInPlace.value.toFixed(2)} verifies (rounds ${ratios(verifyInPlace.values)}); ` +
      `the gateway's difference is ${(proved.value / verifyInPlace.value).toFixed(2)}x it\n` +
      `    the proof check in place: bare Koa given the same two requests, doing the gateway's whole proof check (ProofChecker: parse, key cache, ` +
      `verify, bindings, iat, replay cache) and nothing else, bound - unbound = ${(checkInPlace.value * verifyUs).toFixed(0)} us, ` +
      `${checkInPlace.value.toFixed(2)} verifies (rounds ${ratios(checkInPlace.values)}); the gateway's difference is ${(proved.value / checkInPlace.value).toFixed(2)}x it`,
  };
}

/**
 * The rows served by one embedded gateway, each beside its floor: `/health`, the export, the
 * DPoP-bound session read, the login, `POST /keys`, the unbound session read, and `/health` with many
 * live sessions with the memory each takes.
 */
export async function figures(load: LoadClient): Promise<Figure[]> {
  const wrapUs = rawWrapMicros();
  const verifyUs = rawVerifyMicros();
  const store = new MemorySessionStore(new SystemClock());
  const gateway = await createGateway(
    // Every measured login mints one more session of admin beside the 20,000 the sessions row holds:
    // the per-principal cap (docs/spec.md §2.4 item 2) is lifted here so that it does not refuse them.
    {
      keyServer: { kind: 'embedded', adminPassword: ADMIN_PASSWORD },
      replayCacheSize: REPLAY_CACHE_SIZE,
      maxSessionsPerPrincipal: 100_000_000,
      ...DEPLOYED,
    },
    { logger: deployedLogger(), sessionStore: store },
  );
  const { url } = await gateway.listen(0, '127.0.0.1');
  const koaBody = { ok: true, ksFingerprint: gateway.ksFingerprint, sessions: 0 };
  const bare = await startBareKoa(koaBody);
  try {
    const session = await signIn(url);
    const { headers: xSession, body: exportBody, ttag } = await exportRequest(url, session);
    const htu = `${url}/api/session`;
    const bound = await boundSession(url, session, ttag, htu);

    // Each row is measured in alternated rounds beside its floor (`LoadClient.paired`): the shared machine drifts.
    const koa = { name: 'bare Koa GET / (the /health JSON)', job: { url: bare.url } };
    const health = await load.paired(koa, { name: 'GET /health', job: { url: `${url}/health` } }, ratioTo);
    const keys = await load.paired(koa, { name: 'POST /keys', job: { url: `${url}/keys`, method: 'POST', headers: xSession } }, ratioTo);
    const exportRatio = (row: Measured, floor: Measured) => row.requestsPerSecond * (1 / floor.requestsPerSecond + wrapUs / 1e6);
    const exported = await load.paired(
      koa,
      { name: 'POST /keys/export', job: { url: `${url}/keys/export`, method: 'POST', headers: xSession, body: exportBody } },
      exportRatio,
    );
    const unboundJob = { name: 'GET /api/session, unbound', job: { url: htu, headers: { Authorization: `Bearer ${session}` } } };
    const unbound = await load.paired(koa, unboundJob, ratioTo);
    const requiredWork = await requiredWorkNote(load, koa, unbound.value);
    const workBudget = await workBudgetNote(load, koa, koaBody);
    const work = await useCaseFloors(load, koa, exportRatio);
    const dpop = await dpopFigure(
      load,
      { koaBody, htu, verifyUs },
      unboundJob,
      {
        name: 'GET /api/session, DPoP-bound',
        job: { url: htu, headers: { Authorization: `Bearer ${bound.sessionId}` }, proofs: bound.proofs },
      },
      bound.sessionId,
    );
    const live = await liveSessionFigures(load, url, store, session);
    const login = await load.run('POST /login', {
      ...loginJob(url),
      connections: LOGIN_IN_FLIGHT,
      // A login takes tens of milliseconds: at 32 in flight a short run would end before the first answers.
      durationSeconds: Math.max(load.settings.seconds, 3),
    });

    const exportFloorRps = 1 / (1 / exported.floor.requestsPerSecond + wrapUs / 1e6);
    const rows: Figure[] = [
      pairedFigure('GET /health', health, `bare Koa, same JSON: ${rps(health.floor)}`, { op: '>=', target: 0.85 }),
      {
        ...pairedFigure('POST /keys/export', exported, `1/(1/Koa + raw wrap ${wrapUs.toFixed(0)} us): ${exportFloorRps.toFixed(0)} req/s`, {
          op: '>=',
          target: 0.75,
        }),
        note: `${roundsNote(exported.values)}\n    ${workNote(work.exported, exported.value, 'the same floor')}`,
      },
      dpop,
      {
        figure: 'POST /login, 32 in flight, embedded',
        measured: `${login.requestsPerSecond.toFixed(0)} logins/s`,
        floor: 'Vault userpass publishes ~128/s',
        value: login.requestsPerSecond,
        goal: { op: '>=', target: 500, unit: '/s' },
        runs: [login],
      },
      {
        ...pairedFigure('POST /keys', keys, `bare Koa: ${rps(keys.floor)}`, { op: '>=', target: 0.5 }),
        note: `${roundsNote(keys.values)}\n    ${workNote(work.keys, keys.value)}`,
      },
      {
        ...pairedFigure('unbound GET /api/session', unbound, `bare Koa: ${rps(unbound.floor)}`, { op: '>=', target: 0.6 }),
        note: `${roundsNote(unbound.values)}\n    ${workNote(work.session, unbound.value)}\n    ${requiredWork}\n    ${workBudget}`,
      },
    ];
    return [...rows, ...live];
  } finally {
    bare.close();
    await gateway.close();
  }
}
