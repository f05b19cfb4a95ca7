import { rotateSigningKeyContract } from '@palisade/contracts';
import { defineHandler } from '@palisade/platform';
import { toKeyInfo, type TSigningKeyRotation } from '../../services/signing-key-rotation.service';

export const rotateSigningKeyRoute = ({ rotation }: { rotation: Pick<TSigningKeyRotation, 'rotate'> }) =>
  defineHandler(rotateSigningKeyContract, async (_input, ctx) => {
    const result = await rotation.rotate({ id: ctx.principal!.id, correlationId: ctx.correlationId });
    return { status: 201, body: { active: toKeyInfo(result.active), retiring: result.retiring.map(toKeyInfo) } };
  });
