import type { MountedService, ServiceContext } from '../service.ts';
import type { ProjectConfig } from '../project-config.ts';

// Placeholder until the Storage server lands (issue 3).
export async function createStorageService(_ctx: ServiceContext, _config: ProjectConfig['storage']): Promise<MountedService> {
  return {
    handle(_req, res) {
      res.writeHead(501, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ statusCode: '501', error: 'not_implemented', message: 'storage server not built yet' }));
    },
    async close() {},
  };
}
