import { useEffect, useState } from 'preact/hooks';
import type { AuditBreakView, AuditQueryRequest, AuditRecordView, AuditVerification, ConsoleApi, ListView } from '../console-api.js';
import { isConsoleRead } from '../console-reads.js';
import { inputText, Pager, Section, Submit, Table, TaskState, usePages, useTask, when } from '../ui.js';
import { AuditRecord } from './audit-record.js';
import { AuditTimeline } from './audit-timeline.js';

type Filters = Pick<AuditQueryRequest, 'principal' | 'operation' | 'outcome' | 'from' | 'to'>;

const PAGE = 50;

/**
 * The audit log: a filtered table, newest first, a page at a time; its timeline; a record's detail;
 * and verify. The console's own reads (console-reads.ts) are left out of the table and the timeline
 * unless the operator asks for them: drawing these screens reads, and each read is a record.
 */
export function Audit({ api }: { api: ConsoleApi }) {
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState<ListView<AuditRecordView> | undefined>(undefined);
  const [withOwnReads, setWithOwnReads] = useState(false);
  const [open, setOpen] = useState<AuditRecordView | undefined>(undefined);
  const task = useTask();
  const load = (cursor?: string) =>
    task.run(async () => setPage(await api.audit({ ...withoutBlanks(filters), limit: PAGE, ...(cursor === undefined ? {} : { cursor }) })));
  const pages = usePages(load);
  useEffect(() => void load(), []);
  const search = (event: Event) => {
    event.preventDefault();
    pages.reset();
    void load();
  };
  const field = (name: keyof Filters) => ({
    value: filters[name] ?? '',
    onInput: (e: Event) => setFilters({ ...filters, [name]: inputText(e) }),
  });
  return (
    <>
      <Verify api={api} />
      <Section title="Audit log" id="audit">
        <form onSubmit={search} class="filters">
          <label>
            Principal <input id="audit-principal" {...field('principal')} />
          </label>
          <label>
            Operation <input id="audit-operation" placeholder="keys.create" {...field('operation')} />
          </label>
          <label>
            Outcome{' '}
            <select
              id="audit-outcome"
              value={filters.outcome ?? ''}
              onChange={(e) => setFilters({ ...filters, outcome: (inputText(e) || undefined) as Filters['outcome'] })}
            >
              <option value="">any</option>
              <option value="ok">ok</option>
              <option value="denied">denied</option>
              <option value="error">error</option>
              <option value="pending">pending</option>
            </select>
          </label>
          <label>
            From <input placeholder="2026-01-01T00:00:00Z" {...field('from')} />
          </label>
          <label>
            To <input placeholder="2026-12-31T00:00:00Z" {...field('to')} />
          </label>
          <Submit task={task} id="audit-search">
            Search
          </Submit>
        </form>
        <label class="check">
          <input
            id="audit-own-reads"
            type="checkbox"
            checked={withOwnReads}
            onChange={(e) => setWithOwnReads((e.currentTarget as HTMLInputElement).checked)}
          />{' '}
          Show this console's own reads
        </label>
        <TaskState task={task} what="Reading the audit log" />
        {page === undefined ? null : <Shown records={page.items} withOwnReads={withOwnReads} onOpen={setOpen} />}
        <p class="pager">
          {pages.hasPrevious ? (
            <button type="button" onClick={pages.back}>
              Newer
            </button>
          ) : null}
        </p>
        <Pager next={page?.next} reason={page?.reason} onNext={pages.forward} />
      </Section>
      {open === undefined ? null : <AuditRecord key={open.id} record={open} onClose={() => setOpen(undefined)} />}
    </>
  );
}

/** A page's records, the console's own reads left out unless asked for (and counted when they are). */
function Shown({
  records,
  withOwnReads,
  onOpen,
}: {
  records: readonly AuditRecordView[];
  withOwnReads: boolean;
  onOpen: (record: AuditRecordView) => void;
}) {
  const shown = withOwnReads ? records : records.filter((record) => !isConsoleRead(record.requestId));
  const hidden = records.length - shown.length;
  return (
    <>
      {hidden === 0 ? null : (
        <p class="muted" id="audit-hidden" data-count={hidden}>
          {hidden} of this page's records are this console's own reads, not shown.
        </p>
      )}
      <AuditTimeline records={shown} />
      <AuditTable records={shown} onOpen={onOpen} />
    </>
  );
}

