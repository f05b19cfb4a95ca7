import { listSigningKeysContract } from '@palisade/contracts';
import { defineHandler } from '@palisade/platform';
import { toKeyInfo, type TSigningKeyRotation } from '../../services/signing-key-rotation.service';

export const listSigningKeysRoute = ({ rotation }: { rotation: Pick<TSigningKeyRotation, 'list'> }) =>
  defineHandler(listSigningKeysContract, async () => ({ status: 200, body: { items: (await rotation.list()).map(toKeyInfo) } }));
