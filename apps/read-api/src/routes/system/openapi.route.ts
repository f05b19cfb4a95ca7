import { openApiContract } from '@palisade/contracts';
import { AppError } from '@palisade/domain';
import { defineHandler, openApiDocumentFor } from '@palisade/platform';

/** Served only where the operator enables it (OPENAPI_ENABLED); elsewhere the route does not exist. */
export const openApiRoute = ({ enabled, publicBaseUrl }: { enabled: boolean; publicBaseUrl: string }) => {
  const document = enabled ? openApiDocumentFor(publicBaseUrl) : undefined;
  return defineHandler(openApiContract, async () => {
    if (!document) throw new AppError('route_not_found', { message: 'The OpenAPI document is not enabled on this deployment.', hint: 'Set OPENAPI_ENABLED=true on the read plane.' });
    return { status: 200, body: document };
  });
};
