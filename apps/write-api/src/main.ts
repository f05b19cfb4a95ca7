import { runPlane } from '@palisade/platform';
import { buildWriteApi } from './app';

void runPlane({ plane: 'write', build: buildWriteApi });
