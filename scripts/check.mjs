// `npm run check`: the quick inner loop (typecheck, lint, format, unit tests, side by side), about two minutes on 2 cores (lint the longest).
import { ensureDependencies } from './ensure-deps.mjs';
import { quickTogether, runSteps } from './steps.mjs';

ensureDependencies();
await runSteps([quickTogether()]);
