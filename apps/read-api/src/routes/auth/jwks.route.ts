import { jwksContract } from '@palisade/contracts';
import { defineHandler, type TSigningKeyService } from '@palisade/platform';

export const jwksRoute = ({ signingKeys }: { signingKeys: Pick<TSigningKeyService, 'jwks'> }) =>
  defineHandler(jwksContract, async () => ({
    status: 200,
    // Short, so a rotation is seen quickly by verifiers that cache.
    headers: { 'Cache-Control': 'public, max-age=60' },
    body: await signingKeys.jwks(),
  }));
