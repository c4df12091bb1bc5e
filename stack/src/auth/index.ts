import type { MountedService, ServiceContext } from '../service.ts';
import type { ProjectConfig } from '../project-config.ts';

// Placeholder until the GoTrue-compatible server lands (issue 2).
export async function createAuthService(_ctx: ServiceContext, _config: ProjectConfig['auth']): Promise<MountedService> {
  return {
    handle(_req, res) {
      res.writeHead(501, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ code: 'not_implemented', message: 'auth server not built yet' }));
    },
    async close() {},
  };
}
