import { runPlane } from '@palisade/platform';
import { buildReadApi } from './app';

void runPlane({ plane: 'read', build: buildReadApi });
