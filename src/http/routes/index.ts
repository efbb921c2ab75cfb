import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';
import { registerContentRoutes } from './content.ts';
import { registerHealthRoutes } from './health.ts';
import { registerImageRoutes } from './images.ts';
import { registerMcpRoutes } from './mcp.ts';
import { registerScreenshotRoutes } from './screenshot.ts';
import { registerUsageRoute } from './usage.ts';
import { accountPages } from '../account/plugin.ts';

export function registerRoutes(app: FastifyInstance, c: Container): void {
  registerHealthRoutes(app, c);
  registerUsageRoute(app, c);
  registerContentRoutes(app, c);
  registerScreenshotRoutes(app, c);
  registerImageRoutes(app, c);
  app.register(accountPages, { prefix: '/account', c });
  registerMcpRoutes(app, c);
}