function withoutBlanks(filters: Filters): Filters {
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined && value.trim() !== '')) as Filters;
}

/** The records, one row each; a record's time opens its detail. */
function AuditTable({ records, onOpen }: { records: readonly AuditRecordView[]; onOpen: (record: AuditRecordView) => void }) {
  if (records.length === 0) return <p class="muted">No record matches.</p>;
  return (
    <Table id="audit-rows" columns={['at', 'operation', 'outcome', 'status', 'principal', 'object', 'code']}>
      {records.map((record) => (
        <tr
          key={record.id}
          data-id={record.id}
          data-request-id={record.requestId}
          data-operation={record.operation}
          data-outcome={record.outcome}
          class={isConsoleRead(record.requestId) ? 'own-read' : undefined}
        >
          <td>
            <button type="button" class="link" onClick={() => onOpen(record)} title="Show every field of this record">
              {when(record.at)}
            </button>
          </td>
          <td>{record.operation}</td>
          <td class={`outcome-${record.outcome}`}>{record.outcome}</td>
          <td>{record.status}</td>
          <td>{record.principal ?? ''}</td>
          <td class="wrap">{record.object ?? ''}</td>
          <td>{record.code ?? ''}</td>
        </tr>
      ))}
    </Table>
  );
}

/** "Verify the log": GET /api/audit/verify, its answer in words. */
function Verify({ api }: { api: ConsoleApi }) {
  const [result, setResult] = useState<AuditVerification | undefined>(undefined);
  const [runs, setRuns] = useState(0);
  const task = useTask();
  const verify = () =>
    task.run(async () => {
      setResult(undefined);
      setResult(await api.verifyAudit());
      setRuns((n) => n + 1);
    });
  return (
    <Section title="Integrity" id="verify">
      <p>
        <button id="verify-button" type="button" onClick={verify} disabled={task.busy}>
          Verify the log
        </button>
      </p>
      <TaskState task={task} what="Verifying the chains and checkpoints" />
      {result === undefined ? null : <Verdict result={result} run={runs} />}
    </Section>
  );
}

function Verdict({ result, run }: { result: AuditVerification; run: number }) {
  const broken = result.firstBreak;
  return (
    <div id="verdict" data-run={run} data-ok={String(result.ok)} data-break={broken?.kind ?? ''}>
      {broken === undefined ? (
        <p class="ok">Clean: {result.checked} entries checked, every chain and checkpoint holds.</p>
      ) : (
        <p class="error">
          <strong>Broken: {broken.kind}</strong> at entry {broken.seq} of writer {broken.writer}
          {broken.id === undefined ? '' : ` (record ${broken.id})`}: {broken.detail}. {result.checked} entries checked.
        </p>
      )}
      {result.breaks.length === 0 ? null : <Breaks breaks={result.breaks} />}
      <Table columns={['writer', 'entries', 'last entry', 'last checkpoint', 'breaks']}>
        {result.writers.map((writer) => (
          <tr key={writer.writer}>
            <td>{writer.writer}</td>
            <td>{writer.entries}</td>
            <td>{writer.lastSeq}</td>
            <td>{writer.lastCheckpoint ?? 'none yet'}</td>
            <td>{writer.unlisted > 0 ? `${writer.breaks} (${writer.unlisted} not listed)` : writer.breaks}</td>
          </tr>
        ))}
      </Table>
    </div>
  );
}

/** Every listed break, one row each (docs/spec.md §9.5: at most 100 per writer). */
function Breaks({ breaks }: { breaks: readonly AuditBreakView[] }) {
  return (
    <Table id="verdict-breaks" columns={['writer', 'entry', 'kind', 'record', 'what was found']}>
      {breaks.map((found, index) => (
        <tr key={index} data-writer={found.writer} data-seq={found.seq} data-kind={found.kind}>
          <td>{found.writer}</td>
          <td>{found.seq}</td>
          <td>{found.kind}</td>
          <td>{found.id ?? ''}</td>
          <td class="wrap">{found.detail}</td>
        </tr>
      ))}
    </Table>
  );
}
