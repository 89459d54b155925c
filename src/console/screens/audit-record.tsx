import type { AuditRecordView } from '../console-api.js';
import { Section } from '../ui.js';

/** The fields of a record in the order docs/spec.md §9.1 lists them; any other field the gateway adds follows. */
const FIELDS: readonly string[] = [
  'id',
  'at',
  'requestId',
  'principal',
  'sessionRef',
  'operation',
  'object',
  'outcome',
  'status',
  'code',
  'clientAddress',
  'actingFor',
  'alias',
  'version',
  'items',
  'failures',
  'keys',
  'keysOmitted',
];

/** One audit record, every field it carries (docs/spec.md §9.1), with the request id to quote and the client's address. */
export function AuditRecord({ record, onClose }: { record: AuditRecordView; onClose: () => void }) {
  const fields = record as unknown as Readonly<Record<string, unknown>>;
  const names = [...FIELDS.filter((name) => fields[name] !== undefined), ...Object.keys(fields).filter((name) => !FIELDS.includes(name))];
  return (
    <Section title={`Audit record ${record.operation}`} id="audit-record">
      <dl class="fields">
        {names.map((name) => (
          <>
            <dt key={`${name}-name`}>{name}</dt>
            <dd key={name} data-field={name} class="wrap">
              {shown(name, fields[name])}
            </dd>
          </>
        ))}
      </dl>
      <p>
        <button id="audit-record-close" type="button" onClick={onClose}>
          Close
        </button>
      </p>
    </Section>
  );
}

function shown(name: string, value: unknown): string {
  if (name === 'keys' && Array.isArray(value))
    return (value as { ttag: string; version?: number }[])
      .map((key) => (key.version === undefined ? key.ttag : `${key.ttag} v${key.version}`))
      .join(', ');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
