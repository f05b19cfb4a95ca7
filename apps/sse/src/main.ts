import { runPlane } from '@palisade/platform';
import { buildSse } from './app';

void runPlane({ plane: 'sse', build: buildSse });
