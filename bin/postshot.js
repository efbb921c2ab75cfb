#!/usr/bin/env node
// The package runs its TypeScript sources through tsx: no build step between a clone and a server.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
