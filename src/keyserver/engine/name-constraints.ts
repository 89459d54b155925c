import { AsnConvert } from '@peculiar/asn1-schema';
import {
  type GeneralName,
  type GeneralSubtree,
  id_ce_nameConstraints,
  id_ce_subjectAltName,
  NameConstraints,
  SubjectAlternativeName,
} from '@peculiar/asn1-x509';
import * as x509 from '@peculiar/x509';

/** The name forms whose constraints are checked; a constraint on any other form is only honoured by refusing. */
type CheckedForm = 'directoryName' | 'dNSName' | 'rfc822Name';
type Form = CheckedForm | Exclude<keyof GeneralName, CheckedForm>;
const CHECKED: readonly string[] = ['directoryName', 'dNSName', 'rfc822Name'] satisfies CheckedForm[];
const EMAIL_ADDRESS = '1.2.840.113549.1.9.1';

/** One name a certificate carries: its form and, for the checked forms, a comparable value. */
interface CertName {
  readonly form: Form;
  readonly value: string | readonly string[];
}

/**
 * Name constraints over the path, leaf first (RFC 5280 §4.2.1.10, §6.1.3(b)/(c), §6.1.4(g)/(h)): each
 * authority's permitted and excluded subtrees apply to every certificate below it (the intersection of
 * the permitted subtrees and the union of the excluded ones), except to a self-issued intermediate's
 * own names. Checked forms: directoryName (the subject and directoryName alternative names, by RDN
 * sequence prefix), rfc822Name (alternative names and the subject's emailAddress attributes) and
 * dNSName. A constraint on another form fails the path when a certificate below carries a name of
 * that form, as the RFC requires of a form that is not processed; so does a subtree with a minimum
 * other than 0 or a maximum (§4.2.1.10: "MUST be zero" and "MUST be absent").
 */
export function nameConstraintRefusal(path: readonly x509.X509Certificate[]): string | undefined {
  for (let index = 1; index < path.length; index += 1) {
    const extension = path[index]!.extensions.find((item) => item.type === id_ce_nameConstraints);
    if (extension === undefined) continue;
    const constraints = parseConstraints(extension.value);
    if (constraints === undefined) return 'an authority on the path has name constraints that cannot be read';
    for (let below = 0; below < index; below += 1) {
      const cert = path[below]!;
      if (below > 0 && isSelfIssued(cert)) continue;
      const names = namesOf(cert);
      const refusal = names === undefined ? 'carries alternative names that cannot be read' : namesRefusal(names, constraints);
      if (refusal !== undefined) return `${below === 0 ? 'the certificate' : 'an authority on the path'} ${refusal}`;
    }
  }
  return undefined;
}

interface Subtrees {
  readonly permitted: ReadonlyMap<Form, readonly GeneralName[]>;
  readonly excluded: ReadonlyMap<Form, readonly GeneralName[]>;
  readonly unsupported: boolean;
}

function parseConstraints(value: ArrayBuffer): Subtrees | undefined {
  let parsed: NameConstraints;
  try {
    parsed = AsnConvert.parse(value, NameConstraints);
  } catch {
    return undefined;
  }
  const all = [...(parsed.permittedSubtrees ?? []), ...(parsed.excludedSubtrees ?? [])];
  const unsupported = all.some((subtree) => subtree.minimum !== 0 || subtree.maximum !== undefined);
  return { permitted: byForm(parsed.permittedSubtrees ?? []), excluded: byForm(parsed.excludedSubtrees ?? []), unsupported };
}

function byForm(subtrees: Iterable<GeneralSubtree>): Map<Form, GeneralName[]> {
  const forms = new Map<Form, GeneralName[]>();
  for (const { base } of subtrees) forms.set(formOf(base), [...(forms.get(formOf(base)) ?? []), base]);
  return forms;
}

