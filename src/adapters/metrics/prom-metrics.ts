import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { Metrics, ProbeOutcome } from '../../ports/metrics.port.js';
import { BoundCounter, BoundHistogram, type BoundSeries } from './bound-metrics.js';

/** What the scrape-time gauges read: the replay cache's and the session store's sizes. */
export interface GaugeSources {
  replayCacheEntries(): Promise<number>;
  replayCacheCapacity: number;
  liveSessions(): Promise<number>;
}

const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The Metrics port on prom-client, in a registry of its own (an embedding service's default registry
 * is left alone). Labels are operation ids, statuses, error codes and method names only.
 */
export class PromMetrics implements Metrics {
  readonly registry = new Registry();
  readonly #requests: BoundCounter;
  readonly #requestSeconds: BoundHistogram;
  readonly #keyServerSeconds: BoundHistogram;
  readonly #keyServerErrors: Counter<'method' | 'code'>;
  readonly #auditSeconds: BoundHistogram;
  readonly #auditFailures: Counter<'kind'>;
  readonly #chainRegressions: Counter;
  readonly #probes: BoundCounter;
  /** A probe's two outcomes, bound once: every /health is counted (they are not audited, docs/spec.md §9.1). */
  readonly #probeOutcomes: Readonly<Record<ProbeOutcome, { inc(): void }>>;
  readonly #throttled: Counter;
  /**
   * Label sets bound once per value, so an observation hashes no label object. Bounded: operation ids,
   * statuses and port method names only.
   */
  readonly #counters = new Map<string, { inc(): void }>();
  readonly #histograms = new Map<string, BoundSeries>();

  constructor(sources: GaugeSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.#requests = new BoundCounter({
      name: 'keygate_http_requests_total',
      help: 'Requests answered, by operation id and status',
      labelNames: ['operation', 'status'],
      registers,
    });
    this.#requestSeconds = new BoundHistogram({
      name: 'keygate_http_request_duration_seconds',
      help: 'Request duration, by operation id',
      labelNames: ['operation'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#keyServerSeconds = new BoundHistogram({
      name: 'keygate_keyserver_call_duration_seconds',
      help: 'Key-server call duration, by port method and outcome',
      labelNames: ['method', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#keyServerErrors = new Counter({
      name: 'keygate_keyserver_call_errors_total',
      help: 'Key-server calls that failed, by port method and error code',
      labelNames: ['method', 'code'],
      registers,
    });
    this.#auditSeconds = new BoundHistogram({
      name: 'keygate_audit_write_duration_seconds',
      help: 'Audit store write duration (append, complete)',
      labelNames: ['kind', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#auditFailures = new Counter({
      name: 'keygate_audit_write_failures_total',
      help: 'Audit store writes that failed',
      labelNames: ['kind'],
      registers,
    });
    this.#chainRegressions = new Counter({
      name: 'keygate_audit_chain_regressions_total',
      help: 'Audit writes refused because the store held an older chain head than this gateway wrote',
      registers,
    });
    this.#probes = new BoundCounter({
      name: 'keygate_health_probes_total',
      help: 'Health probes answered, by outcome',
      labelNames: ['outcome'],
      registers,
    });
    this.#probeOutcomes = { ok: this.#probes.labels('ok'), not_ok: this.#probes.labels('not_ok') };
    this.#throttled = new Counter({ name: 'keygate_logins_throttled_total', help: 'Logins refused by throttling', registers });
    gauge(registers, 'keygate_replay_cache_entries', 'Live entries of the proof replay cache', sources.replayCacheEntries);
    gauge(registers, 'keygate_replay_cache_capacity', 'Bound of the proof replay cache', async () => sources.replayCacheCapacity);
    gauge(registers, 'keygate_sessions_live', 'Live gateway sessions', sources.liveSessions);
  }

  requestObserved(operation: string, status: number, seconds: number): void {
    const counted = `r ${operation} ${status}`;
    const timed = `d ${operation}`;
    (this.#counters.get(counted) ?? this.#keep(this.#counters, counted, this.#requests.labels(operation, String(status)))).inc();
    (this.#histograms.get(timed) ?? this.#keep(this.#histograms, timed, this.#requestSeconds.labels(operation))).observe(seconds);
  }

  keyServerCall(method: string, outcome: string, seconds: number): void {
    const ok = outcome === 'ok';
    const timed = `k ${method} ${ok}`;
    (
      this.#histograms.get(timed) ?? this.#keep(this.#histograms, timed, this.#keyServerSeconds.labels(method, ok ? 'ok' : 'error'))
    ).observe(seconds);
    if (!ok) this.#keyServerErrors.inc({ method, code: outcome });
  }

  auditWrite(kind: 'append' | 'complete', ok: boolean, seconds: number): void {
    const timed = `a ${kind} ${ok}`;
    (this.#histograms.get(timed) ?? this.#keep(this.#histograms, timed, this.#auditSeconds.labels(kind, ok ? 'ok' : 'error'))).observe(
      seconds,
    );
    if (!ok) this.#auditFailures.inc({ kind });
  }

  auditChainRegressed(): void {
    this.#chainRegressions.inc();
  }

  healthProbe(outcome: ProbeOutcome): void {
    this.#probeOutcomes[outcome].inc();
  }

  loginThrottled(): void {
    this.#throttled.inc();
  }

  #keep<T>(children: Map<string, T>, key: string, child: T): T {
    children.set(key, child);
    return child;
  }

  /** The Prometheus text exposition of every metric. */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }
}

/** A gauge read at scrape time; a source that fails reports -1 rather than failing the scrape. */
function gauge(registers: Registry[], name: string, help: string, read: () => Promise<number>): void {
  new Gauge({
    name,
    help,
    registers,
    async collect() {
      this.set(await read().catch(() => -1));
    },
  });
}
