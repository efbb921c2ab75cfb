// Worker bootstrap: workers do not inherit the main thread's TypeScript loader.
import { register } from 'tsx/esm/api';

register();
await import('./render-worker.ts');
