// Render process bootstrap when the bundle cannot be made: loads the TypeScript sources through tsx.
import { register } from 'tsx/esm/api';

register();
await import('./render-worker.ts');
