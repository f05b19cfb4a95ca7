import { runPlane } from '@palisade/platform';
import { buildCallbackApi } from './app';

void runPlane({ plane: 'callback', build: buildCallbackApi });
