import { generateMasterKey, MasterKeyring } from '../../src/keyserver/at-rest/master-keys.js';

/** A keyring of one fresh master key that records the table of every value it opens ('principals', 'keys', 'settings'). */
export function openingKeyring(): { keyring: MasterKeyring; opened: string[] } {
  const keyring = new MasterKeyring([generateMasterKey()]);
  const opened: string[] = [];
  const open = keyring.open.bind(keyring);
  keyring.open = (keyId, sealed, context) => {
    opened.push(context.split(' ')[1]!);
    return open(keyId, sealed, context);
  };
  return { keyring, opened };
}
