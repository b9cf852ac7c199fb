// `npm run check`: the quick inner loop (typecheck, lint, format, unit tests), about a minute.
import { ensureDependencies } from './ensure-deps.mjs';
import { quickSteps, runSteps } from './steps.mjs';

ensureDependencies();
runSteps(quickSteps);