function namesRefusal(names: readonly CertName[], constraints: Subtrees): string | undefined {
  if (constraints.unsupported && names.length > 0) return 'falls under a name constraint with a minimum or maximum, which is not supported';
  for (const name of names) {
    const permitted = constraints.permitted.get(name.form);
    const excluded = constraints.excluded.get(name.form);
    if (!CHECKED.includes(name.form)) {
      if (permitted !== undefined || excluded !== undefined)
        return `carries a ${name.form} name under a constraint of that form, which is not processed`;
      continue;
    }
    if (excluded?.some((base) => matches(name, base)) === true)
      return `carries a ${name.form} name excluded by an authority's name constraints`;
    if (permitted !== undefined && !permitted.some((base) => matches(name, base))) {
      return `carries a ${name.form} name outside an authority's permitted subtrees (nameConstraints)`;
    }
  }
  return undefined;
}

/**
 * The subject (when not empty), its emailAddress attributes as rfc822Name, and every alternative
 * name; undefined when the alternative names cannot be read.
 */
function namesOf(cert: x509.X509Certificate): CertName[] | undefined {
  const subject = rdnSequence(cert.subjectName);
  const names: CertName[] = subject.length === 0 ? [] : [{ form: 'directoryName', value: subject }];
  for (const email of cert.subjectName.getField(EMAIL_ADDRESS)) names.push({ form: 'rfc822Name', value: email });
  const san = cert.extensions.find((item) => item.type === id_ce_subjectAltName);
  const alternatives = san === undefined ? [] : readAlternatives(san.value);
  if (alternatives === undefined) return undefined;
  for (const general of alternatives) names.push(nameOf(general));
  return names;
}

function readAlternatives(value: ArrayBuffer): GeneralName[] | undefined {
  try {
    return [...AsnConvert.parse(value, SubjectAlternativeName)];
  } catch {
    return undefined;
  }
}

function nameOf(general: GeneralName): CertName {
  const form = formOf(general);
  if (form === 'directoryName' && general.directoryName !== undefined)
    return { form, value: rdnSequence(new x509.Name(general.directoryName)) };
  if (form === 'dNSName') return { form, value: general.dNSName ?? '' };
  if (form === 'rfc822Name') return { form, value: general.rfc822Name ?? '' };
  return { form, value: '' };
}

function formOf(general: GeneralName): Form {
  const form = (Object.keys(general) as Form[]).find((key) => general[key] !== undefined);
  return form ?? 'otherName';
}

/** Each RDN as its attributes `type=value`, values compared case- and space-insensitively, sorted. */
function rdnSequence(name: x509.Name): string[] {
  return name.toJSON().map((rdn) =>
    Object.entries(rdn)
      .flatMap(([type, values]) => values.map((value) => `${type}=${value.trim().replace(/\s+/g, ' ').toLowerCase()}`))
      .sort()
      .join('+'),
  );
}

function matches(name: CertName, base: GeneralName): boolean {
  if (name.form === 'directoryName' && base.directoryName !== undefined) {
    const prefix = rdnSequence(new x509.Name(base.directoryName));
    const rdns = name.value as readonly string[];
    return prefix.length <= rdns.length && prefix.every((rdn, index) => rdns[index] === rdn);
  }
  if (name.form === 'dNSName' && base.dNSName !== undefined) return dnsWithin(String(name.value).toLowerCase(), base.dNSName.toLowerCase());
  if (name.form === 'rfc822Name' && base.rfc822Name !== undefined)
    return mailboxWithin(String(name.value).toLowerCase(), base.rfc822Name.toLowerCase());
  return false;
}

/** §4.2.1.10: a DNS name within `base` is `base` with zero or more labels added on the left; `.base` requires at least one. */
function dnsWithin(name: string, base: string): boolean {
  if (base === '') return true;
  if (base.startsWith('.')) return name.endsWith(base);
  return name === base || name.endsWith(`.${base}`);
}

/** §4.2.1.10: a mailbox, every mailbox on a host, or (leading period) every mailbox in a domain. */
function mailboxWithin(mailbox: string, base: string): boolean {
  if (base.includes('@')) return mailbox === base;
  const host = mailbox.slice(mailbox.lastIndexOf('@') + 1);
  return base.startsWith('.') ? host.endsWith(base) : host === base;
}

function isSelfIssued(cert: x509.X509Certificate): boolean {
  return cert.subjectName.toString() === cert.issuerName.toString();
}
