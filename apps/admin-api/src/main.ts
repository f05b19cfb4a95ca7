import { runPlane } from '@palisade/platform';
import { buildAdminApi } from './app';

void runPlane({ plane: 'admin', build: buildAdminApi });
